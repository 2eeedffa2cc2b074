"""Turns in play (docs/rules.md §4): the first turn, drawing, discarding (which opens a call window), moving
play to the next seat, and finding hands dead whenever a discard changes the tiles in sight (§11.6). Under the
classical rules a dead hand still draws, and throws what it draws (M7 [CLASSIC], CL6)."""

from __future__ import annotations

from . import payloads
from .actions import Discard, Draw
from .ending import end
from .errors import IllegalAction
from .events import Event, private, public
from .liveness import recheck
from .queries import may_discard_flower
from .referee import Referee
from .state import CallWindow, GameState, Phase, Result, Turn, TurnStage
from .tiles import Tile, name


def begin_play(ref: Referee) -> list[Event]:
    """The Charleston (if any) is over: East plays first, with the tiles she holds."""
    state = ref.state
    state.phase = Phase.PLAY
    state.charleston = None
    state.turn_state = Turn.dealt(state.east)
    return [public(payloads.Play(turn=state.east, wall=len(state.wall)))]


def draw(ref: Referee, action: Draw) -> list[Event]:
    """The seat on turn takes the next tile of the wall."""
    state = ref.state
    ref.require_turn(action.seat, drawn=False)
    if not state.wall:
        raise IllegalAction("The wall is empty.")
    tile = state.wall.pop(0)
    state.seats[action.seat].rack.append(tile)
    state.turn_state = Turn.after_draw(action.seat, tile)
    events = [public(payloads.Draw(wall=len(state.wall)), action.seat),
              private(payloads.Drew(tile=tile), action.seat)]
    if state.seats[action.seat].dead:
        # M7 [CLASSIC]: a dead hand throws the tile it drew, at once.
        events += discard(ref, Discard(action.seat, tile))
    return events


def discard(ref: Referee, action: Discard) -> list[Event]:
    """The seat on turn throws a tile; unless nobody may claim it, a call window opens on it."""
    state = ref.state
    ref.require_turn(action.seat, drawn=True)
    seat = state.seats[action.seat]
    if action.tile not in seat.rack:
        raise IllegalAction(f"You don't have {name(action.tile)} to discard.")
    if action.tile == Tile.F and not may_discard_flower(state, seat.rack):
        raise IllegalAction("Flowers may never be discarded under these rules.")
    called = state.turn_state.stage == TurnStage.CALLED
    seat.rack.remove(action.tile)
    state.discards.append((action.seat, action.tile))
    state.turn_state = Turn.over(action.seat)
    state.turns += 1
    events = [public(payloads.Discard(tile=action.tile), action.seat)]
    state.late_window = None
    if action.tile in (Tile.J, Tile.BL):
        # P12: a discarded joker is dead, and so is a blank (TR2): nobody may claim them.
        return events + recheck(ref) + next_turn(ref, action.seat)
    hot = bool(state.rules.hot_wall) and len(state.wall) <= state.rules.hot_wall
    # P14/§11.5: the last discard may still be called for an exposure; only the caller's own discard after
    # that (the wall being empty) is open to Mah Jongg alone.
    last_call = not state.wall and called
    state.window = CallWindow(action.seat, action.tile, mahjong_only=hot or last_call)
    state.phase = Phase.CALL_WINDOW
    # §11.6: the tiles in sight changed (the discarder can't have this tile back; under the 1946 rules the
    # discard before it is no longer claimable): a hand dead now can't call this tile.
    events += recheck(ref)
    if not any(s != action.seat for s in state.live_seats):
        return events + next_turn(ref, action.seat)
    return [*events, public(payloads.CallWindow(tile=action.tile, mahjong_only=state.window.mahjong_only), action.seat)]


def next_turn(ref: Referee, after: int) -> list[Event]:
    """Play moves to the next player after ``after`` who plays on, who must draw (or the game ends)."""
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
        events += recheck(ref, [seat])
        if not state.live_seats:
            break
        if not state.seats[seat].dead or state.rules.dead_hand_draws:
            state.phase = Phase.PLAY
            state.turn_state = Turn.must_draw(seat)
            return [*events, public(payloads.Turn(), seat)]
    return events + end(ref, Result("no_live_players"))


def next_seat(state: GameState, seat: int) -> int | None:
    """The next seat in turn after ``seat`` that plays on (a live hand; any hand where dead hands draw), or
    None if there is none."""
    for step in range(1, 5):
        nxt = (seat + step) % 4
        chair = state.seats[nxt]
        if not chair.empty and (not chair.dead or state.rules.dead_hand_draws):
            return nxt
    return None
