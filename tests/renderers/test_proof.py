"""The proof sheet (renderers/proof.py): a page per section, every line as printed with an example hand the engine
accepts on that very line, readable on a phone, alt text within Discord's limit."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from support.cards import language_card

from bot.engine.card import Card
from bot.engine.cardfile import load_card_text
from bot.engine.matching import check
from bot.engine.tiles import Tile
from bot.engine.wording import line_name
from bot.service.cards import load_card
from renderers import NotOnCard, Rendered, render_proof_line, render_proof_pages
from renderers.common import ALT_LIMIT
from renderers.proof import TILE_W, WIDTH, example_hand, example_variant, proof_alt


def opened(image: Rendered) -> Image.Image:
    picture = Image.open(io.BytesIO(image.png))
    assert picture.format == "PNG" and picture.mode == "P"
    assert picture.size == (image.width, image.height)
    return picture


def _cards() -> list[Card]:
    return [load_card("practice"), load_card("nmjl-1946"), language_card()]


@pytest.mark.parametrize("card", _cards(), ids=lambda c: c.id)
def test_every_example_hand_is_a_mahjong_on_its_own_line(card: Card) -> None:
    for line in card.lines:
        groups = example_hand(card, line)
        tiles = [t for g in groups for t in g]
        assert len(tiles) == 14, line.id
        assert [len(g) for g in groups] == [size for _, size in example_variant(card, line).groups]
        assert line in [m.line for m in check(card, tiles).matches], line.id


def test_an_example_hand_is_the_first_variant_so_the_sheet_never_changes() -> None:
    card = load_card("practice")
    line = card.lines[0]
    assert example_hand(card, line) == [[t] * n for t, n in line.variants[0].groups]
    assert render_proof_line(card, line.id).png == render_proof_line(card, line.id).png


def test_an_example_needs_no_joker_where_a_later_variant_has_none() -> None:
    card = language_card()
    line = next(x for x in card.lines if x.section == "Long")  # ZZZ 1111a NN ...: its first variant is NNN NN
    first = line.variants[0]
    assert max(first.need) > 4  # five Norths: the set has four
    hand = [t for g in example_hand(card, line) for t in g]
    assert Tile.J not in hand and example_variant(card, line) is not first
    assert line in [m.line for m in check(card, hand).matches]


QUINT_CARD = """[card]
id = "quints"
name = "A quint line of the practice card"

[[hand]]
id = "q-1"
section = "Quints"
pattern = "11111a 33b 55555c FF"
exposed = true
value = 40
"""


def test_a_quint_beyond_the_sets_copies_takes_the_wild_tile() -> None:
    card = load_card_text(QUINT_CARD, "quints.toml")
    groups = example_hand(card, card.lines[0])
    assert groups[0].count(Tile.J) == 1 and groups[2].count(Tile.J) == 1
    assert Tile.J not in groups[1] + groups[3]  # no joker in a pair
    hand = [t for g in groups for t in g]
    assert card.lines[0] in [m.line for m in check(card, hand).matches]


def test_a_page_per_section_at_phone_width_with_each_lines_name() -> None:
    card = load_card("practice")
    pages = render_proof_pages(card)
    assert len(pages) == len(card.sections)
    for page, section in zip(pages, card.sections, strict=True):
        picture = opened(page)
        assert picture.width == WIDTH == 720  # shown 360 px wide on a phone: halved, words at 12 px or more
        lines = [line for line in card.lines if line.section == section]
        assert page.height >= 128 + len(lines) * (TILE_W * 1.36 + 100)  # each line has its row of tiles
        assert len(page.alt) <= ALT_LIMIT < 1024
        assert page.alt.startswith(f"Proof sheet of {card.name}, {section} (page")
        assert all(f"{line_name(card, line)}:" in page.alt for line in lines)


def test_one_lines_proof_names_the_line_and_speaks_its_example() -> None:
    card = load_card("nmjl-1946")
    line = card.lines[5]
    image = render_proof_line(card, line.id)
    opened(image)
    assert image.width == WIDTH and 250 < image.height < 700
    assert image.alt.startswith(f"Proof sheet of {card.name}, {line_name(card, line)}.")
    assert "For example:" in image.alt
    with pytest.raises(NotOnCard, match="no line 'nope'"):
        render_proof_line(card, "nope")


def test_a_long_section_keeps_its_alt_text_within_discords_limit() -> None:
    card = load_card("practice")
    section = max(card.sections, key=lambda s: sum(1 for x in card.lines if x.section == s))
    lines = [x for x in card.lines if x.section == section]
    alt = proof_alt(card, lines, section)
    assert len(alt) <= ALT_LIMIT
    assert "example hand is drawn under it" in alt or "For example:" in alt
