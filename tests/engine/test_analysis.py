"""Which lines is a rack near? (bot.engine.analysis.analyze)"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support.cards import flat, matched_lines, winning_groups
from support.properties import CARDS, SETTINGS, legal_replacement, mutate, variants
from support.tiles import tiles

from bot.engine.analysis import analyze
from bot.engine.card import Card
from bot.engine.cardfile import load_card_text
from bot.engine.errors import TileError
from bot.engine.matching import check
from bot.engine.tiles import SORT_KEY, Tile

WIN_2468_3 = "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W"  # EEEE 444a 66a 888a WW


def by_id(results):  # type: ignore[no-untyped-def]
    return {a.line.id: a for a in results}


def sort_key(a):  # type: ignore[no-untyped-def]
    return (not a.possible, a.missing, -a.line.value, a.line.index)


def assert_ranked(card, results) -> None:  # type: ignore[no-untyped-def]
    assert [a.line.id for a in results] == [a.line.id for a in sorted(results, key=sort_key)]
    assert sorted(a.line.id for a in results) == sorted(line.id for line in card.lines)


# ---------------------------------------------------------------------------------------------- ranking


def test_one_entry_per_line_ranked_possible_then_missing_then_value_then_card_order(practice) -> None:  # type: ignore[no-untyped-def]
    for rack in (WIN_2468_3, "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W", "1B 3C 5D 7B 9C N E W S RD GD WD F",
                 "J J 2B 0 2B 6B N N 6C S S 1D 9D"):
        results = analyze(practice, tiles(rack))
        assert_ranked(practice, results)


def test_ranking_tie_breaks_by_value_then_card_order() -> None:
    text = '[card]\nid = "r"\nname = "R"\n'
    for hand_id, value, exposed in (("low", 25, True), ("high", 40, True), ("low2", 25, True), ("top", 90, False)):
        text += (f'\n[[hand]]\nid = "{hand_id}"\nsection = "S"\npattern = "1111a 2222a 3333a 44a"\n'
                 f"exposed = {'true' if exposed else 'false'}\nvalue = {value}\n")
    card = load_card_text(text, "r.toml")
    rack = tiles("1B 1B 1B 1B 2B 2B 2B 2B 3B 3B 3B 3B 4B")
    assert [a.line.id for a in analyze(card, rack)] == ["top", "high", "low", "low2"]
    # with an exposure the concealed line "top" is impossible and drops to the end (P6)
    ranked = analyze(card, tiles("1B 1B 1B 1B 2B 2B 2B 2B 4B"), [tiles("3B 3B 3B 3B")])
    assert [a.line.id for a in ranked] == ["high", "low", "low2", "top"]
    assert [a.possible for a in ranked] == [True, True, True, False]


def test_a_rack_one_tile_short_of_a_line_ranks_it_first(practice) -> None:  # type: ignore[no-untyped-def]
    results = analyze(practice, tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B W"))
    first = results[0]
    assert first.line.id == "2468-3"
    assert first.missing == 1 and first.need == (Tile.W,) and first.possible
    assert first.spare == ()


def test_a_winning_rack_shows_0_missing_for_its_line(practice) -> None:  # type: ignore[no-untyped-def]
    results = analyze(practice, tiles(WIN_2468_3))
    assert results[0].line.id == "2468-3"
    assert results[0].missing == 0 and results[0].need == () and results[0].spare == ()
    zeros = {a.line.id for a in results if a.missing == 0}
    assert zeros == matched_lines(check(practice, tiles(WIN_2468_3)))


def test_held_jokers_cover_big_groups_not_pairs(practice) -> None:  # type: ignore[no-untyped-def]
    a = by_id(analyze(practice, tiles("E E E J 4B 4B 4B 6B 6B 8B 8B 8B W")))["2468-3"]
    assert a.missing == 1 and a.need == (Tile.W,)  # the joker is the fourth East; the West pair still needs a W
    b = by_id(analyze(practice, tiles("E E E E 4B 4B 4B 6B J 8B 8B 8B W")))["2468-3"]
    assert b.missing == 2 and Counter(b.need) == Counter([Tile.B6, Tile.W])
    assert b.spare == (Tile.J,)  # every group of three or more is full, so the joker has no place


# ---------------------------------------------------------------------------------------------- need / spare


RACKS = [
    "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W",
    "E E E J 4B 4B 4B 6B 6B 8B 8B 8B W W",
    "1B 3C 5D 7B 9C N E W S RD GD WD F",
    "J J 2B 0 2B 6B N N 6C S S 1D 9D F",
    "N N 2B 4B 6B 8B 2C 4C 6C 8C WD WD F F",
    "F F F F F 2B 0 2B 6B 6C 6C 6D 6D",
    "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C",
]


@pytest.mark.parametrize("rack", RACKS)
def test_need_has_exactly_missing_tiles(practice, card1946, rack: str) -> None:  # type: ignore[no-untyped-def]
    for card in (practice, card1946):
        held = [t for t in tiles(rack) if t != Tile.J or card.wild == Tile.J]
        if len(held) < 13:
            continue
        for a in analyze(card, held[:14]):
            assert len(a.need) == a.missing, (card.id, a.line.id)
            assert list(a.need) == sorted(a.need, key=SORT_KEY.__getitem__)


@pytest.mark.parametrize("rack", [r for r in RACKS if "J" not in r])
def test_spare_plus_used_is_the_concealed_rack(practice, rack: str) -> None:  # type: ignore[no-untyped-def]
    """Every concealed tile either has a place on the line or is spare: the line holds 14, so a rack of n
    tiles missing m has n - (14 - m) spare tiles; and the rack less its spares plus the needed tiles is a
    Mah Jongg on that line whenever the set holds that many of each tile."""
    held = tiles(rack)
    for a in analyze(practice, held):
        spare = Counter(a.spare)
        assert not spare - Counter(held), a.line.id
        assert len(a.spare) == len(held) - (14 - a.missing), a.line.id
        completed = list((Counter(held) - spare + Counter(a.need)).elements())
        assert len(completed) == 14
        if all(n <= practice.tile_set.count(k) for k, n in Counter(completed).items()):
            assert a.line.id in matched_lines(check(practice, completed)), a.line.id


def test_spare_lists_jokers_the_line_cannot_use(practice) -> None:  # type: ignore[no-untyped-def]
    # sp-1: NN 2468a 2468b DDc FF; Singles & Pairs hands take no jokers (J2)
    rack = tiles("N N 2B 4B 6B 8B 2C 4C 6C 8C WD WD J J")
    a = by_id(analyze(practice, rack))["sp-1"]
    assert a.missing == 2 and a.need == (Tile.F, Tile.F)
    assert a.spare == (Tile.J, Tile.J)


def test_need_never_asks_for_more_copies_than_the_set_has(practice) -> None:  # type: ignore[no-untyped-def]
    # quint-4: NNNNN 2468a EEEEE (C). The rack holds all four North and all four East and one joker: one quint
    # takes the joker, the other still needs a wild, since no fifth North or East exists.
    rack = tiles("N N N N 2B 4B 6B 8B E E E E J")
    a = by_id(analyze(practice, rack))["quint-4"]
    assert a.missing == 1
    held = Counter(rack)
    for tile, n in Counter(a.need).items():
        assert held[tile] + n <= practice.tile_set.count(tile), (tile, a.need)


# ---------------------------------------------------------------------------------------------- possible


def test_visible_tiles_make_a_pair_impossible(practice) -> None:  # type: ignore[no-untyped-def]
    rack = tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B N")
    assert by_id(analyze(practice, rack))["2468-3"].possible
    results = by_id(analyze(practice, rack, visible=tiles("W W W W")))
    assert not results["2468-3"].possible  # its WW pair can never be made
    assert results["369-4"].possible  # "... EE or WW": the East alternative is still open
    # three West out of reach and the fourth not held: still only one West reachable
    assert not by_id(analyze(practice, rack, visible=tiles("W W W")))["2468-3"].possible
    # two out of reach: two remain, enough for the pair
    assert by_id(analyze(practice, rack, visible=tiles("W W")))["2468-3"].possible


def test_visible_tiles_held_in_the_rack_still_count(practice) -> None:  # type: ignore[no-untyped-def]
    rack = tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B W")
    assert by_id(analyze(practice, rack, visible=tiles("W W")))["2468-3"].possible  # the rack's W + one more
    assert not by_id(analyze(practice, rack, visible=tiles("W W W")))["2468-3"].possible


def test_J3_quints_become_impossible_when_every_joker_is_seen(practice) -> None:  # type: ignore[no-untyped-def]
    rack = tiles("2B 2B 4B 4B 4B 4B 6B 6B 8C 8C 8C 8C F")
    results = by_id(analyze(practice, rack))
    assert results["quint-1"].possible and results["quint-1"].missing == 2  # 22a 44444a 66a 88888b
    results = by_id(analyze(practice, rack, visible=tiles("Jx8")))
    assert not results["quint-1"].possible
    # a flower quint needs no joker (J3)
    assert results["2026-2"].possible


def test_visible_plus_rack_beyond_the_set_is_an_error(practice) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TileError, match="W"):
        analyze(practice, tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B W"), visible=tiles("W W W W"))


def test_exposures_make_concealed_lines_and_lines_without_the_group_impossible(practice) -> None:  # type: ignore[no-untyped-def]
    concealed = tiles("E E E E 6B 6B 8B 8B 8B W")
    exposure = tiles("4B 4B 4B")
    results = analyze(practice, concealed, [exposure])
    assert_ranked(practice, results)
    table = by_id(results)
    assert table["2468-3"].possible and table["2468-3"].missing == 1 and table["2468-3"].need == (Tile.W,)
    for a in results:
        if not a.line.exposed:
            assert not a.possible, a.line.id  # P6
        holds = any((Tile.B4, 3) in v.groups for v in a.line.variants)
        if not holds:
            assert not a.possible, a.line.id
        if not a.possible:
            assert a.missing > 0, a.line.id


def test_exposed_tiles_count_as_placed(practice) -> None:  # type: ignore[no-untyped-def]
    table = by_id(analyze(practice, tiles("E E E E 6B 6B 8B 8B 8B W W"), [tiles("4B J J")]))
    assert table["2468-3"].missing == 0
    assert "2468-3" in matched_lines(check(practice, tiles("E E E E 6B 6B 8B 8B 8B W W"), [tiles("4B J J")]))


def test_a_concealed_line_with_exposures_never_shows_0_missing(practice) -> None:  # type: ignore[no-untyped-def]
    # all concealed these tiles are 2468-5 (C); with a pung exposed it cannot be made
    concealed = tiles("2B 2B 4B 4B 6C 6C 8C 8C RD RD RD")
    a = by_id(analyze(practice, concealed, [tiles("GD GD GD")]))["2468-5"]
    assert not a.possible
    assert a.missing > 0
    assert "2468-5" not in matched_lines(check(practice, concealed, [tiles("GD GD GD")]))


# ---------------------------------------------------------------------------------------------- sizes


def test_13_tiles_never_show_0_missing(practice, card1946) -> None:  # type: ignore[no-untyped-def]
    """Two written racks, then (Hypothesis) racks a tile short of a line and racks of 13 tiles at random."""
    assert all(a.missing >= 1 for a in analyze(practice, tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B W")))
    assert all(a.missing >= 1 for a in analyze(card1946, tiles("N N N N F F F S S S S F F")))
    any_13_tiles_never_show_0_missing()


@SETTINGS
@given(st.sampled_from(sorted(CARDS)), st.data())
def any_13_tiles_never_show_0_missing(card_id: str, data) -> None:  # type: ignore[no-untyped-def]
    """The property half of the test above, run by it (not collected on its own)."""
    card = CARDS[card_id]
    if data.draw(st.booleans()):
        line = data.draw(st.sampled_from(card.lines))
        hand = flat(winning_groups(data.draw(st.sampled_from(line.variants)), card.tile_set))
        del hand[data.draw(st.integers(0, 13))]
    else:
        pool = card.tile_set.tiles()
        picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=13, max_size=13, unique=True))
        hand = [pool[i] for i in picks]
    results = analyze(card, hand)
    assert all(a.missing >= 1 for a in results)
    assert all(len(a.need) == a.missing for a in results)


def test_13_and_14_tiles_with_exposures(practice) -> None:  # type: ignore[no-untyped-def]
    analyze(practice, tiles("E E E E 6B 6B 8B 8B 8B W"), [tiles("4B 4B 4B")])  # 13
    analyze(practice, tiles("E E E E 6B 6B 8B 8B 8B W W"), [tiles("4B 4B 4B")])  # 14


@pytest.mark.parametrize("count", [0, 12, 15])
def test_wrong_sizes_raise(practice, count: int) -> None:  # type: ignore[no-untyped-def]
    rack = tiles("E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W F")[:count]
    with pytest.raises(TileError, match="13 or 14"):
        analyze(practice, rack)


def test_wrong_size_counts_exposures(practice) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TileError):
        analyze(practice, tiles("E E E E 6B 6B 8B 8B 8B W W F"), [tiles("4B 4B 4B")])  # 15


def test_impossible_counts_raise(practice) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TileError, match="3B"):
        analyze(practice, tiles("3B 3B 3B 3B 3B 4B 4B 4B 6B 6B 8B 8B 8B"))


# ------------------------------------------------------------------------------------ analyze agrees with check


def zeros(results) -> set[str]:  # type: ignore[no-untyped-def]
    return {a.line.id for a in results if a.missing == 0}


def assert_agree(card: Card, concealed: list[int], exposures: list[list[int]] = ()) -> None:  # type: ignore[assignment]
    results = analyze(card, concealed, exposures)
    assert zeros(results) == matched_lines(check(card, concealed, exposures))
    for a in results:
        assert a.missing >= 0
        assert len(a.need) == a.missing, a.line.id
        if a.missing == 0:
            assert a.possible, a.line.id  # a line already made is certainly still possible


@SETTINGS
@given(st.sampled_from(sorted(CARDS)), st.data())
def test_analyze_0_missing_iff_check_on_random_racks(card_id: str, data) -> None:  # type: ignore[no-untyped-def]
    card = CARDS[card_id]
    pool = card.tile_set.tiles()
    picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=14, max_size=14, unique=True))
    assert_agree(card, [pool[i] for i in picks])


@SETTINGS
@given(variants(), st.data())
def test_analyze_0_missing_iff_check_near_a_line(picked, data) -> None:  # type: ignore[no-untyped-def]
    card, _, variant = picked
    hand = mutate(data.draw, card, flat(winning_groups(variant, card.tile_set)), 2)
    assert_agree(card, hand)


@pytest.mark.slow
@SETTINGS
@given(variants(), st.data())
def test_analyze_0_missing_iff_check_with_an_exposure(picked, data) -> None:  # type: ignore[no-untyped-def]
    card, line, variant = picked
    groups = winning_groups(variant, card.tile_set)
    # an exposure is a group of 3+ showing at least one natural (P5, P8)
    exposable = [i for i, g in enumerate(groups) if len(g) >= 3 and any(t != card.wild for t in g)]
    assume(exposable)
    chosen = data.draw(st.sets(st.sampled_from(exposable), min_size=1, max_size=min(2, len(exposable))))
    exposures = [groups[i] for i in sorted(chosen)]
    concealed = flat(g for i, g in enumerate(groups) if i not in chosen)
    untouched = concealed
    if concealed and data.draw(st.booleans()):
        concealed = mutate(data.draw, card, concealed, 2, others=flat(exposures))
    assert_agree(card, concealed, exposures)
    if concealed == untouched:
        # the untouched winning hand: an X line still matches with its groups exposed, a C line never does
        assert (line.id in matched_lines(check(card, concealed, exposures))) == line.exposed


@SETTINGS
@given(variants(), st.data())
def test_one_tile_away_is_possible_with_1_missing(picked, data) -> None:  # type: ignore[no-untyped-def]
    card, line, variant = picked
    hand = flat(winning_groups(variant, card.tile_set))
    removed = hand.pop(data.draw(st.integers(0, 13)))
    a = next(a for a in analyze(card, hand) if a.line.id == line.id)
    assert a.missing == 1 and a.possible
    if removed != card.wild and a.variant is variant:
        # (another binding of the same line may be just as close, and then names its own missing tile)
        assert a.need == (removed,) or variant.small[removed] == 0
    (needed,) = a.need
    # when every copy of the missing tile is already held, need names the wild tile instead
    assert hand.count(needed) < card.tile_set.count(needed) or needed == card.wild
    assert line.id in matched_lines(check(card, [*hand, needed]))


@SETTINGS
@given(variants(), st.data())
def test_completing_a_near_rack_as_analyze_says_gives_mah_jongg(picked, data) -> None:  # type: ignore[no-untyped-def]
    """Remove the spare tiles, add the needed ones: that is a Mah Jongg on the line (racks built without wild
    tiles, so every tile has a natural place to compare)."""
    card, line, variant = picked
    hand = [t for t in flat(winning_groups(variant, card.tile_set)) if t != card.wild]
    size = data.draw(st.sampled_from([13, 14]))
    hand = hand[:size]
    while len(hand) < size:
        hand.append(legal_replacement(data.draw, card, hand, avoid_wild=True))
    hand = mutate(data.draw, card, hand, 3, avoid_wild=True)
    a = next(a for a in analyze(card, hand) if a.line.id == line.id)
    assert len(a.spare) == len(hand) - (14 - a.missing)
    completed = list((Counter(hand) - Counter(a.spare) + Counter(a.need)).elements())
    assume(all(n <= card.tile_set.count(k) for k, n in Counter(completed).items()))
    assert line.id in matched_lines(check(card, completed))
