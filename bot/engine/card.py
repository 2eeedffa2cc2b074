"""A compiled card: its lines (see :mod:`bot.engine.line`) and the fast index built over their variants."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .index import CardIndex
from .line import Line, Variant
from .tiles import Tile, TileSet

__all__ = ["Card", "Line", "Variant"]  # Line and Variant live in .line; a card's users take them from here


@dataclass(frozen=True)
class Card:
    """A card of lines, the tile set it is played with, and its ruleset (a rules preset name)."""

    id: str
    name: str
    year: int | None
    ruleset: str
    tile_set: TileSet
    lines: tuple[Line, ...]
    sections: tuple[str, ...] = field(default=())

    @property
    def wild(self) -> Tile | None:
        """The wild kind: the joker, the flower on the 1946 card."""
        return self.tile_set.wild

    @cached_property
    def index(self) -> CardIndex:
        """The fast form used by matching and analysis, built on first use and kept."""
        return CardIndex(self.lines, self.tile_set.counts, self.wild)

    def line(self, line_id: str) -> Line:
        """The line with this id; raises KeyError if the card has none."""
        for line in self.lines:
            if line.id == line_id:
                return line
        raise KeyError(line_id)

    @property
    def variant_count(self) -> int:
        """How many concrete variants the card's lines have in all."""
        return sum(len(line.variants) for line in self.lines)
