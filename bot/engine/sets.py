"""Four sets and a pair: the hand of the classical game (docs/rules.md §9, CL1), checked fast.

A set is a chow (three consecutive tiles of one suit), a pung or a kong; the pair is two identical tiles. The
concealed tiles split into four groups that never mix in a set: the three suits and the honours (winds and
dragons). Each group's tiles are packed into one integer (a base-5 digit per kind, as no kind has more than four
copies), and what a group can make is worked out once per distinct group and kept, so checking a hand is a
handful of additions and four dictionary look-ups.

``shanten`` is the usual distance to a ready hand: how many tiles must still be exchanged before the hand waits
on its last tile (-1: complete). It reads each group as its best mix of sets, partial sets (two tiles of a set)
and a pair; the computer players and the hints use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .tiles import KINDS, NUM_KINDS, Tile

HONOURS = 3  # the group of winds and dragons (suits are groups 0, 1, 2)
OUTSIDE = 4  # flowers, jokers and blanks: no place in a classical hand
_GROUP = tuple(min(t // 9, HONOURS) if t <= Tile.WD else OUTSIDE for t in range(NUM_KINDS))
_POSITION = tuple(t % 9 if t <= Tile.D9 else t - Tile.N for t in range(NUM_KINDS))
_WEIGHT = tuple(5 ** _POSITION[t] if t <= Tile.WD else 0 for t in range(NUM_KINDS))
_FIRST = (Tile.B1, Tile.C1, Tile.D1, Tile.N)
_SIZE = (9, 9, 9, 7)


def _counts(key: int, size: int) -> list[int]:
    """A group's key back to its counts by position."""
    out = []
    for _ in range(size):
        key, digit = divmod(key, 5)
        out.append(digit)
    return out


def _sets_only(counts: list[int], runs: bool) -> bool:
    """Whether these counts split exactly into pungs (and chows, when ``runs``). At the lowest tile left, a
    count of three or more is best taken as a pung (three equal chows are three pungs), the rest as chows."""
    c = list(counts)
    for i, n in enumerate(c):
        if not n:
            continue
        if n >= 3:
            n -= 3
        if n:
            if not runs or i > len(c) - 3 or c[i + 1] < n or c[i + 2] < n:
                return False
            c[i + 1] -= n
            c[i + 2] -= n
    return True


_SHAPES: dict[tuple[int, int], tuple[bool, bool]] = {}


def _shape(group: int, key: int) -> tuple[bool, bool]:
    """(splits into sets, splits into sets and one pair) for a group's key; worked out once per key."""
    found = _SHAPES.get((group, key))
    if found is None:
        runs = group != HONOURS
        counts = _counts(key, _SIZE[group])
        with_pair = False
        for i, n in enumerate(counts):
            if n >= 2:
                counts[i] -= 2
                with_pair = _sets_only(counts, runs)
                counts[i] += 2
                if with_pair:
                    break
        found = (_sets_only(counts, runs), with_pair)
        _SHAPES[(group, key)] = found
    return found


def is_complete(concealed: Sequence[Tile], exposed_sets: int = 0) -> bool:
    """Whether the concealed tiles are the missing ``4 - exposed_sets`` sets and the pair (CL1): Mah Jongg."""
    if len(concealed) != 3 * (4 - exposed_sets) + 2:
        return False
    keys = [0, 0, 0, 0, 0]
    sizes = [0, 0, 0, 0, 0]
    group, weight = _GROUP, _WEIGHT
    for tile in concealed:
        g = group[tile]
        keys[g] += weight[tile]
        sizes[g] += 1
    if sizes[OUTSIDE]:
        return False
    pairs = 0
    for g in range(4):
        n = sizes[g]
        if not n:
            continue
        rest = n % 3
        if rest == 1:
            return False
        sets, with_pair = _shape(g, keys[g])
        if rest == 2:
            pairs += 1
            if not with_pair:
                return False
        elif not sets:
            return False
    return pairs == 1


