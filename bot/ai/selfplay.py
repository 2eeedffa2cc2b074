"""Computer players at a game: one seat's move, and a whole game played out between computer players.

Each player is asked only for its own seat's view (``seat_view``), exactly as at a Discord table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

from bot.engine.actions import TABLE, Action, CloseWindow
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.state import Phase
from bot.engine.views import seat_view, waiting_for

from .players import make_player


class Stuck(RuntimeError):
    """The seat whose move is awaited has no legal move at all. It happens under the 1946 rules, which never let
    a flower be thrown (P13): a seat whose concealed tiles are all flowers after a draw can do nothing."""


def decision_seed(game: Game, seat: int) -> int:
    """The seed of a computer's choices at this position: from the game's seed, the seat and the number of
    actions so far, so the same position always gets the same move."""
    state = game.state
    return state.seed * 7919 + seat * 104729 + len(state.log)


def seats_to_move(game: Game) -> Iterator[int]:
    """The seat whose move the game awaits, position after position, until it ends (the caller applies the move
    before asking for the next); a call window that awaits nobody is closed on the way, as the table would."""
    while game.state.phase != Phase.FINISHED:
        waiting = waiting_for(game)
        if not waiting:
            game.apply(CloseWindow(TABLE))
            continue
        yield waiting[0]


def computer_move(level: str, game: Game, seat: int) -> Action:
    """A computer player's choice for ``seat``. Its random generator is seeded from the game's seed, the seat and
    the number of actions so far, so the same position always gets the same move, in this process or after a
    restart."""
    player = make_player(level, seed=decision_seed(game, seat))
    view = seat_view(game, seat)
    if not view.legal:
        raise Stuck(f"seat {seat} has no legal move (game seed {game.state.seed})")
    return player.decide(view)


def play_game(game: Game, levels: Sequence[str], *, on_events: Callable[[list[Event]], None] | None = None,
              decision_times: list[float] | None = None) -> None:
    """Drive one game to its end, each seat's computer player deciding from its own view; raises :class:`Stuck`
    if the game cannot go on."""
    while game.state.phase != Phase.FINISHED:
        waiting = waiting_for(game)
        if not waiting:
            events = game.apply(CloseWindow(TABLE))
        else:
            seat = waiting[0]
            started = time.perf_counter()
            action = computer_move(levels[seat], game, seat)
            if decision_times is not None:
                decision_times.append(time.perf_counter() - started)
            events = game.apply(action)
        if on_events is not None:
            on_events(events)
