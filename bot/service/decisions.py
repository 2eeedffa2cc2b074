"""Decision tokens: a short name for each decision a table waits on, so a button drawn for one decision keeps
working while that decision is open, however many unrelated moves happen meanwhile, and is refused once it is
over.

A token is ``<game number><letter><n>``, derived from the game state alone (so it survives restarts):

    3c2   game 3, Charleston pass number 2 (the first left)     3v    the vote to stop after the first left
    3k    the courtesy pass                                     3t31  the turn after 31 discards
    3w31  the call window on discard 31 (under the 1946 rules it stays open into the next turn)
"""

from __future__ import annotations

import re

from bot.engine import charleston as ch
from bot.engine.game import Game
from bot.engine.state import Phase
from bot.engine.tiles import Tile

_TOKEN = re.compile(r"^(\d{1,6})([cvktw])(\d{0,4})$")


def current_token(game: Game) -> str | None:
    """The token of the decision the table waits on now; None once the game is over."""
    state = game.state
    g = state.game_no
    match state.phase:
        case Phase.CHARLESTON:
            assert state.charleston is not None
            return f"{g}c{state.charleston.stage}"
        case Phase.CHARLESTON_VOTE:
            return f"{g}v"
        case Phase.COURTESY:
            return f"{g}k"
        case Phase.PLAY:
            return f"{g}t{state.turns}"
        case Phase.CALL_WINDOW:
            return f"{g}w{state.turns}"
    return None


def open_tokens(game: Game) -> frozenset[str]:
    """Every decision still open: the current one, and under the 1946 rules the discard still claimable."""
    token = current_token(game)
    tokens = {token} if token else set()
    window = claimable(game)
    if window is not None:
        tokens.add(window[0])
    return frozenset(tokens)


def claimable(game: Game) -> tuple[str, Tile, int] | None:
    """The discard that may be called now, as (its window's token, the tile, its discarder): the live call
    window's, or under the 1946 rules the last discard, claimable until the next one."""
    state = game.state
    window = state.window if state.phase == Phase.CALL_WINDOW else state.late_window
    if window is None or state.phase not in (Phase.CALL_WINDOW, Phase.PLAY):
        return None
    return f"{state.game_no}w{state.turns}", window.tile, window.discarder


def is_token(text: str) -> bool:
    """Whether ``text`` has the shape of a decision token."""
    return bool(_TOKEN.match(text))


def describe(token: str, game_no: int | None = None) -> str:
    """The decision a token names, in a player's words (no counters): "the first left pass", "an earlier
    discard"; with ``game_no`` (the game being played now) a token of another game is "an earlier game"."""
    found = _TOKEN.match(token)
    if not found:
        return "an earlier move"
    game, letter, n = found.groups()
    if game_no is not None and int(game) != game_no:
        return "an earlier game"
    if letter == "c":
        return f"the {ch.PASSES[int(n)].name} pass" if n and int(n) < len(ch.PASSES) else "a Charleston pass"
    return {"v": "the vote to stop the Charleston", "k": "the courtesy pass", "t": "an earlier turn",
            "w": "an earlier discard"}[letter]


def gone_message(token: str, game_no: int | None = None) -> str:
    """What a player is told when a button's decision is over."""
    what = describe(token, game_no)
    over = "which can no longer be called" if what == "an earlier discard" else "which is over"
    return f"That button was for {what}, {over}. Use the newest message."