def arrange(concealed: Sequence[Tile], exposures: Sequence[Sequence[Tile]] = ()) -> list[list[Tile]] | None:
    """The winning hand laid out set by set: the exposures as they lie, then the concealed sets, the pair last;
    None if the tiles are not four sets and a pair."""
    if not is_complete(concealed, len(exposures)):
        return None
    counts = [0] * NUM_KINDS
    for tile in concealed:
        counts[tile] += 1
    for pair in KINDS:
        if counts[pair] < 2:
            continue
        counts[pair] -= 2
        sets = _split(counts)
        counts[pair] += 2
        if sets is not None:
            return [list(e) for e in exposures] + sets + [[pair, pair]]
    return None  # unreachable: is_complete found a split


def _split(counts: list[int]) -> list[list[Tile]] | None:
    """Counts as pungs and chows, lowest tile first (the greedy split of :func:`_sets_only`), or None."""
    c = list(counts)
    sets: list[list[Tile]] = []
    for tile in KINDS:
        while c[tile]:
            if c[tile] >= 3:
                c[tile] -= 3
                sets.append([tile] * 3)
                continue
            if _GROUP[tile] >= HONOURS or _POSITION[tile] > 6 or not c[tile + 1] or not c[tile + 2]:
                return None
            chow = [tile, Tile(tile + 1), Tile(tile + 2)]
            for t in chow:
                c[t] -= 1
            sets.append(chow)
    return sets


# -- distance to a ready hand -----------------------------------------------------------------------------------

Blocks = tuple[tuple[int, int, int], ...]  # (sets, partial sets, pair taken) options, none better than another


def _best_blocks(found: set[tuple[int, int, int]]) -> Blocks:
    """Drop every option another option beats in sets, partial sets and pair at once."""
    kept = [o for o in found if not any(p != o and p[0] >= o[0] and p[1] >= o[1] and p[2] >= o[2] for p in found)]
    return tuple(sorted(kept, reverse=True))


@lru_cache(maxsize=1 << 16)
def _group_blocks(group: int, key: int) -> Blocks:
    """Every best way a group's tiles make sets, partial sets (a pair, two of a chow) and the hand's pair."""
    counts = _counts(key, _SIZE[group])
    runs = group != HONOURS
    found: set[tuple[int, int, int]] = set()
    last = len(counts)

    def walk(i: int, sets: int, partial: int, pair: int) -> None:
        while i < last and not counts[i]:
            i += 1
        if i == last:
            found.add((sets, partial, pair))
            return
        c = counts
        if c[i] >= 3:
            c[i] -= 3
            walk(i, sets + 1, partial, pair)
            c[i] += 3
        if runs and i + 2 < last and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            walk(i, sets + 1, partial, pair)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not pair:
                walk(i, sets, partial, 1)
            walk(i, sets, partial + 1, pair)
            c[i] += 2
        for step in (1, 2) if runs else ():
            if i + step < last and c[i + step]:
                c[i] -= 1
                c[i + step] -= 1
                walk(i, sets, partial + 1, pair)
                c[i] += 1
                c[i + step] += 1
        c[i] -= 1
        walk(i, sets, partial, pair)  # the tile stays on its own
        c[i] += 1

    walk(0, 0, 0, 0)
    return _best_blocks(found)


def group_keys(concealed: Sequence[Tile]) -> tuple[int, int, int, int]:
    """The four groups' keys of these tiles (tiles outside the classical set are left out)."""
    keys = [0, 0, 0, 0, 0]
    for tile in concealed:
        keys[_GROUP[tile]] += _WEIGHT[tile]
    return keys[0], keys[1], keys[2], keys[3]


def tile_group(tile: Tile) -> tuple[int, int]:
    """(group, weight) of a tile: adding the weight to the group's key adds the tile."""
    return _GROUP[tile], _WEIGHT[tile]


