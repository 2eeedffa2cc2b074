"""Is it Mah Jongg, on which line, and may this group be exposed? (docs/rules.md §5, §8, P5-P8, M1-M2)

A rack is given as concealed tiles plus exposures, each exposure a group as it lies on the rack with its
jokers (on the 1946 card, wild flowers). Tiles are kinds from :mod:`bot.engine.tiles`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .card import Card
from .errors import TileError
from .index import bits
from .line import Line, Variant
from .notation import check_available, counts_of
from .pattern import Group
from .tiles import NUM_KINDS, Tile, TileSet, code, name

GROUP_NAMES = {1: "single", 2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet", 7: "septet"}


def group_name(size: int) -> str:
    """What players call a group of ``size`` identical tiles: pair, pung, kong, quint..."""
    return GROUP_NAMES.get(size, f"group of {size}")


def exposure_group(tiles: Sequence[Tile], wild: Tile | None) -> Group:
    """The (tile, size) an exposure stands for; raises if it is not one tile repeated, wilds allowed."""
    naturals = {t for t in tiles if t != wild}
    shown = " ".join(code(t) for t in tiles)
    if len(naturals) > 1:
        raise TileError(f'The exposure "{shown}" mixes different tiles: an exposure is one tile repeated '
                        "(jokers may stand in).")
    if not naturals:
        raise TileError(f'The exposure "{shown}" has no natural tile: an exposure always shows the tile it is.')
    if len(tiles) < 3:
        raise TileError(f'The exposure "{shown}" has {len(tiles)} tile(s): exposures are pungs or larger.')
    return naturals.pop(), len(tiles)


def check_rack_size(count: int, allowed: tuple[int, ...]) -> None:
    """Raise unless a rack counting its exposures holds one of the ``allowed`` numbers of tiles."""
    if count not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise TileError(f"A rack here has {want} tiles counting exposures; you gave {count}.")


@dataclass(frozen=True, slots=True)
class Match:
    """A card line the 14 tiles make, with the tiles laid out group by group."""

    line: Line
    variant: Variant
    arrangement: tuple[tuple[Tile, ...], ...]
    jokerless: bool

    @property
    def exposed(self) -> bool:
        """Whether the line is an exposed (X) one."""
        return self.line.exposed

    @property
    def singles_and_pairs(self) -> bool:
        """Whether the line is a Singles & Pairs one."""
        return self.line.singles_and_pairs

    @property
    def pays_jokerless(self) -> bool:
        """SC3: the jokerless bonus, never for Singles & Pairs."""
        return self.jokerless and not self.line.singles_and_pairs

    def describe(self) -> str:
        """The hand as tile codes, group by group."""
        return "  ".join(" ".join(code(t) for t in group) for group in self.arrangement)


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Every line a rack makes (none: it is not Mah Jongg)."""

    matches: tuple[Match, ...]

    @property
    def mahjong(self) -> bool:
        """Whether the rack makes any line."""
        return bool(self.matches)

    @property
    def best(self) -> Match | None:
        """The match that pays most: highest value, jokerless bonus counted; card order breaks ties."""
        if not self.matches:
            return None
        return max(self.matches, key=lambda m: (m.line.value * (2 if m.pays_jokerless else 1), -m.line.index))


def check(card: Card, concealed: Sequence[Tile], exposures: Sequence[Sequence[Tile]] = (),
          tile_set: TileSet | None = None) -> CheckResult:
    """Every line of ``card`` that the concealed tiles and exposures make together (M2). ``tile_set``
    is the table's set when it differs from the card's (blanks added)."""
    wild = card.wild
    groups = [exposure_group(e, wild) for e in exposures]
    everything = [*concealed, *(t for e in exposures for t in e)]
    check_rack_size(len(everything), (14,))
    check_available(everything, tile_set or card.tile_set)
    naturals = counts_of(everything)
    jokers = 0
    if wild is not None:
        jokers, naturals[wild] = naturals[wild], 0
    index = card.index
    mask = index.candidates(naturals)
    if groups and mask:
        mask &= index.holding(groups)
    matches: list[Match] = []
    seen_lines: set[int] = set()
    for n in bits(mask):
        variant = index.variants[n]
        if variant.line in seen_lines:
            continue
        arrangement = arrange(variant, concealed, exposures, groups, wild)
        if arrangement is not None:
            seen_lines.add(variant.line)
            matches.append(Match(card.lines[variant.line], variant, arrangement, jokers == 0))
    return CheckResult(tuple(matches))


