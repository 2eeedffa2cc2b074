"""The engine's quick answers agree with its full ones: the Mah Jongg pre-test lets through every rack the full
check accepts (M2), and the quick liveness answer for a call equals the whole-card search (§11.6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.cards import flat, winning_groups
from support.properties import SETTINGS, mutate, variants

from bot.ai.selfplay import computer_move
from bot.cli.simulate import game_seed_for
from bot.engine.actions import TABLE, CloseWindow
from bot.engine.card import Card, Line, Variant
from bot.engine.game import Game
from bot.engine.liveness import _find_witness, alive_after, out_of_reach
from bot.engine.matching import check, may_be_mahjong
from bot.engine.rules import rules_for_card
from bot.engine.state import Phase
from bot.engine.views import waiting_for
from bot.service.cards import load_card


@SETTINGS
@given(variants(), st.data())
def test_rule_M2_the_mahjong_pretest_never_refuses_a_winning_rack(picked: tuple[Card, Line, Variant],
                                                                 data: st.DataObject) -> None:
    card, _, variant = picked
    hand = mutate(data.draw, card, flat(winning_groups(variant, card.tile_set)), 2)
    if check(card, hand).mahjong:
        assert may_be_mahjong(card, hand)


def test_rule_M2_the_mahjong_pretest_refuses_most_racks_that_are_not_mahjong() -> None:
    """It is worth asking only if it screens: a dealt rack plus one tile is almost never Mah Jongg."""
    card = load_card("practice")
    refused = 0
    for seed in range(40):
        game, _ = Game.new(card, rules_for_card(card), seed)
        rack = list(game.state.seats[(game.state.east + 1) % 4].rack)
        rack.append(rack[0])
        assert not check(card, rack).mahjong
        refused += not may_be_mahjong(card, rack)
    assert refused >= 30


@pytest.mark.slow
def test_rule_11_6_the_quick_liveness_answer_equals_the_whole_card_search() -> None:
    """At every call window of a few games, for every seat and every group size and joker count, the call's
    liveness is what searching the whole card says."""
    checked = 0
    for card_id in ("practice", "nmjl-1946"):
        card = load_card(card_id)
        for n in range(4):
            game, _ = Game.new(card, rules_for_card(card), game_seed_for(8, n), east=n % 4)
            while game.state.phase != Phase.FINISHED:
                state = game.state
                if state.phase == Phase.CALL_WINDOW and state.window is not None:
                    for seat in range(4):
                        if seat == state.window.discarder:
                            continue
                        for size, jokers in ((3, 0), (3, 1), (4, 0), (4, 2), (5, 1)):
                            wild = [card.wild] * jokers if card.wild is not None else []
                            group = [state.window.tile] * (size - len(wild)) + wild
                            exposures = [*(e.tiles for e in state.seats[seat].exposures), group]
                            full = _find_witness(game, exposures, out_of_reach(state, seat, card.wild)) is not None
                            assert alive_after(game, seat, group) == full
                            checked += 1
                waiting = waiting_for(game)
                game.apply(computer_move("normal", game, waiting[0]) if waiting else CloseWindow(TABLE))
    assert checked > 1000
