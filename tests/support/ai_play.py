"""Playing a whole game with computer players, checking every decision is legal."""

from __future__ import annotations

import dataclasses

from bot.ai.players import make_player
from bot.engine.actions import TABLE, Action, CharlestonPass, CloseWindow, CourtesyOffer
from bot.engine.game import Game
from bot.engine.state import Phase
from bot.engine.views import seat_view, waiting_for


def canonical(action: Action) -> Action:
    """Passes and offers are the same action whatever order their tiles are listed in."""
    if isinstance(action, (CharlestonPass, CourtesyOffer)):
        return dataclasses.replace(action, tiles=tuple(sorted(action.tiles)))
    return action


def play_checking(game: Game, levels: list[str], seed: int) -> int:
    """Play to the end, asserting every decision is one of the seat's legal actions; returns decisions made."""
    players = [make_player(levels[s], seed=seed * 4 + s) for s in range(4)]
    decisions = 0
    while game.state.phase != Phase.FINISHED:
        waiting = waiting_for(game)
        if not waiting:
            game.apply(CloseWindow(TABLE))
            continue
        seat = waiting[0]
        view = seat_view(game, seat)
        action = players[seat].decide(view)
        legal = {canonical(a) for a in view.legal}
        assert canonical(action) in legal, f"{levels[seat]} chose {action}, not among its legal actions"
        game.apply(action)
        decisions += 1
    return decisions


