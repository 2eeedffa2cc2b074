"""Every action a seat may take in the classical game (docs/rules.md §9), enumerated for menus and computer
players: each is accepted by the referee and nothing else is."""

from __future__ import annotations

from collections import Counter

from .actions import Action, Call, DeclareKong, DeclareMahJongg, Discard, Hold, PassCall
from .classical import complete, kong_refusal
from .classical_calls import chow_seat
from .state import CallWindow, GameState
from .tiles import SORT_KEY, number_of, number_tile, suit_of


def turn_actions(state: GameState, seat: int) -> list[Action]:
    """After drawing (or a replacement), after a call, or East's first turn: Mah Jongg, kongs, discards."""
    me = state.seats[seat]
    actions: list[Action] = []
    if complete(me):
        actions.append(DeclareMahJongg(seat))
    kinds = sorted(set(me.rack), key=SORT_KEY.__getitem__)
    actions += [DeclareKong(seat, tile) for tile in kinds if kong_refusal(state, seat, tile) is None]
    actions += [Discard(seat, tile) for tile in kinds]
    return actions


def call_actions(state: GameState, seat: int, window: CallWindow, *, late: bool) -> list[Action]:
    """Answers to the discard: pass, wait, Mah Jongg, and the chows, pung and kong it completes (CL3)."""
    if seat == window.discarder or window.answered(seat):
        return []
    me = state.seats[seat]
    tile = window.tile
    actions: list[Action] = [] if late else [PassCall(seat), *([Hold(seat)] if seat not in window.held else [])]
    if complete(me, tile):
        actions.append(Call(seat, (), True))
    if window.mahjong_only:
        return actions
    held = Counter(me.rack)
    suit, number = suit_of(tile), number_of(tile)
    if suit is not None and number is not None and chow_seat(state, window.discarder) == seat:
        for low in range(max(1, number - 2), min(number, 7) + 1):  # the chows of one suit that hold the tile
            run = [number_tile(suit, n) for n in range(low, low + 3) if n != number]
            if all(held[t] for t in run):
                actions.append(Call(seat, tuple(run), False))
    if held[tile] >= 2:
        actions.append(Call(seat, (tile, tile), False))
    if held[tile] >= 3 and state.wall:
        actions.append(Call(seat, (tile, tile, tile), False))
    return actions
