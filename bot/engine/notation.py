"""Reading and writing tiles in the notation of docs/rules.md §8.4.

``parse_tiles("1B 2b, RD soap 7Cx3")`` gives tile kinds; ``format_tiles`` writes canonical codes.
Every error names the offending token and says what is accepted instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from operator import le

from .errors import TileError
from .tiles import KINDS, NUM_KINDS, STANDARD, Tile, TileSet, code, display_sorted, name

# What to type for one tile, said to a player who typed something else (repeats like 7Cx3 are for lists, and the
# docs say so: a player naming one tile needs only the codes).
ACCEPTED = "a number and suit like 5D, 2B or 9C, a wind N E W S, a dragon RD GD WD, F (flower) or J (joker)"

_ALIASES: dict[str, Tile] = {code(t): t for t in Tile}
_ALIASES.update({"R": Tile.RD, "G": Tile.GD, "0": Tile.WD, "SOAP": Tile.WD})
_REPEAT = re.compile(r"^(?P<tile>[^X]{1,4})X(?P<count>[0-9]+)$")
_SEPARATORS = re.compile(r"[\s,]+")
MAX_TILES = 200  # more than any tile set holds (152 + 8 blanks), so no real list is refused
_SHOWN = 24  # characters of a bad token quoted back in a message


def _quoted(token: str) -> str:
    return f'"{token}"' if len(token) <= _SHOWN else f'"{token[:_SHOWN]}..." ({len(token)} characters)'


def parse_tile(token: str) -> Tile:
    """One tile code, case-insensitive."""
    if not isinstance(token, str):
        raise TileError(f"{token!r:.{_SHOWN}} is not a tile: write tiles as text. Type {ACCEPTED}.")
    key = token.strip().upper()
    tile = _ALIASES.get(key)
    if tile is None:
        raise TileError(f"{_quoted(token)} is not a tile. Type {ACCEPTED}.")
    return tile


def parse_tiles(text: str | Sequence[str]) -> list[Tile]:
    """Tiles separated by spaces or commas, from one string or several; ``7Cx3`` repeats a tile. More than
    ``MAX_TILES`` tiles is refused (no set holds that many), so the work is bounded by the input's length."""
    parts: Sequence[object] = [text] if isinstance(text, str) else text
    if not isinstance(parts, list | tuple):
        raise TileError(f"{text!r:.{_SHOWN}} is not a list of tiles: write them as text, e.g. \"1B 2B 3B\".")
    tiles: list[Tile] = []
    for part in parts:
        if not isinstance(part, str):
            raise TileError(f"{part!r:.{_SHOWN}} is not a tile: write tiles as text. Type {ACCEPTED}.")
        for token in _SEPARATORS.split(part.strip()):
            if not token:
                continue
            repeat = _REPEAT.match(token.upper())
            if repeat and repeat.group("tile") in _ALIASES:
                digits = repeat.group("count")
                count = int(digits) if len(digits) <= 3 else 0
                if not 1 <= count <= 8:
                    raise TileError(f"{_quoted(token)}: a tile can be repeated 1 to 8 times.")
                tiles.extend([parse_tile(repeat.group("tile"))] * count)
            else:
                tiles.append(parse_tile(token))
            if len(tiles) > MAX_TILES:
                raise TileError(f"More than {MAX_TILES} tiles: no set has that many. Give at most one rack, wall "
                                "or discard pool at a time.")
    return tiles


def parse_groups(text: str) -> list[list[Tile]]:
    """Exposures written as groups separated by semicolons: ``"5D 5D J; NX4"``."""
    groups = [parse_tiles(chunk) for chunk in text.split(";") if chunk.strip()]
    return groups


def format_tiles(tiles: Iterable[Tile], *, sort: bool = False) -> str:
    """Tiles as canonical codes separated by spaces, in display order with ``sort``."""
    seq = list(tiles)
    return " ".join(code(t) for t in (display_sorted(seq) if sort else seq))


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """How many tiles of each kind, indexed by kind."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def check_available(tiles: Iterable[Tile], tile_set: TileSet = STANDARD) -> None:
    """Raise if ``tiles`` use more copies of a kind than ``tile_set`` holds (five 3 Bams, nine jokers)."""
    counts = counts_of(tiles)
    limits = tile_set.counts
    if all(map(le, counts, limits)):  # the usual answer, without walking the kinds one by one
        return
    for kind, have in zip(KINDS, counts, strict=True):
        limit = limits[kind]
        if have > limit:
            what = f"{have} x {code(kind)} ({name(kind)})"
            if limit == 0:
                raise TileError(f"{what}: the {tile_set.name} set has no {name(kind)} tiles.")
            raise TileError(f"{what}: a set holds only {limit} of them (set: {tile_set.name}).")
