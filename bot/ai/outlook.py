"""How likely is a rack to become each variant of the card? The computer players' measure of a rack.

The engine's analysis counts the tiles a line still *misses*. Two racks missing four tiles can be far apart,
though: a missing single or pair can only be drawn (a joker never fills it), from the three or four copies
still out; a missing tile of a pung or larger can be drawn, replaced by any of the unseen jokers and, on an
exposed (X) line, called from another player's discard. This module turns that into a rough chance.

For one variant, with the rack's naturals filling singles and pairs first (as in the engine's analysis):

* each kind whose singles/pairs are short by ``d``: the chance that at least ``d`` of its ``u`` unseen copies
  reach the rack, each copy independently with chance ``q`` (the share of the unseen tiles the seat will draw);
* the big groups together: after the rack's jokers, ``b`` tiles are short, and any of ``A`` tiles fit (the
  unseen copies of the short kinds, capped at the shortfall, plus the unseen jokers); the chance that ``b`` of
  them arrive, each with chance ``q`` plus, on an X line, a share of the other players' discards (calls).

The variant's chance is the product (the pieces are treated as independent). Everything is computed for
every variant at once with numpy, and, because taking one tile away only changes its own kind's column, for
every possible discard at once as well: :meth:`Outlook.after_removal`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from bot.engine.card import Card
from bot.engine.tiles import NUM_KINDS

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int16]
BoolArray = npt.NDArray[np.bool_]

MAX_POOL = 48  # the binomial tables cover pools up to this many tiles (more are clipped: chance ~ 1 anyway)
MAX_SHORT = 16  # ...and shortfalls up to this many tiles
LOG_FLOOR = -40.0  # log of "impossible": small enough to sort last, finite so sums stay well behaved


@dataclass(frozen=True, slots=True)
class CardTables:
    """A card's variants as count matrices (one row per variant, one column per tile kind)."""

    small: IntArray  # tiles of each kind in singles and pairs (jokers never fill them)
    big: IntArray  # tiles of each kind in pungs and larger (jokers may fill them)
    exposed: BoolArray  # the variant's line is X (may be exposed, so its big groups can be called)
    line_starts: npt.NDArray[np.intp]  # first variant of each line
    log_value: FloatArray  # log of the line value, per variant
    line_value: FloatArray  # the value of each line


_TABLES: dict[int, tuple[Card, CardTables]] = {}


def card_tables(card: Card) -> CardTables:
    """Built once per card and kept (keyed by identity; the card is held so the key stays valid)."""
    cached = _TABLES.get(id(card))
    if cached is not None and cached[0] is card:
        return cached[1]
    index = card.index
    need = np.array([v.need for v in index.variants], dtype=np.int16).reshape(index.size, NUM_KINDS)
    small = np.array([v.small for v in index.variants], dtype=np.int16).reshape(index.size, NUM_KINDS)
    lines = [card.lines[v.line] for v in index.variants]
    tables = CardTables(
        small=small,
        big=need - small,
        exposed=np.array([line.exposed for line in lines], dtype=bool),
        line_starts=index.line_starts,
        log_value=np.log(np.array([line.value for line in lines], dtype=np.float64)),
        line_value=np.array([line.value for line in card.lines], dtype=np.float64),
    )
    _TABLES[id(card)] = (card, tables)
    return tables


@lru_cache(maxsize=512)
def log_tail_table(q_milli: int) -> FloatArray:
    """``table[n, d]`` = log P(at least d successes in n independent tries of chance q), q in thousandths."""
    q = q_milli / 1000.0
    pmf = np.zeros((MAX_POOL + 1, MAX_POOL + 2))
    pmf[0, 0] = 1.0
    for n in range(1, MAX_POOL + 1):
        pmf[n, 1:] = pmf[n - 1, :-1] * q
        pmf[n, :] += pmf[n - 1, :] * (1.0 - q)
    tail = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1][:, :MAX_SHORT]
    with np.errstate(divide="ignore"):
        table = np.maximum(np.log(np.clip(tail, 0.0, 1.0)), LOG_FLOOR)
    table.flags.writeable = False
    return table


def _milli(q: float) -> int:
    return round(min(max(q, 0.001), 0.999) * 1000)


@dataclass(frozen=True, slots=True)
class Chances:
    """The per-tile chances a seat's evaluation rests on."""

    draw: float  # that one given unseen tile will be drawn by this seat before the wall runs out
    call: float  # extra chance for a tile of a big group on an X line: another player discards it, we call


