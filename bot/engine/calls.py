"""The call window and claims (docs/rules.md §4: P4-P11, P14; §11.2, §11.5, §11.7): calling a discard for
an exposure or for Mah Jongg, passing, holding, the window closing, and the claim that wins it (P10; CL4 in the
classical game, whose own calls are checked in :mod:`.classical_calls`)."""

from __future__ import annotations

from collections.abc import Sequence

from . import classical, payloads
from .actions import Call, CloseWindow, Hold, PassCall
from .ending import false_mahjong, win
from .errors import IllegalAction
from .events import Event, public
from .liveness import alive_after, recheck
from .matching import exposure_verdict, group_name
from .queries import unanswered
from .redeem import discard_win
from .referee import Referee
from .state import CallWindow, Claim, Exposure, Phase, Turn
from .tiles import Tile, name
from .turns import next_turn


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
    tile = window.tile
    if action.mahjong:
        if action.tiles:
            raise IllegalAction("A Mah Jongg call names no tiles: the whole hand is shown.")
        if discard_win(ref, action.seat, tile) is None:  # as it is, or finished by redeeming jokers (M3)
            if state.rules.declarations == "friendly":
                raise IllegalAction(f"{name(tile)} doesn't complete a Mah Jongg for you.")
            events = false_mahjong(ref, action.seat)
            if window is state.window:
                events += maybe_resolve(ref, window)
            return events
        window.claims.append(Claim(action.seat, [], True))
        events = [public(payloads.Call(mahjong=True), action.seat)]
    else:
        check_exposure_call(ref, action.seat, tile, action.tiles, window)
        window.claims.append(Claim(action.seat, list(action.tiles), False))
        events = [public(payloads.Call(mahjong=False, size=len(action.tiles) + 1), action.seat)]
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
        events.append(public(payloads.DrawReturned(wall=len(state.wall)), turn.seat))
    state.turn_state = Turn.over(turn.seat)
    return events + resolve(ref, window)


def check_exposure_call(ref: Referee, seat_no: int, tile: Tile, tiles: Sequence[Tile], window: CallWindow) -> None:
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
    if not alive_after(ref, seat_no, [tile, *tiles]):
        # §11.6: the exposure would leave the hand dead at once; online the table refuses it, as it refuses a
        # false Mah Jongg at a friendly table, so a hopeless call never takes the tile from a live player.
        raise IllegalAction(f"No line that holds this {group_name(size)} of {name(tile)} with your exposures "
                            "can still be made with the tiles already out: the call would leave your hand dead.")


def pass_call(ref: Referee, action: PassCall) -> list[Event]:
    """The seat lets the discard go."""
    window = open_window(ref, action.seat)
    require_timed(ref, window)
    window.passed.append(action.seat)
    return [public(payloads.Pass(), action.seat), *maybe_resolve(ref, window)]


def hold(ref: Referee, action: Hold) -> list[Event]:
    """The seat asks the table to wait (P11), once per discard; the table's clock grants the time."""
    window = open_window(ref, action.seat)
    require_timed(ref, window)
    if action.seat in window.held:
        raise IllegalAction("You can hold only once per discard.")
    window.held.append(action.seat)
    return [public(payloads.Hold(seconds=ref.state.rules.hold_seconds), action.seat)]


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


def win_on_discard(ref: Referee, seat_no: int, window: CallWindow) -> list[Event]:
    """The Mah Jongg claim took the discard: the tile joins the hand, any jokers that finish it are redeemed (M3),
    and the hand wins (paid as a self-pick when a redemption finished it, SC2)."""
    state = ref.state
    found = discard_win(ref, seat_no, window.tile)
    assert found is not None, "a Mah Jongg claim is checked when it is made, and nothing moves in its window"
    seat = state.seats[seat_no]
    seat.rack.append(window.tile)
    events: list[Event] = []
    for step in found.redemptions:
        exposure = state.seats[step.owner].exposures[step.exposure]
        seat.rack.remove(step.tile)
        seat.rack.append(Tile.J)
        exposure.tiles[exposure.tiles.index(Tile.J)] = step.tile
        events.append(public(payloads.JokerExchange(owner=step.owner, exposure=step.exposure, tile=step.tile), seat_no))
    discarder = None if found.redemptions else window.discarder
    return events + win(ref, seat_no, found.result, found.how, discarder=discarder, tile=window.tile)


def winning_claim(ref: Referee, window: CallWindow) -> Claim:
    """The claim that takes the discard. P10 (a): Mah Jongg first; (b) among Mah Jongg claims the next in turn
    after the discarder; among exposures the nearest too, or with ``first_exposed_wins`` (P10 (c)) the first
    made. CL4 (classical): Mah Jongg, then a pung or kong, then a chow (only one player may chow)."""
    rules = ref.state.rules
    distance = {s: (s - window.discarder) % 4 for s in range(4)}
    order = {id(c): n for n, c in enumerate(window.claims)}

    def rank(claim: Claim) -> tuple[int, int]:
        if claim.mahjong:
            return 0, distance[claim.seat]
        kind = 2 if rules.classical and classical.is_chow(window.tile, claim.tiles) else 1
        return kind, order[id(claim)] if rules.first_exposed_wins else distance[claim.seat]

    return min(window.claims, key=rank)


def resolve(ref: Referee, window: CallWindow) -> list[Event]:
    """The window closes: the winning claim (P10, CL4) takes the discard, or play moves on."""
    state = ref.state
    if not window.claims:
        events = [public(payloads.WindowClosed(claimed=False), window.discarder)]
        if state.rules.window_until_next_discard:
            events += next_turn(ref, window.discarder)
            if state.phase == Phase.PLAY:
                # §11.7 (1946): the discard stays claimable until the next player discards.
                state.late_window = CallWindow(window.discarder, window.tile, mahjong_only=window.mahjong_only)
            return events
        state.window = None
        # §11.6: the discard is out of everyone's reach now.
        events += recheck(ref)
        return events + next_turn(ref, window.discarder)
    winner = winning_claim(ref, window)
    state.window = None
    state.discards.pop()
    seat = state.seats[winner.seat]
    events = [public(payloads.WindowClosed(claimed=True, winner=winner.seat), window.discarder)]
    if winner.mahjong:
        if state.rules.classical:
            seat.rack.append(window.tile)
            return events + classical.win(ref, winner.seat, "discard", discarder=window.discarder, tile=window.tile)
        return events + win_on_discard(ref, winner.seat, window)
    for tile in winner.tiles:
        seat.rack.remove(tile)
    tiles = [window.tile, *winner.tiles]
    if state.rules.classical and classical.is_chow(window.tile, winner.tiles):
        tiles.sort()  # a chow lies in order
    exposure = Exposure(window.tile, tiles, window.discarder)
    seat.exposures.append(exposure)
    state.phase = Phase.PLAY
    state.turn_state = Turn.after_call(winner.seat, window.discarder)
    # A copy: a later joker exchange changes the exposure, never the event that told of it.
    events.append(public(payloads.Exposure(window.tile, tuple(exposure.tiles), window.discarder), winner.seat))
    if state.rules.classical and len(tiles) == 4:
        return events + classical.replacement_draw(ref, winner.seat)  # a called kong (CL1 [?]: docs/rules.md)
    events += recheck(ref)  # §11.6: the exposed naturals are out of the others' reach
    if seat.dead:
        return events + next_turn(ref, winner.seat)
    return events
