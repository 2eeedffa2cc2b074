"""A line is named one way wherever a player or organiser sees it (issue 29 item 5): its section and its number
as the card prints them ("2468 #3", bot.engine.wording.line_name), and that name, loosely typed, or the line's
old id in the card file finds it (line_by_name)."""

from __future__ import annotations

import pytest
from support.paths import ROOT

from bot.engine.card import Card
from bot.engine.cardfile import load_card_text
from bot.engine.wording import line_by_name, line_name


@pytest.fixture(scope="module")
def practice() -> Card:
    return load_card_text((ROOT / "data" / "cards" / "practice.toml").read_text(encoding="utf-8"))


def test_every_lines_printed_name_finds_that_line(practice: Card) -> None:
    for line in practice.lines:
        assert line_by_name(practice, line_name(practice, line)) is line
        assert line_by_name(practice, line.id) is line  # the old ids keep working


@pytest.mark.parametrize("typed", ["2468 #3", "2468#3", " 2468  # 3 ", "2468 3", "2468-3"])
def test_a_printed_name_is_found_however_it_is_spaced(practice: Card, typed: str) -> None:
    assert line_by_name(practice, typed).id == "2468-3"


def test_a_section_name_is_found_in_any_case(practice: Card) -> None:
    line = practice.lines[-1]
    assert line_by_name(practice, line_name(practice, line).upper()) is line


@pytest.mark.parametrize("typed", ["2468 #0", "2468 #99", "Nowhere #1", "", "#", "2468 #x"])
def test_a_name_the_card_does_not_have_is_a_key_error(practice: Card, typed: str) -> None:
    with pytest.raises(KeyError):
        line_by_name(practice, typed)
