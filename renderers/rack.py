"""The rack image: what a player looks at all game.

Concealed tiles in display order, two rows of seven so that tiles stay large on a phone (a single row of 14
would shrink each tile to 25 px there); under each tile the code the discard menu uses. The tile just drawn
stands apart on the right, ringed and labelled DRAWN. Exposures lie above the rack, jokers shown as jokers.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from bot.engine.tiles import Tile, code, display_sorted, name
from bot.engine.views import SeatView

from . import fonts, palette
from .common import (
    CREAM,
    FELT,
    HIGHLIGHT,
    INK,
    WOOD,
    WOOD_LIGHT,
    Rendered,
    canvas,
    counted,
    describe_group,
    draw_centered,
    finish,
    group_tile,
    pill,
    spoken,
    text_width,
    wrap_groups,
)
from .tiles import paste_tile, tile_size

TILE_W = 88
PER_ROW = 7
GAP = 6
MARGIN = 18
LABEL_H = 42
DRAWN_GAP = 34  # the space that sets the drawn tile apart from the rest
RING = 7
EXPOSED_W = 60
GROUP_GAP = 22
CAPTION_H = 40

TILE_H = tile_size(TILE_W)[1]
EXPOSED_H = tile_size(EXPOSED_W)[1]
WIDTH = 2 * MARGIN + PER_ROW * TILE_W + (PER_ROW - 1) * GAP + DRAWN_GAP + TILE_W + 2 * RING
ROW_H = TILE_H + LABEL_H


def render_rack(concealed: Sequence[Tile], exposures: Sequence[Sequence[Tile]] = (), drawn: Tile | None = None, *,
                wild: Tile | None = Tile.J) -> Rendered:
    """The rack image. ``concealed`` excludes ``drawn``, which is shown apart; both may be unsorted."""
    tiles = display_sorted(list(concealed))
    rows = max(1, -(-len(tiles) // PER_ROW))
    group_lines = _group_lines(exposures)
    exposed_h = (CAPTION_H + len(group_lines) * (EXPOSED_H + LABEL_H)) if exposures else 0
    height = MARGIN + exposed_h + CAPTION_H + rows * ROW_H + (rows - 1) * GAP + 2 * RING + MARGIN
    image, draw = canvas(WIDTH, height, FELT)
    caption = fonts.bold(26)
    label = fonts.bold(30)

    y = MARGIN
    if exposures:
        draw.text((MARGIN, y + CAPTION_H // 2), f"Exposed ({sum(len(g) for g in exposures)})", font=caption,
                  fill=CREAM, anchor="lm")
        y += CAPTION_H
        for line in group_lines:
            x = MARGIN
            for group in line:
                for tile in group:
                    paste_tile(image, tile, (x, y), EXPOSED_W)
                    x += EXPOSED_W + 2
                width = len(group) * (EXPOSED_W + 2) - 2
                text = f"{code(group_tile(group, wild))} ×{len(group)}"
                draw_centered(draw, (x - width - 2, y + EXPOSED_H, x - 2, y + EXPOSED_H + LABEL_H), text, caption,
                              CREAM)
                x += GROUP_GAP
            y += EXPOSED_H + LABEL_H

    draw.text((MARGIN, y + CAPTION_H // 2), f"Your tiles ({len(tiles)})", font=caption, fill=CREAM, anchor="lm")
    drawn_x = WIDTH - MARGIN - RING - TILE_W
    if drawn is not None:
        tag = fonts.bold(22)
        tag_w = text_width(tag, "DRAWN") + 16
        pill(draw, (drawn_x + (TILE_W - tag_w) // 2, y + 4), "DRAWN", tag, HIGHLIGHT, INK)
    y += CAPTION_H
    bar_right = drawn_x - DRAWN_GAP + RING
    draw.rounded_rectangle((MARGIN - 8, y, bar_right, y + rows * ROW_H + (rows - 1) * GAP + 2 * RING), radius=12,
                           fill=WOOD, outline=WOOD_LIGHT, width=3)
    top = y + RING
    for i, tile in enumerate(tiles):
        x = MARGIN + (i % PER_ROW) * (TILE_W + GAP)
        row_y = top + (i // PER_ROW) * (ROW_H + GAP)
        paste_tile(image, tile, (x, row_y), TILE_W)
        draw_centered(draw, (x, row_y + TILE_H, x + TILE_W, row_y + ROW_H), code(tile), label, CREAM)
    if drawn is not None:
        _ringed(draw, drawn_x, top)
        paste_tile(image, drawn, (drawn_x, top), TILE_W)
        draw_centered(draw, (drawn_x, top + TILE_H + RING, drawn_x + TILE_W, top + ROW_H + RING), code(drawn), label,
                      HIGHLIGHT)
    return finish(image, rack_alt(tiles, exposures, drawn, wild), palette.shared())


def render_seat_view(view: SeatView) -> Rendered:
    """The rack of one seat's view; the engine keeps the drawn tile in the rack, the image shows it apart."""
    rack = list(view.rack)
    if view.drawn is not None and view.drawn in rack:
        rack.remove(view.drawn)
    return render_rack(rack, view.exposures, view.drawn, wild=view.card.wild)


def rack_alt(tiles: Sequence[Tile], exposures: Sequence[Sequence[Tile]], drawn: Tile | None,
             wild: Tile | None = Tile.J) -> str:
    """The alt text of a rack: every tile in order, the drawn tile and the exposures, in words."""
    parts = [f"Your rack, {counted(len(tiles), 'tile')} in order: {spoken(tiles) or 'none'}."]
    if drawn is not None:
        parts.append(f"Just drawn, shown apart on the right: {name(drawn)}.")
    if exposures:
        parts.append("Exposed: " + "; ".join(describe_group(g, wild) for g in exposures) + ".")
    return " ".join(parts)


def _group_lines(exposures: Sequence[Sequence[Tile]]) -> list[list[Sequence[Tile]]]:
    return wrap_groups(exposures, WIDTH - 2 * MARGIN, lambda g: len(g) * (EXPOSED_W + 2) - 2, GROUP_GAP)


def _ringed(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.rounded_rectangle((x - RING, y - RING, x + TILE_W + RING, y + ROW_H + RING), radius=14, outline=HIGHLIGHT,
                           width=RING - 1)
