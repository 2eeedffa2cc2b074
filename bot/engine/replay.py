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
from .tiles import Tile

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
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ReplayError(f'"version" must be the whole number {VERSION}, not {version!r:.40}.')
    if version > VERSION:
        raise ReplayError(f"This replay is in format version {version}, written by a newer Charleston; this one "
                          f"reads version {VERSION}. Update Charleston to play it back.")
    if version != VERSION:
        raise ReplayError(f"Replay format version {version} does not exist; this Charleston reads version "
                          f"{VERSION}.")
    card = data.get("card")
    if not isinstance(card, str) or not card:
        raise ReplayError('A replay names its card: "card": "practice".')
    options = data.get("rules", {})
    if not isinstance(options, dict):
        raise ReplayError('"rules" must be an object of table options, e.g. {"preset": "nmjl", "charleston": '
                          f"false}}, not {options!r:.40}.")
    try:
        rules = rules_from_dict({"card": card, **options})
    except EngineError as exc:
        raise ReplayError(f"Bad rules: {exc}") from None
    return card, rules


def _whole(value: Any) -> bool:
    # JSON true/false are Python bools, which are ints: a replay never means a seat or a seed by them.
    return isinstance(value, int) and not isinstance(value, bool)


def replay(data: dict[str, Any], card: Card, *, stop_at: int | None = None,
           on_step: Callable[[Game, int], None] | None = None) -> Replayed:
    """Play a replay back. ``stop_at`` applies only that many actions; ``on_step(game, i)`` runs after each."""
    _, rules = replay_header(data)
    seed = data.get("seed", 0)
    if not _whole(seed):
        raise ReplayError(f'"seed" must be a whole number, not {seed!r:.40}.')
    east = data.get("east", 0)
    if not _whole(east) or not 0 <= east <= 3:
        raise ReplayError(f'"east" must be East\'s seat: the whole number 0, 1, 2 or 3, not {east!r:.40}.')
    game_no = data.get("game_no", 1)
    if not _whole(game_no) or game_no < 1:
        raise ReplayError(f'"game_no" must be a whole number from 1, not {game_no!r:.40}.')
    deal = None
    if "deal" in data:
        deal = _parse_deal(data["deal"])
    try:
        game, opening = Game.new(card, rules, seed, east=east, game_no=game_no, deal=deal)
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


def _parse_deal(raw: Any) -> tuple[list[list[Tile]], list[Tile]]:
    shape = ('"deal" must be {"hands": [four racks], "wall": [tiles drawn first]}, each a list of tile codes or '
             "one string")
    if not isinstance(raw, dict) or not isinstance(raw.get("hands"), list):
        raise ReplayError(shape + ".")
    wall_raw = raw.get("wall", [])
    if not all(isinstance(tiles, str | list) for tiles in [*raw["hands"], wall_raw]):
        raise ReplayError(shape + ".")
    try:
        hands = [parse_tiles(h) for h in raw["hands"]]
        wall = parse_tiles(wall_raw)
    except TileError as exc:
        raise ReplayError(f"Bad deal: {exc}") from None
    return hands, wall


def _describe(raw: Any) -> str:
    if isinstance(raw, dict):
        who = f" by seat {str(raw['seat'])[:10]}" if "seat" in raw and raw["seat"] != -1 else ""
        return f"{str(raw.get('type', '?'))[:40]}{who}"
    return "?"
