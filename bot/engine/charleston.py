"""The Charleston (docs/rules.md §3, CH1-CH8): the passes in order, which may be blind, how a round of passes
with blind tiles is resolved (CH7), the vote to stop after the first Left (CH3), the courtesy pass (CH4) and
the "Bob" dummy of a three-player table (CH8)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from . import payloads
from .actions import CharlestonPass, CharlestonVote, CourtesyOffer
from .errors import IllegalAction
from .events import Event, private, public
from .referee import Referee
from .state import CharlestonState, GameState, Phase
from .tiles import Tile, display_sorted
from .turns import begin_play


@dataclass(frozen=True, slots=True)
class PassStep:
    """One pass of the Charleston: its name, its direction and whether it may be blind."""

    name: str  # "first right", ... as players say it
    direction: str  # right, across, left
    offset: int  # seat offset of the receiver: right = next in turn
    blind_allowed: bool


# CH1: Right, Over, Left; then Left, Over, Right. CH5 (and CH11 for 1946): blind only on the first Left and last Right.
PASSES = (
    PassStep("first right", "right", 1, False),
    PassStep("first across", "across", 2, False),
    PassStep("first left", "left", 3, True),
    PassStep("second left", "left", 3, False),
    PassStep("second across", "across", 2, False),
    PassStep("last right", "right", 1, True),
)
FIRST_CHARLESTON_END = 2  # index of the first Left, after which any player may stop (CH3)


def resolve_round(own: dict[int, list[Tile]], blind: dict[int, int], offset: int,
                  rng: random.Random) -> dict[int, list[Tile]]:
    """Tiles each position receives and keeps, given what each passes of its own and how many it forwards blind.

    CH7: every position sends its own tiles; one that owes ``b`` blind tiles forwards ``b`` random tiles from
    those it has received and not yet forwarded, as soon as it has them. A tile may come back to its owner; if
    every position passes all three blind, nothing moves.
    """
    positions = sorted(own)
    target = {p: (p + offset) % 4 for p in positions}
    inbox: dict[int, list[Tile]] = {p: [] for p in positions}
    for p in positions:
        inbox[target[p]].extend(own[p])
    owed = dict(blind)
    moved = True
    while moved:
        moved = False
        for p in positions:
            if owed[p] and inbox[p]:
                count = min(owed[p], len(inbox[p]))
                picks = sorted(rng.sample(range(len(inbox[p])), count), reverse=True)
                forwarded = [inbox[p].pop(i) for i in picks]
                inbox[target[p]].extend(forwarded)
                owed[p] -= count
                moved = True
    return inbox


def begin_charleston(ref: Referee) -> list[Event]:
    """After the deal: the first pass is announced (or play begins, with no Charleston at this table)."""
    state = ref.state
    if not state.rules.has_charleston:
        return begin_play(ref)
    state.phase = Phase.CHARLESTON
    state.charleston = CharlestonState()
    if state.rules.uses_bob:
        # CH8: the dealer lays six rows of three wall tiles out as Bob's passes.
        state.charleston.bob_out = [state.wall[i * 3:i * 3 + 3] for i in range(6)]
        del state.wall[:18]
    return [announce_pass(0)]


def charleston_pass(ref: Referee, action: CharlestonPass) -> list[Event]:
    """A seat's three tiles for the current pass; the pass is made once every seat has given its own."""
    state = ref.state
    cs = pending(ref, Phase.CHARLESTON)
    step = PASSES[cs.stage]
    if action.seat in cs.passes:
        raise IllegalAction(f"You have already passed for the {step.name}.")
    if not 0 <= action.blind <= 3:
        raise IllegalAction("A blind pass forwards 1, 2 or 3 of the tiles you receive.")
    if action.blind and not step.blind_allowed:
        raise IllegalAction(f"No blind pass on the {step.name}: only the first left and the last right "
                            "may be blind.")
    if len(action.tiles) + action.blind != 3:
        raise IllegalAction(f"Pass exactly 3 tiles: {len(action.tiles)} of yours plus {action.blind} blind "
                            f"makes {len(action.tiles) + action.blind}.")
    check_passable(ref, action.seat, action.tiles)
    cs.passes[action.seat] = (list(action.tiles), action.blind)
    events = [public(payloads.CharlestonPassed(blind=action.blind), action.seat)]
    if all(s in cs.passes for s in state.players):
        events += resolve_pass(ref)
    return events


def pending(ref: Referee, phase: Phase) -> CharlestonState:
    """The Charleston under way, refusing the action unless the game is in ``phase``."""
    ref.require_phase(phase)
    assert ref.state.charleston is not None
    return ref.state.charleston


def announce_pass(stage: int) -> Event:
    """The event that opens pass number ``stage``."""
    step = PASSES[stage]
    return public(payloads.Charleston(step=step.name, blind_allowed=step.blind_allowed))


def check_passable(ref: Referee, seat: int, tiles: Sequence[Tile]) -> None:
    """Refuse jokers and blanks (never passed) and tiles the seat does not hold."""
    for tile in tiles:
        if tile == Tile.J:
            raise IllegalAction("Jokers are never passed.")
        if tile == Tile.BL:
            raise IllegalAction("Blanks are never passed.")
    ref.require_in_rack(seat, tiles)


