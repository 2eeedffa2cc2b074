"""Shared helpers for the tests: building racks from card lines, independently of the engine's matcher."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine.card import Card, Line, Variant
from bot.engine.notation import parse_tiles
from bot.engine.tiles import NUM_KINDS, Tile, TileSet, is_number


def T(text: str) -> list[int]:
    """Tiles from notation, e.g. ``T("5D 5D J")``."""
    return parse_tiles(text)


def layout(variant: Variant, tile_set: TileSet) -> list[list[int]]:
    """One rack for ``variant``, group by group in printed order.

    Naturals go first to singles and pairs (where no wild may stand, J2), then to groups of three or
    more; whatever a group still lacks because the set has no more copies of its tile is filled with the wild
    tile (jokers, or the 1946 flowers), which J1 allows there.
    """
    wild = tile_set.wild
    left = list(tile_set.counts)
    groups = variant.groups
    out: list[list[int]] = [[] for _ in groups]
    for i in sorted(range(len(groups)), key=lambda n: groups[n][1]):
        tile, size = groups[i]
        take = min(size, left[tile])
        if size < 3:
            assert take == size, f"not enough {tile} for a small group"
        left[tile] -= take
        assert wild is not None or take == size
        out[i] = [tile] * take + [int(wild)] * (size - take)  # type: ignore[arg-type]
    wilds = sum(g.count(int(wild)) for g in out) if wild is not None else 0
    assert wild is None or wilds <= tile_set.counts[wild]
    return out


def flat(groups: Iterable[Sequence[int]]) -> list[int]:
    return [t for g in groups for t in g]


def line_kinds(line: Line) -> set[int]:
    """Every tile kind some variant of the line uses."""
    return {t for v in line.variants for t, _ in v.groups}


def foreign_tile(card: Card, line: Line) -> int:
    """A tile the line can never use: not in any variant, not the wild tile, and present in the set.
    Number tiles are preferred, as they are the ones most easily confused with the line's own."""
    used = line_kinds(line)
    candidates = [k for k in range(NUM_KINDS)
                  if k not in used and k != card.wild and card.tile_set.counts[k] > 0]
    assert candidates, f"{line.id} uses every tile kind"
    numbers = [k for k in candidates if is_number(k)]
    return (numbers or candidates)[0]


def fits(variant: Variant, tiles: Sequence[int], wild: int | None) -> bool:
    """Reference reading of J1/J2 for an all-concealed rack: the naturals of each kind must cover that
    kind's singles and pairs and not exceed what the variant holds of it; wilds fill the rest."""
    counts = Counter(tiles)
    wilds = counts.pop(wild, 0) if wild is not None else 0
    for kind in set(counts) | {t for t, _ in variant.groups}:
        if not variant.small[kind] <= counts.get(kind, 0) <= variant.need[kind]:
            return False
    return sum(counts.values()) + wilds == 14


def matched_lines(result) -> set[str]:  # type: ignore[no-untyped-def]
    return {m.line.id for m in result.matches}


WILD_NAMES = {Tile.J: "joker", Tile.F: "flower"}


@dataclass(frozen=True)
class StandingsRow:
    """A standings row as the weekly image reads it (player, name, net chips, games, wins)."""

    player_id: int
    name: str
    net: int
    games: int
    wins: int
