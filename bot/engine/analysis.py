"""How close is a rack to each line of the card? (the engine's "which hands am I near" question)

For every concrete variant the rack is scored at once (see :mod:`bot.engine.index`):

* ``matched``: naturals of the rack the variant can use, ``sum(min(h_k, need_k))``;
* ``jokerable``: places in groups of three or more still empty after naturals fill singles and pairs first;
* ``missing = tiles to fill - matched - min(jokers, jokerable)``.

A line's score is its best variant's. ``missing`` is 0 exactly when :func:`~bot.engine.matching.check` finds
a Mah Jongg on that line. A line is *possible* when its variant can still be completed: it holds every
exposure on a group of its own (X lines only), and the tiles it still needs are not all out of reach. A line
that cannot hold the exposures is scored on the concealed tiles alone (the exposed ones are locked elsewhere).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import add, sub

import numpy as np
import numpy.typing as npt

from .card import Card, Line, Variant
from .index import MAX_COUNT, CardIndex
from .matching import check_rack_size, exposure_group
from .notation import check_available, counts_of
from .tiles import KINDS, NUM_KINDS, SORT_KEY, Tile, TileSet

NOT_POSSIBLE = 64  # sorts impossible variants after every possible one (missing is at most 14)


@dataclass(frozen=True, slots=True)
class _Rack:
    """What the rack holds, split the way the scoring needs it."""

    naturals: tuple[int, ...]  # concealed naturals per kind
    jokers: int  # concealed wild tiles
    exposed: tuple[int, ...]  # tiles per kind locked in the rack's exposures (jokers counted as their tile)
    reachable: tuple[int, ...]  # naturals per kind the rack may still hold: the set less what is seen elsewhere
    reachable_jokers: int
    wild: Tile | None  # the wild kind (joker, or the 1946 flower)


class LineAnalysis:
    """One line's standing: ``missing`` tiles, whether it is ``possible``, and (computed on first use) the
    tiles it ``need``\\ s and the rack's ``spare`` tiles."""

    __slots__ = ("__dict__", "_rack", "line", "missing", "possible", "variant")

    def __init__(self, line: Line, variant: Variant, missing: int, possible: bool, rack: _Rack) -> None:
        self.line = line
        self.variant = variant
        self.missing = missing
        self.possible = possible
        self._rack = rack

    def __repr__(self) -> str:
        return f"LineAnalysis({self.line.id!r}, missing={self.missing}, possible={self.possible})"

    @cached_property
    def _shortfall(self) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
        return _shortfall(self.variant, self._rack)

    @property
    def need(self) -> tuple[Tile, ...]:
        """The tiles still to get, in display order; jokers already held cover the hardest ones first."""
        return self._shortfall[0]

    @property
    def spare(self) -> tuple[Tile, ...]:
        """Concealed tiles this line has no place for (the rack's discards if it aims at this line)."""
        return self._shortfall[1]


def _shortfall(variant: Variant, rack: _Rack) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    small_deficit: list[Tile] = []
    big_deficit: dict[Tile, int] = {}
    spare: list[Tile] = []
    for kind in KINDS:
        room = variant.need[kind] - rack.exposed[kind]
        have = rack.naturals[kind]
        if room <= 0:
            spare.extend([kind] * have)
            continue
        used = min(have, room)
        spare.extend([kind] * (have - used))
        in_small = min(used, variant.small[kind])
        small_deficit.extend([kind] * (variant.small[kind] - in_small))
        missing_big = room - variant.small[kind] - (used - in_small)
        if missing_big > 0:
            big_deficit[kind] = missing_big
    jokers = rack.jokers
    # Spend jokers where naturals are scarcest: fewest copies still out there.
    for kind in sorted(big_deficit, key=lambda k: (rack.reachable[k] - rack.naturals[k], SORT_KEY[k])):
        cover = min(jokers, big_deficit[kind])
        big_deficit[kind] -= cover
        jokers -= cover
    need = list(small_deficit)
    for kind, count in big_deficit.items():
        # Past the copies still out there, only a wild tile can fill the group (a fifth East is a joker).
        naturals = min(count, max(0, rack.reachable[kind] - rack.naturals[kind]))
        need += [kind] * naturals
        if rack.wild is not None:
            need += [rack.wild] * (count - naturals)
    if rack.wild is not None:
        spare += [rack.wild] * jokers  # wild tiles the line has no group of three or more to put in
    return tuple(sorted(need, key=SORT_KEY.__getitem__)), tuple(sorted(spare, key=SORT_KEY.__getitem__))


