"""``charleston card check|analyze --card classical``: the classical game has no card lines, so a rack is
checked as four sets and a pair and analysed as its closest set structure (docs/rules.md §9)."""

from __future__ import annotations

from typing import Any

from bot.cli.common import UsageProblem, plural, print_json
from bot.engine.classical import LINE, SECTION
from bot.engine.errors import TileError
from bot.engine.notation import check_available, format_tiles
from bot.engine.rules import table_rules
from bot.engine.sets import arrange, is_complete, shanten, structure
from bot.engine.tiles import CLASSICAL, KINDS, Tile, is_number, suit_of
from bot.service.hints import describe


def _checked(concealed: list[Tile], exposures: list[list[Tile]]) -> None:
    """Refuse tiles the classical set lacks, too many of a tile, exposures that are not sets, a wrong count."""
    try:
        check_available([*concealed, *(t for e in exposures for t in e)], CLASSICAL)
    except TileError as exc:
        raise UsageProblem(str(exc)) from None
    for group in exposures:
        run = sorted(group)
        chow = len(run) == 3 and all(is_number(t) and suit_of(t) == suit_of(run[0]) for t in run) and \
            run[1] == run[0] + 1 and run[2] == run[1] + 1
        if not chow and not (len(group) in (3, 4) and len(set(group)) == 1):
            raise UsageProblem(f'"{format_tiles(group)}" is not a set: an exposure is a chow, a pung or a kong')
    wanted = 3 * (4 - len(exposures))
    if len(concealed) not in (wanted + 1, wanted + 2):
        raise UsageProblem(f"with {plural(len(exposures), 'exposed set')} a rack holds {wanted + 1} or {wanted + 2} "
                           f"concealed tiles; you gave {len(concealed)}")


def run_check(concealed: list[Tile], exposures: list[list[Tile]], as_json: bool) -> int:
    """Is it four sets and a pair?"""
    _checked(concealed, exposures)
    groups = arrange(concealed, exposures) if is_complete(concealed, len(exposures)) else None
    if as_json:
        matches = [] if groups is None else [{"hand": LINE, "section": SECTION, "value": table_rules("classical").base,
                                              "exposed": bool(exposures), "jokerless": False}]
        print_json({"mahjong": groups is not None, "matches": matches})
        return 0
    if groups is None:
        print("Not a Mah Jongg: four sets and a pair are needed. Try 'charleston card analyze' for the closest.")
        return 0
    print(f"Mah Jongg: {SECTION}")
    print("  " + "  ".join(format_tiles(g) for g in groups))
    return 0


def run_analyze(concealed: list[Tile], exposures: list[list[Tile]], as_json: bool) -> int:
    """How far from four sets and a pair, read how, and which tiles would help."""
    _checked(concealed, exposures)
    exposed = len(exposures)
    now = shanten(concealed, exposed)
    helps = [t for t in KINDS[: Tile.WD + 1] if now >= 0 and len(concealed) % 3 == 1
             and concealed.count(t) < 4 and shanten([*concealed, t], exposed) < now]
    read = structure(concealed, exposed)
    result: dict[str, Any] = {"hand": LINE, "section": SECTION, "value": table_rules("classical").base,
                              "missing": now + 1, "need": format_tiles(helps).split(), "possible": True}
    if as_json:
        print_json({"hands": [result]})
        return 0
    print(f"{SECTION}: {plural(now + 1, 'tile')} from Mah Jongg")
    print(f"  {describe(read, tuple(tuple(e) for e in exposures))}")
    if helps:
        print(f"  any of these helps: {format_tiles(helps)}")
    return 0
