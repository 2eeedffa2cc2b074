"""The fast form of a card, built once per card and shared by matching and analysis.

Two structures, both over the flat list of every variant of every line:

* **Bit masks** (Python ints, one bit per variant) for exact questions. ``fit[k][c]`` holds the variants that
  can take exactly ``c`` natural tiles of kind ``k`` (at least the singles-and-pairs part, at most the whole
  need). A 14-tile hand is a Mah Jongg candidate for the variants in the AND of ``fit[k][h_k]`` over all kinds:
  a few dozen big-int ANDs instead of a loop over variants.
* **Threshold rows** (numpy, one int8 row per ``(kind, c)``, one column per variant) for counting questions.
  ``need_ge[k, c]`` is 1 where a variant needs at least ``c`` of kind ``k``. A rack holding ``h_k`` of kind ``k``
  uses ``sum(min(h_k, need))`` naturals in a variant, which is the sum of rows ``need_ge[k, 1..h_k]``: one row per
  tile in the rack. Analysis is therefore a gather-and-sum of about 14 rows, whatever the card's size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .line import Line, Variant
from .pattern import Group
from .tiles import NUM_KINDS, Tile

# Deepest threshold row kept per kind: a rack never holds more naturals of one kind than this, and needs never
# exceed 14. Rows past a variant's need are all zero, so one table size serves every lookup.
MAX_COUNT = 16

IntArray = npt.NDArray[np.int16]


class CardIndex:
    """Bit masks and threshold rows over every variant of a card's lines (see the module notes)."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self.variants: tuple[Variant, ...] = tuple(v for line in lines for v in line.variants)
        self.size = len(self.variants)
        starts: list[int] = []
        for n, v in enumerate(self.variants):
            if not starts or self.variants[starts[-1]].line != v.line:
                starts.append(n)
        self.line_starts = np.array(starts, dtype=np.intp)
        self.line_of_segment = [self.variants[s].line for s in starts]
        self.kinds = sorted({t for v in self.variants for t, _ in v.groups})

        exposed_lines = {line.index for line in lines if line.exposed}
        self.x_variants = _mask(n for n, v in enumerate(self.variants) if v.line in exposed_lines)
        self.all_variants = (1 << self.size) - 1
        self.fit = self._fit_masks()
        self.exposable = self._exposure_masks(exposed_lines)

        need = np.array([v.need for v in self.variants], dtype=np.int16).reshape(self.size, NUM_KINDS)
        small = np.array([v.small for v in self.variants], dtype=np.int16).reshape(self.size, NUM_KINDS)
        self.need_ge = _rows(need, lambda table, c: table >= c)
        self.small_ge = _rows(small, lambda table, c: table >= c)
        # need_over[k, r]: how many of kind k a variant needs beyond r copies, max(0, need - r).
        self.need_over = _rows(need, lambda table, c: np.maximum(table - c, 0))
        self.big_total: IntArray = (need - small).sum(axis=1).astype(np.int16)
        self.need_max: list[int] = need.max(axis=0).tolist()
        self.small_max: list[int] = small.max(axis=0).tolist()

    # -- bit masks -----------------------------------------------------------------------------------
    def _fit_masks(self) -> list[list[int]]:
        fit = [[0] * MAX_COUNT for _ in range(NUM_KINDS)]
        for n, v in enumerate(self.variants):
            bit = 1 << n
            for kind in range(NUM_KINDS):
                for c in range(v.small[kind], min(v.need[kind], MAX_COUNT - 1) + 1):
                    fit[kind][c] |= bit
        return fit

    def _exposure_masks(self, exposed_lines: set[int]) -> dict[tuple[Tile, int, int], int]:
        """(tile, size, m) -> X-line variants with at least m groups of ``size`` of ``tile``."""
        masks: dict[tuple[Tile, int, int], int] = {}
        for n, v in enumerate(self.variants):
            if v.line not in exposed_lines:
                continue
            for (tile, size), count in Counter(g for g in v.groups if g[1] >= 3).items():
                for m in range(1, count + 1):
                    masks[(tile, size, m)] = masks.get((tile, size, m), 0) | (1 << n)
        return masks

    def candidates(self, naturals: Sequence[int]) -> int:
        """Variants whose counts admit exactly these natural tiles (``naturals`` is a count per kind)."""
        mask = self.all_variants
        fit = self.fit
        for kind in range(NUM_KINDS):
            have = naturals[kind]
            mask &= fit[kind][have] if have < MAX_COUNT else 0
            if not mask:
                return 0
        return mask

    def holding(self, groups: Iterable[Group]) -> int:
        """X-line variants that hold all these (tile, size) groups on distinct groups of their own."""
        mask = self.x_variants
        for (tile, size), count in Counter(groups).items():
            mask &= self.exposable.get((tile, size, count), 0)
        return mask

    def mask_to_bool(self, mask: int) -> npt.NDArray[np.bool_]:
        """A bit mask as one boolean per variant."""
        raw = np.frombuffer(mask.to_bytes((self.size + 7) // 8 or 1, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[: self.size].astype(bool)

    # -- threshold rows ------------------------------------------------------------------------------
    def row(self, kind: int, c: int) -> int:
        """Row of (kind, c) in the threshold tables; counts past the table read the last (all-zero) row."""
        return kind * MAX_COUNT + min(c, MAX_COUNT - 1)


def _rows(table: IntArray, rule: Callable[[IntArray, IntArray], npt.NDArray[Any]]) -> npt.NDArray[np.int8]:
    """Rows ``kind * MAX_COUNT + c`` of ``rule(table[:, kind], c)``, one column per variant."""
    c = np.arange(MAX_COUNT, dtype=np.int16).reshape(MAX_COUNT, 1, 1)
    stacked = rule(table.T[np.newaxis, :, :], c).astype(np.int8)  # (c, kind, variant)
    return np.ascontiguousarray(stacked.transpose(1, 0, 2).reshape(NUM_KINDS * MAX_COUNT, table.shape[0]))


def _mask(bits: Iterable[int]) -> int:
    mask = 0
    for n in bits:
        mask |= 1 << n
    return mask


def bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