def may_be_mahjong(card: Card, concealed: Sequence[Tile], exposures: Sequence[Sequence[Tile]] = ()) -> bool:
    """A quick test that lets through every rack :func:`check` would accept (and a few it would not): some
    variant admits exactly these naturals and holds these exposures. For tiles the engine itself holds, so
    unchecked; the game asks it before every full check of a rack that may call or declare."""
    wild = card.wild
    naturals = counts_of([*concealed, *(t for e in exposures for t in e)])
    if wild is not None:
        naturals[wild] = 0
    mask = card.index.candidates(naturals)
    if mask and exposures:
        mask &= card.index.holding(exposure_group(e, wild) for e in exposures)
    return bool(mask)


def arrange(variant: Variant, concealed: Sequence[Tile], exposures: Sequence[Sequence[Tile]],
            groups: Sequence[Group], wild: Tile | None) -> tuple[tuple[Tile, ...], ...] | None:
    """Lay the tiles out on the variant's groups, or None if they do not fit it exactly."""
    open_groups = Counter(variant.groups)
    open_groups.subtract(groups)
    if any(n < 0 for n in open_groups.values()):
        return None
    have = counts_of(concealed)
    wilds = have[wild] if wild is not None else 0
    if wild is not None:
        have[wild] = 0
    remaining_need = [0] * NUM_KINDS
    for (tile, size), n in open_groups.items():
        remaining_need[tile] += size * n
    for kind in range(NUM_KINDS):
        if not variant.small[kind] <= have[kind] <= remaining_need[kind]:
            return None
    if sum(remaining_need) - sum(have) != wilds:
        return None
    laid: dict[Group, list[tuple[Tile, ...]]] = {}
    exposed_left = list(zip(groups, exposures, strict=True))
    # Singles and pairs take naturals first; what is left of a kind goes to its big groups, then wilds.
    for tile, size in sorted(open_groups.elements(), key=lambda g: g[1]):
        take = min(size, have[tile])
        have[tile] -= take
        filler = size - take
        wilds -= filler
        laid.setdefault((tile, size), []).append((tile,) * take + ((wild,) * filler if wild is not None else ()))
    for group, tiles in exposed_left:
        laid.setdefault(group, []).append(tuple(tiles))
    assert wilds == 0
    return tuple(laid[g].pop() for g in variant.groups)


@dataclass(frozen=True, slots=True)
class ExposureVerdict:
    """Whether a group may be exposed, why not, and the X lines that could hold it."""

    legal: bool
    reason: str  # why not, in words for the player; "" when legal
    lines: tuple[Line, ...]  # the X lines that can hold all the exposures


def exposure_verdict(card: Card, group: Sequence[Tile], existing: Sequence[Sequence[Tile]] = (), *,
                     min_size: int = 3) -> ExposureVerdict:
    """May ``group`` be exposed next to ``existing`` exposures? (P5, P8; the N7 idea: some X line must hold
    every exposure on a group of its own.)"""
    wild = card.wild
    try:
        tile, size = exposure_group(group, wild)
    except TileError as exc:
        if len(group) < 3 and {t for t in group if t != wild}:
            natural = next(t for t in group if t != wild)
            return ExposureVerdict(False, f"You can't call {name(natural)} for a {group_name(len(group))} "
                                   "unless it completes Mah Jongg.", ())
        return ExposureVerdict(False, str(exc), ())
    if size < min_size:
        allowed = "a kong or larger" if min_size == 4 else "a pung or larger"
        return ExposureVerdict(False, f"You can't expose a {group_name(size)} of {name(tile)}: these rules "
                               f"allow only {allowed}, unless it completes Mah Jongg.", ())
    previous = [exposure_group(e, wild) for e in existing]
    mask = card.index.holding([*previous, (tile, size)])
    if not mask:
        what = f"a {group_name(size)} of {name(tile)}"
        if previous:
            others = ", ".join(f"a {group_name(s)} of {name(t)}" for t, s in previous)
            reason = f"No exposed (X) line on the {card.name} holds {what} together with {others}."
        else:
            reason = f"No exposed (X) line on the {card.name} has {what}."
        return ExposureVerdict(False, reason, ())
    index = card.index
    line_numbers = sorted({index.variants[n].line for n in bits(mask)})
    return ExposureVerdict(True, "", tuple(card.lines[n] for n in line_numbers))
