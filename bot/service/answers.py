"""What the table answers for a player, and what it will not let one tap throw away.

- Passing for those who cannot call (the table option ``auto_pass``, on by default): a seat with no legal call on
  the discard is passed for the moment the window opens, so a window closes as soon as nobody can use it. It
  reveals one thing: a window that closes at once says that nobody could call its tile.
- A Mah Jongg at stake: a Pass (on a discard she could win on), a discard (with a Mah Jongg on her own tiles) or
  East's first Charleston pass (with her dealt hand complete) is refused with :class:`MahJonggAtStake` unless the
  player confirms it; the caller then offers "Mah Jongg!" or the move anyway.
- A misclick guard: discarding a joker is a tap easily made by mistake and never taken back, so it is refused
  with :class:`NeedsConfirmation` unless the player confirms it (under the 1946 rules there are no jokers, and
  their wild tile, the flower, may never be discarded).
"""

from __future__ import annotations

from bot.engine.actions import Action, Call, CharlestonPass, DeclareMahJongg, Discard, PassCall
from bot.engine.game import Game
from bot.engine.legal import legal_actions
from bot.engine.state import Phase
from bot.engine.tiles import Tile, name

from .errors import ErrorKind, MahJonggAtStake, NeedsConfirmation
from .keys import action_key
from .live import LiveTable


def forced_answer(table: LiveTable) -> int | None:
    """The seat whose answer to the call window the table gives now, with ``auto_pass`` on, or None: a person with
    no legal call on the discard (the table passes for her), or a computer with none (it answers at once, not
    after its delay, as it has nothing to weigh). Computers answer in seat order, as they always do, so a table of
    computers plays the same game whatever its pacing: one that can call is waited for before those after it."""
    game = table.game
    if not table.options.auto_pass or game is None or game.state.phase != Phase.CALL_WINDOW:
        return None
    computers_may_go = True
    for seat in table.awaiting():
        computer = table.computer_level(seat) is not None
        if can_call(game, seat):
            computers_may_go = computers_may_go and not computer
        elif not computer or computers_may_go:
            return seat
    return None


def can_call(game: Game, seat: int) -> bool:
    """Whether ``seat`` may call the discard now (for an exposure or for Mah Jongg)."""
    return any(isinstance(a, Call) for a in legal_actions(game, seat))


def refuse_throwing_away_mahjong(game: Game, seat: int, action: Action) -> None:
    """Raise :class:`MahJonggAtStake` if ``action`` would let go of a Mah Jongg ``seat`` can claim now."""
    if not isinstance(action, PassCall | Discard | CharlestonPass):
        return
    legal = legal_actions(game, seat)
    state = game.state
    if isinstance(action, PassCall) and Call(seat, (), True) in legal and state.window is not None:
        raise MahJonggAtStake(f"{name(state.window.tile)} gives you Mah Jongg! Claim it, or pass anyway.",
                              action_key(Call(seat, (), True)), "Pass anyway")
    if DeclareMahJongg(seat) in legal and not isinstance(action, PassCall):
        what = "discard anyway" if isinstance(action, Discard) else "pass your tiles anyway"
        raise MahJonggAtStake(f"Your tiles are a Mah Jongg! Declare it, or {what}.", action_key(DeclareMahJongg(seat)),
                              what.capitalize())


def refuse_discarding_wild(game: Game, seat: int, action: Action) -> None:
    """Raise :class:`NeedsConfirmation` if ``action`` discards a joker (the 1946 rules have none, and never let a
    flower, their wild tile, be discarded: P13)."""
    if not isinstance(action, Discard) or action.tile != Tile.J:
        return
    raise NeedsConfirmation(ErrorKind.CONFIRM, "Discard a joker? A discard can't be taken back, and a joker is worth "
                            "keeping.", "Discard the joker")
