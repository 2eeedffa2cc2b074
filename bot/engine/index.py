"""The fast form of a card, built once per card and shared by matching and analysis.

Two structures, both over the flat list of every variant of every line:

* **Bit masks** (Python ints, one bit per variant) for exact questions. ``fit[k][c]`` holds the variants that
  can take exactly ``c`` natural tiles of kind ``k`` (at least the singles-and-pairs part, at most the whole
  need). A 14-tile hand is a Mah Jongg candidate for the variants in the AND of ``fit[k][h_k]`` over all kinds:
  a few dozen big-int ANDs instead of a loop over variants.
* **Count matrices** (numpy, one int16 row per kind, one column per variant) for counting questions.
  ``need_t[k, v]`` is how many tiles of kind ``k`` variant ``v`` needs, ``small_t[k, v]`` how many of them are in
  its singles and pairs. A rack holding ``h_k`` of kind ``k`` uses ``sum(min(h_k, need))`` naturals in a variant:
  the rows of the kinds the rack holds (at most 14), clipped and summed in a few whole-array operations, whatever
  the card's size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from .line import Line, Variant
from .pattern import Group
from .tiles import NUM_KINDS, Tile

# Counts the fit masks keep per kind: a rack never holds more naturals of one kind than this, and needs never
# exceed 14, so a larger count fits no variant.
MAX_COUNT = 16

IntArray = npt.NDArray[np.int16]


class CardIndex:
    """Bit masks and threshold rows over every variant of a card's lines (see the module notes)."""

    def __init__(self, lines: Sequence[Line], tile_set_counts: Sequence[int], wild: Tile | None) -> None:
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
        self.need_t: IntArray = np.ascontiguousarray(need.T)
        self.small_t: IntArray = np.ascontiguousarray(small.T)
        self.big_total: IntArray = (need - small).sum(axis=1).astype(np.int16)
        self.used = _used_rows(need, small)
        # What every variant lacks from a full set (the wild kind counted as none: wilds are counted apart), so
        # a question about a reduced set only looks at the kinds it reduces.
        full = np.array(tile_set_counts, dtype=np.int16)
        if wild is not None:
            full[wild] = 0
        self.full = full
        self.full_list: list[int] = full.tolist()
        self.small_max: list[int] = small.max(axis=0, initial=0).tolist()
        self.need_max: list[int] = need.max(axis=0, initial=0).tolist()
        self.full_short: IntArray = (full[:, np.newaxis] < small.T).sum(axis=0, dtype=np.int16)
        self.full_wilds: IntArray = np.maximum(self.need_t - full[:, np.newaxis], 0).sum(axis=0, dtype=np.int16)
        # Lines ranked by value, then card order: the tie-break of analysis, fixed per card. A variant's rank key
        # is score * rank_scale + rank_base: the smallest key of a line is its best variant, and the lines'
        # smallest keys sorted are the lines in analysis order (a line's variants share its value rank).
        line_by_index = {line.index: line for line in lines}
        segment_lines = [line_by_index[n] for n in self.line_of_segment]
        by_value = sorted(range(len(starts)), key=lambda s: (-segment_lines[s].value, segment_lines[s].index))
        segment_rank = np.empty(len(starts), dtype=np.int64)
        segment_rank[by_value] = np.arange(len(starts))
        lengths = np.diff(np.append(self.line_starts, self.size))
        self.rank_base = np.repeat(segment_rank, lengths) * self.size + np.arange(self.size, dtype=np.int64)
        self.rank_scale = len(starts) * self.size

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

def _used_rows(need: IntArray, small: IntArray) -> npt.NDArray[np.int8]:
    """Rows ``kind * MAX_COUNT + c``, each ``(min(need, c), min(need, c) - min(small, c))`` per variant: the
    naturals a variant takes from ``c`` tiles of the kind, and how many of those go to its groups of three or
    more. A rack's score is then one gather of a row per kind it holds and one sum."""
    c = np.arange(MAX_COUNT, dtype=np.int16).reshape(MAX_COUNT, 1, 1)
    taken = np.minimum(need.T[np.newaxis, :, :], c)  # (c, kind, variant)
    in_big = taken - np.minimum(small.T[np.newaxis, :, :], c)
    stacked = np.stack([taken, in_big], axis=2).astype(np.int8)  # (c, kind, 2, variant)
    return np.ascontiguousarray(stacked.transpose(1, 0, 2, 3).reshape(NUM_KINDS * MAX_COUNT, 2, need.shape[0]))


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
