"""Property tests: jokers in big groups only (J1, J2), and analyze agreeing with check."""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given
from hypothesis import strategies as st
from support.cards import flat, layout, matched_lines
from support.properties import CARDS, SETTINGS, legal_replacement, mutate, variants

from bot.engine.analysis import analyze
from bot.engine.card import Card
from bot.engine.matching import check


def zeros(results) -> set[str]:  # type: ignore[no-untyped-def]
    return {a.line.id for a in results if a.missing == 0}


# ---------------------------------------------------------------------------------------------- J1 / J2


@SETTINGS
@given(variants(), st.data())
def test_J1_wilds_in_groups_of_three_or_more_always_match(picked, data) -> None:  # type: ignore[no-untyped-def]
    card, line, variant = picked
    groups = layout(variant, card.tile_set)
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


@SETTINGS
@given(variants(), st.data())
def test_J2_a_wild_in_a_single_or_pair_never_matches(picked, data) -> None:  # type: ignore[no-untyped-def]
    card, line, variant = picked
    hand = flat(layout(variant, card.tile_set))
    counts = Counter(hand)
    # kinds whose naturals all sit in singles and pairs (otherwise a natural may move from a big group into the
    # pair and the wild take its place in the big group, which is legal)
    small = [t for t, size in variant.groups if size < 3 and counts[t] == variant.small[t]]
    assume(small)
    assume(counts[card.wild] < card.tile_set.count(card.wild))
    tile = data.draw(st.sampled_from(small))
    hand[hand.index(tile)] = card.wild
    assert line.id not in matched_lines(check(card, hand))


# ---------------------------------------------------------------------------------------------- analyze vs check


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
    hand = mutate(data.draw, card, flat(layout(variant, card.tile_set)), 2)
    assert_agree(card, hand)


@SETTINGS
@given(variants(), st.data())
def test_analyze_0_missing_iff_check_with_an_exposure(picked, data) -> None:  # type: ignore[no-untyped-def]
    card, line, variant = picked
    groups = layout(variant, card.tile_set)
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
@given(st.sampled_from(sorted(CARDS)), st.data())
def test_13_tiles_never_show_0_missing(card_id: str, data) -> None:  # type: ignore[no-untyped-def]
    card = CARDS[card_id]
    if data.draw(st.booleans()):
        line = data.draw(st.sampled_from(card.lines))
        hand = flat(layout(data.draw(st.sampled_from(line.variants)), card.tile_set))
        del hand[data.draw(st.integers(0, 13))]
    else:
        pool = card.tile_set.tiles()
        picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=13, max_size=13, unique=True))
        hand = [pool[i] for i in picks]
    results = analyze(card, hand)
    assert all(a.missing >= 1 for a in results)
    assert all(len(a.need) == a.missing for a in results)


@SETTINGS
@given(variants(), st.data())
def test_one_tile_away_is_possible_with_1_missing(picked, data) -> None:  # type: ignore[no-untyped-def]
    card, line, variant = picked
    hand = flat(layout(variant, card.tile_set))
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
    hand = [t for t in flat(layout(variant, card.tile_set)) if t != card.wild]
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