def analyze(card: Card, concealed: Sequence[Tile], exposures: Sequence[Sequence[Tile]] = (),
            visible: Sequence[Tile] = (), tile_set: TileSet | None = None) -> list[LineAnalysis]:
    """Rank every line for a rack of 13 or 14 tiles: possible lines first, then fewest missing, highest value,
    card order. ``visible`` are tiles the rack can never get: the discards and the naturals in *other*
    players' exposures (their jokers can still be exchanged, so leave those out)."""
    wild = card.wild
    groups = [exposure_group(e, wild) for e in exposures]
    exposed_tiles = [t for e in exposures for t in e]
    check_rack_size(len(concealed) + len(exposed_tiles), (13, 14))
    tile_set = tile_set or card.tile_set
    check_available([*concealed, *exposed_tiles, *visible], tile_set)
    index = card.index

    naturals = counts_of(concealed)
    jokers = naturals[wild] if wild is not None else 0
    exposed = [0] * NUM_KINDS
    for tile, size in groups:
        exposed[tile] += size
    seen = counts_of(visible)
    for t in exposed_tiles:
        seen[t] += 1
    reachable = list(map(sub, tile_set.counts, seen))
    reachable_jokers = 0
    if wild is not None:
        naturals[wild] = 0
        reachable_jokers = reachable[wild]
        reachable[wild] = 0
    rack = _Rack(tuple(naturals), jokers, tuple(exposed), tuple(reachable), reachable_jokers, wild)

    exposed_total = sum(exposed)
    if groups:
        missing = _missing(index, naturals, jokers, exposed, exposed_total)
        possible = _possible(index, reachable, exposed, reachable_jokers)
        holds = index.mask_to_bool(index.holding(groups))
        # A line that cannot hold the exposures can never be made: its exposed tiles are locked in groups it
        # does not have. It is scored on the concealed tiles alone, so it never shows 0 missing.
        loose = _missing(index, naturals, jokers, None, 0)
        missing = np.where(holds, missing, loose)
        possible &= holds
    else:
        holds = None
        missing = _missing(index, naturals, jokers, None, 0)
        possible = _possible(index, reachable, None, reachable_jokers)
    return _ranked(card, index, missing, possible, holds, rack)


def _ranked(card: Card, index: CardIndex, missing: npt.NDArray[np.int16], possible: npt.NDArray[np.bool_],
            holds: npt.NDArray[np.bool_] | None, rack: _Rack) -> list[LineAnalysis]:
    """Each line's best variant (possible, then fewest missing, then card order), the lines ranked by that
    score, then highest value, then card order: one sort of a number per line, no Python comparisons."""
    score = missing.astype(np.int64)
    score[~possible] += NOT_POSSIBLE
    ranked = np.sort(np.minimum.reduceat(score * index.rank_scale + index.rank_base, index.line_starts))
    chosen = ranked % index.size
    lines = card.lines
    variants = index.variants
    loose_rack = rack
    if holds is not None:
        no_exposures = (0,) * NUM_KINDS
        loose_rack = _Rack(rack.naturals, rack.jokers, no_exposures, rack.reachable, rack.reachable_jokers,
                           rack.wild)
        racks = [rack if fits else loose_rack for fits in holds[chosen].tolist()]
    else:
        racks = [rack] * len(chosen)
    picked = [variants[n] for n in chosen.tolist()]
    return list(map(LineAnalysis, [lines[v.line] for v in picked], picked, missing[chosen].tolist(),
                    possible[chosen].tolist(), racks))


