"""Saved games: a state's JSON form, and snapshots saved before the turn was one object (the flat form with
``needs_draw``, ``drawn``, ``turn_source``, ``called_from``, ``exchanged`` and ``east_has_discarded``).

``tests/engine/data/old-snapshots.json`` holds snapshots written by that older engine at telling moments
(mid-Charleston, East's first call window, a turn after a call, a 1946 late window after a draw...), the actions
that followed and the events the older engine gave for them. Databases hold such snapshots of games in progress.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.game_tables import CARD_1946, PRACTICE

from bot.engine.actions import action_from_json
from bot.engine.game import Game
from bot.engine.notation import parse_tile
from bot.engine.replay import export_replay, replay
from bot.engine.state import GameState, Phase, TurnStage
from bot.engine.views import public_view, seat_view

OLD = json.loads((Path(__file__).resolve().parent / "data" / "old-snapshots.json").read_text(encoding="utf-8"))
CARDS = {PRACTICE.id: PRACTICE, CARD_1946.id: CARD_1946}

# What each old snapshot's loose fields stood for.
EXPECTED_STAGE = {
    "charleston": TurnStage.DEALT,
    "east-first-window": TurnStage.OVER,
    "east-dealt-turn": TurnStage.DEALT,
    "must-draw-after-call": TurnStage.MUST_DRAW,
    "after-draw": TurnStage.DREW,
    "after-call": TurnStage.CALLED,
    "after-exchange": TurnStage.CALLED,
    "late-window-drawn": TurnStage.DREW,
    "finished": TurnStage.DREW,
}


def _by_name(name: str) -> dict[str, Any]:
    return next(item for item in OLD if item["name"] == name)


def test_the_fixture_covers_every_moment() -> None:
    assert sorted(item["name"] for item in OLD) == sorted(EXPECTED_STAGE)
    assert all("needs_draw" in item["snapshot"] and isinstance(item["snapshot"]["turn"], int) for item in OLD)


@pytest.mark.parametrize("name", sorted(EXPECTED_STAGE))
def test_an_old_flat_snapshot_loads_with_its_turn(name: str) -> None:
    old = _by_name(name)["snapshot"]
    state = GameState.from_json(old)
    turn = state.turn_state
    assert turn.seat == state.turn == old["turn"]
    assert turn.stage == EXPECTED_STAGE[name]
    assert turn.needs_draw == old["needs_draw"]
    assert state.phase == Phase(old["phase"])
    if turn.stage in (TurnStage.DREW, TurnStage.CALLED):
        assert turn.drawn == (None if old["drawn"] is None else parse_tile(old["drawn"]))
        assert turn.called_from == old["called_from"] and turn.exchanged == old["exchanged"]


@pytest.mark.parametrize("name", sorted(EXPECTED_STAGE))
def test_an_old_snapshot_plays_on_exactly_as_before(name: str) -> None:
    """Resumed from the old snapshot, the game gives the events the older engine gave, and ends where a replay
    of the whole game from its seed ends."""
    item = _by_name(name)
    card = CARDS[item["card"]]
    game = Game(GameState.from_json(item["snapshot"]), card)
    events = [[e.to_json() for e in game.apply(action_from_json(a))] for a in item["rest"]]
    assert events == item["events"]

    data = export_replay(Game(GameState.from_json(item["snapshot"]), card))
    data["actions"] += item["rest"]
    fresh = replay(data, card)
    if events:
        assert [[e.to_json() for e in step] for step in fresh.events[-len(events):]] == events
    assert public_view(fresh.game) == public_view(game)
    assert [seat_view(fresh.game, s) for s in range(4)] == [seat_view(game, s) for s in range(4)]
    mine, theirs = game.state.to_json(), fresh.game.state.to_json()
    if game.state.phase == Phase.FINISHED:
        # Nothing reads a finished game's turn stage, and the flat form could not tell how a turn ended.
        assert mine.pop("turn")["seat"] == theirs.pop("turn")["seat"]
    assert mine == theirs


@pytest.mark.parametrize("name", sorted(EXPECTED_STAGE))
def test_a_state_survives_its_own_json(name: str) -> None:
    state = GameState.from_json(_by_name(name)["snapshot"])
    data = state.to_json()
    assert isinstance(data["turn"], dict) and "needs_draw" not in data
    again = GameState.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data and again.turn_state == state.turn_state
