"""docs/rules.md §1 (tiles, sets) and §8.4 (tile notation, display order)."""

from __future__ import annotations

import random

import pytest

from bot.engine.errors import TileError
from bot.engine.notation import check_available, format_tiles, parse_groups, parse_tile, parse_tiles
from bot.engine.tiles import (
    DRAGON_OF_SUIT,
    SET_1946,
    SORT_KEY,
    STANDARD,
    Suit,
    Tile,
    code,
    display_sorted,
    name,
    standard_set,
)

BAMS = [Tile(t) for t in range(Tile.B1, Tile.B9 + 1)]
CRAKS = [Tile(t) for t in range(Tile.C1, Tile.C9 + 1)]
DOTS = [Tile(t) for t in range(Tile.D1, Tile.D9 + 1)]
WINDS = [Tile.N, Tile.E, Tile.W, Tile.S]
DRAGONS = [Tile.RD, Tile.GD, Tile.WD]


def total(tile_set, kinds) -> int:  # type: ignore[no-untyped-def]
    return sum(tile_set.count(k) for k in kinds)


# ---------------------------------------------------------------------------------------------- sets


def test_T1_full_set_has_152_tiles() -> None:
    assert STANDARD.size == 152
    assert len(STANDARD.tiles()) == 152


def test_T1_composition_36_per_suit_16_winds_12_dragons_8_flowers_8_jokers() -> None:
    for suit in (BAMS, CRAKS, DOTS):
        assert total(STANDARD, suit) == 36
        assert all(STANDARD.count(t) == 4 for t in suit)
    assert total(STANDARD, WINDS) == 16
    assert total(STANDARD, DRAGONS) == 12
    assert STANDARD.count(Tile.F) == 8
    assert STANDARD.count(Tile.J) == 8
    assert STANDARD.count(Tile.BL) == 0
    assert STANDARD.wild == Tile.J


def test_T7_1946_set_has_136_plus_18_flowers_and_no_jokers() -> None:
    assert SET_1946.size == 136 + 18
    assert SET_1946.count(Tile.F) == 18
    assert SET_1946.count(Tile.J) == 0
    assert SET_1946.count(Tile.BL) == 0
    assert total(SET_1946, BAMS + CRAKS + DOTS + WINDS + DRAGONS) == 136
    assert SET_1946.wild == Tile.F  # docs/rules.md §11.7: flowers are the wild tiles


@pytest.mark.parametrize("blanks", range(9))
def test_T6_blanks_option_adds_0_to_8_blanks(blanks: int) -> None:
    tile_set = standard_set(blanks)
    assert tile_set.count(Tile.BL) == blanks
    assert tile_set.size == 152 + blanks
    assert tile_set.count(Tile.J) == 8 and tile_set.count(Tile.F) == 8


@pytest.mark.parametrize("blanks", [-1, 9, 12])
def test_T6_blanks_outside_0_to_8_are_refused(blanks: int) -> None:
    with pytest.raises(ValueError):
        standard_set(blanks)


def test_T3_dragon_of_each_suit() -> None:
    assert DRAGON_OF_SUIT[Suit.CRAK] == Tile.RD
    assert DRAGON_OF_SUIT[Suit.BAM] == Tile.GD
    assert DRAGON_OF_SUIT[Suit.DOT] == Tile.WD


# ---------------------------------------------------------------------------------------------- codes


def test_canonical_codes_of_8_4() -> None:
    assert [code(t) for t in BAMS] == [f"{n}B" for n in range(1, 10)]
    assert [code(t) for t in CRAKS] == [f"{n}C" for n in range(1, 10)]
    assert [code(t) for t in DOTS] == [f"{n}D" for n in range(1, 10)]
    assert [code(t) for t in WINDS] == ["N", "E", "W", "S"]
    assert [code(t) for t in DRAGONS] == ["RD", "GD", "WD"]
    assert (code(Tile.F), code(Tile.J), code(Tile.BL)) == ("F", "J", "BL")


def test_spoken_names_say_wind_so_a_tile_never_reads_as_a_seat() -> None:
    assert name(Tile.D5) == "5 Dot"
    assert name(Tile.B1) == "1 Bam"
    assert name(Tile.C9) == "9 Crak"
    assert name(Tile.RD) == "Red Dragon"
    assert name(Tile.N) == "North Wind"
    assert name(Tile.E) == "East Wind"


@pytest.mark.parametrize("tile", list(Tile), ids=lambda t: t.name)
def test_every_code_round_trips(tile: Tile) -> None:
    assert parse_tile(code(tile)) == tile
    assert parse_tiles(code(tile)) == [tile]
    assert parse_tiles(code(tile).lower()) == [tile]
    assert format_tiles(parse_tiles(code(tile))) == code(tile)


def test_whole_set_round_trips_through_format_and_parse() -> None:
    everything = standard_set(8).tiles()
    assert parse_tiles(format_tiles(everything)) == everything


