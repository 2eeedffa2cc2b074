"""Tile faces, drawn by our own code: every kind of :class:`bot.engine.tiles.Tile` at any width.

Each face carries a large index in its top band (``5`` + ``D``, ``N``, ``RD``, ``J``) so it reads even at
32 px wide, and below it the traditional art: characters for Craks, bamboo sticks for Bams (a bird for the 1),
circles for Dots, 東南西北 for winds, 中 and 發, the framed White Dragon ("soap"), a flower, and a JOKER band.
Suits differ by art and letter, never by colour alone. Faces are drawn at 3x and scaled down (Pillow draws
shapes without anti-aliasing) and cached per size, so a rack only pastes ready images.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.engine.tiles import Suit, Tile, number_of, suit_of

from . import fonts
from .common import BAM_GREEN, CRAK_RED, DOT_BLUE, INK, RGB, draw_centered

SUPERSAMPLE = 3
HEIGHT_RATIO = 1.36  # a real tile is about 3 wide to 4 high
IVORY: RGB = (252, 248, 234)
BONE: RGB = (214, 194, 150)  # the tile's side, seen below the face
OUTLINE: RGB = (72, 58, 40)
BACK: RGB = (36, 120, 116)
FLOWER_INK: RGB = (156, 32, 112)
PETAL: RGB = (226, 92, 160)
GOLD: RGB = (232, 164, 0)
SUIT_INK = {Suit.BAM: BAM_GREEN, Suit.CRAK: CRAK_RED, Suit.DOT: DOT_BLUE}
CHINESE_NUMERALS = "一二三四五六七八九"
WIND_CHARS = {Tile.E: "東", Tile.S: "南", Tile.W: "西", Tile.N: "北"}

Box = tuple[float, float, float, float]


def tile_size(width: int) -> tuple[int, int]:
    """A tile's (width, height) in pixels for a given width."""
    return width, round(width * HEIGHT_RATIO)


