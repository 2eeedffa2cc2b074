"""A game as the store keeps it, and back: the full state is written every :data:`CHECKPOINT_EVERY` actions (and
at the end of a game, and when the service stops), the actions in between only as rows of the log. A game is
picked up by loading the state last written and replaying the actions after it through the engine, which is
deterministic, so the game is exactly where it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.actions import action_from_json
from bot.engine.card import Card
from bot.engine.game import Game
from bot.engine.state import GameState
from bot.store.records import SavedGame

# At most this many actions are replayed per table on restore (~30 µs each); writing the state costs ~60 µs
# (to JSON and to text) and 2.5 KB an action, so writing it every 32 actions saves nearly all of that.
CHECKPOINT_EVERY = 32


def snapshot(state: GameState) -> dict[str, Any]:
    """The state as stored: without its action log, which lives row by row in the actions table."""
    data = state.to_json()
    data["log"] = []
    return data


def checkpoint_due(version: int, saved_state: int) -> bool:
    """Whether the action that brings a game to ``version`` should write its full state too (it was last written
    at ``saved_state``)."""
    return version - saved_state >= CHECKPOINT_EVERY


def resume_game(saved: SavedGame, card_for: Callable[[str], Card]) -> Game:
    """The game exactly where it was: the state written at ``saved.state_version`` with the log up to it, then
    every later action of the log applied again."""
    if len(saved.actions) != saved.version:
        raise ValueError(f"game {saved.game_id} is at version {saved.version} but its log has {len(saved.actions)} "
                         "actions")
    state = GameState.from_json({**saved.state, "log": saved.actions[:saved.state_version]})
    game = Game(state, card_for(state.card_id))
    for action in saved.actions[saved.state_version:]:
        game.apply(action_from_json(action))
    return game
