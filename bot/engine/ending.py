"""How a game ends, and how a hand ends before it: a Mah Jongg won, the game over and paid, a hand declared
dead, a false declaration at a strict table (docs/rules.md §6, §7)."""

from __future__ import annotations

from . import payloads
from .events import Event, public
from .matching import CheckResult
from .payouts import payouts
from .referee import Referee
from .state import Payout, Phase, Result
from .tiles import Tile


def win(ref: Referee, seat: int, result: CheckResult, how: str, discarder: int | None = None,
        tile: Tile | None = None) -> list[Event]:
    """``seat`` wins with the best line of ``result``; ``how`` is self_pick, discard or heavenly; ``tile`` is the
    tile that won it (the discard taken or the tile drawn), shown marked in the winning hand."""
    match = result.best
    assert match is not None
    line = match.line
    outcome = Result(how, seat, line.id, line.value, line.east_value, discarder, match.jokerless,
                     line.singles_and_pairs, [list(g) for g in match.arrangement], tile)
    return [public(payloads.Mahjong(line.id, line.section, line.value, how, discarder, match.pays_jokerless,
                              match.arrangement), seat),
            *end(ref, outcome)]


def end(ref: Referee, result: Result) -> list[Event]:
    """The game is over with ``result``; everyone is told who pays whom."""
    state = ref.state
    state.result = result
    state.phase = Phase.FINISHED
    state.window = None
    return [public(payloads.GameOver(how=result.how, payouts=tuple(payouts(state))), result.winner)]


def kill(ref: Referee, seat: int, reason: str) -> list[Event]:
    """``seat``'s hand is dead for ``reason``: it no longer draws, discards or calls this game."""
    state = ref.state
    state.seats[seat].dead = True
    state.seats[seat].dead_reason = reason
    return [public(payloads.DeadHand(reason=reason), seat)]


def false_mahjong(ref: Referee, seat: int) -> list[Event]:
    """Strict mode (§11.1, M4b): a declaration that is not Mah Jongg exposed the hand, so it is dead; the
    1946 rules add a penalty to each intact player. The caller moves play on."""
    state = ref.state
    events = [public(payloads.FalseMahjong(), seat)]
    penalty = state.rules.false_mahjong_penalty
    if penalty:
        for other in state.live_seats:
            if other != seat:
                amount = penalty * (2 if state.rules.east_double and state.east in (seat, other) else 1)
                state.penalties.append(Payout(seat, other, amount, "false Mah Jongg"))
    return events + kill(ref, seat, "declared Mah Jongg in error")
