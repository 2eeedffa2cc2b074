"""Reading and writing tiles in the notation of docs/rules.md §8.4.

``parse_tiles("1B 2b, RD soap 7Cx3")`` gives tile kinds; ``format_tiles`` writes canonical codes.
Every error names the offending token and says what is accepted instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .errors import TileError
from .tiles import NUM_KINDS, STANDARD, Tile, TileSet, code, display_sorted, name

ACCEPTED = "1B-9B, 1C-9C, 1D-9D, N E W S, RD GD WD (or R G 0 SOAP), F, J, BL; '7Cx3' for three of a tile"

_ALIASES: dict[str, Tile] = {code(t): t for t in Tile}
_ALIASES.update({"R": Tile.RD, "G": Tile.GD, "0": Tile.WD, "SOAP": Tile.WD})
_REPEAT = re.compile(r"^(?P<tile>.+?)X(?P<count>\d+)$")
_SEPARATORS = re.compile(r"[\s,]+")


def parse_tile(token: str) -> Tile:
    """One tile code, case-insensitive."""
    key = token.strip().upper()
    tile = _ALIASES.get(key)
    if tile is None:
        raise TileError(f'"{token}" is not a tile. Use {ACCEPTED}.')
    return tile


def parse_tiles(text: str | Sequence[str]) -> list[int]:
    """Tiles separated by spaces or commas, from one string or several; ``7Cx3`` repeats a tile."""
    parts = [text] if isinstance(text, str) else list(text)
    tiles: list[int] = []
    for part in parts:
        for token in _SEPARATORS.split(part.strip()):
            if not token:
                continue
            repeat = _REPEAT.match(token.upper())
            if repeat and repeat.group("tile").upper() in _ALIASES:
                count = int(repeat.group("count"))
                if not 1 <= count <= 8:
                    raise TileError(f'"{token}": a tile can be repeated 1 to 8 times, not {count}.')
                tiles.extend([parse_tile(repeat.group("tile"))] * count)
            else:
                tiles.append(parse_tile(token))
    return tiles


def parse_groups(text: str) -> list[list[int]]:
    """Exposures written as groups separated by semicolons: ``"5D 5D J; NX4"``."""
    groups = [parse_tiles(chunk) for chunk in text.split(";") if chunk.strip()]
    return groups


def format_tiles(tiles: Iterable[int], *, sort: bool = False) -> str:
    """Tiles as canonical codes separated by spaces, in display order with ``sort``."""
    seq = list(tiles)
    return " ".join(code(t) for t in (display_sorted(seq) if sort else seq))


def counts_of(tiles: Iterable[int]) -> list[int]:
    """How many tiles of each kind, indexed by kind."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def check_available(tiles: Iterable[int], tile_set: TileSet = STANDARD) -> None:
    """Raise if ``tiles`` use more copies of a kind than ``tile_set`` holds (five 3 Bams, nine jokers)."""
    counts = counts_of(tiles)
    for kind, have in enumerate(counts):
        limit = tile_set.counts[kind]
        if have > limit:
            what = f"{have} x {code(kind)} ({name(kind)})"
            if limit == 0:
                raise TileError(f"{what}: the {tile_set.name} set has no {name(kind)} tiles.")
            raise TileError(f"{what}: the {tile_set.name} set has only {limit}.")
