"""Mah Jongg checking and exposure legality (docs/rules.md §5, §8.1, P5-P8, SC3)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.cards import flat, foreign_tile, matched_lines, winning_groups
from support.properties import SETTINGS, variants
from support.tiles import tiles

from bot.engine.errors import TileError
from bot.engine.matching import check, exposure_verdict
from bot.engine.tiles import Tile
from bot.service.cards import load_card

CARD_LINES = [(card_id, line.id) for card_id in ("practice", "nmjl-1946") for line in load_card(card_id).lines]
IDS = [f"{card_id}:{line_id}" for card_id, line_id in CARD_LINES]


# ---------------------------------------------------------------------------------------------- every line


@pytest.mark.parametrize(("card_id", "line_id"), CARD_LINES, ids=IDS)
def test_every_variant_of_every_line_is_mah_jongg_and_a_near_miss_is_not(card_id: str, line_id: str) -> None:
    card = load_card(card_id)
    line = card.line(line_id)
    wild = card.wild
    foreign = foreign_tile(card, line)
    for variant in line.variants:
        groups = winning_groups(variant, card.tile_set)
        hand = flat(groups)
        result = check(card, hand)
        match = next((m for m in result.matches if m.line.id == line_id), None)
        assert match is not None, f"{line_id}: {variant.describe()} is not Mah Jongg"
        # The arrangement lays out exactly the 14 tiles given, group by group, wilds only in groups of 3+.
        assert Counter(flat(match.arrangement)) == Counter(hand)
        for laid, (tile, size) in zip(match.arrangement, match.variant.groups, strict=True):
            assert len(laid) == size
            assert all(t == tile or (t == wild and size >= 3) for t in laid), (laid, tile, size)
        # Jokerless exactly when no wild tile was needed (J3: big groups of one number need wilds).
        assert match.jokerless == (wild not in hand)
        # Near miss: one tile swapped for a tile this line never uses.
        for position in (0, 13, line.index % 14):
            miss = hand[:]
            miss[position] = foreign
            assert line_id not in matched_lines(check(card, miss)), (variant.describe(), position)


@pytest.mark.parametrize(("card_id", "line_id"), CARD_LINES, ids=IDS)
def test_J2_wild_in_a_single_or_pair_never_completes_the_line(card_id: str, line_id: str) -> None:
    """Replace a natural of a single or pair with the wild tile (joker / 1946 flower); the line must fail.
    Only kinds whose naturals all sit in singles and pairs are used: otherwise the naturals could simply move
    from a big group to the pair and the wild take the big group's place, which is legal."""
    card = load_card(card_id)
    line = card.line(line_id)
    tried = 0
    for variant in line.variants:
        hand = flat(winning_groups(variant, card.tile_set))
        counts = Counter(hand)
        for tile, size in variant.groups:
            if size >= 3 or counts[tile] != variant.small[tile]:
                continue
            bad = hand[:]
            bad[bad.index(tile)] = card.wild
            if Counter(bad)[card.wild] > card.tile_set.count(card.wild):
                continue
            tried += 1
            assert line_id not in matched_lines(check(card, bad)), (variant.describe(), tile)
    if not any(size < 3 for v in line.variants for _, size in v.groups):
        assert tried == 0


# ---------------------------------------------------------------------------------------------- J1 at random


@SETTINGS
@given(variants(), st.data())
def test_J1_wilds_in_groups_of_three_or_more_always_match(picked, data) -> None:  # type: ignore[no-untyped-def]
    card, line, variant = picked
    groups = winning_groups(variant, card.tile_set)
    wild = card.wild
    room = card.tile_set.count(wild) - flat(groups).count(wild)
    changed = 0
    for group, (_, size) in zip(groups, variant.groups, strict=True):
        if size < 3:
            continue
        for i, tile in enumerate(group):
            if tile != wild and changed < room and data.draw(st.booleans()):
                group[i] = wild
                changed += 1
    hand = flat(groups)
    result = check(card, hand)
    match = next((m for m in result.matches if m.line.id == line.id), None)
    assert match is not None, variant.describe()
    assert match.jokerless == (wild not in hand)