@lru_cache(maxsize=1 << 18)
def shanten_of_keys(keys: tuple[int, int, int, int], sets_needed: int) -> int:
    """:func:`shanten` of tiles given by their group keys."""
    best = 8
    options = [_group_blocks(g, k) if k else ((0, 0, 0),) for g, k in enumerate(keys)]
    for s0, p0, h0 in options[0]:
        for s1, p1, h1 in options[1]:
            if h0 + h1 > 1:
                continue
            for s2, p2, h2 in options[2]:
                if h0 + h1 + h2 > 1:
                    continue
                for s3, p3, h3 in options[3]:
                    head = h0 + h1 + h2 + h3
                    if head > 1:
                        continue
                    sets = min(s0 + s1 + s2 + s3, sets_needed)
                    partial = min(p0 + p1 + p2 + p3, sets_needed - sets)
                    value = 2 * (sets_needed - sets) - partial - head
                    if value < best:
                        best = value
    return best


def shanten(concealed: Sequence[Tile], exposed_sets: int = 0) -> int:
    """How many tiles from a ready hand the concealed tiles are, with ``exposed_sets`` sets already on the
    table: 0 is ready (one tile from Mah Jongg), -1 is complete."""
    return shanten_of_keys(group_keys(concealed), 4 - exposed_sets)


# -- the closest structure, for hints ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Structure:
    """The concealed tiles read as the closest hand: sets, partial sets, the pair, and the tiles left over."""

    sets: tuple[tuple[Tile, ...], ...]
    partial: tuple[tuple[Tile, ...], ...]
    pair: tuple[Tile, ...] | None
    loose: tuple[Tile, ...]
    shanten: int  # -1 complete, 0 ready, n: n tiles from ready


def structure(concealed: Sequence[Tile], exposed_sets: int = 0) -> Structure:
    """One reading of the concealed tiles that achieves their :func:`shanten`, sets first."""
    target = shanten(concealed, exposed_sets)
    needed = 4 - exposed_sets
    counts = [0] * NUM_KINDS
    for tile in concealed:
        counts[tile] += 1
    best: list[Structure] = []

    def walk(tile: int, sets: list[tuple[Tile, ...]], partial: list[tuple[Tile, ...]],
             pair: tuple[Tile, ...] | None, loose: list[Tile]) -> bool:
        while tile < NUM_KINDS and not counts[tile]:
            tile += 1
        if tile == NUM_KINDS:
            made = min(len(sets), needed)
            value = 2 * (needed - made) - min(len(partial), needed - made) - (pair is not None)
            if value == target:
                best.append(Structure(tuple(sets), tuple(partial), pair, tuple(loose), target))
                return True
            return False
        runs = _GROUP[tile] < HONOURS
        here = Tile(tile)
        tries: list[tuple[tuple[Tile, ...], str]] = [((here,) * 3, "set")]
        if runs and _POSITION[tile] <= 6:
            tries.append(((here, Tile(tile + 1), Tile(tile + 2)), "set"))
        tries += [((here, here), "pair"), ((here, here), "partial")]
        if runs and _POSITION[tile] <= 7:
            tries.append(((here, Tile(tile + 1)), "partial"))
        if runs and _POSITION[tile] <= 6:
            tries.append(((here, Tile(tile + 2)), "partial"))
        for tiles, kind in tries:
            if kind == "pair" and pair is not None:
                continue
            need = {t: tiles.count(t) for t in tiles}
            if any(counts[t] < n for t, n in need.items()):
                continue
            for t, n in need.items():
                counts[t] -= n
            done = walk(tile, [*sets, tiles] if kind == "set" else sets,
                        [*partial, tiles] if kind == "partial" else partial,
                        tiles if kind == "pair" else pair, loose)
            for t, n in need.items():
                counts[t] += n
            if done:
                return True
        counts[tile] -= 1
        done = walk(tile, sets, partial, pair, [*loose, here])
        counts[tile] += 1
        return done

    walk(0, [], [], None, [])
    return best[0] if best else Structure((), (), None, tuple(sorted(concealed)), target)