@cache
def tile_face(tile: Tile, width: int) -> Image.Image:
    """The face of ``tile`` as an RGBA image ``tile_size(width)``; rounded corners are transparent."""
    big_w, big_h = width * SUPERSAMPLE, round(width * HEIGHT_RATIO) * SUPERSAMPLE
    image, draw, art = _blank(big_w, big_h, IVORY)
    kind = Tile(tile)
    suit, number = suit_of(kind), number_of(kind)
    if suit is not None and number is not None:
        _index(draw, big_w, big_h, str(number), "BCD"[suit], SUIT_INK[suit])
        {Suit.BAM: _bams, Suit.CRAK: _craks, Suit.DOT: _dots}[suit](draw, art, number)
    elif kind in WIND_CHARS:
        _index(draw, big_w, big_h, kind.name, "", INK)
        _character(draw, art, WIND_CHARS[kind], INK)
    elif kind in (Tile.RD, Tile.GD):
        colour = CRAK_RED if kind == Tile.RD else BAM_GREEN
        _index(draw, big_w, big_h, kind.name, "", colour, scale=0.62)
        _character(draw, art, "中" if kind == Tile.RD else "發", colour)
    elif kind == Tile.WD:
        _index(draw, big_w, big_h, "WD", "", DOT_BLUE, scale=0.62)
        _soap(draw, art)
    elif kind == Tile.F:
        _index(draw, big_w, big_h, "F", "", FLOWER_INK)
        _flower(draw, art)
    elif kind == Tile.J:
        _index(draw, big_w, big_h, "J", "", INK)
        _joker(image, draw, art)
    else:  # Blank: deliberately empty, like the real tile; a faint inner line shows it is a face, not a gap.
        inset = big_w * 0.12
        draw.rounded_rectangle((inset, inset, big_w - inset, big_h * 0.86), radius=big_w * 0.08,
                               outline=(226, 218, 196), width=max(1, big_w // 60))
    return image.resize(tile_size(width), Image.Resampling.LANCZOS)


@cache
def tile_back(width: int) -> Image.Image:
    """The back of a tile (for the wall), the same size as a face."""
    big_w, big_h = width * SUPERSAMPLE, round(width * HEIGHT_RATIO) * SUPERSAMPLE
    image, draw, _ = _blank(big_w, big_h, BACK)
    inset = big_w * 0.18
    draw.rounded_rectangle((inset, inset, big_w - inset, big_h * 0.84), radius=big_w * 0.1,
                           outline=(120, 190, 184), width=max(1, big_w // 30))
    return image.resize(tile_size(width), Image.Resampling.LANCZOS)


def _blank(w: int, h: int, face: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw, Box]:
    """The tile body (side colour showing below the face, dark outline so it stands out on any background)."""
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    line = max(2, w // 28)
    radius = w * 0.14
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=BONE, outline=OUTLINE, width=line)
    depth = h * 0.065
    draw.rounded_rectangle((line, line, w - 1 - line, h - 1 - depth), radius=radius * 0.85, fill=face)
    art = (w * 0.1, h * 0.37, w * 0.9, h - depth - h * 0.035)
    return image, draw, art


def _index(draw: ImageDraw.ImageDraw, w: int, h: int, main: str, letter: str, colour: RGB,
           scale: float = 1.0) -> None:
    """The big corner index: the number (or honour letters), then the suit letter, on one baseline."""
    baseline = h * 0.33
    x = w * 0.09
    big = fonts.bold(round(w * 0.56 * scale))
    draw.text((x, baseline), main, font=big, fill=colour, anchor="ls")
    if letter:
        x += big.getlength(main) + w * 0.02
        draw.text((x, baseline), letter, font=fonts.bold(round(w * 0.4)), fill=colour, anchor="ls")


def _character(draw: ImageDraw.ImageDraw, box: Box, char: str, colour: RGB) -> None:
    size = round(min(box[2] - box[0], box[3] - box[1]) * 1.12)
    draw_centered(draw, box, char, fonts.cjk(size), colour)


def _craks(draw: ImageDraw.ImageDraw, art: Box, number: int) -> None:
    x0, y0, x1, y1 = art
    middle = y0 + (y1 - y0) * 0.44
    _character(draw, (x0, y0, x1, middle), CHINESE_NUMERALS[number - 1], INK)
    _character(draw, (x0, middle, x1, y1), "萬", CRAK_RED)


# Bamboo sticks: (x, y) centres in the art box as fractions, the tilt in degrees, and red accents as printed.
_STICKS: dict[int, tuple[int, list[tuple[float, float, float, bool]]]] = {
    2: (2, [(0.5, 0.25, 0, False), (0.5, 0.75, 0, False)]),
    3: (2, [(0.5, 0.25, 0, False), (0.28, 0.75, 0, False), (0.72, 0.75, 0, False)]),
    4: (2, [(x, y, 0, False) for y in (0.25, 0.75) for x in (0.28, 0.72)]),
    5: (2, [*((x, y, 0, False) for y in (0.25, 0.75) for x in (0.18, 0.82)), (0.5, 0.5, 0, True)]),
    6: (2, [(x, y, 0, False) for y in (0.25, 0.75) for x in (0.2, 0.5, 0.8)]),
    7: (3, [(0.5, 1 / 6, 0, True), *((x, y, 0, False) for y in (0.5, 5 / 6) for x in (0.2, 0.5, 0.8))]),
    8: (2, [(0.12, 0.25, 0, False), (0.38, 0.25, -22, False), (0.62, 0.25, 22, False), (0.88, 0.25, 0, False),
            (0.12, 0.75, 0, False), (0.38, 0.75, 22, False), (0.62, 0.75, -22, False), (0.88, 0.75, 0, False)]),
    9: (3, [(x, y, 0, x == 0.5) for y in (1 / 6, 0.5, 5 / 6) for x in (0.2, 0.5, 0.8)]),
}


def _bams(draw: ImageDraw.ImageDraw, art: Box, number: int) -> None:
    if number == 1:
        _bird(draw, art)
        return
    x0, y0, x1, y1 = art
    w, h = x1 - x0, y1 - y0
    rows, sticks = _STICKS[number]
    length = h / rows * 0.9
    thick = min(w * (0.16 if number == 8 else 0.2), length * 0.4)
    for fx, fy, tilt, red in sticks:
        _stick(draw, x0 + fx * w, y0 + fy * h, length, thick, tilt, CRAK_RED if red else BAM_GREEN)


def _stick(draw: ImageDraw.ImageDraw, cx: float, cy: float, length: float, thick: float, tilt: float,
           colour: RGB) -> None:
    a = math.radians(tilt)
    ux, uy = math.sin(a), -math.cos(a)  # along the stick
    vx, vy = -uy, ux  # across it

    def at(along: float, across: float) -> tuple[float, float]:
        return cx + ux * along + vx * across, cy + uy * along + vy * across

    half, r = length / 2, thick / 2
    body = [at(half - r, -r), at(half - r, r), at(-half + r, r), at(-half + r, -r)]
    dark = tuple(int(c * 0.55) for c in colour)
    draw.polygon(body, fill=colour)
    for end in (half - r, -half + r):
        ex, ey = at(end, 0)
        draw.ellipse((ex - r, ey - r, ex + r, ey + r), fill=colour)
    # Nodes across the stick and a pale line along it are what make a green bar read as bamboo.
    for along in (-length * 0.17, length * 0.17):
        draw.line([at(along, -r), at(along, r)], fill=dark, width=max(2, round(thick * 0.22)))
    draw.line([at(half - r * 1.3, 0), at(-half + r * 1.3, 0)], fill=(235, 245, 235), width=max(1, round(thick * 0.14)))


def _bird(draw: ImageDraw.ImageDraw, art: Box) -> None:
    """The 1 Bam: a sparrow standing on a stick, facing left."""
    x0, y0, x1, y1 = art
    w, h = x1 - x0, y1 - y0

    def p(fx: float, fy: float) -> tuple[float, float]:
        return x0 + fx * w, y0 + fy * h

    def box(ax: float, ay: float, bx: float, by: float) -> Box:
        return (*p(ax, ay), *p(bx, by))

    for tip, colour in (((1.0, 0.02), CRAK_RED), ((1.02, 0.28), DOT_BLUE), ((0.9, 0.0), BAM_GREEN)):
        draw.polygon([p(0.55, 0.55), p(*tip), p(tip[0] - 0.14, tip[1] + 0.05)], fill=colour, outline=OUTLINE)
    draw.ellipse(box(0.18, 0.3, 0.78, 0.8), fill=BAM_GREEN, outline=OUTLINE, width=max(1, round(w * 0.02)))
    draw.ellipse(box(0.38, 0.42, 0.74, 0.68), fill=(0, 80, 40))
    draw.ellipse(box(0.06, 0.12, 0.4, 0.46), fill=CRAK_RED, outline=OUTLINE, width=max(1, round(w * 0.02)))
    draw.polygon([p(0.1, 0.24), p(-0.06, 0.32), p(0.1, 0.36)], fill=GOLD, outline=OUTLINE)
    draw.ellipse(box(0.16, 0.22, 0.26, 0.3), fill=(255, 255, 255))
    draw.ellipse(box(0.19, 0.24, 0.24, 0.29), fill=(0, 0, 0))
    leg = max(2, round(w * 0.035))
    for fx in (0.4, 0.56):
        draw.line([p(fx, 0.78), p(fx - 0.04, 0.92)], fill=OUTLINE, width=leg)
    draw.rounded_rectangle(box(0.05, 0.9, 0.95, 0.98), radius=h * 0.03, fill=BAM_GREEN)


# Dots: centres as fractions of the art box, the radius as a fraction of its smaller side, colours as printed.
_B, _R, _G = DOT_BLUE, CRAK_RED, BAM_GREEN
_DOTS: dict[int, tuple[float, list[tuple[float, float, RGB]]]] = {
    2: (0.27, [(0.5, 0.25, _G), (0.5, 0.75, _B)]),
    3: (0.2, [(0.22, 0.2, _B), (0.5, 0.5, _R), (0.78, 0.8, _G)]),
    4: (0.22, [(0.27, 0.25, _B), (0.73, 0.25, _G), (0.27, 0.75, _G), (0.73, 0.75, _B)]),
    5: (0.19, [(0.22, 0.2, _B), (0.78, 0.2, _G), (0.5, 0.5, _R), (0.22, 0.8, _G), (0.78, 0.8, _B)]),
    6: (0.17, [(0.28, 0.17, _G), (0.72, 0.17, _G), *((x, y, _R) for y in (0.5, 0.83) for x in (0.28, 0.72))]),
    7: (0.13, [(0.2, 0.12, _G), (0.5, 0.24, _G), (0.8, 0.36, _G),
               *((x, y, _R) for y in (0.64, 0.88) for x in (0.3, 0.7))]),
    8: (0.13, [(x, y, _B) for y in (0.125, 0.375, 0.625, 0.875) for x in (0.28, 0.72)]),
    9: (0.145, [(x, y, c) for y, c in ((1 / 6, _B), (0.5, _R), (5 / 6, _G)) for x in (0.2, 0.5, 0.8)]),
}


def _dots(draw: ImageDraw.ImageDraw, art: Box, number: int) -> None:
    x0, y0, x1, y1 = art
    w, h = x1 - x0, y1 - y0
    if number == 1:
        _one_dot(draw, (x0 + w / 2, y0 + h / 2), min(w, h) * 0.48)
        return
    radius, dots = _DOTS[number]
    r = radius * min(w, h) if number != 2 else radius * h * 0.85
    for fx, fy, colour in dots:
        _coin(draw, (x0 + fx * w, y0 + fy * h), r, colour)


def _coin(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, colour: RGB) -> None:
    def ring(radius: float, fill: RGB) -> None:
        draw.ellipse((c[0] - radius, c[1] - radius, c[0] + radius, c[1] + radius), fill=fill)

    ring(r, OUTLINE)
    ring(r * 0.9, colour)
    ring(r * 0.62, IVORY)
    ring(r * 0.44, colour)
    ring(r * 0.14, IVORY)


def _one_dot(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float) -> None:
    """The 1 Dot: one big coin with a ring of petals, unlike any other face."""
    _coin(draw, c, r, DOT_BLUE)
    for k in range(8):
        a = k * math.pi / 4
        px, py = c[0] + math.cos(a) * r * 0.76, c[1] + math.sin(a) * r * 0.76
        pr = r * 0.1
        draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=CRAK_RED)
    inner = r * 0.3
    draw.ellipse((c[0] - inner, c[1] - inner, c[0] + inner, c[1] + inner), fill=BAM_GREEN)


def _soap(draw: ImageDraw.ImageDraw, art: Box) -> None:
    """The White Dragon: an empty double frame, as on most American sets."""
    x0, y0, x1, y1 = art
    w = x1 - x0
    outer = max(3, round(w * 0.09))
    draw.rectangle((x0, y0, x1, y1), outline=DOT_BLUE, width=outer)
    gap = w * 0.16
    draw.rectangle((x0 + gap, y0 + gap, x1 - gap, y1 - gap), outline=DOT_BLUE, width=max(2, outer // 2))


def _flower(draw: ImageDraw.ImageDraw, art: Box) -> None:
    x0, y0, x1, y1 = art
    w, h = x1 - x0, y1 - y0
    cx, cy = x0 + w / 2, y0 + h * 0.4
    r = min(w, h) * 0.2
    stem = max(2, round(w * 0.05))
    draw.line([(cx, cy), (cx, y1)], fill=BAM_GREEN, width=stem)
    draw.ellipse((cx - w * 0.34, y1 - h * 0.28, cx, y1 - h * 0.12), fill=BAM_GREEN)
    draw.ellipse((cx, y1 - h * 0.22, cx + w * 0.34, y1 - h * 0.06), fill=BAM_GREEN)
    for k in range(5):
        a = -math.pi / 2 + k * 2 * math.pi / 5
        px, py = cx + math.cos(a) * r, cy + math.sin(a) * r
        draw.ellipse((px - r * 0.85, py - r * 0.85, px + r * 0.85, py + r * 0.85), fill=PETAL, outline=FLOWER_INK,
                     width=max(1, round(w * 0.015)))
    draw.ellipse((cx - r * 0.55, cy - r * 0.55, cx + r * 0.55, cy + r * 0.55), fill=GOLD, outline=OUTLINE)


def _joker(image: Image.Image, draw: ImageDraw.ImageDraw, art: Box) -> None:
    """A black band with JOKER in tall white letters, framed by two gold stars: unmistakable at any size."""
    x0, y0, x1, y1 = art
    w, h = x1 - x0, y1 - y0
    band = (x0 - w * 0.06, y0 + h * 0.2, x1 + w * 0.06, y0 + h * 0.8)
    draw.rounded_rectangle(band, radius=w * 0.08, fill=(20, 20, 24))
    # Tall, condensed letters use the band's height, so the word stays readable on a narrow tile.
    font = fonts.bold(120)
    left, top, right, bottom = font.getbbox("JOKER")
    word = Image.new("L", (math.ceil(right - left), math.ceil(bottom - top)), 0)
    ImageDraw.Draw(word).text((-left, -top), "JOKER", font=font, fill=255)
    target = (round((band[2] - band[0]) * 0.88), round((band[3] - band[1]) * 0.72))
    word = word.resize(target, Image.Resampling.LANCZOS)
    spot = (round((band[0] + band[2] - target[0]) / 2), round((band[1] + band[3] - target[1]) / 2))
    image.paste((255, 255, 255, 255), spot, word)
    for cx in (x0 + w * 0.2, x1 - w * 0.2):
        for cy in (y0 + h * 0.08, y1 - h * 0.08):
            _star(draw, (cx, cy), h * 0.1, GOLD)


def _star(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, colour: RGB) -> None:
    points = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        radius = r if k % 2 == 0 else r * 0.45
        points.append((c[0] + math.cos(a) * radius, c[1] + math.sin(a) * radius))
    draw.polygon(points, fill=colour, outline=OUTLINE)


def paste_tile(image: Image.Image, tile: Tile, xy: tuple[int, int], width: int) -> None:
    """Draw a tile face onto ``image`` at ``xy``."""
    face = tile_face(tile, width)
    image.paste(face, xy, face)


def paste_back(image: Image.Image, xy: tuple[int, int], width: int) -> None:
    """Draw a tile's back onto ``image`` at ``xy``."""
    back = tile_back(width)
    image.paste(back, xy, back)
