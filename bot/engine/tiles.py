"""Tile kinds, tile sets and display order (docs/rules.md §1).

A tile kind is a small int (a :class:`Tile`), so racks are cheap count vectors indexed by kind.
Copies of a kind are interchangeable (T2), so nothing here tracks individual tiles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum


class Suit(IntEnum):
    """The three suits, in the order their tiles are numbered."""

    BAM = 0
    CRAK = 1
    DOT = 2


class Tile(IntEnum):
    """Every kind of tile. Numbers come first, suit by suit, so ``Tile.B1 + 9 * suit + n - 1`` is n of suit."""

    B1 = 0
    B2 = 1
    B3 = 2
    B4 = 3
    B5 = 4
    B6 = 5
    B7 = 6
    B8 = 7
    B9 = 8
    C1 = 9
    C2 = 10
    C3 = 11
    C4 = 12
    C5 = 13
    C6 = 14
    C7 = 15
    C8 = 16
    C9 = 17
    D1 = 18
    D2 = 19
    D3 = 20
    D4 = 21
    D5 = 22
    D6 = 23
    D7 = 24
    D8 = 25
    D9 = 26
    N = 27
    E = 28
    W = 29
    S = 30
    RD = 31
    GD = 32
    WD = 33
    F = 34
    J = 35
    BL = 36


NUM_KINDS = len(Tile)
KINDS: tuple[Tile, ...] = tuple(Tile)  # every kind in order; a tuple walks faster than the enum itself
WINDS = (Tile.N, Tile.E, Tile.W, Tile.S)
DRAGONS = (Tile.RD, Tile.GD, Tile.WD)
SUIT_LETTER = {Suit.BAM: "B", Suit.CRAK: "C", Suit.DOT: "D"}
SUIT_NAME = {Suit.BAM: "Bam", Suit.CRAK: "Crak", Suit.DOT: "Dot"}

# T3: Craks-Red, Bams-Green, Dots-White.
DRAGON_OF_SUIT = {Suit.BAM: Tile.GD, Suit.CRAK: Tile.RD, Suit.DOT: Tile.WD}


def number_tile(suit: Suit | int, number: int) -> Tile:
    """The tile ``number`` (1-9) of ``suit``."""
    if not 1 <= number <= 9:
        raise ValueError(f"tile numbers run from 1 to 9, not {number}")
    return Tile(9 * int(suit) + number - 1)


def is_number(tile: Tile) -> bool:
    """Whether the tile is a suit tile numbered 1-9."""
    return tile <= Tile.D9


def suit_of(tile: Tile) -> Suit | None:
    """The suit of a number tile; None for honours, flowers, jokers and blanks."""
    return Suit(tile // 9) if tile <= Tile.D9 else None


def number_of(tile: Tile) -> int | None:
    """The number (1-9) of a suit tile; None for every other tile."""
    return tile % 9 + 1 if tile <= Tile.D9 else None


def _code(tile: Tile) -> str:
    if tile <= Tile.D9:
        return f"{tile % 9 + 1}{SUIT_LETTER[Suit(tile // 9)]}"
    return Tile(tile).name


_CODES = tuple(_code(t) for t in Tile)


def code(tile: Tile) -> str:
    """The canonical short code of docs/rules.md §8.4: ``5D``, ``N``, ``RD``, ``F``, ``J``, ``BL``."""
    return _CODES[tile]


_HONOUR_NAMES = {
    Tile.N: "North Wind",
    Tile.E: "East Wind",
    Tile.W: "West Wind",
    Tile.S: "South Wind",
    Tile.RD: "Red Dragon",
    Tile.GD: "Green Dragon",
    Tile.WD: "White Dragon",
    Tile.F: "Flower",
    Tile.J: "Joker",
    Tile.BL: "Blank",
}


def name(tile: Tile) -> str:
    """The spoken name: ``5 Dot``, ``North Wind``, ``Red Dragon`` (a wind tile says "Wind", so that it never reads as
    the seat of the same name: "East discards North Wind")."""
    if tile <= Tile.D9:
        return f"{tile % 9 + 1} {SUIT_NAME[Suit(tile // 9)]}"
    return _HONOUR_NAMES[Tile(tile)]


# Display order (docs/rules.md §8.4): J, BL, F, winds N E W S, dragons, then Bams, Craks, Dots from 1 to 9.
_DISPLAY_ORDER = (Tile.J, Tile.BL, Tile.F, *WINDS, *DRAGONS, *range(Tile.B1, Tile.D9 + 1))
SORT_KEY: tuple[int, ...] = tuple(_DISPLAY_ORDER.index(Tile(t)) for t in range(NUM_KINDS))


def display_sorted(tiles: Iterable[Tile]) -> list[Tile]:
    """The tiles in display order (docs/rules.md §8.4)."""
    return sorted(tiles, key=SORT_KEY.__getitem__)


@dataclass(frozen=True, slots=True)
class TileSet:
    """How many copies of each kind a set holds, and which kind (if any) is wild."""

    name: str
    counts: tuple[int, ...]
    wild: Tile | None

    @property
    def size(self) -> int:
        """How many tiles the set holds in all."""
        return sum(self.counts)

    def count(self, tile: Tile) -> int:
        """How many tiles of this kind the set holds."""
        return self.counts[tile]

    def tiles(self) -> list[Tile]:
        """Every tile of the set, one entry per physical tile, in kind order."""
        return [t for t in KINDS for _ in range(self.counts[t])]


def standard_set(blanks: int = 0) -> TileSet:
    """The 152-tile NMJL set (T1), plus ``blanks`` blank tiles if the table uses them (T6)."""
    if not 0 <= blanks <= 8:
        raise ValueError(f"a table may add 0 to 8 blanks, not {blanks}")
    counts = [4] * NUM_KINDS
    counts[Tile.F] = 8
    counts[Tile.J] = 8
    counts[Tile.BL] = blanks
    return TileSet("standard" if not blanks else f"standard, with {blanks} blanks", tuple(counts), Tile.J)


def set_1946() -> TileSet:
    """The 1946 set (T7): 136 tiles plus 18 flowers, which are the wild tiles; no jokers."""
    counts = [4] * NUM_KINDS
    counts[Tile.F] = 18
    counts[Tile.J] = 0
    counts[Tile.BL] = 0
    return TileSet("1946", tuple(counts), Tile.F)


def classical_set() -> TileSet:
    """The classical game's set (docs/rules.md §9): 136 tiles, three suits, winds and dragons; no flowers, no
    jokers, nothing wild."""
    counts = [4] * NUM_KINDS
    counts[Tile.F] = counts[Tile.J] = counts[Tile.BL] = 0
    return TileSet("classical", tuple(counts), None)


STANDARD = standard_set()
SET_1946 = set_1946()
CLASSICAL = classical_set()
