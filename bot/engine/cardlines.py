"""One ``[[hand]]`` of a card file from its pattern to its variants (docs/card-format.md): the patterns and their
alternatives, the shift, every concrete variant the tile set can make, and the warnings a line deserves.

Problems and warnings are handed to the card's compiler (:mod:`bot.engine.cardfile`), which knows the file's
lines; each names the key or the pattern alternative at fault and points at the tutorial section that shows how
to write it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .line import Variant
from .pattern import (
    Group,
    Symbolic,
    binding_count,
    expand,
    letter_bindings,
    number_range,
    parse_pattern,
    wind_choices,
)
from .tiles import Tile, TileSet, name

HELP = "docs/card-format.md"
_NINETEEN = ("19",)  # a four-digit number that looks like a year without its soap (1946): a shift would move it


def see(topic: str) -> str:
    """The pointer to a tutorial section that ends a problem: `` (see docs/card-format.md#years)``."""
    return f" (see {HELP}#{topic})"


class Owner(Protocol):
    """The card compiler a line reports to."""

    warnings: list[str]

    def add(self, problem: str) -> None:
        """Record a problem."""

    def hand_message(self, index: int, hand_id: str, message: str, *, key: str = "", alternative: int = 0,
                     position: int = 0, token: str = "") -> str:
        """A message about this hand, with its file line."""


Parsed = list[tuple[int, list[Symbolic]]]  # (alternative number from 1, its groups) of every readable alternative


class LineCompiler:
    """Patterns, shifts, variants and warnings of one hand, reported to its card's compiler."""

    def __init__(self, owner: Owner, index: int, hand_id: str, tile_set: TileSet, *, shifted: bool) -> None:
        self.owner = owner
        self.index = index
        self.hand_id = hand_id
        self.tile_set = tile_set
        self.shifted = shifted
        self.many = False  # whether the pattern is a list (alternatives are then named by number)

    def problem(self, message: str, *, key: str = "pattern", alternative: int = 0, position: int = 0,
                token: str = "") -> None:
        """Report a problem of this hand."""
        prefix = f"alternative {alternative}: " if alternative and self.many else ""
        self.owner.add(self.owner.hand_message(self.index, self.hand_id, prefix + message, key=key,
                                               alternative=alternative, position=position, token=token))

    def warning(self, message: str, *, key: str = "pattern", alternative: int = 0, position: int = 0,
                token: str = "") -> None:
        """Record a warning about this hand: the card still loads."""
        prefix = f"alternative {alternative}: " if alternative and self.many else ""
        self.owner.warnings.append(self.owner.hand_message(self.index, self.hand_id, "warning: " + prefix + message,
                                                           key=key, alternative=alternative, position=position,
                                                           token=token))

    # -- patterns ------------------------------------------------------------------------------------
    def patterns(self, raw: Any, *, unreadable: bool) -> list[str]:
        """The pattern's alternatives as written (no fixed cap: the card's expansion limit bounds the work)."""
        if isinstance(raw, str):
            return [raw]
        if isinstance(raw, list) and raw and all(isinstance(p, str) for p in raw):
            self.many = True
            return list(raw)
        if raw is None:
            if not unreadable:
                self.problem('missing `pattern`: the line\'s tiles, such as pattern = "NN 2222a 4a 666b 8888b"'
                             + see("from-a-printed-line-to-its-hand"))
            return []
        self.problem('`pattern` must be text in double quotes, or a list of them for a line printed with "or": '
                     'pattern = ["...", "..."]' + see("typing-toml"))
        return []

    def parse(self, patterns: list[str], *, singles_and_pairs: bool) -> Parsed:
        """Every alternative's groups; each problem is reported on the alternative's own line."""
        parsed: Parsed = []
        for alt, text in enumerate(patterns, start=1):
            groups, problems = parse_pattern(text)
            for p in problems:
                self.problem(p.message + see(p.topic), alternative=alt, position=p.position, token=p.token)
            if problems:
                continue
            ok = True
            for g in groups:
                if g.kind == "fixed" and g.value == Tile.F and self.tile_set.wild == Tile.F:
                    self.problem("flowers are the wild tiles on this card, so F cannot be part of a pattern"
                                 + see("the-card-table"),
                                 alternative=alt, position=g.position, token=g.token)
                    ok = False
                if singles_and_pairs and g.size >= 3:
                    self.problem("a Singles & Pairs line has only singles and pairs" + see("singles-and-pairs"),
                                 alternative=alt, position=g.position, token=g.token)
                    ok = False
            if ok:
                parsed.append((alt, groups))
        return parsed

    # -- shifts --------------------------------------------------------------------------------------
    def shifts(self, raw: Any, parsed: Parsed, *, unreadable: bool) -> list[list[int]] | None:
        """The offsets allowed for each readable alternative, or None when the shift itself is wrong."""
        if unreadable:
            return None
        if raw is None:
            return [[0] for _ in parsed]
        offsets = sorted(set(raw)) if isinstance(raw, list) and raw and all(
            isinstance(s, int) and not isinstance(s, bool) for s in raw) else None
        if raw != "any" and offsets is None:
            self.problem("`shift` must be \"any\" or a list of whole numbers such as [0, 2, 4]"
                         + see("like-numbers"), key="shift")
            return None
        result: list[list[int]] = []
        wrong = False
        for alt, groups in parsed:
            span = number_range(groups)
            if span is None:
                if any(g.year for g in groups):
                    self.problem("`shift` is set, but the only numbers of the line are a year's, and a shift "
                                 "never moves a year: remove the shift" + see("years"), key="shift",
                                 alternative=alt)
                else:
                    self.problem("`shift` is set but the line has no numbers to shift" + see("like-numbers"),
                                 key="shift", alternative=alt)
                return None
            low, high = span
            if offsets is None:
                result.append(list(range(1 - low, 10 - high)))
                continue
            for offset in offsets:
                if not (low + offset >= 1 and high + offset <= 9):
                    wrong = True
                    self.problem(f"shift {offset} moves the numbers to {low + offset}-{high + offset}, outside "
                                 "1-9" + see("consecutive-runs"), key="shift", alternative=alt)
            result.append(offsets)
        return None if wrong else result

    # -- variants ------------------------------------------------------------------------------------
    @staticmethod
    def expansions(parsed: Parsed, shifts: list[list[int]]) -> int:
        """How many (shift, suit binding, wind) combinations the variants take to list."""
        return sum(len(offsets) * binding_count(groups) for (_, groups), offsets in zip(parsed, shifts, strict=True))

    def variants(self, parsed: Parsed, shifts: list[list[int]]) -> tuple[Variant, ...]:
        """Every distinct variant the tile set can make; a line with none is a problem naming why."""
        unique: dict[tuple[Group, ...], Variant] = {}
        reason = ""
        for (alt, groups), offsets in zip(parsed, shifts, strict=True):
            winds = wind_choices(groups)
            for offset in offsets:
                for binding in letter_bindings(groups):
                    for wind in winds:
                        concrete = expand(groups, offset, binding, wind)
                        key = tuple(sorted(concrete))
                        if key in unique:
                            continue
                        variant = Variant.from_groups(self.index, concrete)
                        why = impossible_reason(variant, self.tile_set, groups)
                        if not why:
                            unique[key] = variant
                        elif not reason:
                            reason = (f"alternative {alt}: " if self.many else "") + why
        if parsed and not unique:
            self.problem("can never be completed: " + reason + see("counting-to-14"))
        return tuple(unique.values())

    # -- warnings ------------------------------------------------------------------------------------
    def warn(self, parsed: Parsed, note: str) -> None:
        """What a valid line may still get wrong: a shift or an any-wind players cannot see, a year that is not
        one group."""
        winds = any(g.kind == "wind" for _, groups in parsed for g in groups)
        if self.shifted and not note and parsed:
            shown = " ".join(printed(g) for g in _tokens(parsed[0][1]))
            self.warning(f"the line has a shift but no note: players would see \"{shown}\" and nothing saying the "
                         "numbers may change; add the card's words, such as note = \"any like numbers\""
                         + see("like-numbers"), key="shift")
        elif winds and not note:
            self.warning("the line has Z (any wind) but no note: add the card's words, such as note = \"any "
                         "wind\"" + see("winds-and-dragons"))
        if not self.shifted:
            return
        for alt, groups in parsed:
            for g in _tokens(groups):
                if g.kind == "fixed" and g.value == Tile.WD and g.size == 1:
                    self.warning("the soap (0) stays a soap while a shift moves the numbers around it; if the "
                                 "line holds a year, write the year as one group, such as 2026a, which a shift "
                                 "never moves" + see("years"), alternative=alt, position=g.position,
                                 token=g.token)
                elif len(g.token) == 5 and g.token[:2] in _NINETEEN and g.token[:4].isdigit():
                    self.warning(f"{g.token[:4]} looks like a year, but a shift moves its digits like any other "
                                 "number; a year on a card is written with its soap (2026a) and never shifts"
                                 + see("years"), alternative=alt, position=g.position, token=g.token)


def _tokens(groups: Sequence[Symbolic]) -> list[Symbolic]:
    """One group per token (a printed number's singles share their token): for naming what was written."""
    seen: dict[int, Symbolic] = {}
    for g in groups:
        seen.setdefault(g.position, g)
    return list(seen.values())


def printed(group: Symbolic) -> str:
    """A token as the card prints it: without its suit letter."""
    token = group.token
    return token[:-1] if len(token) > 1 and token[-1] in "abcxyz" else token


def impossible_reason(variant: Variant, tile_set: TileSet, groups: Sequence[Symbolic] = ()) -> str:
    """Why the tile set can never make this variant, or "" if it can; ``groups`` (the pattern's, in the order the
    variant's were expanded) name the groups at fault."""
    wild = tile_set.wild
    wilds = tile_set.counts[wild] if wild is not None else 0
    wanted = 0
    for tile, need in enumerate(variant.need):
        if not need:
            continue
        have = tile_set.counts[tile]
        if variant.small[tile] > have:
            where = _groups_of(Tile(tile), variant, groups)
            return (f"it needs {variant.small[tile]} {name(Tile(tile))} in singles and pairs{where}, where no wild "
                    f"tile may stand in, but the set has only {have}: a line may not need a "
                    f"{_ordinal(have + 1)} copy of a tile")
        wanted += max(0, need - have)
    if wanted > wilds:
        if not wilds:
            return f"it needs {wanted} wild tile(s) beyond the naturals, and this card has no wild tiles"
        return f"it needs {wanted} wild tiles beyond the naturals, but the set has only {wilds}"
    return ""


def _groups_of(tile: Tile, variant: Variant, groups: Sequence[Symbolic]) -> str:
    if len(groups) != len(variant.groups):
        return ""
    tokens = {g.position: g.token for (t, size), g in zip(variant.groups, groups, strict=True)
              if t == tile and size < 3}
    if not tokens:
        return ""
    listed = ", ".join(f'{p} "{token}"' for p, token in tokens.items())
    return f" (group{'s' if len(tokens) > 1 else ''} {listed})"


def _ordinal(n: int) -> str:
    return {5: "fifth", 9: "ninth", 19: "nineteenth"}.get(n, f"{n}th")
