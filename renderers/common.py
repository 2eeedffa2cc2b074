"""What every renderer shares: the result type, the palette, PNG encoding and text helpers."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.tiles import Tile, name
from bot.engine.wording import group_words

from .fonts import Font

RGB = tuple[int, int, int]

# Suit colours as on printed tiles. Suits never rely on them alone: each also has its own art and letter.
BAM_GREEN: RGB = (0, 118, 58)
CRAK_RED: RGB = (196, 22, 40)
DOT_BLUE: RGB = (20, 70, 160)
INK: RGB = (24, 28, 48)

FELT: RGB = (22, 78, 52)
FELT_DARK: RGB = (14, 56, 37)
FELT_LIGHT: RGB = (36, 100, 70)
WOOD: RGB = (104, 64, 34)
WOOD_LIGHT: RGB = (140, 92, 52)
CREAM: RGB = (255, 250, 235)
WHITE: RGB = (255, 255, 255)
# The highlight for "this one" (drawn tile, latest discard, whose turn): bright yellow reads on felt and wood for
# every kind of colour vision, and it always comes with a label too.
HIGHLIGHT: RGB = (255, 204, 0)
ALERT: RGB = (214, 40, 40)
MUTED: RGB = (190, 210, 196)

ALT_LIMIT = 1000  # Discord accepts 1024 characters of alt text (an attachment's description)


@dataclass(frozen=True, slots=True)
class Rendered:
    """A finished image: PNG bytes plus the alt text a screen reader reads instead."""

    png: bytes
    alt: str
    width: int
    height: int

    def save(self, path: str) -> None:
        """Write the PNG to ``path``."""
        with open(path, "wb") as handle:
            handle.write(self.png)


def finish(image: Image.Image, alt: str, palette: Image.Image | None = None) -> Rendered:
    """Encode an image and clip its alt text: the finished Rendered."""
    return Rendered(encode_png(image, palette), clip_alt(alt), image.width, image.height)


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """A palette PNG: the art is a few flat colours plus anti-aliasing, so 256 colours look the same as full RGB
    and take a third of the bytes. Without dithering edges stay clean. ``palette`` (see :mod:`.palette`) skips
    choosing colours for this image, the slow half of the work; otherwise a fast octree picks them. zlib level 4
    is twice as fast as 6 for 5-10 % more bytes, far inside the size budgets."""
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    if palette is not None:
        paletted = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        paletted = rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG", compress_level=4)
    return out.getvalue()


def clip_alt(text: str, limit: int = ALT_LIMIT) -> str:
    """``text`` cut to Discord's alt-text limit, with an ellipsis if cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def text_width(font: Font, text: str) -> int:
    """The width of ``text`` in ``font``, in whole pixels."""
    return int(font.getlength(text) + 0.5)


def fit_font(text: str, make: Callable[[int], Font], size: int, max_width: int, min_size: int = 8) -> Font:
    """The largest font up to ``size`` in which ``text`` fits ``max_width``."""
    while size > min_size and make(size).getlength(text) > max_width:
        size -= 1
    return make(size)


def ellipsize(text: str, font: Font, max_width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``max_width`` pixels."""
    if font.getlength(text) <= max_width:
        return text
    while text and font.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_centered(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], text: str, font: Font,
                  fill: RGB) -> None:
    """Centre the glyphs' ink (not the line box) in ``box``: CJK and capitals then sit visually centred."""
    left, top, right, bottom = font.getbbox(text)
    x = (box[0] + box[2]) / 2 - (left + right) / 2
    y = (box[1] + box[3]) / 2 - (top + bottom) / 2
    draw.text((x, y), text, font=font, fill=fill)


def pill(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Font, fill: RGB, ink: RGB,
         pad: int = 8) -> int:
    """A rounded label starting at ``xy`` (top left); returns its width."""
    width = text_width(font, text) + 2 * pad
    _, top, _, bottom = font.getbbox("Ag")
    height = bottom - top + pad
    draw.rounded_rectangle((xy[0], xy[1], xy[0] + width, xy[1] + height), radius=height // 2, fill=fill)
    draw_centered(draw, (xy[0], xy[1], xy[0] + width, xy[1] + height), text, font, ink)
    return width


def canvas(width: int, height: int, colour: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A new RGB image filled with ``colour``, and a drawing context on it."""
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def spoken(tiles: Iterable[Tile]) -> str:
    """Tiles as a screen reader should say them: ``Joker, North, 5 Dot``."""
    return ", ".join(name(t) for t in tiles)


def group_tile(group: Sequence[Tile], wild: Tile | None = Tile.J) -> Tile:
    """The tile an exposure is made of: its most common natural (jokers stand in for it)."""
    naturals = [t for t in group if t != wild] or list(group)
    return max(set(naturals), key=naturals.count)


def describe_group(group: Sequence[Tile], wild: Tile | None = Tile.J) -> str:
    """``Kong of 7 Dot with 1 joker`` (with flowers where they are wild): wild tiles are counted, since a player
    may swap a natural for a joker. A run (the classical game's chow) is ``Chow 3-4-5 Dot``."""
    text = group_words(group, wild)
    return text[:1].upper() + text[1:]


def wrap_groups(groups: Sequence[Sequence[Tile]], room: int, width_of: Callable[[Sequence[Tile]], int],
                gap: int) -> list[list[Sequence[Tile]]]:
    """Exposure groups split into lines no wider than ``room``, never splitting a group."""
    lines: list[list[Sequence[Tile]]] = [[]]
    used = 0
    for group in groups:
        width = width_of(group)
        if lines[-1] and used + width > room:
            lines.append([])
            used = 0
        lines[-1].append(group)
        used += width + gap
    return lines


def counted(count: int, word: str) -> str:
    """``1 tile``, ``3 tiles``: alt text and labels read as sentences, never "1 tiles"."""
    return f"{count} {word}{'' if count == 1 else 's'}"