class Outlook:
    """One rack (concealed naturals and jokers, plus exposures) scored against every variant of a card.

    ``log_chance`` is the log chance of each variant (``LOG_FLOOR`` and below: out of reach), plus
    ``value_weight`` times the log of the line's value.
    """

    def __init__(self, tables: CardTables, naturals: npt.ArrayLike, jokers: int, exposed: npt.ArrayLike,
                 holding: BoolArray | None, unseen: npt.ArrayLike, unseen_jokers: int, chances: Chances,
                 value_weight: float) -> None:
        self.tables = tables
        self.h = np.asarray(naturals, dtype=np.int16)
        self.jokers = jokers
        self.unseen = np.asarray(unseen, dtype=np.int16)
        self.unseen_jokers = unseen_jokers
        small = tables.small
        big = tables.big
        exposed_counts = np.asarray(exposed, dtype=np.int16)
        if exposed_counts.any():
            # Exposed tiles already sit in their groups (a pung or larger): the variant needs that many less.
            big = np.maximum(big - exposed_counts, 0)
        self.big = big
        self.holding = holding
        self.q_draw = log_tail_table(_milli(chances.draw))
        self.big_table_x = log_tail_table(_milli(chances.draw + chances.call))  # X lines may call big groups
        self.value_term = value_weight * tables.log_value
        if holding is not None:
            self.value_term = np.where(holding, self.value_term, LOG_FLOOR * 4)

        # Per kind, the log chance of getting d more copies for a single or pair (d = 0, 1, 2, ...).
        u = np.minimum(self.unseen, MAX_POOL)
        self.small_log = self.q_draw[u, :]  # (K, MAX_SHORT)
        self.small_flat = self.small_log.reshape(-1)
        self.kind_offset = np.arange(NUM_KINDS, dtype=np.int32) * MAX_SHORT

        h = self.h
        filled_small = np.minimum(h, small)
        self.short_small = small - filled_small  # (V, K)
        rest = h - filled_small
        self.short_big = big - np.minimum(rest, big)  # (V, K)
        self.small_score = self._small_terms(self.short_small)  # (V, K)
        self.small_total = self.small_score.sum(axis=1)
        self.big_short_total = self.short_big.sum(axis=1).astype(np.int32)
        self.pool_terms = np.minimum(self.short_big, self.unseen)  # (V, K): unseen copies that would help
        self.pool_total = self.pool_terms.sum(axis=1).astype(np.int32) + unseen_jokers
        self.log_chance = self.small_total + self._big_terms(self.big_short_total - jokers, self.pool_total) \
            + self.value_term

    def _small_terms(self, short: IntArray) -> FloatArray:
        index = self.kind_offset + np.minimum(short, MAX_SHORT - 1)
        return self.small_flat[index]

    def _big_terms(self, short: npt.NDArray[np.int32], pool: npt.NDArray[np.int32]) -> FloatArray:
        """Log chance that ``short`` more tiles of the big groups arrive out of ``pool`` that fit."""
        short = np.clip(short, 0, MAX_SHORT - 1)
        pool = np.minimum(pool, MAX_POOL)
        x = self.tables.exposed
        if short.ndim == 2:
            x = x[:, None]
        return np.where(x, self.big_table_x[pool, short], self.q_draw[pool, short])

    def after_removal(self) -> FloatArray:
        """``(V, K)``: each variant's log chance after one tile of kind k leaves the concealed rack (kinds the
        rack does not hold read as unchanged)."""
        h = self.h
        gone = np.maximum(h - 1, 0)
        small = self.tables.small
        filled_small = np.minimum(gone, small)
        short_small = small - filled_small
        rest = gone - filled_small
        short_big = self.big - np.minimum(rest, self.big)
        small_total = self.small_total[:, None] - self.small_score + self._small_terms(short_small)
        big_short = self.big_short_total[:, None] + (short_big - self.short_big)
        pool = self.pool_total[:, None] + (np.minimum(short_big, self.unseen) - self.pool_terms)
        result: FloatArray = small_total + self._big_terms(big_short - self.jokers, pool) + self.value_term[:, None]
        return result

    def after_joker_removal(self) -> FloatArray:
        """``(V,)``: each variant's log chance after one joker leaves the concealed rack."""
        result: FloatArray = self.small_total + self.value_term \
            + self._big_terms(self.big_short_total - (self.jokers - 1), self.pool_total)
        return result


def worth(tables: CardTables, log_chance: FloatArray, lines: int, secondary: float) -> FloatArray:
    """A rack's worth from its variants' log chances (``(V,)``, or ``(V, C)`` for C candidate racks): the best
    line's chance plus ``secondary`` times each of the next ``lines - 1`` (a line counts its best variant)."""
    per_line = np.maximum.reduceat(np.exp(log_chance), tables.line_starts, axis=0)
    if lines == 1:
        best: FloatArray = per_line.max(axis=0)
        return best
    top = -np.sort(-per_line, axis=0)[:lines]
    weights = np.full(top.shape[0], secondary)
    weights[0] = 1.0
    result: FloatArray = np.tensordot(weights, top, axes=(0, 0))
    return result