# ---------------------------------------------------------------------------------------------- hand-written


def lines_of(card, concealed, exposures=()):  # type: ignore[no-untyped-def]
    return matched_lines(check(card, tiles(concealed), [tiles(e) for e in exposures]))


def test_J1_jokers_fill_pungs_and_kongs(practice) -> None:  # type: ignore[no-untyped-def]
    # 2468-3: EEEE 444a 66a 888a WW
    assert "2468-3" in lines_of(practice, "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W")
    assert "2468-3" in lines_of(practice, "E J J J 4B J 4B 6B 6B 8B 8B J W W")
    assert "2468-3" in lines_of(practice, "J J J J 4B 4B 4B 6B 6B J J J W W")  # a group may be all jokers


def test_J2_joker_never_fills_a_pair(practice) -> None:  # type: ignore[no-untyped-def]
    assert "2468-3" not in lines_of(practice, "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W J")
    assert "2468-3" not in lines_of(practice, "E E E E 4B 4B 4B 6B J 8B 8B 8B W W")


def test_J2_joker_never_fills_a_single(practice) -> None:  # type: ignore[no-untyped-def]
    # quint-4: NNNNN 2468a EEEEE (C); the quints need a joker each, the 2468 singles none
    assert "quint-4" in lines_of(practice, "N N N N J 2B 4B 6B 8B E E E E J")
    assert "quint-4" not in lines_of(practice, "N N N N J 2B J 6B 8B E E E E J")


def test_R6_NEWS_singles_never_take_a_joker(practice) -> None:  # type: ignore[no-untyped-def]
    # like-2: N E W S 1111a 11b 1111c, any like number
    assert "like-2" in lines_of(practice, "N E W S 3B 3B 3B 3B 3C 3C 3D 3D 3D 3D")
    assert "like-2" in lines_of(practice, "N E W S 3B 3B J J 3C 3C 3D J 3D 3D")
    assert "like-2" not in lines_of(practice, "N E J S 3B 3B 3B 3B 3C 3C 3D 3D 3D 3D")


def test_R6_year_digits_never_take_a_joker(practice) -> None:  # type: ignore[no-untyped-def]
    # 2026-1: 2026a NNNN 66b SSSS; the year is four singles, its 0 is a soap (T4)
    assert "2026-1" in lines_of(practice, "2B 0 2B 6B N N N N 6C 6C S S S S")
    assert "2026-1" in lines_of(practice, "2B 0 2B 6B N N N J 6C 6C S J J S")
    assert "2026-1" not in lines_of(practice, "2B J 2B 6B N N N N 6C 6C S S S S")
    assert "2026-1" not in lines_of(practice, "2B 0 2B J N N N N 6C 6C S S S S")


def test_T3_R4_matching_dragons(practice) -> None:  # type: ignore[no-untyped-def]
    # 2468-5: 22a 44a DDDa 66b 88b DDDb (C): each pung is the dragon of its pairs' suit
    assert "2468-5" in lines_of(practice, "2B 2B 4B 4B GD GD GD 6C 6C 8C 8C RD RD RD")
    assert "2468-5" in lines_of(practice, "2D 2D 4D 4D 0 0 0 6C 6C 8C 8C R R R")
    # bams and dots with Red: red belongs to craks, so the dots' pung must be white (soap)
    assert "2468-5" not in lines_of(practice, "2B 2B 4B 4B GD GD GD 6D 6D 8D 8D RD RD RD")
    assert "2468-5" not in lines_of(practice, "2B 2B 4B 4B WD WD WD 6C 6C 8C 8C RD RD RD")


def test_T3_R4_opposite_dragon(practice) -> None:  # type: ignore[no-untyped-def]
    # odd-2: 1111a 555a 9999a DDDb: a dragon of another suit than the numbers
    for dragon, ok in (("RD", True), ("WD", True), ("GD", False)):  # bams: green is the matching one
        assert ("odd-2" in lines_of(practice, f"1B 1B 1B 1B 5B 5B 5B 9B 9B 9B 9B {dragon}x3")) is ok
    for dragon, ok in (("GD", True), ("RD", True), ("WD", False)):  # dots: white (soap) matches
        assert ("odd-2" in lines_of(practice, f"1Dx4 5Dx3 9Dx4 {dragon}x3")) is ok


