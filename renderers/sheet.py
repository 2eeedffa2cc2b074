"""A sheet of every tile face with its code: a legend for players, and the quickest way to review the art."""

from __future__ import annotations

from bot.engine.tiles import Tile, code, display_sorted, name

from . import fonts, palette
from .common import CREAM, FELT, Rendered, canvas, draw_centered, finish
from .tiles import paste_tile, tile_size

PER_ROW = 10


def render_tile_sheet(width: int = 64) -> Rendered:
    """Every kind of tile at ``width`` px, in display order, each with its code underneath."""
    tile_w, tile_h = tile_size(width)
    label_h = max(18, width // 3)
    gap = max(4, width // 10)
    kinds = display_sorted(list(Tile))
    rows = -(-len(kinds) // PER_ROW)
    image, draw = canvas(gap + PER_ROW * (tile_w + gap), gap + rows * (tile_h + label_h + gap), FELT)
    font = fonts.bold(max(10, label_h - 6))
    for i, tile in enumerate(kinds):
        x = gap + (i % PER_ROW) * (tile_w + gap)
        y = gap + (i // PER_ROW) * (tile_h + label_h + gap)
        paste_tile(image, tile, (x, y), width)
        draw_centered(draw, (x, y + tile_h, x + tile_w, y + tile_h + label_h), code(tile), font, CREAM)
    alt = "Every tile with its code: " + ", ".join(f"{name(t)} {code(t)}" for t in kinds) + "."
    return finish(image, alt, palette.shared())