def test_input_is_case_insensitive() -> None:
    assert parse_tiles("5d rd Gd n soap j bl f") == [Tile.D5, Tile.RD, Tile.GD, Tile.N, Tile.WD, Tile.J,
                                                      Tile.BL, Tile.F]


@pytest.mark.parametrize(("alias", "tile"), [("R", Tile.RD), ("G", Tile.GD), ("0", Tile.WD),
                                            ("SOAP", Tile.WD), ("soap", Tile.WD), ("r", Tile.RD)])
def test_dragon_aliases(alias: str, tile: Tile) -> None:
    assert parse_tiles(alias) == [tile]


def test_repeat_suffix_7Cx3_is_three_7_craks() -> None:
    assert parse_tiles("7Cx3") == [Tile.C7] * 3
    assert parse_tiles("7cX3 nx2") == [Tile.C7] * 3 + [Tile.N] * 2
    assert parse_tiles("SOAPx4") == [Tile.WD] * 4
    assert parse_tiles("Jx8") == [Tile.J] * 8


def test_commas_spaces_and_several_arguments() -> None:
    expected = [Tile.B1, Tile.B2, Tile.B3, Tile.N]
    assert parse_tiles("1B,2B, 3B  N") == expected
    assert parse_tiles("1B,2B,3B,N") == expected
    assert parse_tiles(["1B 2B", "3B", "N"]) == expected
    assert parse_tiles("") == []


def test_parse_groups_splits_on_semicolons() -> None:
    assert parse_groups("5D 5D J; N N N N") == [[Tile.D5, Tile.D5, Tile.J], [Tile.N] * 4]
    assert parse_groups("") == []


@pytest.mark.parametrize("bad", ["2X", "10B", "Q", "DD", "5Z", "RDD"])
def test_malformed_tile_error_names_the_token(bad: str) -> None:
    with pytest.raises(TileError) as info:
        parse_tiles(f"1B {bad} 3B")
    message = str(info.value)
    assert f'"{bad}"' in message
    assert "5D" in message and "7Cx" not in message  # says what to type instead, not how to repeat a tile


@pytest.mark.parametrize("bad", ["7Cx0", "7Cx9"])
def test_repeat_count_out_of_range_names_the_token(bad: str) -> None:
    with pytest.raises(TileError, match=bad):
        parse_tiles(bad)


def test_impossible_count_five_3_bams_names_the_tile() -> None:
    with pytest.raises(TileError) as info:
        check_available(parse_tiles("3B 3B 3B 3B 3B"))
    message = str(info.value)
    assert "3B" in message and "3 Bam" in message
    assert "5" in message and "4" in message
    check_available(parse_tiles("3Bx4"))  # four is fine


def test_impossible_count_nine_jokers_names_the_tile() -> None:
    with pytest.raises(TileError) as info:
        check_available(parse_tiles("Jx8 J"))
    assert "Joker" in str(info.value) and "9" in str(info.value)
    check_available(parse_tiles("Jx8"))


def test_impossible_counts_depend_on_the_set() -> None:
    with pytest.raises(TileError, match="Blank"):
        check_available(parse_tiles("BL"))  # blanks only with the blanks option
    check_available(parse_tiles("BL BL"), standard_set(2))
    with pytest.raises(TileError, match="Joker"):
        check_available(parse_tiles("J"), SET_1946)  # T7: no jokers in 1946
    check_available(parse_tiles("Fx8 Fx8 F F"), SET_1946)  # 18 flowers
    with pytest.raises(TileError, match="Flower"):
        check_available(parse_tiles("Fx8 Fx8 F F F"), SET_1946)
    with pytest.raises(TileError, match="Flower"):
        check_available(parse_tiles("Fx8 F"))


# ---------------------------------------------------------------------------------------------- display


def test_display_sort_order_of_8_4() -> None:
    """J, BL, F, winds N E W S, dragons, then Bams, Craks, Dots from 1 to 9."""
    everything = list(Tile)
    shuffled = everything[:]
    random.Random(7).shuffle(shuffled)
    ordered = display_sorted(shuffled)
    assert ordered[:7] == [Tile.J, Tile.BL, Tile.F, Tile.N, Tile.E, Tile.W, Tile.S]
    assert set(ordered[7:10]) == set(DRAGONS)
    assert ordered[10:] == BAMS + CRAKS + DOTS
    assert sorted(everything, key=SORT_KEY.__getitem__) == ordered


def test_format_tiles_sorted_for_display() -> None:
    rack = parse_tiles("9D 1B N J F 5C RD E 1C")
    assert format_tiles(rack, sort=True) == "J F N E RD 1B 1C 5C 9D"
    assert format_tiles(rack) == "9D 1B N J F 5C RD E 1C"  # unsorted keeps the given order
