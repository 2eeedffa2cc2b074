"""The referee: applies actions to a :class:`GameState` by the rules of docs/rules.md §2-§7 and §11.

``Game.apply(action)`` either returns the events the action caused or raises :class:`IllegalAction` with a
reason for the player, leaving the state untouched: every handler checks everything before it changes
anything. Randomness comes only from the state's seeded generator, so the same seed and actions always give
the same game. The rules themselves live by subject: :mod:`.deal`, :mod:`.charleston`, :mod:`.turns`,
:mod:`.calls`, :mod:`.mahjong` and :mod:`.ending`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from . import calls, charleston, classical, classical_calls, mahjong, turns
from .actions import (
    TABLE,
    Action,
    Call,
    CharlestonPass,
    CharlestonVote,
    CloseWindow,
    CourtesyOffer,
    DeclareKong,
    DeclareMahJongg,
    Discard,
    Draw,
    ExchangeJoker,
    Hold,
    PassCall,
    SwapBlank,
)
from .card import Card
from .deal import Deal, deal_game, next_east
from .errors import IllegalAction
from .events import Event
from .queries import seat_wind, tile_set_for
from .referee import Referee
from .rules import TableRules
from .state import Phase

# What callers have always taken from here, wherever it is defined now.
__all__ = ["Game", "IllegalAction", "next_east", "seat_wind", "tile_set_for"]

Handler = Callable[[Referee, Any], list[Event]]


class Game(Referee):
    """A game and its referee: deal one with :meth:`new`, play it with :meth:`apply`."""

    @classmethod
    def new(cls, card: Card, rules: TableRules, seed: int, *, east: int = 0, game_no: int = 1,
            deal: Deal | None = None) -> tuple[Game, list[Event]]:
        """Deal a new game (docs/rules.md §2, S3; §11.7 for 1946). ``deal`` = (hands by seat, wall prefix)
        replaces the shuffle for scenarios; the rest of the wall is shuffled from the seed."""
        state, events = deal_game(card, rules, seed, east=east, game_no=game_no, deal=deal)
        game = cls(state, card)
        return game, events + charleston.begin_charleston(game)

    def apply(self, action: Action) -> list[Event]:
        """Apply one action by a seat (or the table's clock); returns its events or raises IllegalAction."""
        state = self.state
        if state.phase == Phase.FINISHED:
            raise IllegalAction("The game is over.")
        if isinstance(action, CloseWindow) != (action.seat == TABLE):
            # Only the table's clock closes a call window, and the clock does nothing else.
            raise IllegalAction("Only the table's timer closes a call window." if isinstance(action, CloseWindow)
                                else f"There is no player in seat {action.seat}.")
        if action.seat != TABLE:
            if not 0 <= action.seat <= 3 or state.seats[action.seat].empty:
                raise IllegalAction(f"There is no player in seat {action.seat}.")
            if state.seats[action.seat].dead and not (isinstance(action, Draw) and state.rules.dead_hand_draws):
                raise IllegalAction("Your hand is dead: you no longer draw, discard or call this game."
                                    if not state.rules.dead_hand_draws else
                                    "Your hand is dead: you only draw, and throw what you draw, this game.")
        handlers = self._CLASSICAL_HANDLERS if state.rules.classical else self._HANDLERS
        handler = handlers.get(type(action))
        if handler is None:
            raise IllegalAction(f"Unknown action {action!r}.")
        events = handler(self, action)
        state.log.append(action.to_json())
        return events

    _HANDLERS: ClassVar[dict[type[Action], Handler]] = {
        CharlestonPass: charleston.charleston_pass,
        CharlestonVote: charleston.charleston_vote,
        CourtesyOffer: charleston.courtesy_offer,
        Draw: turns.draw,
        Discard: turns.discard,
        Call: calls.call,
        PassCall: calls.pass_call,
        Hold: calls.hold,
        CloseWindow: calls.close_window,
        ExchangeJoker: mahjong.exchange_joker,
        SwapBlank: mahjong.swap_blank,
        DeclareMahJongg: mahjong.declare,
        DeclareKong: classical.kongs_are_classical,
    }
    # The classical game (docs/rules.md §9): its own calls, kongs and Mah Jongg; no jokers or blanks.
    _CLASSICAL_HANDLERS: ClassVar[dict[type[Action], Handler]] = {
        **_HANDLERS,
        Call: classical_calls.call,
        DeclareMahJongg: classical.declare,
        DeclareKong: classical.declare_kong,
        ExchangeJoker: classical.no_jokers,
        SwapBlank: classical.no_jokers,
    }
