"""Tile faces and fonts: every kind renders, faces are told apart even small, the shipped fonts are subsets."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine.tiles import Tile, code
from renderers import fonts
from renderers.sheet import render_tile_sheet
from renderers.tiles import tile_back, tile_face, tile_size


@pytest.mark.parametrize("width", [32, 50, 88])
def test_every_tile_code_renders_at_its_documented_size(width: int) -> None:
    for tile in Tile:
        face = tile_face(tile, width)
        assert face.mode == "RGBA", code(tile)
        assert face.size == tile_size(width) == (width, round(width * 1.36))
        # The corners are transparent (rounded), the centre is opaque.
        assert face.getpixel((0, 0))[3] == 0
        assert face.getpixel((width // 2, face.height // 2))[3] == 255


def _difference(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


@pytest.mark.parametrize("width", [32, 88])
def test_all_faces_are_pairwise_distinct(width: int) -> None:
    faces = {tile: tile_face(tile, width) for tile in Tile}
    closest = min((_difference(faces[a], faces[b]), code(a), code(b)) for a, b in itertools.combinations(Tile, 2))
    # Even the nearest pair (two Craks differ by a numeral and their index) differs clearly, not by noise.
    assert closest[0] > 5.0, closest


def test_index_band_differs_between_suits_of_the_same_number() -> None:
    """Suits are not told apart by colour alone: the index letters differ even in greyscale."""
    for number in range(9):
        bands = [tile_face(Tile.B1 + 9 * suit + number, 32).convert("L").crop((0, 0, 32, 14)) for suit in range(3)]
        for a, b in itertools.combinations(bands, 2):
            assert _difference(a, b) > 6.0


def test_faces_are_cached_per_size() -> None:
    assert tile_face(Tile.J, 40) is tile_face(Tile.J, 40)
    assert tile_face(Tile.J, 40) is not tile_face(Tile.J, 41)
    assert tile_back(40).size == tile_size(40)


def test_tile_sheet_lists_every_tile() -> None:
    sheet = render_tile_sheet(48)
    assert sheet.png.startswith(b"\x89PNG")
    for tile in Tile:
        assert f" {code(tile)}" in sheet.alt


def test_font_files_are_small_subsets() -> None:
    for path in (fonts.BOLD_FILE, fonts.REGULAR_FILE, fonts.CJK_FILE):
        assert path.exists(), path
        assert path.stat().st_size < 80_000, f"{path.name} is not a small subset"
    for licence in ("LICENSE-OFL-NotoCJK.txt", "LICENSE-DejaVu.txt"):
        assert (fonts.FONTS_DIR / licence).exists()


def test_cjk_subset_has_every_tile_character() -> None:
    font = fonts.cjk(40)
    missing = font.getmask("\U0001F000")  # a character surely outside the subset draws the .notdef box
    for char in fonts.CJK_TEXT:
        assert font.getmask(char).getbbox() is not None
        assert bytes(font.getmask(char)) != bytes(missing), char


def test_latin_subset_covers_its_declared_ranges() -> None:
    font = fonts.bold(20)
    notdef = bytes(font.getmask("\u4e00"))
    for low, high in fonts.LATIN_RANGES:
        for point in range(max(low, 0x21), high + 1):
            if chr(point).isprintable() and not chr(point).isspace():
                assert bytes(font.getmask(chr(point))) != notdef, hex(point)


def test_printable_drops_what_the_fonts_cannot_draw() -> None:
    assert fonts.printable("Bob 🀄") == "Bob"
    assert fonts.printable("Zoë Ñúñez") == "Zoë Ñúñez"
    assert fonts.printable("王芳", "Seat 2") == "Seat 2"


def test_renderers_import_neither_discord_nor_aiosqlite() -> None:
    code_ = ("import sys, renderers, renderers.samples; "
             "bad = [m for m in sys.modules if m.split('.')[0] in ('discord', 'aiosqlite')]; "
             "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code_], check=True)