def test_any_dragon_x(practice) -> None:  # type: ignore[no-untyped-def]
    # wd-3: EEE WWW FFFFF DDDx
    for dragon in ("RD", "GD", "WD"):
        assert "wd-3" in lines_of(practice, f"E E E W W W F F F F F {dragon}x3")


def test_shift_any_like_numbers(practice) -> None:  # type: ignore[no-untyped-def]
    # like-1: 1111a NN 1111b SS 11c, any like number
    assert "like-1" in lines_of(practice, "7B 7B 7B 7B N N 7C 7C 7C 7C S S 7D 7D")
    assert "like-1" in lines_of(practice, "1B 1B 1B 1B N N 1C 1C 1C 1C S S 1D 1D")
    assert "like-1" not in lines_of(practice, "7B 7B 7B 7B N N 7C 7C 7C 7C S S 6D 6D")  # not like numbers


def test_shift_any_consecutive_reaches_9_but_no_further(practice) -> None:  # type: ignore[no-untyped-def]
    # run-2: 11a 22a 33a 444b 555b DDb, any 5 consecutive; shift 4 gives 5-9
    assert "run-2" in lines_of(practice, "5C 5C 6C 6C 7C 7C 8D 8D 8D 9D 9D 9D WD WD")
    assert "run-2" in lines_of(practice, "1C 1C 2C 2C 3C 3C 4D 4D 4D 5D 5D 5D WD WD")
    assert "run-2" not in lines_of(practice, "5C 5C 6C 6C 7C 7C 8D 8D 8D 9D 9D 9D RD RD")  # pair must match b


def test_shift_list_allows_only_the_listed_offsets(practice) -> None:  # type: ignore[no-untyped-def]
    # odd-3: 111a 333a 555b 777b NN, shift [0, 2]: 1357 or 3579, never 2468
    assert "odd-3" in lines_of(practice, "1B 1B 1B 3B 3B 3B 5C 5C 5C 7C 7C 7C N N")
    assert "odd-3" in lines_of(practice, "3B 3B 3B 5B 5B 5B 7C 7C 7C 9C 9C 9C N N")
    assert "odd-3" not in lines_of(practice, "2B 2B 2B 4B 4B 4B 6C 6C 6C 8C 8C 8C N N")
    # quint-3: 11111a 33b 55555c FF, shift [0, 2, 4]
    assert "quint-3" in lines_of(practice, "5B 5B 5B 5B J 7C 7C 9D 9D 9D 9D J F F")
    assert "quint-3" not in lines_of(practice, "2B 2B 2B 2B J 4C 4C 6D 6D 6D 6D J F F")


def test_these_numbers_only(practice) -> None:  # type: ignore[no-untyped-def]
    # quint-1: 22a 44444a 66a 88888b, no shift
    assert "quint-1" in lines_of(practice, "2B 2B 4B 4B 4B 4B J 6B 6B 8C 8C 8C 8C J")
    assert "quint-1" not in lines_of(practice, "3B 3B 5B 5B 5B 5B J 7B 7B 9C 9C 9C 9C J")


def test_this_way_only_1946_winds(card1946) -> None:  # type: ignore[no-untyped-def]
    # winds-3: NNNNNN E W SSSSSS; winds-4: EEEEEE N S WWWWWW ("this way only")
    assert lines_of(card1946, "N N N N F F E W S S S S F F") == {"winds-3"}
    assert lines_of(card1946, "E E E E F F N S W W W W F F") == {"winds-4"}
    assert lines_of(card1946, "N N N N F F E E S S S S F F") == set()


