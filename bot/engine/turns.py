"""Turns in play (docs/rules.md §4): the first turn, drawing, discarding (which opens a call window), moving
play to the next live seat, and finding a hand dead at the start of its turn (§11.6)."""

from __future__ import annotations

from .actions import Discard, Draw
from .analysis import can_still_win
from .ending import end, kill
from .errors import IllegalAction
from .events import Event, EventKind, private, public
from .referee import Referee
from .state import CallWindow, GameState, Phase, Result, Turn, TurnStage
from .tiles import Tile, name


def begin_play(ref: Referee) -> list[Event]:
    """The Charleston (if any) is over: East plays first, with the tiles she holds."""
    state = ref.state
    state.phase = Phase.PLAY
    state.charleston = None
    state.turn_state = Turn.dealt(state.east)
    return [public(EventKind.PLAY, turn=state.east, wall=len(state.wall))]


def draw(ref: Referee, action: Draw) -> list[Event]:
    """The seat on turn takes the next tile of the wall."""
    state = ref.state
    ref.require_turn(action.seat, drawn=False)
    if not state.wall:
        raise IllegalAction("The wall is empty.")
    tile = state.wall.pop(0)
    state.seats[action.seat].rack.append(tile)
    state.turn_state = Turn.after_draw(action.seat, tile)
    return [public(EventKind.DRAW, action.seat, wall=len(state.wall)),
            private(EventKind.DREW, action.seat, tile=tile)]


def discard(ref: Referee, action: Discard) -> list[Event]:
    """The seat on turn throws a tile; unless nobody may claim it, a call window opens on it."""
    state = ref.state
    ref.require_turn(action.seat, drawn=True)
    seat = state.seats[action.seat]
    if action.tile not in seat.rack:
        raise IllegalAction(f"You don't have {name(action.tile)} to discard.")
    if action.tile == Tile.F and not state.rules.discard_flowers:
        raise IllegalAction("Flowers may never be discarded under these rules.")
    called = state.turn_state.stage == TurnStage.CALLED
    seat.rack.remove(action.tile)
    state.discards.append((action.seat, action.tile))
    state.turn_state = Turn.over(action.seat)
    state.turns += 1
    events = [public(EventKind.DISCARD, action.seat, tile=action.tile)]
    claimers = [s for s in state.live_seats if s != action.seat]
    if action.tile in (Tile.J, Tile.BL) or not claimers:
        # P12: a discarded joker is dead, and so is a blank (TR2): nobody may claim them.
        return events + next_turn(ref, action.seat)
    hot = bool(state.rules.hot_wall) and len(state.wall) <= state.rules.hot_wall
    # P14/§11.5: the last discard may still be called for an exposure; only the caller's own discard after
    # that (the wall being empty) is open to Mah Jongg alone.
    last_call = not state.wall and called
    state.late_window = None
    state.window = CallWindow(action.seat, action.tile, mahjong_only=hot or last_call)
    state.phase = Phase.CALL_WINDOW
    return [*events, public(EventKind.CALL_WINDOW, action.seat, tile=action.tile,
                            mahjong_only=state.window.mahjong_only)]


def next_turn(ref: Referee, after: int) -> list[Event]:
    """Play moves to the next live player after ``after``, who must draw (or the game ends)."""
    state = ref.state
    state.window = None
    events: list[Event] = []
    seat: int | None = after
    for _ in range(4):
        assert seat is not None
        seat = next_seat(state, seat)
        if seat is None:
            break
        if not state.wall:
            return events + end(ref, Result("wall"))
        events += check_dead(ref, seat)
        if not state.seats[seat].dead:
            state.phase = Phase.PLAY
            state.turn_state = Turn.must_draw(seat)
            return [*events, public(EventKind.TURN, seat)]
    return events + end(ref, Result("no_live_players"))


def next_seat(state: GameState, seat: int) -> int | None:
    """The next seat in turn after ``seat`` with a live hand, or None if there is none."""
    for step in range(1, 5):
        nxt = (seat + step) % 4
        if not state.seats[nxt].empty and not state.seats[nxt].dead:
            return nxt
    return None


def check_dead(ref: Referee, seat: int) -> list[Event]:
    """§11.6: a hand is dead once public information shows no line can still be made."""
    state = ref.state
    if state.seats[seat].dead:
        return []
    exposures = [e.tiles for e in state.seats[seat].exposures]
    if can_still_win(ref.card, exposures, ref.visible_tiles(exclude=seat)):
        return []
    return kill(ref, seat, "no line on the card can still be made with these exposures and the tiles "
                           "already out")
