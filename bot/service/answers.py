"""What the table answers for a player, and what it will not let one tap throw away.

- Passing for those who cannot call (the table option ``auto_pass``, on by default): a person with no legal call on
  the discard is passed for the moment the window opens. Computers pass at once too, whether or not they could
  call (their delay is for people to follow their discards and calls, and nobody watches a pass being thought
  over: :mod:`bot.service.play`), so a window closes as soon as nobody can or will use it. It reveals one thing: a
  window that closes at once says that no person could call its tile.
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


def passed_for(table: LiveTable, seat: int) -> bool:
    """Whether the table passes for ``seat`` now: ``auto_pass`` is on, the table is in a call window, and a person
    (not a computer) holds the seat with no legal call on the discard. (Computers give their own answers, at once
    when they pass: :mod:`bot.service.play`.)"""
    game = table.game
    return (table.options.auto_pass and game is not None and game.state.phase == Phase.CALL_WINDOW
            and table.computer_level(seat) is None and not can_call(game, seat))


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
