"""Golden images: the rack, the table and card sheets compared with the PNGs in tests/renderers/golden/.

A small tolerance (mean absolute difference per channel) absorbs anti-aliasing differences between FreeType
and Pillow builds; a layout change, a missing tile or a wrong colour goes far past it. After an intended change,
look at the new images, then regenerate:

    CHARLESTON_UPDATE_GOLDEN=1 python -m pytest tests/renderers/test_golden.py
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from support.cards import StandingsRow

from bot.engine.card import Card
from bot.engine.cardfile import load_card_text
from bot.engine.notation import parse_groups
from renderers import Rendered, render_card, render_rack, render_table, render_weekly, samples

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("CHARLESTON_UPDATE_GOLDEN") == "1"
TOLERANCE = 1.5  # mean |difference| per channel, on 0-255

# A card of our own for the card goldens, so that edits to the shipped cards do not move these images.
CARD = """
[card]
id = "golden"
name = "Golden test card"
year = 2026

[[hand]]
id = "g-1"
section = "Mixed"
pattern = "FF 2222a 44a 666b 888b"
exposed = true
value = 25
note = "any 2 suits"

[[hand]]
id = "g-2"
section = "Mixed"
pattern = ["NNN EE WW SSS 2026a", "NNNN E WW SSS 2026a"]
exposed = false
value = 30
note = "either wind pattern"

[[hand]]
id = "g-3"
section = "Mixed"
pattern = "111x + 111y = 2222z DDDDa"
exposed = true
value = 35

[[hand]]
id = "g-4"
section = "Dragons"
pattern = "RRR 000 GGG 3a 55b 77c"
exposed = true
value = 40
note = "three suits"
"""


def golden_card() -> Card:
    return load_card_text(CARD, source="golden")


def check(name: str, image: Rendered) -> None:
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(image.png)
        return
    assert path.exists(), f"no golden {path.name}; create it with CHARLESTON_UPDATE_GOLDEN=1"
    expected = Image.open(path).convert("RGB")
    actual = Image.open(io.BytesIO(image.png)).convert("RGB")
    assert actual.size == expected.size, f"{name}: size {actual.size}, golden {expected.size}"
    difference = sum(ImageStat.Stat(ImageChops.difference(actual, expected)).mean) / 3
    assert difference <= TOLERANCE, (f"{name} differs from tests/renderers/golden/{name}.png by {difference:.2f} "
                                     f"(tolerance {TOLERANCE}); if intended, regenerate (see this file's docstring)")


def test_golden_rack() -> None:
    check("rack", render_rack(*samples.rack()))


def test_golden_full_rack() -> None:
    check("rack-full", render_rack(*samples.full_rack()))


def test_golden_table() -> None:
    check("table", render_table(samples.table(), samples.NAMES))


def test_golden_card_sheet() -> None:
    check("card", render_card(golden_card()))


def test_golden_winning_line() -> None:
    tiles = parse_groups("F F; 2C 2C 2C 2C; 4C 4C; 6D 6D J; 8D 8D J")
    check("card-line", render_card(golden_card(), line_id="g-1", tiles=tiles))


@pytest.mark.parametrize("rows", [0, 3])
def test_golden_standings(rows: int) -> None:
    table = [StandingsRow(1, "Ruth", 42, 5, 2), StandingsRow(2, "Sadie", 0, 3, 0),
             StandingsRow(3, "Ida Featherstonehaugh", -17, 4, 1)]
    check(f"standings-{rows}", render_weekly("week of 23 Nov 2026", table[:rows]))
