"""Every action a seat may take right now, enumerated (for menus and computer players).

Charleston passes and courtesy offers are listed as distinct tile combinations (by kind), each once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from . import charleston as ch
from . import classical_legal
from .actions import (
    Action,
    Call,
    CharlestonPass,
    CharlestonVote,
    CourtesyOffer,
    DeclareMahJongg,
    Discard,
    Draw,
    ExchangeJoker,
    Hold,
    PassCall,
    SwapBlank,
)
from .game import Game
from .liveness import alive_after
from .matching import check, exposure_verdict, may_be_mahjong
from .queries import blank_swap_refusal, dead_discard_refusal, may_discard_flower
from .redeem import discard_win
from .state import CallWindow, Phase
from .tiles import SORT_KEY, Tile


def legal_actions(game: Game, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; each is accepted by ``game.apply`` and nothing else is."""
    state = game.state
    if state.phase == Phase.FINISHED or not 0 <= seat <= 3:
        return []
    me = state.seats[seat]
    turn = state.phase == Phase.PLAY and seat == state.turn
    if me.empty or (me.dead and not (turn and state.turn_state.needs_draw and state.rules.dead_hand_draws)):
        return []  # a dead hand plays on only to draw (and throw what it draws) where the rules say so (M7)
    if state.rules.classical:
        return _classical_actions(game, seat)
    actions: list[Action] = []
    if state.phase == Phase.CHARLESTON:
        assert state.charleston is not None
        if seat not in state.charleston.passes:
            step = ch.PASSES[state.charleston.stage]
            for blind in range(4 if step.blind_allowed else 1):
                actions += [CharlestonPass(seat, combo, blind) for combo in _combos(me.rack, 3 - blind)]
            dealt = seat == state.east and state.charleston.stage == 0
            if dealt and check(game.card, me.rack, tile_set=game.tile_set).mahjong:
                actions.append(DeclareMahJongg(seat))
    elif state.phase == Phase.CHARLESTON_VOTE:
        assert state.charleston is not None
        if seat not in state.charleston.votes:
            actions += [CharlestonVote(seat, False), CharlestonVote(seat, True)]
    elif state.phase == Phase.COURTESY:
        assert state.charleston is not None
        if seat not in state.charleston.offers:
            for count in range(4):
                actions += [CourtesyOffer(seat, combo) for combo in _combos(me.rack, count)]
    elif state.phase == Phase.PLAY and seat == state.turn:
        if state.turn_state.needs_draw:
            actions.append(Draw(seat))
        else:
            actions += _turn_actions(game, seat)
    elif state.phase == Phase.PLAY and state.late_window is not None:
        actions += _call_actions(game, seat, state.late_window, late=True)
    elif state.phase == Phase.CALL_WINDOW:
        assert state.window is not None
        actions += _call_actions(game, seat, state.window, late=False)
    actions += _blank_swaps(game, seat)
    return actions


def _classical_actions(game: Game, seat: int) -> list[Action]:
    """The classical game (docs/rules.md §9): no Charleston, jokers or blanks; chows and kongs."""
    state = game.state
    if state.phase == Phase.PLAY and seat == state.turn:
        return [Draw(seat)] if state.turn_state.needs_draw else classical_legal.turn_actions(state, seat)
    if state.phase == Phase.PLAY and state.late_window is not None:
        return classical_legal.call_actions(state, seat, state.late_window, late=True)
    if state.phase == Phase.CALL_WINDOW:
        assert state.window is not None
        return classical_legal.call_actions(state, seat, state.window, late=False)
    return []


def _combos(rack: Sequence[Tile], size: int) -> Iterator[tuple[Tile, ...]]:
    """Distinct passable combinations of ``size`` tiles of the rack (jokers and blanks never pass)."""
    passable = sorted((t for t in rack if t not in (Tile.J, Tile.BL)), key=SORT_KEY.__getitem__)
    seen: set[tuple[Tile, ...]] = set()
    for combo in combinations(passable, size):
        if combo not in seen:
            seen.add(combo)
            yield combo


def _turn_actions(game: Game, seat: int) -> list[Action]:
    """After drawing or calling: declare, discard, exchange a joker."""
    state = game.state
    me = state.seats[seat]
    actions: list[Action] = []
    exposures = [e.tiles for e in me.exposures]
    if may_be_mahjong(game.card, me.rack, exposures) and check(game.card, me.rack, exposures,
                                                                tile_set=game.tile_set).mahjong:
        actions.append(DeclareMahJongg(seat))
    for tile in sorted(set(me.rack), key=SORT_KEY.__getitem__):
        if tile == Tile.F and not may_discard_flower(state, me.rack):
            continue
        actions.append(Discard(seat, tile))
    if game.card.wild == Tile.J:
        have = set(me.rack)
        for owner, other in enumerate(state.seats):
            for n, exposure in enumerate(other.exposures):
                if Tile.J in exposure.tiles and exposure.tile in have:
                    actions.append(ExchangeJoker(seat, owner, n, exposure.tile))
    return actions


def _call_actions(game: Game, seat: int, window: CallWindow, *, late: bool) -> list[Action]:
    """Calls on ``window``'s discard; a late (1946) window offers calls only, no pass or hold."""
    state = game.state
    if seat == window.discarder or window.answered(seat):
        return []
    me = state.seats[seat]
    exposures = [e.tiles for e in me.exposures]
    actions: list[Action] = []
    if not late:
        actions.append(PassCall(seat))
        if seat not in window.held:
            actions.append(Hold(seat))
    if discard_win(game, seat, window.tile) is not None:  # as it is, or finished by redeeming jokers (M3)
        actions.append(Call(seat, (), True))
    if window.mahjong_only:
        return actions
    wild = game.card.wild
    counts = Counter(me.rack)
    naturals = counts[window.tile]
    wilds = counts[wild] if wild is not None else 0
    for size in range(max(3, state.rules.min_call_size), naturals + wilds + 2):
        group_ok: bool | None = None
        for use_naturals in range(min(naturals, size - 1), -1, -1):
            use_wilds = size - 1 - use_naturals
            if use_wilds > wilds or (wild is None and use_wilds):
                continue
            if group_ok is None:
                group_ok = exposure_verdict(game.card, [window.tile] * size, exposures,
                                            min_size=state.rules.min_call_size).legal
            if not group_ok:
                break
            tiles = (window.tile,) * use_naturals + ((wild,) * use_wilds if wild is not None else ())
            if alive_after(game, seat, [window.tile, *tiles]):  # §11.6: never a call that kills the hand
                actions.append(Call(seat, tiles, False))
    return actions


def _blank_swaps(game: Game, seat: int) -> list[Action]:
    """Blank swaps open to ``seat``: one per kind of dead discard."""
    state = game.state
    if blank_swap_refusal(state, seat):
        return []
    seen: set[Tile] = set()
    swaps: list[Action] = []
    for n, (_, tile) in enumerate(state.discards):
        if tile not in seen and not dead_discard_refusal(state, n):
            seen.add(tile)
            swaps.append(SwapBlank(seat, n))
    return swaps
