"""The call window and claims (docs/rules.md §4: P4-P11, P14; §11.2, §11.5, §11.7): calling a discard for
an exposure or for Mah Jongg, passing, holding, the window closing, and the claim that wins it (P10)."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Call, CloseWindow, Hold, PassCall
from .ending import false_mahjong, win
from .errors import IllegalAction
from .events import Event, EventKind, public
from .matching import check, exposure_verdict, group_name
from .queries import unanswered
from .referee import Referee
from .state import CallWindow, Claim, Exposure, Phase, Turn
from .tiles import name
from .turns import check_dead, next_turn


def open_window(ref: Referee, seat: int) -> CallWindow:
    """The window ``seat`` may answer now: the call window, or (1946) the last discard during the next turn."""
    state = ref.state
    if state.phase == Phase.PLAY and state.late_window is not None and seat != state.turn:
        window = state.late_window
    elif state.phase == Phase.PLAY:
        raise IllegalAction("There is no discard to call or pass on right now.")
    else:
        ref.require_phase(Phase.CALL_WINDOW)
        assert state.window is not None
        window = state.window
    if seat == window.discarder:
        raise IllegalAction("You can't call your own discard.")
    if window.answered(seat):
        raise IllegalAction("You have already answered this discard.")
    return window


def call(ref: Referee, action: Call) -> list[Event]:
    """A claim on the discard, checked at once; the window resolves when everyone has answered."""
    state = ref.state
    window = open_window(ref, action.seat)
    seat = state.seats[action.seat]
    tile = window.tile
    if action.mahjong:
        if action.tiles:
            raise IllegalAction("A Mah Jongg call names no tiles: the whole hand is shown.")
        result = check(ref.card, [*seat.rack, tile], [e.tiles for e in seat.exposures], tile_set=ref.tile_set)
        if not result.mahjong:
            if state.rules.declarations == "friendly":
                raise IllegalAction(f"{name(tile)} doesn't complete a Mah Jongg for you.")
            events = false_mahjong(ref, action.seat)
            if window is state.window:
                events += maybe_resolve(ref, window)
            return events
        window.claims.append(Claim(action.seat, [], True))
        events = [public(EventKind.CALL, action.seat, mahjong=True)]
    else:
        check_exposure_call(ref, action.seat, tile, action.tiles, window)
        window.claims.append(Claim(action.seat, list(action.tiles), False))
        events = [public(EventKind.CALL, action.seat, mahjong=False, size=len(action.tiles) + 1)]
    if window is state.late_window:
        return events + late_claim(ref, window)
    return events + maybe_resolve(ref, window)


def late_claim(ref: Referee, window: CallWindow) -> list[Event]:
    """A 1946 claim made during the next player's turn: her drawn tile goes back on the wall."""
    state = ref.state
    state.late_window = None
    turn = state.turn_state
    events: list[Event] = []
    if not turn.needs_draw and turn.drawn is not None:
        state.seats[turn.seat].rack.remove(turn.drawn)
        state.wall.insert(0, turn.drawn)
        events.append(public(EventKind.DRAW_RETURNED, turn.seat, wall=len(state.wall)))
    state.turn_state = Turn.over(turn.seat)
    return events + resolve(ref, window)


def check_exposure_call(ref: Referee, seat_no: int, tile: int, tiles: Sequence[int], window: CallWindow) -> None:
    """Refuse a call for an exposure that the rules or the card do not allow (P5-P8, TR1, P14)."""
    state = ref.state
    seat = state.seats[seat_no]
    wild = ref.card.wild
    if window.mahjong_only:
        why = "the wall is empty" if not state.wall else "the wall is hot"
        raise IllegalAction(f"Only a Mah Jongg call is allowed now: {why}.")
    if any(t != tile and t != wild for t in tiles):
        bad = next(t for t in tiles if t != tile and t != wild)
        raise IllegalAction(f"You can't expose {name(bad)} with {name(tile)}: an exposure is one tile "
                            "repeated, jokers allowed.")
    size = len(tiles) + 1
    if size < 3:
        raise IllegalAction(f"You can't call {name(tile)} for a {group_name(size)} unless it completes "
                            "Mah Jongg.")
    if size < state.rules.min_call_size:
        raise IllegalAction(f"Under these rules only a kong or larger may be called, not a "
                            f"{group_name(size)} (unless it completes Mah Jongg).")
    ref.require_in_rack(seat_no, tiles)  # P7: she must already hold the rest of the group
    verdict = exposure_verdict(ref.card, [tile, *tiles], [e.tiles for e in seat.exposures],
                               min_size=state.rules.min_call_size)
    if not verdict.legal:
        raise IllegalAction(verdict.reason)


