"""The shipped font subsets (data/fonts/README.md): rendering never depends on the fonts a machine has.

Each subset covers only what the images draw. Player names can hold any character, so :func:`printable`
drops what the Latin subset cannot draw instead of letting a box (.notdef) appear in a name.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONTS_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
BOLD_FILE = FONTS_DIR / "DejaVuSans-Bold-subset.ttf"
REGULAR_FILE = FONTS_DIR / "DejaVuSans-subset.ttf"
CJK_FILE = FONTS_DIR / "NotoSerifCJKtc-Bold-tiles.otf"

# The code points in the Latin subsets; must match data/fonts/make-subsets.sh.
LATIN_RANGES: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2027), (0x2030, 0x203A), (0x2122, 0x2122), (0x2190, 0x2193),
    (0x2212, 0x2212), (0x25B2, 0x25B2), (0x25B6, 0x25B6), (0x25BC, 0x25BC), (0x25C0, 0x25C0), (0x2605, 0x2605),
)
CJK_TEXT = "一二三四五六七八九萬東南西北中發"

Font = ImageFont.FreeTypeFont


@cache
def bold(size: int) -> Font:
    """The bundled bold font at ``size`` points."""
    return ImageFont.truetype(str(BOLD_FILE), size)


@cache
def regular(size: int) -> Font:
    """The bundled regular font at ``size`` points."""
    return ImageFont.truetype(str(REGULAR_FILE), size)


@cache
def cjk(size: int) -> Font:
    """The bundled font with the tiles' Chinese characters, at ``size`` points."""
    return ImageFont.truetype(str(CJK_FILE), size)


def covered(char: str) -> bool:
    """Whether the bundled Latin fonts can draw ``char``."""
    point = ord(char)
    return any(low <= point <= high for low, high in LATIN_RANGES)


def printable(text: str, fallback: str = "?") -> str:
    """``text`` with the characters the Latin subset lacks (emoji, CJK, ...) dropped; ``fallback`` if none is left."""
    kept = "".join(c if covered(c) else " " for c in text)
    kept = " ".join(kept.split())
    return kept or fallback
