"""Jokers, blanks and Mah Jongg (docs/rules.md §5, TR2, §6): exchanging a joker from an exposure, swapping a
blank for a dead discard, and declaring Mah Jongg on one's own turn (or East's heavenly hand, §11.3)."""

from __future__ import annotations

from . import payloads
from .actions import DeclareMahJongg, ExchangeJoker, SwapBlank
from .ending import false_mahjong, win
from .errors import IllegalAction
from .events import Event, public
from .liveness import recheck
from .matching import check
from .queries import blank_swap_refusal, dead_discard_refusal, seat_wind
from .referee import Referee
from .state import Phase, Turn, TurnStage
from .tiles import Tile, name
from .turns import next_turn


def exchange_joker(ref: Referee, action: ExchangeJoker) -> list[Event]:
    """On her turn, a player gives the natural tile for a joker in any exposure (J4)."""
    state = ref.state
    ref.require_turn(action.seat, drawn=True)
    if ref.card.wild == Tile.F:
        raise IllegalAction("Wild flowers can't be exchanged under the 1946 rules.")
    if not 0 <= action.owner <= 3 or state.seats[action.owner].empty:
        raise IllegalAction(f"There is no player in seat {action.owner}.")
    exposures = state.seats[action.owner].exposures
    if not 0 <= action.exposure < len(exposures):
        raise IllegalAction(f"{seat_wind(state, action.owner)} has no exposure number {action.exposure + 1}.")
    exposure = exposures[action.exposure]
    if Tile.J not in exposure.tiles:
        raise IllegalAction("That exposure has no joker to exchange.")
    if action.tile != exposure.tile:
        raise IllegalAction(f"That joker stands for {name(exposure.tile)}; you offered {name(action.tile)}.")
    ref.require_in_rack(action.seat, [action.tile])
    rack = state.seats[action.seat].rack
    rack.remove(action.tile)
    rack.append(Tile.J)
    exposure.tiles[exposure.tiles.index(Tile.J)] = action.tile
    state.turn_state = state.turn_state.with_exchange()
    events = [public(payloads.JokerExchange(action.owner, action.exposure, action.tile), action.seat)]
    # §11.6: the natural now lies in an exposure, out of the others' reach (and out of the giver's).
    events += recheck(ref)
    if state.seats[action.seat].dead:
        state.turn_state = Turn.over(action.seat)
        events += next_turn(ref, action.seat)
    return events


def swap_blank(ref: Referee, action: SwapBlank) -> list[Event]:
    """A player gives a blank for a dead discard, when the table's blank timing allows (TR2)."""
    state = ref.state
    why = blank_swap_refusal(state, action.seat) or dead_discard_refusal(state, action.discard)
    if why:
        raise IllegalAction(why)
    owner, tile = state.discards[action.discard]
    rack = state.seats[action.seat].rack
    rack.remove(Tile.BL)
    rack.append(tile)
    state.discards[action.discard] = (owner, Tile.BL)
    return [public(payloads.BlankSwap(discard=action.discard, tile=tile), action.seat)]


def declare(ref: Referee, action: DeclareMahJongg) -> list[Event]:
    """Mah Jongg on one's own tiles: after a draw, a call or a joker exchange, or East's heavenly hand."""
    state = ref.state
    if state.phase == Phase.CHARLESTON:
        assert state.charleston is not None
        heavenly_moment = state.charleston.stage == 0 and action.seat not in state.charleston.passes
        if action.seat != state.east or not heavenly_moment:
            raise IllegalAction("During the Charleston only East may declare, with the hand she was dealt, "
                                "before passing.")
        result = check(ref.card, state.seats[action.seat].rack, tile_set=ref.tile_set)
        if not result.mahjong:
            raise IllegalAction("Your dealt hand is not a Mah Jongg: pass your tiles.")
        return win(ref, action.seat, result, "heavenly")
    if state.phase == Phase.CALL_WINDOW:
        raise IllegalAction("To win with this discard, call it for Mah Jongg.")
    ref.require_turn(action.seat, drawn=True)
    seat = state.seats[action.seat]
    result = check(ref.card, seat.rack, [e.tiles for e in seat.exposures], tile_set=ref.tile_set)
    turn = state.turn_state
    if not result.mahjong:
        if state.rules.declarations == "friendly":
            raise IllegalAction("That is not a Mah Jongg on this card yet. Your rack matches no line; "
                                "check the card and keep playing.")
        events = false_mahjong(ref, action.seat)
        state.turn_state = Turn.over(action.seat)
        return events + next_turn(ref, action.seat)
    if turn.stage == TurnStage.DEALT:
        return win(ref, action.seat, result, "heavenly")  # §11.3: after the Charleston, before discarding
    called = seat.exposures[-1].tile if turn.stage == TurnStage.CALLED and seat.exposures else None
    if turn.stage == TurnStage.CALLED and not turn.exchanged:
        return win(ref, action.seat, result, "discard", discarder=turn.called_from, tile=called)
    # SC2: own draw, or completed by a joker exchange
    return win(ref, action.seat, result, "self_pick", tile=turn.drawn if turn.drawn is not None else called)
