"""The card language's constructs of issue 29 in play (docs/rules.md §8, "Reading a card"; docs/card-format.md):
separate groups of the same tile (R1), any wind `Z` (R5), long lists of alternatives, and years that a shift
leaves alone (R6), each through matching, analysis, exposures (P5) and joker exchanges (J4). Every line is made
up (tests/support/cards.py, LANGUAGE_CARD_TEXT)."""

from __future__ import annotations

import pytest
from support.cards import flat, language_card, matched_lines, winning_groups
from support.game_tables import Table
from support.tiles import tile, tiles

from bot.engine.actions import Call, ExchangeJoker
from bot.engine.analysis import analyze
from bot.engine.cardfile import load_card_text
from bot.engine.legal import legal_actions
from bot.engine.matching import check, exposure_verdict
from bot.engine.tiles import Tile

CARD = language_card()
ALL_FOUR_WINDS = {Tile.N, Tile.E, Tile.W, Tile.S}


def calls_offered(table: Table, seat: int) -> list[Call]:
    return [a for a in legal_actions(table.game, seat) if isinstance(a, Call)]


def lines_of(verdict_lines: tuple[object, ...]) -> set[str]:
    return {line.id for line in verdict_lines}  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------ separate groups (R1, J2)


def test_R1_two_separate_pairs_of_the_same_tile_make_their_line() -> None:
    result = check(CARD, tiles("1B 1B 1B 1B 2C 2C 2C 2C 3D 3D 3D 3D F F"))
    # the same 14 tiles read as two pairs of 1s (pairs-1) or as one kong of 1s (kong-1)
    assert matched_lines(result) == {"pairs-1", "kong-1"}
    pairs = next(m for m in result.matches if m.line.id == "pairs-1")
    assert [len(group) for group in pairs.arrangement] == [2, 4, 2, 4, 2]


def test_J2_a_joker_never_fills_one_of_two_separate_pairs_but_may_fill_the_kong() -> None:
    result = check(CARD, tiles("1B 1B 1B J 2C 2C 2C 2C 3D 3D 3D 3D F F"))
    assert matched_lines(result) == {"kong-1"}


def test_P5_a_pair_is_never_exposed_even_when_the_line_has_two_of_them() -> None:
    assert not exposure_verdict(CARD, tiles("1B 1B")).legal
    pung = exposure_verdict(CARD, tiles("1B 1B 1B"))
    assert "pairs-1" not in lines_of(pung.lines)  # two pairs of 1s are not a pung of them
    kong = exposure_verdict(CARD, tiles("1B 1B 1B 1B"))
    assert "kong-1" in lines_of(kong.lines) and "pairs-1" not in lines_of(kong.lines)


def test_P5_two_separate_flower_pungs_are_exposed_one_at_a_time() -> None:
    first = exposure_verdict(CARD, tiles("F F F"))
    assert first.legal and lines_of(first.lines) == {"flowers-1"}
    second = exposure_verdict(CARD, tiles("F F J"), [tiles("F F F")])
    assert second.legal and lines_of(second.lines) == {"flowers-1"}
    third = exposure_verdict(CARD, tiles("F F F"), [tiles("F F F"), tiles("F F J")])
    assert not third.legal  # the line has two flower pungs, not three


def test_P5_a_sextet_of_flowers_is_one_exposure_not_two_pungs() -> None:
    assert lines_of(exposure_verdict(CARD, tiles("F F F F F F")).lines) == {"flowers-2"}
    six_as_two = check(CARD, tiles("8B 8B 8B 8B 9B 9B 9B 9B"), [tiles("F F F"), tiles("F F F")])
    assert "flowers-2" not in matched_lines(six_as_two)
    as_one = check(CARD, tiles("8B 8B 8B 8B 9B 9B 9B 9B"), [tiles("F F F F F F")])
    assert matched_lines(as_one) == {"flowers-2"}


