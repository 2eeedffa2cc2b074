"""How likely is a rack to become each variant of the card? The computer players' measure of a rack.

The engine's analysis counts the tiles a line still *misses*. Two racks missing four tiles can be far apart,
though: a missing single or pair can only be drawn (a joker never fills it), from the three or four copies
still out; a missing tile of a pung or larger can be drawn, replaced by any of the unseen jokers and, on an
exposed (X) line, called from another player's discard. This module turns that into a rough chance.

For one variant, with the rack's naturals filling singles and pairs first (as in the engine's analysis):

* each kind whose singles/pairs are short by ``d``: the chance that at least ``d`` of its ``u`` unseen copies
  reach the rack, each copy independently with chance ``draw`` (the share of the unseen tiles the seat will
  draw before the wall runs out);
* the big groups together: after the rack's jokers, ``b`` tiles are short, and any of ``A`` tiles fit (the
  unseen copies of the short kinds, capped at each kind's shortfall, plus the unseen jokers): the chance that
  at least ``b`` of them arrive, each with chance ``draw`` plus, on an X line, ``call`` (another player
  discards it and the seat calls it).

The variant's chance is the product (the pieces are treated as independent), times its line's value raised
to a small power. The chances are rough (independence, one fixed horizon), so the players' settings scale
``draw`` and ``call`` to what works in play rather than to the letter of the wall count.

Variants are stored as *slots*, one per tile kind they use (at most 14), so every step works on a small
(slots x variants) array; and because giving away one tile changes only its own kind's slot, the
chances after every possible discard come out of one more pass (:meth:`Outlook.after_removal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from bot.engine.card import Card
from bot.engine.tiles import NUM_KINDS

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

MAX_POOL = 48  # the chance tables cover pools of up to this many tiles (more are clipped)
MAX_SHORT = 16  # ...and shortfalls of up to this many tiles
LOG_FLOOR = -40.0  # log of "impossible": sorts last, and stays finite so sums behave
LINE_SLACK = 4  # after_removal works out this many lines more than a worth counts
VARIANT_SLACK = 4.0  # ...and, in each, the variants within this much (in log chance) of the line's best
PAD = NUM_KINDS  # the kind index of an empty slot: a column of zeros appended to every count vector


@dataclass(frozen=True, slots=True)
class CardTables:
    """A card's variants as slots, slot-major so sums over a variant's slots are fast: ``kind[s, v]`` is the
    s-th kind variant v uses (``PAD`` when it uses fewer)."""

    kind: IntArray  # (S, V)
    slot_of: IntArray  # (PAD + 1, V) the slot of each kind in each variant; S (an extra, always empty slot) if none
    small: IntArray  # (S, V) tiles of the kind in singles and pairs (jokers never fill them)
    big: IntArray  # (S, V) tiles of the kind in pungs and larger (jokers may fill them)
    exposed: BoolArray  # (V,) the variant's line is X: its big groups may be called
    line_starts: npt.NDArray[np.intp]  # first variant of each line (variants are stored line by line)
    line_of: IntArray  # (V,) the line of each variant
    log_value: FloatArray  # (V,) log of the line's value
    doubles_jokerless: BoolArray  # (V,) a jokerless win on the line pays double (all but singles and pairs)
    need_by_kind: IntArray  # (V, K) tiles of each kind a variant needs (for reading opponents' exposures)
    small_by_kind: IntArray  # (V, K) ...of them in singles and pairs


_TABLES: dict[int, tuple[Card, CardTables]] = {}


def card_tables(card: Card) -> CardTables:
    """Built once per card and kept (keyed by identity; the card is held so the key stays valid)."""
    cached = _TABLES.get(id(card))
    if cached is not None and cached[0] is card:
        return cached[1]
    variants = card.index.variants
    count = len(variants)
    width = max(sum(1 for n in v.need if n) for v in variants)
    kind = np.full((width, count), PAD, dtype=np.int64)
    small = np.zeros((width, count), dtype=np.int64)
    big = np.zeros((width, count), dtype=np.int64)
    slot_of = np.full((PAD + 1, count), width, dtype=np.int64)
    for column, variant in enumerate(variants):
        used = [k for k in range(NUM_KINDS) if variant.need[k]]
        for slot, k in enumerate(used):
            kind[slot, column] = k
            small[slot, column] = variant.small[k]
            big[slot, column] = variant.need[k] - variant.small[k]
            slot_of[k, column] = slot
    lines = [card.lines[v.line] for v in variants]
    tables = CardTables(
        kind=kind, slot_of=slot_of, small=small, big=big,
        exposed=np.array([line.exposed for line in lines], dtype=bool),
        line_starts=card.index.line_starts,
        line_of=np.array([v.line for v in variants], dtype=np.int64),
        log_value=np.log(np.array([max(1, line.value) for line in lines], dtype=np.float64)),
        doubles_jokerless=np.array([not line.singles_and_pairs for line in lines], dtype=bool),
        need_by_kind=np.array([v.need for v in variants], dtype=np.int64).reshape(count, NUM_KINDS),
        small_by_kind=np.array([v.small for v in variants], dtype=np.int64).reshape(count, NUM_KINDS),
    )
    _TABLES[id(card)] = (card, tables)
    return tables


TABLE_SIZE = (MAX_POOL + 1) * MAX_SHORT


@lru_cache(maxsize=1024)
def log_tail_table(q_milli: int) -> FloatArray:
    """Flattened ``table[n * MAX_SHORT + d]`` = log P(at least d of n tiles arrive, each with chance q), q in
    thousandths."""
    q = q_milli / 1000.0
    pmf = np.zeros((MAX_POOL + 1, MAX_POOL + 2))
    pmf[0, 0] = 1.0
    for n in range(1, MAX_POOL + 1):
        pmf[n, 1:] = pmf[n - 1, :-1] * q
        pmf[n, :] += pmf[n - 1, :] * (1.0 - q)
    tail = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1][:, :MAX_SHORT]
    with np.errstate(divide="ignore"):
        table = np.maximum(np.log(np.clip(tail, 0.0, 1.0)), LOG_FLOOR)
    flat: FloatArray = table.reshape(-1)
    flat.flags.writeable = False
    return flat


@lru_cache(maxsize=1024)
def _big_tables(draw_milli: int, call_milli: int) -> FloatArray:
    """The draw-only table followed by the draw-or-call table: X variants read at an offset of TABLE_SIZE."""
    return np.concatenate([log_tail_table(draw_milli), log_tail_table(call_milli)])


def _milli(q: float) -> int:
    return round(min(max(q, 0.001), 0.999) * 1000)


@dataclass(frozen=True, slots=True)
class Chances:
    """The per-tile chances an evaluation rests on: that a given unseen tile reaches the rack in time."""

    draw: float  # drawn from the wall
    call: float  # extra, for a big group on an X line: another player discards it and the seat calls it


class Outlook:
    """One rack (concealed naturals and jokers, plus exposed groups) scored against every variant of a card.

    ``log_chance[v]`` is the log of variant v's chance, plus ``value_weight`` times the log of its line's value;
    variants that cannot hold the exposures read far below ``LOG_FLOOR``. With ``jokerless_bonus`` (given only
    for a rack and exposures free of jokers), a variant may instead be made without jokers at a lower chance but
    for double the value; it counts whichever of the two is worth more.
    """

    def __init__(self, tables: CardTables, naturals: Sequence[int], jokers: int, exposed: Sequence[int],
                 holding: BoolArray | None, unseen: Sequence[int], unseen_jokers: int, chances: Chances,
                 value_weight: float, jokerless_bonus: float = 0.0) -> None:
        self.tables = tables
        self.jokers = jokers
        kind = tables.kind
        self.h = np.asarray([*naturals, 0], dtype=np.int64).take(kind)  # (S, V) naturals held of each slot's kind
        self.u = np.minimum(np.asarray([*unseen, 0], dtype=np.int64), MAX_POOL).take(kind)  # unseen copies
        big = tables.big
        if any(exposed):
            # Exposed tiles already sit in their groups (pungs or larger): the variant needs that many less.
            big = np.maximum(big - np.asarray([*exposed, 0], dtype=np.int64)[kind], 0)
        self.big = big
        draw = _milli(chances.draw)
        self.draw_table = log_tail_table(draw)
        self.big_table = _big_tables(draw, _milli(chances.draw + chances.call))
        self.big_offset = np.where(tables.exposed, TABLE_SIZE, 0)  # X lines read the draw-or-call half
        self.base = value_weight * tables.log_value
        if holding is not None:
            self.base = np.where(holding, self.base, 8 * LOG_FLOOR)

        self.small_log, self.short_big, self.pool = self._slots(self.h, self.u, tables.small, big)
        self.small_total = self.small_log.sum(axis=0)
        self.big_short = self.short_big.sum(axis=0)
        self.pool_total = self.pool.sum(axis=0) + unseen_jokers
        self.unseen_jokers = unseen_jokers
        self.log_chance: FloatArray = self.base + self.small_total + self._big_log(
            self.big_short - jokers, self.pool_total, self.big_offset)
        self.jokerless_bonus: FloatArray | None = None
        if jokerless_bonus and jokers == 0:
            self.jokerless_bonus = np.where(tables.doubles_jokerless, jokerless_bonus, 0.0)
            jokerless = self._big_log(self.big_short, self.pool_total - unseen_jokers, self.big_offset)
            self.log_chance = np.maximum(self.log_chance,
                                         self.base + self.small_total + self.jokerless_bonus + jokerless)

    def _slots(self, h: IntArray, u: IntArray, small: IntArray, big: IntArray
               ) -> tuple[FloatArray, IntArray, IntArray]:
        """Per slot: the log chance of filling its singles/pairs, its big-group shortfall, and the unseen
        copies that would fill that shortfall."""
        filled = np.minimum(h, small)
        short_big = big - np.minimum(h - filled, big)
        small_log = self.draw_table.take(u * MAX_SHORT + np.minimum(small - filled, MAX_SHORT - 1))
        return small_log, short_big, np.minimum(short_big, u)

    def _big_log(self, short: IntArray, pool: IntArray, offset: IntArray) -> FloatArray:
        """Log chance that ``short`` more big-group tiles arrive, any of ``pool`` fitting."""
        short = np.minimum(np.maximum(short, 0), MAX_SHORT - 1)
        result: FloatArray = self.big_table.take(offset + np.minimum(pool, MAX_POOL) * MAX_SHORT + short)
        return result

    def usage(self) -> FloatArray:
        """Per kind: the summed chance of every variant that uses a held tile of it (what the far lines lose
        with it: tells apart tiles the best lines have no use for)."""
        # Slots past a variant's kinds read PAD, where nothing is held. Slots not held weigh exactly 0.0, which
        # leaves every sum as it was while sparing a boolean selection.
        weight = np.where(self.h > 0, np.exp(self.log_chance)[None, :], 0.0)
        result = np.bincount(self.tables.kind.ravel(), weights=weight.ravel(), minlength=PAD + 1)
        return result.astype(np.float64)

    def after_removal(self, kinds: Sequence[int], wild: int | None, lines: int) -> tuple[FloatArray, IntArray]:
        """Each variant's log chance after one tile of each of ``kinds`` leaves the concealed rack (``wild``: a
        joker), as ``(C, V')`` over the variants ``keep`` returned with it.

        Only variants that can matter are worked out: those of the best few lines (more than the ``lines`` the
        worth counts, as a line can drop out) that are near their line's best (a line counts its best variant;
        a variant far below it could only take over after a loss far larger than it is worth)."""
        tables = self.tables
        line_best = np.maximum.reduceat(self.log_chance, tables.line_starts)
        cut = np.sort(line_best)[-min(len(line_best), lines + LINE_SLACK)]
        best_of_variant = line_best[tables.line_of]
        keep = np.flatnonzero((best_of_variant >= cut) & (self.log_chance >= best_of_variant - VARIANT_SLACK))
        h = self.h[:, keep]
        small_log, short_big, pool = self._slots(np.maximum(h - 1, 0), self.u[:, keep], tables.small[:, keep],
                                                 self.big[:, keep])
        # Giving away a tile changes only its own kind's slot: per slot, the change, with a zero extra slot
        # for the kinds a variant does not use; then each candidate reads its kind's slot.
        width = h.shape[0]
        small_delta = np.zeros((width + 1, len(keep)))
        small_delta[:width] = small_log - self.small_log[:, keep]
        int_delta = np.zeros((2, width + 1, len(keep)), dtype=np.int64)
        int_delta[0, :width] = short_big - self.short_big[:, keep]
        int_delta[1, :width] = pool - self.pool[:, keep]
        kinds_array = np.asarray(kinds, dtype=np.int64)
        slots = tables.slot_of[kinds_array][:, keep]  # (C, V')
        # Each candidate reads its kind's slot: as flat positions, which numpy's take reads far faster than a
        # two-axis fancy index.
        flat = slots * len(keep) + np.arange(len(keep))[None, :]
        short_delta = int_delta[0].take(flat)
        pool_delta = int_delta[1].take(flat)
        jokers = np.array([[self.jokers - (kind == wild)] for kind in kinds], dtype=np.int64)
        big_log = self._big_log(self.big_short[keep] + short_delta - jokers, self.pool_total[keep] + pool_delta,
                                self.big_offset[keep])
        result: FloatArray = (self.base + self.small_total)[keep] + small_delta.take(flat) + big_log
        if self.jokerless_bonus is not None:
            # The jokerless way: no jokers fill the big groups, and drawing one does not help.
            jokerless = self._big_log(self.big_short[keep] + short_delta,
                                      self.pool_total[keep] + pool_delta - self.unseen_jokers, self.big_offset[keep])
            result = np.maximum(result, result - big_log + jokerless + self.jokerless_bonus[keep])
        return result, keep


def worth(tables: CardTables, log_chance: FloatArray, lines: int, secondary: float, within: float,
          keep: IntArray | None = None) -> FloatArray:
    """A rack's worth from its variants' log chances (``(V,)``, or ``(C, V)`` for C candidate racks; only the
    variants ``keep`` if given): the best line's chance plus ``secondary`` times each of the next ``lines - 1``.
    A line counts its best variant plus ``within`` times the others (the same line in other suits or numbers:
    more ways to make it)."""
    if keep is None:
        starts = tables.line_starts  # variants are stored line by line
    else:
        lines_of = tables.line_of[keep]
        change = np.ones(len(lines_of), dtype=bool)
        np.not_equal(lines_of[1:], lines_of[:-1], out=change[1:])
        starts = np.flatnonzero(change)
    chance = np.exp(log_chance)
    per_line = np.maximum.reduceat(chance, starts, axis=-1)
    if within:
        per_line = per_line + within * (np.add.reduceat(chance, starts, axis=-1) - per_line)
    count = min(lines, per_line.shape[-1])
    top = -np.sort(-per_line, axis=-1)[..., :count]
    weights = np.full(count, secondary)
    weights[0] = 1.0
    result: FloatArray = top @ weights
    return result
