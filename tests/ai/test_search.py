"""The search-based player (``hard-search``): its play-outs count chips as the table pays them, and it plays
whole games with legal moves only."""

from __future__ import annotations

import random

import numpy as np
import pytest
from support.ai_play import play_checking

from bot.ai.players import EXPERIMENTAL_LEVELS, LEVELS, make_player
from bot.ai.search import Racer, SearchSettings, SearchStrategy, play_out, racer
from bot.engine.actions import TABLE, CloseWindow, Discard
from bot.engine.game import Game
from bot.engine.notation import parse_tile
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.tiles import NUM_KINDS
from bot.engine.views import SeatView, seat_view, waiting_for
from bot.service.cards import load_card

JOKER = parse_tile("J")


def aiming(need: dict[str, int], concealed: list[str], value: int = 25, small: dict[str, int] | None = None) -> Racer:
    """A racer whose target variant needs ``need`` (pungs and larger unless listed in ``small``)."""
    need_array = [0] * NUM_KINDS
    small_array = [0] * NUM_KINDS
    for code, n in need.items():
        need_array[parse_tile(code)] = n
    for code, n in (small or {}).items():
        small_array[parse_tile(code)] = n
    return racer(np.array(need_array), np.array(small_array), np.zeros(NUM_KINDS, dtype=np.int64),
                 [parse_tile(c) for c in concealed], JOKER, value)


def idle() -> Racer:
    return aiming({}, [])


def test_a_racer_counts_what_it_lacks_jokers_filling_only_big_groups() -> None:
    r = aiming({"1B": 3, "2B": 2}, ["1B", "J", "2B", "9C"], small={"2B": 2})
    assert r.missing == 2  # one 2B (a pair: only a natural) and one 1B (a joker already covers the other)
    assert r.spare == [parse_tile("9C")]
    assert r.wants(parse_tile("2B"), JOKER) and r.wants(JOKER, JOKER) and not r.wants(parse_tile("9C"), JOKER)


def test_rule_SC1_a_discard_that_completes_an_opponent_costs_the_thrower_double() -> None:
    """My discard is exactly what West lacks: she claims it, I pay twice her hand's value."""
    me = aiming({"1B": 4}, ["1B", "1B", "5D"])
    west = aiming({"5D": 3, "6D": 3}, ["5D", "5D", "6D", "6D", "6D"], value=30)
    assert west.missing == 1
    chips = play_out([me, idle(), west, idle()], me=0, first=1, thrown=parse_tile("5D"),
                     wall=[parse_tile("9C")] * 20, wild=JOKER)
    assert chips == -60


def test_rule_SC2_a_self_pick_is_paid_double_by_all_three() -> None:
    me = aiming({"1B": 4}, ["1B", "1B", "1B"], value=25)
    # South and West draw nothing useful; I draw my fourth 1B on my first turn.
    wall = [parse_tile("9C"), parse_tile("9C"), parse_tile("9C"), parse_tile("1B")]
    chips = play_out([me, idle(), idle(), idle()], me=0, first=1, thrown=parse_tile("5D"), wall=wall, wild=JOKER)
    assert chips == 150


def test_rule_H5_without_the_doubles_every_loser_pays_the_value() -> None:
    """Under the 1946 rules nobody pays double: feeding an opponent costs her hand's value, like any loss."""
    me = aiming({"1B": 4}, ["1B", "1B", "5D"])
    west = aiming({"5D": 3, "6D": 3}, ["5D", "5D", "6D", "6D", "6D"], value=30)
    chips = play_out([me, idle(), west, idle()], me=0, first=1, thrown=parse_tile("5D"),
                     wall=[parse_tile("9C")] * 20, wild=JOKER, doubles=False)
    assert chips == -30


def test_rule_M10_a_wall_game_pays_nothing() -> None:
    me = aiming({"1B": 4}, ["1B"])
    chips = play_out([me, idle(), idle(), idle()], me=0, first=1, thrown=parse_tile("5D"),
                     wall=[parse_tile("9C")] * 8, wild=JOKER)
    assert chips == 0


def test_rule_SC1_an_opponent_winning_on_anothers_discard_costs_single() -> None:
    me = aiming({"1B": 4}, ["1B"])
    south = aiming({"2C": 3}, ["2C", "2C"], value=40)  # lacks one 2C
    north = aiming({"3D": 3}, ["3D", "2C"])  # will throw her spare 2C after drawing a 3D
    wall = [parse_tile("9C"), parse_tile("9C"), parse_tile("3D")]
    chips = play_out([me, south, idle(), north], me=0, first=1, thrown=parse_tile("5D"), wall=wall, wild=JOKER)
    assert chips == -40


def test_hard_search_is_offered_for_measurement_only() -> None:
    assert "hard-search" in EXPERIMENTAL_LEVELS and "hard-search" not in LEVELS
    assert make_player("hard-search").level == "hard-search"


@pytest.mark.slow
@pytest.mark.parametrize(("card_id", "preset"), [("practice", "nmjl"), ("nmjl-1946", "nmjl-1946")])
def test_hard_search_plays_only_legal_actions(card_id: str, preset: str) -> None:
    card = load_card(card_id)
    game, _ = Game.new(card, table_rules(preset, card=card_id), seed=3, east=1)
    assert play_checking(game, ["hard-search", "normal", "hard-search", "random"], 3) > 20
    assert game.state.result is not None


def test_search_scores_share_worlds_so_equal_candidates_score_equal() -> None:
    """Two candidates that are the same tile meet the same sampled worlds, so they score exactly alike."""
    card = load_card("practice")
    game, _ = Game.new(card, table_rules("nmjl"), seed=12)
    view = discard_turn(game, seat=0)
    strategy = SearchStrategy(random.Random(5), SearchSettings(worlds=12))
    tile = view.rack[0]
    outlook = strategy.outlook(view, list(view.rack), [list(e) for e in view.exposures])
    after, keep = outlook.after_removal([tile, tile], card.wild, strategy.settings.lines)
    targets = [int(keep[after[0].argmax()]), int(keep[after[1].argmax()])]
    a, b = strategy.scores(view, strategy.tables(view), [tile, tile], targets)
    assert a == b


def test_search_discard_is_among_the_card_readings_best_few() -> None:
    card = load_card("practice")
    game, _ = Game.new(card, table_rules("nmjl"), seed=21)
    view = discard_turn(game, seat=2)
    settings = SearchSettings(worlds=16, candidates=3)
    strategy = SearchStrategy(random.Random(1), settings)
    outlook = strategy.outlook(view, list(view.rack), [list(e) for e in view.exposures])
    kinds = sorted({a.tile for a in view.legal if isinstance(a, Discard)})
    best_few = [k for k, _ in strategy.ranked_removals(view, outlook, kinds, strategy.danger(view))[:3]]
    chosen = strategy.discard(view)
    assert isinstance(chosen, Discard) and chosen.tile in best_few


def discard_turn(game: Game, seat: int) -> SeatView:
    """Play on with normal players until ``seat`` must discard in play; that seat's view."""
    while True:
        waiting = waiting_for(game)
        if not waiting:
            game.apply(CloseWindow(TABLE))
            continue
        view = seat_view(game, waiting[0])
        if view.seat == seat and game.state.phase == Phase.PLAY and any(isinstance(a, Discard) for a in view.legal):
            return view
        game.apply(make_player("normal", 1).decide(view))
