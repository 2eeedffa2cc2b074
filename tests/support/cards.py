"""Shared helpers for the tests: building racks from card lines, independently of the engine's matcher."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine.card import Card, Line, Variant
from bot.engine.tiles import NUM_KINDS, TileSet, is_number


def winning_groups(variant: Variant, tile_set: TileSet) -> list[list[int]]:
    """A winning rack for ``variant``, group by group in printed order.

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
    """The groups' tiles in one list, in order."""
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


def matched_lines(result) -> set[str]:  # type: ignore[no-untyped-def]
    """The ids of the lines a :func:`bot.engine.matching.check` result matched."""
    return {m.line.id for m in result.matches}


@dataclass(frozen=True)
class StandingsRow:
    """A standings row as the weekly image reads it (player, name, net chips, games, wins)."""

    player_id: int
    name: str
    net: int
    games: int
    wins: int