def test_1946_wild_flowers_fill_a_septet_but_not_a_pair(card1946) -> None:  # type: ignore[no-untyped-def]
    # septet-1: NNNNNNN SSSSSSS: 4 naturals + 3 wild flowers each (J3: at least 3 wilds per septet)
    result = check(card1946, tiles("N N N N F F F S S S S F F F"))
    assert "septet-1" in matched_lines(result)
    assert not result.best.jokerless
    # dragons-1: RRRR 0000 GGGG NN (or SS)
    assert "dragons-1" in lines_of(card1946, "R R R R 0 0 0 0 G G G G N N")
    assert "dragons-1" in lines_of(card1946, "R R R F 0 0 F 0 G G G G S S")
    assert "dragons-1" not in lines_of(card1946, "R R R R 0 0 0 0 G G G G N F")
    # odd-1: 111111a 33a 555555a
    assert "odd-1" in lines_of(card1946, "1D 1D 1D 1D F F 3D 3D 5D 5D 5D 5D F F")
    assert "odd-1" not in lines_of(card1946, "1D 1D 1D 1D F F 3D F 5D 5D 5D 5D F F")


def test_1946_has_no_jokers(card1946) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TileError, match="Joker"):
        check(card1946, tiles("N N N N J F F S S S S F F F"))


def test_J3_quint_of_5s_without_a_joker_cannot_be_formed(practice) -> None:  # type: ignore[no-untyped-def]
    # quint-3 with offset 4: 55555a 77b 99999c FF. Five natural 5s do not exist.
    with pytest.raises(TileError, match="5B"):
        check(practice, tiles("5B 5B 5B 5B 5B 7C 7C 9D 9D 9D 9D J F F"))
    result = check(practice, tiles("5B 5B 5B 5B J 7C 7C 9D 9D 9D 9D J F F"))
    assert "quint-3" in matched_lines(result)
    assert not any(m.jokerless for m in result.matches)


def test_J3_flower_quint_can_be_all_natural(practice) -> None:  # type: ignore[no-untyped-def]
    # 2026-2: FFFFF 2026a 66b 666c
    result = check(practice, tiles("F F F F F 2B 0 2B 6B 6C 6C 6D 6D 6D"))
    assert matched_lines(result) == {"2026-2"}
    assert result.best.jokerless and result.best.pays_jokerless