def test_J1_each_of_two_flower_pungs_takes_jokers_on_its_own() -> None:
    result = check(CARD, tiles("F F J 6D 6D 6D 6D F J J 7D 7D 7D 7D"))
    assert matched_lines(result) == {"flowers-1"}


def test_J4_a_joker_is_exchanged_from_the_second_of_two_flower_pungs() -> None:
    """East discards a flower twice; West calls each for a separate pung (F J J, then F F J); North, holding a
    flower, takes a joker from the second one."""
    table = Table({0: "F F", 2: "J J F J 6B 6B 6B 6B 9C 8C", 3: "F"}, wall="1D 2D 3D 4D 5D 6D", card=CARD)
    table.discard(0, "F")
    table.call(2, "J J")
    table.close()
    table.discard_and_close(2, "9C")
    table.quiet_turn(3)
    table.draw(0)
    table.discard(0, "F")
    # the call window offers the second pung (the joker may stand in it)
    assert calls_offered(table, 2) == [Call(2, tuple(tiles("F J")))]
    table.call(2, "F J")
    table.close()
    assert [e.tiles for e in table.state.seats[2].exposures] == [tiles("F J J"), tiles("F F J")]
    table.discard_and_close(2, "8C")
    table.draw(3)
    table.act(ExchangeJoker(3, 2, 1, tile("F")))
    assert table.state.seats[2].exposures[1].tiles.count(Tile.J) == 0
    assert table.rack(3)[Tile.J] == 1


# ------------------------------------------------------------------------------------------ any wind (R5)


def test_R5_Z_is_a_pung_of_any_one_of_the_four_winds() -> None:
    winds = {t for v in CARD.line("winds-1").variants for t, size in v.groups if size == 3 and t >= Tile.N}
    assert winds == ALL_FOUR_WINDS
    for wind in ("N", "E", "W", "S"):
        rack = tiles(f"{wind} {wind} {wind} 1C 1C 1C 2C 2C 2C 2C 3C 3C 3C 3C")
        assert "winds-1" in matched_lines(check(CARD, rack))


def test_R5_every_Z_of_a_line_is_the_same_wind() -> None:
    same = tiles("E E 4B 4B 4B 4B E E 5D 5D 5D 5D F F")
    assert matched_lines(check(CARD, same)) == {"winds-2"}
    different = tiles("E E 4B 4B 4B 4B W W 5D 5D 5D 5D F F")
    assert not check(CARD, different).mahjong


def test_R5_a_Z_may_be_the_wind_the_line_names_elsewhere() -> None:
    card = load_card_text('[card]\nid = "z"\nname = "Z"\n\n[[hand]]\nid = "z-1"\nsection = "Winds"\n'
                          'pattern = "ZZZ NNNN 1111a 222a"\nexposed = true\nvalue = 25\nnote = "any wind"\n', "z.toml")
    assert {t for v in card.lines[0].variants for t, size in v.groups if size == 3 and t >= Tile.N} == ALL_FOUR_WINDS
    assert check(card, tiles("N N N J N J J 1B 1B 1B 1B 2B 2B 2B")).mahjong


def test_P5_a_pung_of_any_wind_may_be_exposed_and_the_call_window_offers_it() -> None:
    for wind in ("N", "E", "W", "S"):
        verdict = exposure_verdict(CARD, tiles(f"{wind} {wind} {wind}"))
        assert verdict.legal and {"winds-1", "long-1"} <= lines_of(verdict.lines)
    table = Table({0: "W", 1: "W W 1C 1C 1C 2C 2C 2C 2C"}, wall="1D 2D", card=CARD)
    table.discard(0, "W")
    assert calls_offered(table, 1) == [Call(1, tuple(tiles("W W")))]
    table.call(1, "W W")
    table.close()
    assert table.state.seats[1].exposures[0].tiles == tiles("W W W")


