"""Calling a discard in the classical game (docs/rules.md §9, CL3): a chow only from the player just before you
in turn (on your left), a pung or a kong from anyone, Mah Jongg from anyone. Each call is checked when it is
made; the window and the race between claims (CL4) are :mod:`.calls`'."""

from __future__ import annotations

from collections.abc import Sequence

from . import payloads
from .actions import Call
from .calls import late_claim, maybe_resolve, open_window
from .classical import complete, is_chow
from .ending import false_mahjong
from .errors import IllegalAction
from .events import Event, public
from .referee import Referee
from .state import CallWindow, Claim, GameState
from .tiles import Tile, name
from .turns import next_seat


def call(ref: Referee, action: Call) -> list[Event]:
    """A claim on the discard: a chow, a pung, a kong or Mah Jongg."""
    state = ref.state
    window = open_window(ref, action.seat)
    seat = state.seats[action.seat]
    tile = window.tile
    if action.mahjong:
        if action.tiles:
            raise IllegalAction("A Mah Jongg call names no tiles: the whole hand is shown.")
        if not complete(seat, tile):
            if state.rules.declarations == "friendly":
                raise IllegalAction(f"{name(tile)} doesn't complete four sets and a pair for you.")
            events = false_mahjong(ref, action.seat)  # CL6: dead, but she keeps drawing and discarding
            if window is state.window:
                events += maybe_resolve(ref, window)
            return events
        window.claims.append(Claim(action.seat, [], True))
        events = [public(payloads.Call(mahjong=True), action.seat)]
    else:
        kind = set_call_kind(state, action.seat, tile, action.tiles, window)
        ref.require_in_rack(action.seat, action.tiles)
        window.claims.append(Claim(action.seat, list(action.tiles), False))
        events = [public(payloads.Call(mahjong=False, size=len(action.tiles) + 1, chow=kind == "chow"), action.seat)]
    if window is state.late_window:
        return events + late_claim(ref, window)
    return events + maybe_resolve(ref, window)


def chow_seat(state: GameState, discarder: int) -> int | None:
    """The one seat that may chow this discarder's tile: the next to play after her (CL3)."""
    return next_seat(state, discarder)


def set_call_kind(state: GameState, seat: int, tile: Tile, tiles: Sequence[Tile], window: CallWindow) -> str:
    """``chow``, ``pung`` or ``kong`` for a call the rules allow (its tiles not yet checked against the rack);
    refuses anything else with the reason."""
    if window.mahjong_only:
        why = "the wall is empty" if not state.wall else "the wall is hot"
        raise IllegalAction(f"Only a Mah Jongg call is allowed now: {why}.")
    if tiles and all(t == tile for t in tiles):
        if len(tiles) == 1:
            raise IllegalAction(f"You can't call {name(tile)} for a pair unless it completes Mah Jongg.")
        if len(tiles) == 3 and not state.wall:
            raise IllegalAction("The wall is empty: there is no replacement tile for a kong. Call a pung.")
        if len(tiles) in (2, 3):
            return "pung" if len(tiles) == 2 else "kong"
    elif is_chow(tile, tiles):
        if chow_seat(state, window.discarder) != seat:
            raise IllegalAction("A chow may be called only from the player just before you in turn (on your "
                                "left); call a pung, a kong or Mah Jongg from anyone.")
        return "chow"
    shown = ", ".join(name(t) for t in tiles) or "nothing"
    raise IllegalAction(f"You can't call {name(tile)} with {shown}: a call makes a chow (three in a row of one "
                        "suit), a pung or a kong, or Mah Jongg.")
