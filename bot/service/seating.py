"""Seating a league night (docs/rules.md, *League nights*): who sits at which table, in which seat, and who is East.
Pure and deterministic given the night's seed and the round, so a restart seats the same way.

Tables are of four. What a remainder of players does is the night's choice: ``computers`` fills the seats of one
table with computer players (9 people: two tables of four and one of a person and three computers), ``three``
makes tables of three where the numbers allow (9 people: three tables of three; 10: one of four and two of
three), falling back to computers where they do not (1, 2 or 5 people). Between rounds everyone is reseated at
random, keeping the pairs who have already shared a table apart where that can be done (the arrangement with the
fewest repeated pairs of a few hundred drawn).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

REMAINDERS = ("computers", "three")
DRAWS = 300  # arrangements drawn per reseating: plenty for a night's few dozen players


@dataclass(frozen=True, slots=True)
class Seating:
    """One table of a round: the player in each seat (None: a computer) and East's seat."""

    seats: tuple[int | None, ...]
    east: int

    @property
    def people(self) -> tuple[int, ...]:
        """The players at the table."""
        return tuple(p for p in self.seats if p is not None)


def table_sizes(people: int, remainder: str) -> list[tuple[int, int]]:
    """The tables for ``people`` players, as (people, seats) pairs: seats 4, or 3 at a table of three."""
    if people <= 0:
        return []
    if remainder == "three" and people not in (1, 2, 5):
        threes = (4 - people % 4) % 4  # 4a + 3b = people with the most tables of four
        fours = (people - 3 * threes) // 4
        return [(4, 4)] * fours + [(3, 3)] * threes
    fours, left = divmod(people, 4)
    return [(4, 4)] * fours + ([(left, 4)] if left else [])


def pair_key(a: int, b: int) -> tuple[int, int]:
    """A pair of players, in order."""
    return (a, b) if a < b else (b, a)


def repeats(tables: Sequence[Sequence[int]], met: Mapping[tuple[int, int], int]) -> int:
    """How many times players who have met already would share a table again."""
    return sum(met.get(pair_key(a, b), 0) for table in tables for a, b in combinations(table, 2))


def seat_round(players: Sequence[int], remainder: str, seed: int, round_no: int,
               met: Mapping[tuple[int, int], int] | None = None) -> list[Seating]:
    """The tables of one round: players shuffled (keeping those who have met apart where possible), each table's
    seats shuffled and its East drawn (a computer's seat may be East, as at a real table)."""
    rng = random.Random(f"{seed}:{round_no}")
    sizes = table_sizes(len(players), remainder)
    pool = sorted(players)
    best: list[list[int]] | None = None
    best_score = -1
    for _ in range(DRAWS if met else 1):
        rng.shuffle(pool)
        tables, at = [], 0
        for people, _ in sizes:
            tables.append(pool[at:at + people])
            at += people
        score = repeats(tables, met or {})
        if best is None or score < best_score:
            best, best_score = [list(t) for t in tables], score
        if score == 0:
            break
    seated = []
    for (people, seats), table in zip(sizes, best or [], strict=True):
        chairs: list[int | None] = [*table, *([None] * (seats - people))]
        rng.shuffle(chairs)
        seated.append(Seating(tuple(chairs), rng.randrange(seats)))
    return seated
