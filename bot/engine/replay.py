"""Replays and scenarios (docs/replay-format.md): a game as rules, card, seed or explicit deal, and actions.

:func:`export_replay` writes any game, finished or not, in this form; :func:`replay` plays one back. Both are
pure: the caller loads the card named in the replay and reads or writes the file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .actions import ActionFormatError, action_from_json
from .card import Card
from .errors import EngineError, TileError
from .events import Event
from .game import Game
from .notation import parse_tiles
from .rules import TableRules, rules_from_dict

FORMAT = "charleston-replay"
VERSION = 1


class ReplayError(EngineError):
    """A replay that cannot be played; ``index`` is the failing action's position (None: the header)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message if index is None else f"action {index}: {message}")


@dataclass(frozen=True, slots=True)
class Replayed:
    """A replay played back: the game as it stands and the events of each action."""

    game: Game
    events: list[list[Event]]  # events[i] = what action i caused; events before the first action are ``opening``
    opening: list[Event]


def export_replay(game: Game) -> dict[str, Any]:
    """The game, finished or not, as a replay: rules, card, seed or explicit deal, and every action so far."""
    state = game.state
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "card": state.card_id,
                            "rules": state.rules.to_dict(), "seed": state.seed, "east": state.east,
                            "game_no": state.game_no}
    if state.deal is not None:
        data["deal"] = state.deal
    data["actions"] = list(state.log)
    return data


def replay_header(data: Any) -> tuple[str, TableRules]:
    """The card id and rules a replay needs, checked."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f'Not a replay: expected an object with "format": "{FORMAT}".')
    if data.get("version") != VERSION:
        raise ReplayError(f"Unsupported replay version {data.get('version')!r}; this build reads version {VERSION}.")
    card = data.get("card")
    if not isinstance(card, str):
        raise ReplayError('A replay names its card: "card": "practice".')
    try:
        rules = rules_from_dict({"card": card, **data.get("rules", {})})
    except EngineError as exc:
        raise ReplayError(f"Bad rules: {exc}") from None
    return card, rules


def replay(data: dict[str, Any], card: Card, *, stop_at: int | None = None,
           on_step: Callable[[Game, int], None] | None = None) -> Replayed:
    """Play a replay back. ``stop_at`` applies only that many actions; ``on_step(game, i)`` runs after each."""
    _, rules = replay_header(data)
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise ReplayError('"seed" must be a whole number.')
    deal = None
    if "deal" in data:
        deal = _parse_deal(data["deal"])
    try:
        game, opening = Game.new(card, rules, seed, east=data.get("east", 0), game_no=data.get("game_no", 1),
                                 deal=deal)
    except EngineError as exc:
        raise ReplayError(f"Cannot start the game: {exc}") from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError('"actions" must be a list.')
    events: list[list[Event]] = []
    for index, raw in enumerate(actions[:stop_at]):
        try:
            action = action_from_json(raw)
            events.append(game.apply(action))
        except ActionFormatError as exc:
            raise ReplayError(str(exc), index) from None
        except EngineError as exc:
            raise ReplayError(f"{_describe(raw)}: {exc}", index) from None
        if on_step is not None:
            on_step(game, index)
    return Replayed(game, events, opening)


def _parse_deal(raw: Any) -> tuple[list[list[int]], list[int]]:
    if not isinstance(raw, dict) or not isinstance(raw.get("hands"), list):
        raise ReplayError('"deal" must be {"hands": [four lists of tiles], "wall": [tiles drawn first]}.')
    try:
        hands = [parse_tiles(h) if isinstance(h, str) else parse_tiles([str(t) for t in h]) for h in raw["hands"]]
        wall_raw = raw.get("wall", [])
        wall = parse_tiles(wall_raw) if isinstance(wall_raw, str) else parse_tiles([str(t) for t in wall_raw])
    except TileError as exc:
        raise ReplayError(f"Bad deal: {exc}") from None
    return hands, wall


def _describe(raw: Any) -> str:
    if isinstance(raw, dict):
        who = f" by seat {raw['seat']}" if "seat" in raw and raw["seat"] != -1 else ""
        return f"{raw.get('type', '?')}{who}"
    return "?"