def test_SC3_jokerless_flag(practice) -> None:  # type: ignore[no-untyped-def]
    natural = check(practice, tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W"))
    assert natural.best.line.id == "2468-3" and natural.best.jokerless and natural.best.pays_jokerless
    with_joker = check(practice, tiles("E E E J 4B 4B 4B 6B 6B 8B 8B 8B W W"))
    assert with_joker.best.line.id == "2468-3" and not with_joker.best.jokerless
    assert not with_joker.best.pays_jokerless


def test_SC3_singles_and_pairs_never_pays_jokerless(practice) -> None:  # type: ignore[no-untyped-def]
    # sp-1: NN 2468a 2468b DDc FF, dragons of the suit with no numbers
    result = check(practice, tiles("N N 2B 4B 6B 8B 2C 4C 6C 8C WD WD F F"))
    assert matched_lines(result) == {"sp-1"}
    match = result.best
    assert match.jokerless and match.singles_and_pairs
    assert not match.pays_jokerless


def test_SP_line_has_no_room_for_jokers(practice) -> None:  # type: ignore[no-untyped-def]
    assert "sp-1" not in lines_of(practice, "N N 2B 4B 6B 8B 2C 4C 6C 8C WD WD F J")


def test_a_hand_can_make_two_lines_and_best_is_the_higher_value(card1946) -> None:  # type: ignore[no-untyped-def]
    # Six wild flowers make both NNNNNNN SSSSSSS (septet-1, 100) and NNNNN DDDD SSSSS (winds-1, 50): the
    # dragon kong may be all wilds (J1).
    result = check(card1946, tiles("N N N N F F F S S S S F F F"))
    assert matched_lines(result) == {"septet-1", "winds-1"}
    assert result.best.line.id == "septet-1"


def test_best_counts_the_jokerless_bonus_but_not_for_singles_and_pairs() -> None:
    from bot.engine.cardfile import load_card_text

    text = """
[card]
id = "two"
name = "Two lines"

[[hand]]
id = "sp"
section = "S"
pattern = "NN EE WW SS 11a 22a 33a"
exposed = false
value = 50
singles_and_pairs = true

[[hand]]
id = "plain"
section = "S"
pattern = "NN EE WW SS 11a 22a 33a"
exposed = false
value = 30
"""
    card = load_card_text(text, "two.toml")
    result = check(card, tiles("N N E E W W S S 1B 1B 2B 2B 3B 3B"))
    assert matched_lines(result) == {"sp", "plain"}
    # sp pays 50 (never doubled, SC3); plain pays 30, doubled to 60 for jokerless
    assert result.best.line.id == "plain"
    assert check(card, tiles("1B 2B 3B 4B 5B 6B 7B 8B 9B N E W S F")).best is None


# ---------------------------------------------------------------------------------------------- exposures


def test_P6_concealed_line_rejects_exposures(practice) -> None:  # type: ignore[no-untyped-def]
    # 2468-5 is C: the same 14 tiles make it when concealed, not with a pung exposed
    assert lines_of(practice, "2B 2B 4B 4B GD GD GD 6C 6C 8C 8C RD RD RD") == {"2468-5"}
    assert lines_of(practice, "2B 2B 4B 4B 6C 6C 8C 8C RD RD RD", ["GD GD GD"]) == set()
    assert lines_of(practice, "2B 2B 4B 4B 6C 6C 8C 8C RD RD RD", ["GD GD J"]) == set()


def test_exposures_on_an_exposed_line(practice) -> None:  # type: ignore[no-untyped-def]
    # 2468-1: DDa 2222a 88a 444b 666b (X)
    assert "2468-1" in lines_of(practice, "GD GD 2B 2B 2B 2B 8B 8B", ["4C 4C 4C", "6C 6C J"])
    assert "2468-1" in lines_of(practice, "GD GD 8B 8B 4C 4C 4C 6C 6C 6C", ["2B J J 2B"])


def test_exposures_map_one_to_one_onto_groups_of_the_same_size(practice) -> None:  # type: ignore[no-untyped-def]
    # The same 14 tiles as a 2468-1 win, but the kong of 2s shown as an exposed pung: a pung is not a kong,
    # and nothing can be added to an exposure later (P8).
    assert lines_of(practice, "GD GD 2B 8B 8B 4C 4C 4C 6C 6C 6C", ["2B 2B 2B"]) == set()
    # an exposed kong where the line has a pung of that tile
    assert "2468-1" in lines_of(practice, "GD GD 2B 2B 2B 2B 8B 8B 6C 6C J 4C 4C 4C")
    assert lines_of(practice, "GD GD 2B 2B 2B 2B 8B 8B 6C 6C", ["4C 4C 4C J"]) == set()


def test_two_identical_exposures_map_onto_two_groups(card1946) -> None:  # type: ignore[no-untyped-def]
    # mult-1: 444444x 444444y 16z; with x = y = Bam the line has two sextets of 4 Bam
    assert "mult-1" in lines_of(card1946, "1B 6B", ["4B 4B F F F F", "4B 4B F F F F"])


def test_an_exposure_that_fits_no_line(practice) -> None:  # type: ignore[no-untyped-def]
    # quint-4 (NNNNN 2468a EEEEE) is the only line with a quint of East, and it is concealed: concealed the
    # tiles win, with the East quint exposed they cannot.
    assert lines_of(practice, "N N N N J 2B 4B 6B 8B E E E E J") == {"quint-4"}
    assert lines_of(practice, "N N N N J 2B 4B 6B 8B", ["E E E E J"]) == set()


def test_exposure_must_be_one_tile_repeated(practice) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TileError, match="mixes"):
        check(practice, tiles("E E E E 4B 4B 4B 6B 6B 8B 8B"), [tiles("W W E")])
    with pytest.raises(TileError, match="natural"):
        check(practice, tiles("E E E E 4B 4B 4B 6B 6B 8B 8B"), [tiles("J J J")])


