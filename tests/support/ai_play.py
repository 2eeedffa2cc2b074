"""Playing a whole game with computer players, checking every decision is legal."""

from __future__ import annotations

import dataclasses

from bot.ai.players import make_player
from bot.ai.selfplay import seats_to_move
from bot.engine.actions import Action, CharlestonPass, CourtesyOffer
from bot.engine.game import Game
from bot.engine.views import seat_view


def canonical(action: Action) -> Action:
    """Passes and offers are the same action whatever order their tiles are listed in."""
    if isinstance(action, (CharlestonPass, CourtesyOffer)):
        return dataclasses.replace(action, tiles=tuple(sorted(action.tiles)))
    return action


def play_checking(game: Game, levels: list[str], seed: int) -> int:
    """Play to the end, asserting every decision is one of the seat's legal actions; returns decisions made."""
    players = [make_player(levels[s], seed=seed * 4 + s) for s in range(4)]
    decisions = 0
    for seat in seats_to_move(game):
        view = seat_view(game, seat)
        action = players[seat].decide(view)
        legal = {canonical(a) for a in view.legal}
        assert canonical(action) in legal, f"{levels[seat]} chose {action}, not among its legal actions"
        game.apply(action)
        decisions += 1
    return decisions