def pass_call(ref: Referee, action: PassCall) -> list[Event]:
    """The seat lets the discard go."""
    window = open_window(ref, action.seat)
    require_timed(ref, window)
    window.passed.append(action.seat)
    return [public(EventKind.PASS, action.seat), *maybe_resolve(ref, window)]


def hold(ref: Referee, action: Hold) -> list[Event]:
    """The seat asks the table to wait (P11), once per discard; the table's clock grants the time."""
    window = open_window(ref, action.seat)
    require_timed(ref, window)
    if action.seat in window.held:
        raise IllegalAction("You can hold only once per discard.")
    window.held.append(action.seat)
    return [public(EventKind.HOLD, action.seat, seconds=ref.state.rules.hold_seconds)]


def require_timed(ref: Referee, window: CallWindow) -> None:
    """Refuse a pass or a hold on a late (1946) window: it has no clock to answer."""
    if window is ref.state.late_window:
        raise IllegalAction("The call window has closed; until the next discard you may still call the tile, "
                            "but there is nothing to pass on or wait for.")


def close_window(ref: Referee, action: CloseWindow) -> list[Event]:
    """The table's clock ran out on the call window."""
    ref.require_phase(Phase.CALL_WINDOW)
    assert ref.state.window is not None
    return resolve(ref, ref.state.window)


def maybe_resolve(ref: Referee, window: CallWindow) -> list[Event]:
    """§11.2: the window closes early once every eligible player has answered."""
    if not unanswered(ref.state, window):
        return resolve(ref, window)
    return []


def resolve(ref: Referee, window: CallWindow) -> list[Event]:
    """P10: Mah Jongg beats an exposure; among equals, the next in turn after the discarder wins."""
    state = ref.state
    if not window.claims:
        events = [public(EventKind.WINDOW_CLOSED, window.discarder, claimed=False),
                  *next_turn(ref, window.discarder)]
        if state.rules.window_until_next_discard and state.phase == Phase.PLAY:
            # §11.7 (1946): the discard stays claimable until the next player discards.
            state.late_window = CallWindow(window.discarder, window.tile, mahjong_only=window.mahjong_only)
        return events
    distance = {s: (s - window.discarder) % 4 for s in range(4)}
    winner = min(window.claims, key=lambda c: (not c.mahjong, distance[c.seat]))
    state.window = None
    state.discards.pop()
    seat = state.seats[winner.seat]
    events = [public(EventKind.WINDOW_CLOSED, window.discarder, claimed=True, winner=winner.seat)]
    if winner.mahjong:
        seat.rack.append(window.tile)
        result = check(ref.card, seat.rack, [e.tiles for e in seat.exposures], tile_set=ref.tile_set)
        return events + win(ref, winner.seat, result, "discard", discarder=window.discarder)
    for tile in winner.tiles:
        seat.rack.remove(tile)
    exposure = Exposure(window.tile, [window.tile, *winner.tiles], window.discarder)
    seat.exposures.append(exposure)
    state.phase = Phase.PLAY
    state.turn_state = Turn.after_call(winner.seat, window.discarder)
    # A copy: a later joker exchange changes the exposure, never the event that told of it.
    events.append(public(EventKind.EXPOSURE, winner.seat, tile=window.tile, tiles=list(exposure.tiles),
                         called_from=window.discarder))
    dead = check_dead(ref, winner.seat)
    if dead:
        return events + dead + next_turn(ref, winner.seat)
    return events
