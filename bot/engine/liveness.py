"""Dead hands from public information (docs/rules.md §6, M6 and M7; §11.6), checked whenever the tiles in
sight change: each discard, each exposure, each joker exchange, each call window closing, each turn.

A hand is dead once no line that holds its exposures can still be completed from the tiles out of sight.
For every seat the tiles out of its reach are the discards (except the one it may still call) and the naturals
in other seats' exposures; jokers in exposures can still be exchanged, so they stay reachable.

Checking a whole card takes about 60 µs, too slow to repeat for every seat at every discard. Tiles in sight only
ever grow while a seat's exposures stay the same, so a line possible now can only become impossible: each seat
keeps one still-possible variant as a *witness*, and while the witness survives (a few additions) the hand is
alive; only when it dies is the whole card searched again for a new one. Witnesses are a cache on the referee,
never part of the game state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .analysis import possible_variants
from .ending import kill
from .events import Event
from .line import Variant
from .matching import exposure_group
from .notation import counts_of
from .pattern import Group
from .referee import Referee
from .state import GameState, Phase
from .tiles import NUM_KINDS, Tile

QUICK_TRIES = 8  # variants holding a call's groups tried one by one before the whole card is searched
DEAD_REASON = "no line on the card can still be made with these exposures and the tiles already out"


def claimable(state: GameState) -> tuple[int, Tile] | None:
    """(discarder, tile) of the discard that may still be called, if any."""
    window = state.window if state.phase == Phase.CALL_WINDOW else state.late_window
    if window is None or not state.discards or state.discards[-1] != (window.discarder, window.tile):
        return None
    return window.discarder, window.tile


def out_of_reach(state: GameState, seat: int, wild: Tile | None) -> list[Tile]:
    """Tiles ``seat`` can never get: the discards but the one it may still call, and the naturals of other
    seats' exposures."""
    live = claimable(state)
    discards = [t for _, t in state.discards]
    if live is not None and live[0] != seat:
        discards.pop()
    for other, chair in enumerate(state.seats):
        if other != seat:
            discards += [t for e in chair.exposures for t in e.tiles if t != wild]
    return discards


def recheck(ref: Referee, seats: Iterable[int] | None = None) -> list[Event]:
    """Declare dead every live hand (of ``seats``, default all) that public information has killed."""
    state = ref.state
    if state.rules.classical or state.phase == Phase.FINISHED:
        return []  # a classical hand can always still be made; it dies only of a false Mah Jongg (CL6)
    wild = ref.card.wild
    # Tiles in sight for everyone: every discard and every natural in an exposure; each seat's own view differs
    # only by the discard it may still call and by the wild tiles locked in its own exposures.
    base = [0] * NUM_KINDS
    for _, tile in state.discards:
        base[tile] += 1
    for chair in state.seats:
        for exposure in chair.exposures:
            for tile in exposure.tiles:
                if tile != wild:
                    base[tile] += 1
    live = claimable(state)
    events: list[Event] = []
    for seat in list(state.live_seats) if seats is None else list(seats):
        if state.seats[seat].dead:
            continue
        seen = list(base)
        if live is not None and live[0] != seat:
            seen[live[1]] -= 1
        if wild is not None:
            seen[wild] += sum(e.tiles.count(wild) for e in state.seats[seat].exposures)
        if not alive(ref, seat, seen):
            events += kill(ref, seat, DEAD_REASON)
    return events


def alive(ref: Referee, seat: int, seen: list[int]) -> bool:
    """Whether ``seat``'s hand can still be made, ``seen`` being the tiles out of its reach together with its own
    exposures' tiles: by its witness, or else by a search of the whole card."""
    state = ref.state
    chair = state.seats[seat]
    key = tuple((e.tile, len(e.tiles)) for e in chair.exposures)
    cached = ref.witnesses.get(seat)
    if cached is not None and cached[0] == key and _still_possible(ref, cached[1], cached[2], key, seen):
        return True
    exposures = [e.tiles for e in chair.exposures]
    witness = _find_witness(ref, exposures, out_of_reach(state, seat, ref.card.wild))
    if witness is None:
        ref.witnesses.pop(seat, None)
        return False
    ref.witnesses[seat] = (key, witness, tuple({tile for tile, _ in witness.groups}))
    return True


def alive_after(ref: Referee, seat: int, group: Sequence[Tile]) -> bool:
    """Whether ``seat``'s hand could still be made after exposing ``group`` made with the discard in play. The
    answer is asked for every call a seat is offered, so a few likely variants are tried before the whole card."""
    state = ref.state
    wild = ref.card.wild
    exposures = [*(e.tiles for e in state.seats[seat].exposures), list(group)]
    visible = out_of_reach(state, seat, wild)
    groups = tuple(exposure_group(e, wild) for e in exposures)
    seen = counts_of([*visible, *(t for e in exposures for t in e)])
    # Usually one of the first few variants that hold the groups is still possible: try those one by one before
    # searching the whole card (which is what answers when none of them is).
    index = ref.card.index
    mask = index.holding(groups)
    for _ in range(QUICK_TRIES):
        if not mask:
            break
        low = mask & -mask
        mask ^= low
        variant = index.variants[low.bit_length() - 1]
        if _still_possible(ref, variant, _kinds(variant), groups, seen):
            return True
    return _find_witness(ref, exposures, visible) is not None


def _kinds(variant: Variant) -> tuple[Tile, ...]:
    return tuple({tile for tile, _ in variant.groups})


def _find_witness(ref: Referee, exposures: Sequence[Sequence[Tile]], visible: Sequence[Tile]) -> Variant | None:
    possible = possible_variants(ref.card, exposures, visible)
    found = np.flatnonzero(possible)
    return ref.card.index.variants[int(found[0])] if found.size else None


def _still_possible(ref: Referee, variant: Variant, kinds: tuple[Tile, ...], groups: tuple[Group, ...],
                    seen: list[int]) -> bool:
    """The test of :func:`bot.engine.analysis.possible_variants` for one variant already known to hold the
    exposed ``groups``: singles and pairs within the naturals still reachable, the rest within those and the
    wild tiles still reachable."""
    wild = ref.card.wild
    counts = ref.card.tile_set.counts
    wilds = max(0, counts[wild] - seen[wild]) if wild is not None else 0
    small, need = variant.small, variant.need
    for kind in kinds:
        reachable = max(0, counts[kind] - seen[kind])
        if small[kind] > reachable:
            return False
        short = need[kind] - reachable - sum(size for tile, size in groups if tile == kind)
        if short > 0:
            wilds -= short
            if wilds < 0:
                return False
    return True
