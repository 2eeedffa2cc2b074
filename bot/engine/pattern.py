"""The pattern language of card lines (docs/card-format.md): parsing and expansion into concrete groups.

A pattern such as ``"FF 2222a 44a DDDDb"`` is parsed into :class:`Symbolic` groups, whose suits are still
letters, whose winds (``Z``) are still "any wind" and whose numbers are still unshifted. :func:`expand` binds the
letters to real suits and ``Z`` to a wind and applies a number shift, giving concrete ``(tile, size)`` groups.

Each token is one group, so the same token written twice is two separate groups of the same tile (``11a ...
11a``: two pairs, ``FFF ... FFF``: two flower pungs), each with the joker and exposure rules of its own size.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from .tiles import DRAGON_OF_SUIT, Suit, Tile, number_tile

DISTINCT_LETTERS = "abc"
FREE_LETTERS = "xyz"
DECORATION = frozenset({"+", "=", "×", "*", "-"})
MAX_PATTERN = 200  # characters; a printed line of 14 tiles is about 30

_FIXED = {"N": Tile.N, "E": Tile.E, "W": Tile.W, "S": Tile.S, "F": Tile.F, "R": Tile.RD, "G": Tile.GD,
          "0": Tile.WD}
_SAME_DIGITS = re.compile(r"^([1-9])\1*([a-z])$")
_MIXED_DIGITS = re.compile(r"^([0-9]{2,})([a-z])$")
_DRAGON = re.compile(r"^D+([a-z])$")
_FIXED_GROUP = re.compile(r"^([NEWSFRG0])\1*$")
_ANY_WIND = re.compile(r"^Z+$")
_FIXED_WITH_LETTER = re.compile(r"^([NEWSFRG0Z])\1*([a-z])$")
ANY_WIND_WINDS = (Tile.N, Tile.E, Tile.W, Tile.S)


@dataclass(frozen=True, slots=True)
class Symbolic:
    """One group before binding: a number in a suit letter, a dragon of a suit letter, any wind (``Z``), or a
    fixed tile."""

    kind: Literal["number", "dragon", "fixed", "wind"]
    value: int  # the digit for numbers, the Tile for fixed groups, 0 for dragons and any wind
    letter: str  # suit letter, "" for fixed tiles and any wind
    size: int
    position: int  # 1-based index of the token in the pattern
    token: str
    year: bool = False  # a digit of a year (a printed number with the soap: 2026a, 20a): a shift leaves it alone

    @property
    def shifts(self) -> bool:
        """Whether a line's shift moves this group: numbers do, except a year's digits."""
        return self.kind == "number" and not self.year


@dataclass(frozen=True, slots=True)
class PatternProblem:
    """A mistake in a pattern: where it is (group position and token) and what is wrong."""

    position: int  # 0 when the problem concerns the whole pattern
    token: str
    message: str
    topic: str = "patterns"  # the docs/card-format.md section (anchor) that shows how to write it


def parse_pattern(text: str) -> tuple[list[Symbolic], list[PatternProblem]]:
    """Parse one pattern; returns the groups and every problem found (an empty list when it is valid).
    A pattern longer than :data:`MAX_PATTERN` characters is refused unread, so the work stays linear and small."""
    groups: list[Symbolic] = []
    problems: list[PatternProblem] = []
    if len(text) > MAX_PATTERN:
        return [], [PatternProblem(0, text[:20] + "...", f"the pattern is {len(text)} characters long; a hand of "
                                   f"14 tiles needs far fewer (at most {MAX_PATTERN})")]
    position = 0
    for token in text.split():
        if token in DECORATION:
            continue
        position += 1
        parsed, problem = _parse_token(token, position)
        groups.extend(parsed)
        if problem:
            problems.append(PatternProblem(position, token, problem, _topic(problem)))
    if not groups and not problems:
        problems.append(PatternProblem(0, text, "the pattern is empty"))
    if problems:
        return groups, problems
    total = sum(g.size for g in groups)
    if total != 14:
        sizes = " + ".join(str(g.size) for g in groups) if len(groups) <= 30 else f"{len(groups)} groups"
        problems.append(PatternProblem(0, text, f"the groups add up to {total} tiles ({sizes}), not 14",
                                       "counting-to-14"))
    problems.extend(_letter_problems(groups))
    return _whole_years(groups), problems


def _whole_years(groups: list[Symbolic]) -> list[Symbolic]:
    """A year printed in two colours (``20a 26b``) is two tokens of two digits, one with the soap: the half
    without it (``26b``) is part of the year too, so a shift leaves both halves alone."""
    halves = {g.position: g.token for g in groups if _MIXED_DIGITS.match(g.token) and len(g.token) == 3}
    yearly = {p for p, token in halves.items() if "0" in token[:2]}
    joined = {p for p in halves if p not in yearly and (p - 1 in yearly or p + 1 in yearly)}
    if not joined:
        return groups
    return [dataclasses.replace(g, year=True) if g.position in joined and g.kind == "number" else g for g in groups]


def _topic(problem: str) -> str:
    """The tutorial section that shows how to write what a token got wrong."""
    if problem.startswith("unknown symbol"):
        return "patterns"
    if "suit letter" in problem:
        return "colours-and-suit-letters"
    if "N E W S" in problem:
        return "winds-and-dragons"
    return "patterns"


def _parse_token(token: str, position: int) -> tuple[list[Symbolic], str]:
    letter = token[-1] if len(token) > 1 and token[-1].islower() and token[-2] in "0123456789D" else ""
    if letter and letter not in DISTINCT_LETTERS + FREE_LETTERS:
        return [], f"unknown suit letter {letter}: use a, b, c for different suits or x, y, z for free ones"
    if m := _SAME_DIGITS.match(token):
        return [Symbolic("number", int(m.group(1)), m.group(2), len(token) - 1, position, token)], ""
    if m := _FIXED_WITH_LETTER.match(token):
        return [], f"{m.group(1)} has no suit, so it takes no suit letter: write {token[:-1]}"
    if m := _MIXED_DIGITS.match(token):
        digits, letter = m.groups()
        # The soap marks a year (2026a, or a year printed in two colours, 20a 26b): a shift never moves it.
        year = "0" in digits
        singles = [
            Symbolic("fixed", Tile.WD, "", 1, position, token)
            if d == "0"
            else Symbolic("number", int(d), letter, 1, position, token, year)
            for d in digits
        ]
        return singles, ""
    if _ANY_WIND.match(token):
        return [Symbolic("wind", 0, "", len(token), position, token)], ""
    if m := _DRAGON.match(token):
        return [Symbolic("dragon", 0, m.group(1), len(token) - 1, position, token)], ""
    if m := _FIXED_GROUP.match(token):
        return [Symbolic("fixed", _FIXED[m.group(1)], "", len(token), position, token)], ""
    if re.fullmatch(r"[1-9]+", token):
        if len(set(token)) == 1:
            return [], f"a number needs a suit letter: write {token}a (a, b, c are the card's colours)"
        return [], f"a printed number needs a suit letter: write {token}a"
    if re.fullmatch(r"D+", token):
        return [], "a dragon needs a suit letter (DDDa for the dragon of suit a) or R, G, 0 for a fixed dragon"
    letters = re.fullmatch(r"(?:[1-9]+|D+|[NEWSFRG0]+)([a-z])", token)
    if letters and letters.group(1) not in DISTINCT_LETTERS + FREE_LETTERS:
        return [], (f"unknown suit letter {letters.group(1)}: use a, b, c for different suits "
                    "or x, y, z for free ones")
    if re.fullmatch(r"[NEWSZFRGD0-9]+[a-z]?", token):
        return [], "a group repeats one symbol; separate different tiles with spaces (N E W S, not NEWS)"
    return [], ("unknown symbol: use 1-9 with a suit letter, D with a suit letter, R G 0 for dragons, "
                "N E W S for winds (Z for any wind), F for flowers")


def _letter_problems(groups: Sequence[Symbolic]) -> Iterator[PatternProblem]:
    used = {g.letter for g in groups if g.letter}
    for order in (DISTINCT_LETTERS, FREE_LETTERS):
        for i, letter in enumerate(order[1:], start=1):
            if letter in used and order[i - 1] not in used:
                first = next(g for g in groups if g.letter == letter)
                message = (f"suit letter {letter} is used but {order[i - 1]} is not: use letters in order "
                           f"({', '.join(order)})")
                yield PatternProblem(first.position, first.token, message, "colours-and-suit-letters")


def number_range(groups: Sequence[Symbolic]) -> tuple[int, int] | None:
    """Lowest and highest number a shift moves (a year's digits stay put), or None if there is none."""
    numbers = [g.value for g in groups if g.shifts]
    return (min(numbers), max(numbers)) if numbers else None


def wind_choices(groups: Sequence[Symbolic]) -> tuple[Tile | None, ...]:
    """The winds ``Z`` may stand for: all four if the pattern has a ``Z`` group (every ``Z`` of a line is the same
    wind, as two ``DDDa`` are the same dragon), else ``(None,)``."""
    return ANY_WIND_WINDS if any(g.kind == "wind" for g in groups) else (None,)


def letter_bindings(groups: Sequence[Symbolic]) -> Iterator[dict[str, Suit]]:
    """Every way to give the pattern's letters real suits: a, b, c pairwise different, x, y, z free."""
    distinct = sorted({g.letter for g in groups if g.letter and g.letter in DISTINCT_LETTERS})
    free = sorted({g.letter for g in groups if g.letter and g.letter in FREE_LETTERS})
    suits = list(Suit)
    for chosen in itertools.permutations(suits, len(distinct)):
        for loose in itertools.product(suits, repeat=len(free)):
            yield dict(zip(distinct + free, chosen + loose, strict=True))


def binding_count(groups: Sequence[Symbolic]) -> int:
    """How many bindings :func:`letter_bindings` and :func:`wind_choices` yield together, without listing them."""
    distinct = len({g.letter for g in groups if g.letter and g.letter in DISTINCT_LETTERS})
    free = len({g.letter for g in groups if g.letter and g.letter in FREE_LETTERS})
    return math.perm(len(Suit), distinct) * math.prod([len(Suit)] * free) * len(wind_choices(groups))


Group = tuple[Tile, int]  # (tile kind, size)


def expand(groups: Sequence[Symbolic], shift: int, binding: dict[str, Suit],
           wind: Tile | None = None) -> tuple[Group, ...]:
    """Concrete groups for one shift, one letter binding and the wind ``Z`` stands for, in the pattern's printed
    order."""
    concrete: list[Group] = []
    for g in groups:
        if g.kind == "number":
            tile = number_tile(binding[g.letter], g.value + (shift if g.shifts else 0))
        elif g.kind == "dragon":
            tile = DRAGON_OF_SUIT[binding[g.letter]]
        elif g.kind == "wind":
            assert wind is not None, "a Z group needs the wind it stands for"
            tile = wind
        else:
            tile = Tile(g.value)
        concrete.append((tile, g.size))
    return tuple(concrete)
