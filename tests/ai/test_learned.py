"""The learned player and the levels built on it: its model file, determinism, and seeing only its seat's view."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import numpy as np
import pytest

from bot.ai.learned import Exploration, LearnedStrategy
from bot.ai.model import GROUPS, MODEL_PATH, Model, input_names, load_model, normal_like
from bot.ai.players import EXPERIMENTAL_LEVELS, LEVELS
from bot.ai.selfplay import computer_move, play_game, seats_to_move
from bot.cli import main
from bot.engine.game import Game
from bot.engine.rules import table_rules
from bot.engine.views import seat_view
from bot.service.cards import load_card

PRESETS = ("nmjl", "nmjl-1946", "classical")


def test_the_shipped_model_file_loads_with_weights_for_every_decision_and_card_ruleset() -> None:
    model = Model.from_json(json.loads(MODEL_PATH.read_text(encoding="utf-8")))
    assert {"nmjl", "nmjl-1946"} <= set(model.weights)
    for preset in ("nmjl", "nmjl-1946"):
        for group in GROUPS:
            weights = model.for_preset(preset)[group]
            assert weights.shape == (len(input_names(group)),) and np.isfinite(weights).all()
    for preset in ("nmjl", "nmjl-1946"):  # each preset's weights say the command that fitted them
        info = model.info[preset]
        assert isinstance(info, dict) and str(info["command"]).startswith(f"charleston train --rules {preset} ")
    assert load_model() is load_model()  # read once per process


def test_a_model_file_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    data = normal_like().to_json()
    weights = data["weights"]
    assert isinstance(weights, dict)
    weights["nmjl"]["play"] = [1.0, 2.0]
    with pytest.raises(ValueError, match="play"):
        Model.from_json(data)
    with pytest.raises(ValueError):
        Model.from_json({"format": 99})


def test_a_model_survives_saving_and_loading(tmp_path: Path) -> None:
    model = normal_like()
    path = tmp_path / "m.json"
    model.save(path)
    again = Model.from_json(json.loads(path.read_text()))
    for preset in model.weights:
        for group in GROUPS:
            assert np.allclose(model.weights[preset][group], again.weights[preset][group])


def _game(preset: str, seed: int) -> Game:
    rules = table_rules(preset)
    game, _ = Game.new(load_card(rules.card), rules, seed, east=seed % 4)
    return game


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("level", [*LEVELS, "learned"])
def test_a_computers_decisions_are_the_same_given_the_seed(preset: str, level: str) -> None:
    """Two games from the same seed, the level in every seat, are the same game move for move."""
    logs = []
    for _ in range(2):
        game = _game(preset, 3)
        play_game(game, [level] * 4)
        logs.append(list(game.state.log))
    assert logs[0] == logs[1] and len(logs[0]) > 20


def _hide_differently(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of the game that ``seat`` cannot tell apart from it: the other racks' tiles and the wall dealt
    among themselves anew (each rack keeps its size)."""
    other = copy.deepcopy(game)
    state = other.state
    hidden = [s for s in range(len(state.seats)) if s != seat]
    pool = [t for s in hidden for t in state.seats[s].rack] + list(state.wall)
    rng.shuffle(pool)
    for s in hidden:
        size = len(state.seats[s].rack)
        state.seats[s].rack[:] = pool[:size]
        del pool[:size]
    state.wall[:] = pool
    return other


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_a_level_decides_only_from_its_seats_view(preset: str) -> None:
    """At positions through a game, every level makes the same move in a game whose hidden tiles (other racks,
    the wall) were dealt differently: it cannot see them."""
    game = _game(preset, 11)
    rng = random.Random(5)
    levels = [*LEVELS, *EXPERIMENTAL_LEVELS[:1]]
    checked = 0
    for seat in seats_to_move(game):
        if len(game.state.log) % 5 == 0:
            twin = _hide_differently(game, seat, rng)
            assert seat_view(twin, seat).to_json() == seat_view(game, seat).to_json()
            assert twin.state.seats[(seat + 1) % 4].rack != game.state.seats[(seat + 1) % 4].rack or \
                twin.state.wall != game.state.wall
            for level in levels:
                assert computer_move(level, twin, seat) == computer_move(level, game, seat), level
            checked += 1
        game.apply(computer_move("normal", game, seat))
    assert checked > 10


def test_exploring_picks_only_among_the_best_few_and_reports_each_decision() -> None:
    """In training, a random pick falls among the model's best ``top`` candidates, and each decision is
    recorded with those candidates, best first."""
    records: list[tuple[str, int, int, bool]] = []

    def record(group: str, top: np.ndarray, pick: int, explored: bool) -> None:
        records.append((group, len(top), pick, explored))

    game = _game("nmjl", 21)
    for seat in seats_to_move(game):
        strategy = LearnedStrategy(random.Random(len(game.state.log)), normal_like(), Exploration(1.0, 2, 1.0),
                                   record)
        game.apply(strategy.decide(seat_view(game, seat)))
    assert records and all(n <= 2 and pick < n and explored for _, n, pick, explored in records if n > 1)
    assert {g for g, *_ in records} == set(GROUPS)


@pytest.mark.slow
def test_charleston_train_writes_a_model_that_loads_and_the_same_command_writes_the_same_model(
        tmp_path: Path) -> None:
    """A tiny run of the training command: its model file loads, records its command, and is the same again."""
    written = []
    for name in ("first.json", "second.json"):
        out = tmp_path / name
        assert main(["train", "--rules", "nmjl", "--rounds", "1", "--games", "4", "--workers", "1",
                     "--out", str(out)]) == 0
        model = Model.from_json(json.loads(out.read_text(encoding="utf-8")))
        assert str(model.info["nmjl"]["command"]).startswith("charleston train --rules nmjl ")  # type: ignore[index]
        written.append(model.for_preset("nmjl"))
    for group in GROUPS:
        assert np.array_equal(written[0][group], written[1][group])
    # Four games give the play decisions enough explored choices to fit (the rarer kinds keep the starting model).
    assert not np.array_equal(written[0]["play"], normal_like().for_preset("nmjl")["play"])

