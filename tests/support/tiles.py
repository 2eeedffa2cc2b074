"""Tiles written as the tests write them, in the tile notation of docs/rules.md §8.4."""

from __future__ import annotations

from bot.engine.notation import parse_tiles
from bot.engine.tiles import Tile


def tiles(text: str) -> list[Tile]:
    """The tiles ``text`` names, in order: ``tiles("5D 5D J")``, ``tiles("3Bx4 N")``."""
    return parse_tiles(text)


def tile(text: str) -> Tile:
    """The one tile ``text`` names: ``tile("5D")``."""
    (named,) = parse_tiles(text)
    return named
