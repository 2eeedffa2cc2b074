"""Tournament scoring (docs/rules.md, *Tournament scoring*): the winner's value and bonuses, the thrower's penalty by
the winner's exposures, the wall game's bonus for hands that are not dead, the presets and their numbers, and the
chips a game recorded at a physical table pays (SC1-SC3, the same as the engine's payouts)."""

from __future__ import annotations

import pytest
from support.ai_play import play_checking
from support.game_tables import PRACTICE

from bot.engine.game import Game
from bot.engine.payouts import payouts
from bot.engine.rules import table_rules
from bot.engine.tournament import (
    PRESETS,
    Outcome,
    ScoringError,
    TournamentScoring,
    game_points,
    outcome_of,
    recorded_payouts,
)

ILM = PRESETS["tournament"].scoring
MAHJCON = PRESETS["mahjcon"].scoring
FOUR = (0, 1, 2, 3)


def test_a_win_on_a_discard_scores_the_value_and_the_thrower_loses_by_the_winners_exposures() -> None:
    for exposures, penalty in ((0, 10), (1, 10), (2, 20), (3, 25), (4, 25)):
        game = Outcome(FOUR, "discard", winner=1, value=25, discarder=3, exposures=exposures)
        assert game_points(game, ILM) == {0: 0, 1: 25, 2: 0, 3: -penalty}, exposures


def test_mahjcon_has_no_thrower_penalty_below_two_exposures() -> None:
    assert game_points(Outcome(FOUR, "discard", winner=1, value=30, discarder=0, exposures=1), MAHJCON)[0] == 0
    assert game_points(Outcome(FOUR, "discard", winner=1, value=30, discarder=0, exposures=2), MAHJCON)[0] == -20
    assert game_points(Outcome(FOUR, "discard", winner=1, value=30, discarder=0, exposures=3), MAHJCON)[0] == -25


def test_a_self_pick_adds_its_bonus_and_nobody_is_penalised() -> None:
    game = Outcome(FOUR, "self_pick", winner=2, value=25, self_pick=True, exposures=3)
    assert game_points(game, ILM) == {0: 0, 1: 0, 2: 35, 3: 0}


def test_a_jokerless_hand_adds_its_bonus_but_never_for_singles_and_pairs() -> None:
    jokerless = Outcome(FOUR, "self_pick", winner=0, value=25, self_pick=True, jokerless=True)
    assert game_points(jokerless, ILM)[0] == 25 + 10 + 20
    singles = Outcome(FOUR, "discard", winner=0, value=50, jokerless=True, singles_and_pairs=True, discarder=1)
    assert game_points(singles, ILM) == {0: 50, 1: -10, 2: 0, 3: 0}


def test_a_wall_game_gives_its_bonus_to_every_hand_that_is_not_dead() -> None:
    wall = Outcome(FOUR, "wall", dead=frozenset({2}))
    assert game_points(wall, ILM) == {0: 10, 1: 10, 2: 0, 3: 10}
    three = Outcome((0, 1, 2), "wall")
    assert game_points(three, ILM) == {0: 10, 1: 10, 2: 10}
    assert game_points(Outcome(FOUR, "no_live_players", dead=frozenset(FOUR)), ILM) == dict.fromkeys(FOUR, 0)


def test_a_dead_hand_scores_nothing_in_a_game_someone_won() -> None:
    game = Outcome(FOUR, "discard", winner=0, value=25, discarder=1, dead=frozenset({3}))
    assert game_points(game, ILM)[3] == 0


def test_the_hand_computed_night_of_the_docs() -> None:
    # docs/rules.md works this night by hand: Ruth wins 25 on Sadie's discard (the winner had 2 exposures), then
    # Pearl self-picks a jokerless 30, then a wall game where Sadie's hand is dead.
    games = [Outcome(FOUR, "discard", winner=0, value=25, discarder=1, exposures=2),
             Outcome(FOUR, "self_pick", winner=2, value=30, self_pick=True, jokerless=True),
             Outcome(FOUR, "wall", dead=frozenset({1}))]
    totals = dict.fromkeys(FOUR, 0)
    for game in games:
        for seat, points in game_points(game, ILM).items():
            totals[seat] += points
    assert totals == {0: 35, 1: -20, 2: 70, 3: 10}


def test_settings_are_whole_points_in_range_and_a_change_makes_them_custom() -> None:
    with pytest.raises(ScoringError, match="Self pick is a number of points from 0 to 1000"):
        TournamentScoring(self_pick=-1)
    with pytest.raises(ScoringError, match="four numbers"):
        TournamentScoring(throw_penalty=(1, 2, 3))  # type: ignore[arg-type]
    changed = ILM.changed(wall=5)
    assert changed.preset == "custom" and changed.wall == 5
    assert ILM.changed(wall=10) == ILM and ILM.changed() == ILM
    assert TournamentScoring.from_json(changed.to_json()) == changed
    assert TournamentScoring.from_json({"preset": "mahjcon"}) == MAHJCON
    with pytest.raises(ScoringError):
        TournamentScoring.from_json({"preset": "tournament", "wall": "ten"})


@pytest.mark.parametrize("seed", range(12))
def test_a_recorded_game_pays_what_the_engine_pays_for_the_same_ending(seed: int) -> None:
    game, _ = Game.new(PRACTICE, table_rules("nmjl", card="practice"), seed)
    play_checking(game, ["hard"] * 4, seed)
    outcome = outcome_of(game.state.to_json())
    assert outcome is not None and outcome.how == game.state.result.how  # type: ignore[union-attr]
    engine = sorted((p.payer, p.payee, p.amount) for p in payouts(game.state))
    recorded = sorted((p.payer, p.payee, p.amount) for p in recorded_payouts(outcome))
    assert recorded == engine


def test_the_outcome_of_a_finished_game_reads_its_seats_and_result() -> None:
    game, _ = Game.new(PRACTICE, table_rules("nmjl", card="practice"), 5)
    assert outcome_of(game.state.to_json()) is None  # not finished
    play_checking(game, ["hard"] * 4, 5)
    outcome = outcome_of(game.state.to_json())
    result = game.state.result
    assert outcome is not None and result is not None
    assert (outcome.winner, outcome.value, outcome.discarder) == (result.winner, result.value, result.discarder)
    if result.winner is not None:
        assert outcome.exposures == len(game.state.seats[result.winner].exposures)
