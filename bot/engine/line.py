"""One printed line of a card, and every concrete variant of it as tile counts.

A :class:`Variant` is one way a line can be made: the letters bound to real suits, the shift applied. It keeps
the tile counts the matcher needs (``need``; ``small``, the part of ``need`` in singles and pairs, which no
joker may fill) and the groups that exposures must map onto.
"""

from __future__ import annotations

from dataclasses import dataclass

from .pattern import Group
from .tiles import NUM_KINDS, code


@dataclass(frozen=True, slots=True, eq=False)
class Variant:
    """One concrete way to make a line: its groups and the tiles of each kind it needs."""

    line: int  # index of the line in its card
    groups: tuple[Group, ...]  # (tile, size), in the pattern's printed order
    need: tuple[int, ...]  # tiles of each kind the variant holds
    small: tuple[int, ...]  # of those, how many sit in singles and pairs

    @staticmethod
    def from_groups(line: int, groups: tuple[Group, ...]) -> Variant:
        """The variant made of these (tile, size) groups, with its counts worked out."""
        need = [0] * NUM_KINDS
        small = [0] * NUM_KINDS
        for tile, size in groups:
            need[tile] += size
            if size < 3:
                small[tile] += size
        return Variant(line, groups, tuple(need), tuple(small))

    def describe(self) -> str:
        """The variant as tile codes, group by group: ``5D 5D 5D  N N``."""
        return "  ".join(" ".join([code(t)] * size) for t, size in self.groups)


SHOWN_PATTERNS = 4  # alternatives shown to players before "or N more"


@dataclass(frozen=True, slots=True, eq=False)
class Line:
    """One printed line of the card ("hand" in card-file terms). Lines and variants compare by identity: each
    exists once, in its compiled card."""

    index: int
    id: str
    section: str
    patterns: tuple[str, ...]
    exposed: bool  # X (True) or C (False)
    value: int
    east_value: int | None
    note: str
    singles_and_pairs: bool
    variants: tuple[Variant, ...]

    def shown_patterns(self, limit: int = SHOWN_PATTERNS) -> tuple[tuple[str, ...], int]:
        """The alternatives a sheet or a message shows, and how many more it leaves out: a line printed with "or"
        dozens of times shows its first few, and its note says the rest."""
        if len(self.patterns) <= limit:
            return self.patterns, 0
        return self.patterns[: limit - 1], len(self.patterns) - (limit - 1)

    @property
    def mark(self) -> str:
        """``X`` for an exposed line, ``C`` for a concealed one."""
        return "X" if self.exposed else "C"

    def printed(self) -> str:
        """The line as a player reads it: pattern(s) (the first few of a long list, and how many more), note, X/C
        and value."""
        shown, more = self.shown_patterns()
        text = " or ".join(shown) + (f" or {more} more" if more else "")
        if self.note:
            text += f" ({self.note})"
        value = f"{self.value}" if self.east_value is None else f"{self.value}-{self.east_value}"
        return f"{text}  {self.mark} {value}"
