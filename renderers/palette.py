"""One shared 64-colour palette for the images sent during play (racks, the table, the tile sheet).

Choosing a palette per image (octree quantizing) costs 3 to 12 ms for every rack and table; mapping onto a fixed
palette takes under 2 ms. The palette is made once per process from a reference picture holding what those
images are made of: every tile face at the sizes in use on each background, and text in each colour pair.

Why 64 colours: the art is a few flat colours and their anti-aliased edges, and 64 keep every suit's ink, the
dragons, the flower, the badges and the felt as they are (compared by eye with 256 at full size and at 360 px
wide, a phone's width), for a fifth fewer bytes (issue 30). At 32 the count badges' navy turns green-black and the
flower's pink shifts: too few.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.engine.tiles import Tile

from . import fonts
from .common import ALERT, CREAM, FELT, FELT_DARK, FELT_LIGHT, HIGHLIGHT, INK, MUTED, WHITE, WOOD, WOOD_LIGHT
from .tiles import paste_back, paste_tile

COLOURS = 64  # see the module's docstring
TILE_WIDTHS = (88, 60, 50, 44)  # the rack, its exposures, the table, the winning hand
TEXT_PAIRS = ((CREAM, FELT), (WHITE, FELT), (WHITE, FELT_DARK), (WHITE, FELT_LIGHT), (CREAM, FELT_LIGHT),
              (CREAM, FELT_DARK), (MUTED, FELT_DARK), (MUTED, FELT_LIGHT), (HIGHLIGHT, FELT), (CREAM, WOOD),
              (HIGHLIGHT, WOOD), (INK, HIGHLIGHT), (WHITE, ALERT), (INK, MUTED), (INK, CREAM), (WHITE, INK))


def warm_up() -> None:
    """Build the palette (and with it every tile face at the play sizes) now rather than in the first render:
    about 0.2 s, worth doing when the bot starts."""
    shared()


@cache
def shared() -> Image.Image:
    """The palette, as a "P" image for :meth:`PIL.Image.Image.quantize`."""
    return reference().quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def reference() -> Image.Image:
    """Every face at each width on the felt; on the other backgrounds a few faces, for their edges."""
    width_px = 1000
    blocks = [(FELT, width, list(Tile)) for width in TILE_WIDTHS]
    blocks += [(back, width, [Tile.J, Tile.D5, Tile.RD]) for back in (FELT_LIGHT, FELT_DARK, WOOD, HIGHLIGHT)
               for width in TILE_WIDTHS]
    heights = [(-(-len(tiles) // (width_px // (w + 4)))) * (round(w * 1.36) + 4) for _, w, tiles in blocks]
    image = Image.new("RGB", (width_px, 48 * len(TEXT_PAIRS) + sum(heights)), FELT)
    draw = ImageDraw.Draw(image)
    y = 0
    for ink, back in TEXT_PAIRS:
        draw.rectangle((0, y, width_px, y + 48), fill=back)
        draw.text((6, y + 6), "Wall 5D RD ×3 (13) ▶", font=fonts.bold(28), fill=ink)
        draw.text((520, y + 10), "no exposures, tiles", font=fonts.regular(22), fill=ink)
        y += 48
    for (back, width, tiles), height in zip(blocks, heights, strict=True):
        draw.rectangle((0, y, width_px, y + height), fill=back)
        per_row = width_px // (width + 4)
        for k, tile in enumerate(tiles):
            paste_tile(image, tile, ((k % per_row) * (width + 4), y + (k // per_row) * (round(width * 1.36) + 4)),
                       width)
        y += height
    paste_back(image, (width_px - 30, 0), 26)
    draw.rectangle((0, 0, 10, 10), fill=WOOD_LIGHT)
    return image