def test_J4_a_joker_is_exchanged_from_an_exposed_pung_of_any_wind() -> None:
    table = Table({0: "S", 1: "J J", 2: "S"}, wall="1D 2D 3D", card=CARD)
    table.discard(0, "S")
    table.call(1, "J J")
    table.close()
    table.discard_and_close(1, table.racks[1][-1])
    table.draw(2)
    table.act(ExchangeJoker(2, 1, 0, tile("S")))
    assert table.state.seats[1].exposures[0].tiles.count(Tile.J) == 1


def test_analysis_names_the_wind_a_Z_line_still_needs() -> None:
    rack = tiles("N N 1C 1C 1C 2C 2C 2C 2C 3C 3C 3C 3C")
    best = analyze(CARD, rack)[0]
    assert best.line.id == "winds-1" and best.missing == 1 and best.need == (Tile.N,)


# --------------------------------------------------------------------------------------- long alternatives


def test_a_line_printed_with_or_forty_two_times_keeps_every_variant() -> None:
    long_line = CARD.line("long-1")
    assert len(long_line.patterns) == 42 and len(long_line.variants) == 42 * 4 * 6


def test_a_long_line_as_printed_shows_its_first_patterns_how_many_more_and_its_note() -> None:
    printed = CARD.line("long-1").printed()
    assert printed.startswith("ZZZ 1111a NN 222b FF or ZZZ 1111a NN 333b FF or ZZZ 1111a NN 444b FF "
                              "or 39 more (any wind")
    assert printed.endswith("X 30")


@pytest.mark.parametrize("which", [0, 500, 1007])
def test_M2_any_variant_of_a_long_line_is_a_mah_jongg(which: int) -> None:
    variant = CARD.line("long-1").variants[which]
    rack = flat(winning_groups(variant, CARD.tile_set))
    result = check(CARD, rack)
    assert "long-1" in matched_lines(result)
    assert analyze(CARD, rack[:13])[0].missing <= 1


def test_M2_every_variant_of_every_line_of_the_language_card_is_a_mah_jongg_on_its_line() -> None:
    """Each variant laid out as a rack (naturals first in singles and pairs, jokers only in groups of three or
    more) is a Mah Jongg on the line it came from: separate same-tile groups, every wind of Z, all 1,008
    variants of the long line, and the year with its shifted pungs."""
    missed = [(line.id, variant.describe()) for line in CARD.lines for variant in line.variants
              if line.id not in matched_lines(check(CARD, flat(winning_groups(variant, CARD.tile_set))))]
    assert missed == []
    assert sum(len(line.variants) for line in CARD.lines) > 1_050


def test_P5_an_exposure_on_a_long_line_is_held_by_the_alternative_that_has_it() -> None:
    # 9999 in suit a and 888 in suit b appear together in no alternative of the first 42 ordered pairs but one
    assert (9, 8) not in [(i, j) for i in range(1, 10) for j in range(1, 10) if i != j][:42]
    verdict = exposure_verdict(CARD, tiles("8C 8C 8C"), [tiles("9B 9B 9B 9B")])
    assert "long-1" not in lines_of(verdict.lines)
    verdict = exposure_verdict(CARD, tiles("2C 2C 2C"), [tiles("1B 1B 1B 1B"), tiles("E E E")])
    assert verdict.legal and lines_of(verdict.lines) == {"long-1"}


# ------------------------------------------------------------------------------------------ years (R6, R3)


def test_R6_a_shift_moves_the_pungs_but_never_the_year() -> None:
    assert matched_lines(check(CARD, tiles("F F F F 2B WD 2B 6B 5C 5C 5C 5D 5D 5D"))) == {"year-1"}
    assert matched_lines(check(CARD, tiles("F F F F 2B WD 2B 6B 2C 2C 2C 2D 2D 2D"))) == {"year-1"}
    shifted_year = tiles("F F F F 5B WD 5B 9B 5C 5C 5C 5D 5D 5D")
    assert not check(CARD, shifted_year).mahjong