def resolve_pass(ref: Referee) -> list[Event]:
    """Every seat has passed: the tiles move, then the next pass, the vote, the courtesy pass or play."""
    state = ref.state
    assert state.charleston is not None
    cs = state.charleston
    step = PASSES[cs.stage]
    own = {s: tiles for s, (tiles, _) in cs.passes.items()}
    blind = {s: b for s, (_, b) in cs.passes.items()}
    bob = bob_seat(state)
    if bob is not None:
        own[bob] = cs.bob_out[cs.stage]
        blind[bob] = 0
    for s, (tiles, _) in cs.passes.items():
        for tile in tiles:
            state.seats[s].rack.remove(tile)
    received = resolve_round(own, blind, step.offset, state.rng())
    events: list[Event] = []
    for s, tiles in received.items():
        if s == bob:
            cs.bob_in.extend(tiles)
            continue
        state.seats[s].rack.extend(tiles)
        events.append(private(payloads.CharlestonReceived(tiles=tuple(display_sorted(tiles)), step=step.name), s))
    events.append(public(payloads.CharlestonStepDone(step=step.name)))
    cs.passes = {}
    if cs.stage == FIRST_CHARLESTON_END and state.rules.second_charleston:
        state.phase = Phase.CHARLESTON_VOTE
        return [*events, public(payloads.CharlestonVote())]
    if cs.stage == FIRST_CHARLESTON_END or cs.stage == len(PASSES) - 1:
        return events + after_passes(ref)
    cs.stage += 1
    return [*events, announce_pass(cs.stage)]


def bob_seat(state: GameState) -> int | None:
    """The empty chair the "Bob" dummy passes from (CH8), or None when the table has no Bob."""
    if not state.rules.uses_bob:
        return None
    return next(s for s, seat in enumerate(state.seats) if seat.empty)


def after_passes(ref: Referee) -> list[Event]:
    """The passes are over: the courtesy pass, if the table has one, or else the end of the Charleston."""
    state = ref.state
    if state.rules.courtesy_pass:
        state.phase = Phase.COURTESY
        return [public(payloads.Courtesy())]
    return finish_charleston(ref)


def finish_charleston(ref: Referee) -> list[Event]:
    """The Charleston is over (Bob's leftovers go back to the wall) and play begins."""
    state = ref.state
    assert state.charleston is not None
    cs = state.charleston
    if bob_seat(state) is not None:
        # Bob's leftover tiles (those passed to him, and rows he never passed) rebuild the fourth wall.
        leftover = cs.bob_in + [t for row in cs.bob_out[cs.stage + 1:] for t in row]
        rng = state.rng()
        rng.shuffle(leftover)
        state.wall.extend(leftover)
    return [public(payloads.CharlestonDone()), *begin_play(ref)]


def charleston_vote(ref: Referee, action: CharlestonVote) -> list[Event]:
    """A seat's vote after the first Left: one stop ends the Charleston, all "go on" start the second."""
    state = ref.state
    cs = pending(ref, Phase.CHARLESTON_VOTE)
    if action.seat in cs.votes:
        raise IllegalAction("You have already voted.")
    cs.votes[action.seat] = action.stop
    events = [public(payloads.CharlestonVoted(stop=action.stop), action.seat)]
    if action.stop:
        # CH3: any one player may stop; the courtesy pass still happens.
        cs.votes = {}
        return [*events, public(payloads.CharlestonStopped(), action.seat), *after_passes(ref)]
    if all(s in cs.votes for s in state.players):
        cs.votes = {}
        cs.stage += 1
        state.phase = Phase.CHARLESTON
        return [*events, announce_pass(cs.stage)]
    return events


def courtesy_offer(ref: Referee, action: CourtesyOffer) -> list[Event]:
    """A seat's courtesy offer; once all are in, each pair across swaps the smaller count (CH4)."""
    state = ref.state
    cs = pending(ref, Phase.COURTESY)
    if action.seat in cs.offers:
        raise IllegalAction("You have already made your courtesy offer.")
    if len(action.tiles) > 3:
        raise IllegalAction("A courtesy pass is 0 to 3 tiles.")
    check_passable(ref, action.seat, action.tiles)
    cs.offers[action.seat] = list(action.tiles)
    events = [public(payloads.CourtesyOffered(count=len(action.tiles)), action.seat)]
    if not all(s in cs.offers for s in state.players):
        return events
    bob = bob_seat(state)
    done: set[int] = set()
    for s in state.players:
        partner = (s + 2) % 4
        if s in done:
            continue
        done.update((s, partner))
        if partner == bob:
            events += courtesy_with_bob(ref, s)
            continue
        count = min(len(cs.offers[s]), len(cs.offers[partner]))  # CH4: the smaller offer
        give, take = cs.offers[s][:count], cs.offers[partner][:count]
        for tile in give:
            state.seats[s].rack.remove(tile)
        for tile in take:
            state.seats[partner].rack.remove(tile)
        state.seats[s].rack.extend(take)
        state.seats[partner].rack.extend(give)
        events.append(public(payloads.CourtesyExchanged(partner=partner, count=count), s))
        events.append(private(payloads.CourtesyReceived(tiles=tuple(display_sorted(take))), s))
        events.append(private(payloads.CourtesyReceived(tiles=tuple(display_sorted(give))), partner))
    return events + finish_charleston(ref)


def courtesy_with_bob(ref: Referee, seat: int) -> list[Event]:
    """CH8: the player across from Bob takes tiles at random from those Bob received."""
    state = ref.state
    assert state.charleston is not None
    cs = state.charleston
    count = min(len(cs.offers[seat]), len(cs.bob_in))
    rng = state.rng()
    picks = sorted(rng.sample(range(len(cs.bob_in)), count), reverse=True)
    take = [cs.bob_in.pop(i) for i in picks]
    give = cs.offers[seat][:count]
    for tile in give:
        state.seats[seat].rack.remove(tile)
    state.seats[seat].rack.extend(take)
    cs.bob_in.extend(give)
    return [public(payloads.CourtesyExchanged(partner=None, count=count), seat),
            private(payloads.CourtesyReceived(tiles=tuple(display_sorted(take))), seat)]
