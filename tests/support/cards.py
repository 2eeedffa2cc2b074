"""Shared helpers for the tests: building racks from card lines, independently of the engine's matcher."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine.card import Card, Line, Variant
from bot.engine.cardfile import load_card_text
from bot.engine.tiles import NUM_KINDS, TileSet, is_number

# Ordered pairs of different numbers, 42 of them: a line printed with "or" 42 times (made up, as every line here).
_LONG = ", ".join(f'"ZZZ {str(i) * 4}a NN {str(j) * 3}b FF"'
                  for i, j in [(i, j) for i in range(1, 10) for j in range(1, 10) if i != j][:42])

# A made-up card with one line for each construct of the card language that issue 29 added: separate groups of
# the same tile, Z (any wind), a long list of alternatives, a year next to shifting numbers.
LANGUAGE_CARD_TEXT = f"""[card]
id = "language"
name = "Card language test card"

[[hand]]
id = "pairs-1"
section = "Pairs"
pattern = "11a 2222b 11a 3333c FF"
exposed = true
value = 25
note = "any 3 suits, two separate pairs of 1s"

[[hand]]
id = "kong-1"
section = "Pairs"
pattern = "1111a 2222b 3333c FF"
exposed = true
value = 25
note = "any 3 suits"

[[hand]]
id = "flowers-1"
section = "Flowers"
pattern = "FFF 6666a FFF 7777a"
exposed = true
value = 30
note = "two separate pungs of flowers, any 1 suit"

[[hand]]
id = "flowers-2"
section = "Flowers"
pattern = "FFFFFF 8888a 9999a"
exposed = true
value = 30
note = "a sextet of flowers"

[[hand]]
id = "winds-1"
section = "Winds"
pattern = "ZZZ 111a 2222a 3333a"
exposed = true
value = 25
note = "a pung of any wind, any 1 suit"

[[hand]]
id = "winds-2"
section = "Winds"
pattern = "ZZ 4444a ZZ 5555b FF"
exposed = false
value = 35
note = "two pairs of the same wind, any wind, any 2 suits"

[[hand]]
id = "long-1"
section = "Long"
pattern = [{_LONG}]
exposed = true
value = 30
note = "any wind, a kong and a pung of two numbers in 2 suits"

[[hand]]
id = "year-1"
section = "2026"
pattern = "FFFF 2026a 222b 222c"
shift = [0, 3]
exposed = true
value = 25
note = "like pungs of 2s or 5s, any 3 suits"
"""


def language_card() -> Card:
    """The made-up card of :data:`LANGUAGE_CARD_TEXT`, compiled."""
    return load_card_text(LANGUAGE_CARD_TEXT, "language.toml")


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
