"""What a player is offered on the language card's new constructs (docs/rules.md §8: R1, R3, R5; P5, J4): the
call window's exposures and the joker exchanges, as the buttons will label them (bot/service/choices.py), and the
hints that name the lines (bot/service/hints.py)."""

from __future__ import annotations

from support.cards import language_card
from support.game_tables import Table
from support.tiles import tile

from bot.engine.views import seat_view
from bot.service.choices import choices_for
from bot.service.hints import hints_for

CARD = language_card()


def test_P5_the_call_window_offers_the_second_of_two_separate_flower_pungs() -> None:
    table = Table({0: "F F", 2: "J J F J 6B 6B 6B 6B 9C 8C"}, wall="1D 2D 3D 4D", card=CARD)
    table.discard(0, "F")
    # a pung (flowers-1) or a kong (year-1's FFFF), with the jokers she may put in
    assert [c.label for c in choices_for(seat_view(table.game, 2), None).calls] == [
        "Pung of Flower with 1 joker", "Pung of Flower with 2 jokers", "Kong of Flower with 2 jokers",
        "Kong of Flower with 3 jokers"]
    table.call(2, "J J")
    table.close()
    table.discard_and_close(2, "9C")
    table.quiet_turn(3)
    table.draw(0)
    table.discard(0, "F")
    # only the second pung of flowers-1 holds beside the first: no kong now
    assert [c.label for c in choices_for(seat_view(table.game, 2), None).calls] == ["Pung of Flower with 1 joker"]


def test_R5_a_discarded_wind_is_offered_for_a_pung_of_any_wind_and_its_joker_exchanged() -> None:
    table = Table({0: "S", 1: "J S 1C 1C 1C 2C 2C 2C 2C", 2: "S"}, wall="1D 2D 3D", card=CARD)
    table.discard(0, "S")
    assert [c.label for c in choices_for(seat_view(table.game, 1), None).calls] == ["Pung of South Wind with 1 joker"]
    table.call(1, "J S")
    table.close()
    table.discard_and_close(1, "1C")
    table.draw(2)
    exchanges = choices_for(seat_view(table.game, 2), None).exchanges
    assert [c.label for c in exchanges] == ["Give South Wind for South's joker"]


def test_R1_a_hint_toward_two_separate_pairs_names_the_tile_still_needed_and_shows_the_note() -> None:
    table = Table({0: "1B 1B 1B 2C 2C 2C 2C 3D 3D 3D 3D F F"}, wall="5D", card=CARD)
    hints = hints_for(seat_view(table.game, 0), top=5)
    pairs = next(h for h in hints if h.line_id == "pairs-1")
    assert pairs.need == (tile("1B"),)  # the fourth 1: no joker may stand in either pair
    assert "11 2222 11 3333 FF" in pairs.printed and "two separate pairs of 1s" in pairs.printed


def test_R3_a_hint_toward_a_long_line_shows_its_first_patterns_how_many_more_and_its_note() -> None:
    table = Table({0: "E E E 1B 1B 1B 1B N N 2C 2C F F"}, wall="5D", card=CARD)
    (long_hint,) = [h for h in hints_for(seat_view(table.game, 0), top=10) if h.line_id == "long-1"]
    assert "or 39 more" in long_hint.printed and "any wind" in long_hint.printed
    assert long_hint.need == (tile("2C"),)