def _missing(index: CardIndex, naturals: Sequence[int], jokers: int, exposed: Sequence[int] | None,
             exposed_total: int) -> npt.NDArray[np.int16]:
    """Tiles each variant still lacks (see the module notes): one row per kind the rack holds, summed."""
    rows = [kind * MAX_COUNT + have for kind, have in enumerate(naturals) if have]
    matched, in_big = index.used[rows].sum(axis=0, dtype=np.int16)
    if exposed is not None:
        # Exposed tiles fill their groups first: c naturals of a kind with e exposed take min(need, c + e) -
        # min(need, e) places; the singles and pairs they fill do not move (exposures are groups of 3+).
        in_small = matched - in_big
        shifted = [kind * MAX_COUNT + min(have + shift, MAX_COUNT - 1)
                   for kind, (have, shift) in enumerate(zip(naturals, exposed, strict=True)) if have and shift]
        if shifted:
            lost = [kind * MAX_COUNT + have for kind, (have, shift) in enumerate(zip(naturals, exposed, strict=True))
                    if have and shift]
            exposed_rows = [kind * MAX_COUNT + min(shift, MAX_COUNT - 1)
                            for kind, (have, shift) in enumerate(zip(naturals, exposed, strict=True)) if have and shift]
            used = index.used[:, 0]
            matched = (matched + used[shifted].sum(axis=0, dtype=np.int16) - used[lost].sum(axis=0, dtype=np.int16)
                       - used[exposed_rows].sum(axis=0, dtype=np.int16))
        in_big = matched - in_small
    jokerable = index.big_total - exposed_total - in_big
    result: npt.NDArray[np.int16] = (14 - exposed_total) - matched - np.minimum(jokers, jokerable)
    return result


def _possible(index: CardIndex, reachable: Sequence[int], exposed: Sequence[int] | None,
              reachable_jokers: int) -> npt.NDArray[np.bool_]:
    """Variants whose remaining needs fit in what the rack holds or may still get. Counted against a full set
    once per card; only the kinds whose count differs from the full set's (seen elsewhere, exposed, a larger
    set), and only where some variant needs more of them than one of the two counts, are looked at again."""
    full = index.full_list
    within = reachable if exposed is None else list(map(add, reachable, exposed))
    short = [k for k, (left, whole, most) in enumerate(zip(reachable, full, index.small_max, strict=True))
             if left != whole and min(left, whole) < most]
    over = [k for k, (left, whole, most) in enumerate(zip(within, full, index.need_max, strict=True))
            if left != whole and min(left, whole) < most]
    if not short and not over:
        unchanged: npt.NDArray[np.bool_] = (index.full_short == 0) & (index.full_wilds <= reachable_jokers)
        return unchanged
    short_count = index.full_short
    if short:
        small = index.small_t[short]
        left = np.array([reachable[k] for k in short], dtype=np.int16)[:, np.newaxis]
        was = index.full[short][:, np.newaxis]
        short_count = short_count + ((small > left).sum(axis=0, dtype=np.int16)
                                     - (small > was).sum(axis=0, dtype=np.int16))
    wilds = index.full_wilds
    if over:
        need = index.need_t[over]
        left = np.array([within[k] for k in over], dtype=np.int16)[:, np.newaxis]
        was = index.full[over][:, np.newaxis]
        wilds = wilds + (np.maximum(need - left, 0).sum(axis=0, dtype=np.int16)
                         - np.maximum(need - was, 0).sum(axis=0, dtype=np.int16))
    result: npt.NDArray[np.bool_] = (short_count == 0) & (wilds <= reachable_jokers)
    return result


def can_still_win(card: Card, exposures: Sequence[Sequence[Tile]], visible: Sequence[Tile]) -> bool:
    """From public information only (docs/rules.md §6, dead hands; §11.6): can a player with these exposures
    still make some line, given the tiles ``visible`` elsewhere (discards and the naturals of other players'
    exposures)? Her concealed tiles are unknown, so every tile not visible counts as still reachable."""
    return bool(possible_variants(card, exposures, visible).any())


def possible_variants(card: Card, exposures: Sequence[Sequence[Tile]],
                      visible: Sequence[Tile]) -> npt.NDArray[np.bool_]:
    """The variants (one flag each, in ``card.index`` order) a player with these exposures can still make:
    the question of :func:`can_still_win`, answered for every variant."""
    wild = card.wild
    groups = [exposure_group(e, wild) for e in exposures]
    index = card.index
    exposed = [0] * NUM_KINDS
    for tile, size in groups:
        exposed[tile] += size
    seen = counts_of([*visible, *(t for e in exposures for t in e)])
    reachable = [max(0, card.tile_set.counts[k] - seen[k]) for k in range(NUM_KINDS)]
    reachable_jokers = 0
    if wild is not None:
        reachable_jokers, reachable[wild] = reachable[wild], 0
    possible = _possible(index, reachable, exposed, reachable_jokers)
    if groups:
        possible &= index.mask_to_bool(index.holding(groups))
    return possible