@pytest.mark.parametrize("count", [0, 13, 15])
def test_check_needs_exactly_14_tiles(practice, count: int) -> None:  # type: ignore[no-untyped-def]
    rack = tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W F")[:count]
    with pytest.raises(TileError, match="14"):
        check(practice, rack)


def test_check_counts_exposed_tiles_toward_14(practice) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TileError):
        check(practice, tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W"), [tiles("N N N")])


# ---------------------------------------------------------------------------------------------- verdicts


def test_P5_legal_pung_for_an_X_line(practice) -> None:  # type: ignore[no-untyped-def]
    verdict = exposure_verdict(practice, tiles("4B 4B 4B"))
    assert verdict.legal and verdict.reason == ""
    ids = {line.id for line in verdict.lines}
    assert "2468-3" in ids  # 444a
    assert all(line.exposed for line in verdict.lines)
    assert exposure_verdict(practice, tiles("4B J J")).legal


def test_P5_no_call_for_a_pair(practice) -> None:  # type: ignore[no-untyped-def]
    verdict = exposure_verdict(practice, tiles("5D 5D"))
    assert not verdict.legal
    assert verdict.reason == "You can't call 5 Dot for a pair unless it completes Mah Jongg."
    assert verdict.lines == ()
    single = exposure_verdict(practice, tiles("N"))
    assert not single.legal and "single" in single.reason


def test_P6_group_only_a_concealed_line_holds(practice) -> None:  # type: ignore[no-untyped-def]
    # a quint of East appears only in quint-4, a C line
    verdict = exposure_verdict(practice, tiles("E E E E J"))
    assert not verdict.legal
    assert "quint of East" in verdict.reason
    assert verdict.lines == ()


def test_exposure_no_line_holds_together(practice) -> None:  # type: ignore[no-untyped-def]
    # kongs of North (2026-1, odd-6) and kongs of East (2468-3, run-1) never share an X line
    assert exposure_verdict(practice, tiles("N N N N")).legal
    assert exposure_verdict(practice, tiles("E E E E")).legal
    verdict = exposure_verdict(practice, tiles("E E E E"), [tiles("N N N N")])
    assert not verdict.legal
    assert "kong of East" in verdict.reason and "kong of North" in verdict.reason


def test_exposure_lines_hold_every_exposure(practice) -> None:  # type: ignore[no-untyped-def]
    # 2468-1 has 444b and 666b: both pungs together
    verdict = exposure_verdict(practice, tiles("6C 6C 6C"), [tiles("4C 4C J")])
    assert verdict.legal
    for line in verdict.lines:
        assert any(
            (Tile.C6, 3) in v.groups and (Tile.C4, 3) in v.groups for v in line.variants
        ), line.id


def test_1946_min_size_4_refuses_a_pung(card1946) -> None:  # type: ignore[no-untyped-def]
    verdict = exposure_verdict(card1946, tiles("R R R"), min_size=4)
    assert not verdict.legal
    assert "kong or larger" in verdict.reason
    assert exposure_verdict(card1946, tiles("R R R R"), min_size=4).legal  # dragons-1
    assert exposure_verdict(card1946, tiles("R R R F"), min_size=4).legal


def test_same_group_twice_needs_a_line_with_two_such_groups(practice) -> None:  # type: ignore[no-untyped-def]
    # 2468-7 (2222a 88a 44b 66b 2222c) and like-1 shifted to 2s (2222a NN 2222b SS 22c) have kongs of 2 in
    # two different suits; no line has two kongs of 2 Bam
    verdict = exposure_verdict(practice, tiles("2D 2D 2D 2D"), [tiles("2B 2B 2B 2B")])
    assert verdict.legal
    assert {line.id for line in verdict.lines} == {"2468-7", "like-1"}
    assert not exposure_verdict(practice, tiles("2B J J J"), [tiles("2B 2B 2B 2B")]).legal


def test_P5_an_exposure_must_show_a_natural_tile(practice) -> None:  # type: ignore[no-untyped-def]
    verdict = exposure_verdict(practice, tiles("J J J"))
    assert not verdict.legal and "natural" in verdict.reason
