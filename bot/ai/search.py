"""A search-based player (``hard-search``, kept for measurement; see docs/computer-players.md).

Perfect-information Monte Carlo over the rest of the game. At a discard, ``hard``'s card reading proposes a
few candidate tiles; then the seat samples *worlds* consistent with what it has seen (the tiles it has not
seen dealt at random into the other players' concealed racks, by their sizes, and the wall from the rest), and
plays each candidate out in every world (the same worlds for every candidate, so their difference is not the
luck of the sample). A play-out is a race on a simplified table: each player aims at one variant of the card
(an opponent the variant closest to her sampled rack that can hold her exposures; this seat its best variant
after the discard, by the card reading), draws in turn, keeps what her variant uses and throws the rest, and
goes Mah Jongg by a draw or by claiming a discard that completes her. The candidate with the best average chips
for this seat is played: a win counts what it is paid (a self-pick double from all three), a loss what this seat
pays (double when its own discard was the winning tile), so a discard that feeds an opponent costs what it
would cost at the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.engine.actions import Action, Discard
from bot.engine.matching import exposure_group
from bot.engine.tiles import NUM_KINDS, Tile
from bot.engine.views import SeatView

from .outlook import CardTables, IntArray
from .strategy import Strategy


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How much the search looks at."""

    worlds: int = 48  # sampled deals of the unseen tiles, shared by every candidate
    candidates: int = 4  # the card reading's best few discards are searched
    from_wall: int = 999  # search only with this many wall tiles left or fewer (earlier: the card reading alone)


# The search's settings by experimental level name (``charleston paired --candidate NAME``).
SEARCH_LEVELS = {
    "hard-search": SearchSettings(),
    "hard-search-late": SearchSettings(from_wall=40),  # the card reading until 40 wall tiles are left
    "hard-search-wide": SearchSettings(worlds=96, candidates=6),
}


@dataclass(slots=True)
class Racer:
    """One player in a play-out: what her target variant still lacks, and the tiles she has no use for."""

    small: list[int]  # singles and pairs still lacking, per kind (only naturals fill them)
    big: list[int]  # pung-or-larger tiles still lacking, per kind (jokers fill them too)
    small_short: int
    big_short: int
    jokers: int
    spare: list[int]  # tiles she will throw first
    value: int
    missing: int = 0  # tiles still to come before Mah Jongg (kept up to date by take)

    def __post_init__(self) -> None:
        self.missing = self.small_short + max(0, self.big_short - self.jokers)

    def wants(self, tile: int, wild: int | None) -> bool:
        """Whether ``tile`` brings her closer."""
        if tile == wild:
            return self.big_short > self.jokers
        return self.small[tile] > 0 or (self.big[tile] > 0 and self.big_short > self.jokers)

    def take(self, tile: int, wild: int | None) -> None:
        """Put a wanted ``tile`` to use."""
        if tile == wild:
            self.jokers += 1
        elif self.small[tile] > 0:
            self.small[tile] -= 1
            self.small_short -= 1
        else:
            self.big[tile] -= 1
            self.big_short -= 1
        self.missing = self.small_short + max(0, self.big_short - self.jokers)


def racer(need: IntArray, small: IntArray, exposed: IntArray, concealed: Sequence[int], wild: int | None,
          value: int) -> Racer:
    """A player aiming at a variant (``need``/``small`` per kind) with these exposed and concealed tiles."""
    small_left = [int(x) for x in small]
    big_left = [max(0, int(n) - int(s) - int(e)) for n, s, e in zip(need, small, exposed, strict=True)]
    jokers = 0
    spare: list[int] = []
    for tile in concealed:
        if tile == wild:
            jokers += 1
        elif small_left[tile] > 0:
            small_left[tile] -= 1
        elif big_left[tile] > 0:
            big_left[tile] -= 1
        else:
            spare.append(tile)
    return Racer(small_left, big_left, sum(small_left), sum(big_left), jokers, spare, value)


def play_out(racers: list[Racer], me: int, first: int, thrown: int, wall: list[int], wild: int | None,
             doubles: bool = True) -> float:
    """Chips for seat ``me`` once the race is run: ``thrown`` was just discarded by ``me`` and ``first`` draws
    next (seats in ``racers`` order; a seat out of play wants nothing). ``doubles``: the rules make a self-pick
    and the thrower pay double (SC1, SC2; the 1946 rules do not: H5)."""
    seats = len(racers)
    discarder, tile = me, thrown
    position = 0
    turn = first
    while True:
        # Anyone completed by the discard claims it (the nearest in turn order first).
        for step in range(1, seats):
            other = (discarder + step) % seats
            r = racers[other]
            if r.missing == 1 and tile != wild and r.wants(tile, wild):
                return _chips(racers, me, other, discarder, doubles)
        if position >= len(wall):
            return 0.0  # a wall game
        r = racers[turn]
        drawn = wall[position]
        position += 1
        if r.wants(drawn, wild):
            r.take(drawn, wild)
            if r.missing == 0:
                return _chips(racers, me, turn, None, doubles)
            tile = r.spare.pop() if r.spare else drawn
        else:
            tile = drawn
        discarder = turn
        turn = (turn + 1) % seats


def _chips(racers: list[Racer], me: int, winner: int, thrower: int | None, doubles: bool) -> float:
    value = racers[winner].value
    if not doubles:
        return float(3 * value if winner == me else -value)
    if winner == me:
        return float(value * (6 if thrower is None else 4))
    return float(-value * (2 if thrower is None or thrower == me else 1))


class SearchStrategy(Strategy):
    """``hard``'s card reading, with its discards chosen by sampled play-outs."""

    def __init__(self, rng: random.Random, settings: SearchSettings | None = None) -> None:
        super().__init__("hard", rng)
        self.search = settings or SearchSettings()
        self.np_rng = np.random.default_rng(rng.getrandbits(64))

    def discard(self, view: SeatView) -> Action:
        """The best of the card reading's few best discards, by average chips over sampled worlds."""
        if view.public.wall > self.search.from_wall:
            return super().discard(view)
        rack = list(view.rack)
        exposures = [list(e) for e in view.exposures]
        discardable = {a.tile: a for a in view.legal if isinstance(a, Discard)}
        outlook = self.outlook(view, rack, exposures)
        ranked = self.ranked_removals(view, outlook, sorted(discardable), self.danger(view))
        kinds = [kind for kind, _ in ranked[:self.search.candidates]]
        if len(kinds) < 2:
            return discardable[kinds[0]]
        after, keep = outlook.after_removal(kinds, view.card.wild, self.settings.lines)
        tables = self.tables(view)
        targets = [int(keep[int(np.argmax(row))]) for row in after]
        scores = self.scores(view, tables, kinds, targets)
        best = max(range(len(kinds)), key=lambda n: (scores[n], -n))
        return discardable[kinds[best]]

    def scores(self, view: SeatView, tables: CardTables, kinds: list[Tile], targets: list[int]) -> list[float]:
        """Average chips of each candidate discard over the same sampled worlds."""
        public = view.public
        wild = view.card.wild
        unseen = self.unseen(view)
        pool = np.repeat(np.arange(NUM_KINDS), unseen)
        others = [s for s in public.seats if s.seat != view.seat and not s.empty and not s.dead]
        sizes = [s.tiles for s in others]
        wall_size = min(public.wall, max(0, len(pool) - sum(sizes)))
        values = _values(view, tables)
        my_exposed = _exposed(view.exposures, wild)
        rack = list(view.rack)
        worlds = [self.np_rng.permutation(pool) for _ in range(self.search.worlds)]
        opponents: list[list[Racer]] = [[] for _ in worlds]
        for seat in others:
            exposed = _exposed(seat.exposures, wild)
            groups = tuple(sorted(exposure_group(list(e), wild) for e in seat.exposures))
            holding = self.holding(view, groups)
            start = sum(s.tiles for s in others if s.seat < seat.seat)
            hands = np.stack([world[start:start + seat.tiles] for world in worlds])
            choice = _closest(tables, hands, exposed, holding, wild)
            for n, world_hand in enumerate(hands):
                v = int(choice[n])
                opponents[n].append(racer(tables.need_by_kind[v], tables.small_by_kind[v], exposed,
                                          [int(t) for t in world_hand], wild, values[v]))
        totals = [0.0] * len(kinds)
        seats = 4
        mine = []
        for kind, target in zip(kinds, targets, strict=True):
            concealed = list(rack)
            concealed.remove(kind)
            mine.append(racer(tables.need_by_kind[target], tables.small_by_kind[target], my_exposed, concealed,
                              wild, values[target]))
        # Who sits where in a play-out: this seat (-1), the n-th opponent in play (n), or a seat out of play (None).
        in_play = [o.seat for o in others]
        places = [-1 if s == view.seat else in_play.index(s) if s in in_play else None for s in range(seats)]
        for n, world in enumerate(worlds):
            wall = world[sum(sizes):sum(sizes) + wall_size].tolist()
            for c, kind in enumerate(kinds):
                table = [_copy(mine[c]) if place == -1 else _idle() if place is None else _copy(opponents[n][place])
                         for place in places]
                totals[c] += play_out(table, view.seat, (view.seat + 1) % seats, kind, wall, wild,
                                      view.rules.winner_pays_double_rules)
        return [t / len(worlds) for t in totals]


_VALUES: dict[int, tuple[CardTables, list[int]]] = {}


def _values(view: SeatView, tables: CardTables) -> list[int]:
    """Each variant's line value (kept per card's tables)."""
    cached = _VALUES.get(id(tables))
    if cached is None or cached[0] is not tables:
        cached = (tables, [view.card.lines[int(line)].value for line in tables.line_of])
        _VALUES[id(tables)] = cached
    return cached[1]


def _exposed(exposures: tuple[tuple[Tile, ...], ...], wild: Tile | None) -> IntArray:
    """Tiles of each kind a seat's exposed groups hold (jokers counted as the group's kind)."""
    counts = np.zeros(NUM_KINDS, dtype=np.int64)
    for tile, size in (exposure_group(list(e), wild) for e in exposures):
        counts[tile] += size
    return counts


def _closest(tables: CardTables, hands: np.ndarray, exposed: IntArray, holding: np.ndarray | None,
             wild: Tile | None) -> IntArray:
    """For each sampled concealed hand (W, tiles): the variant she is nearest to, among those that can hold her
    exposures (the most valuable among the nearest)."""
    columns = np.flatnonzero(holding) if holding is not None else np.arange(tables.kind.shape[1])
    if not len(columns):
        columns = np.arange(tables.kind.shape[1])
    counts = np.zeros((len(hands), NUM_KINDS + 1), dtype=np.int16)
    for n, hand in enumerate(hands):
        counts[n, :NUM_KINDS] = np.bincount(hand, minlength=NUM_KINDS)[:NUM_KINDS]
    jokers = counts[:, wild].copy() if wild is not None else np.zeros(len(hands), dtype=np.int16)
    if wild is not None:
        counts[:, wild] = 0
    kind = tables.kind[:, columns]  # (S, V') slots, PAD where unused
    small = tables.small[:, columns].astype(np.int16)
    big = np.maximum(tables.big[:, columns] - np.append(exposed, 0)[kind], 0).astype(np.int16)
    h = counts[:, kind]  # (W, S, V')
    small_short = np.maximum(small - h, 0).sum(axis=1)
    big_short = np.maximum(big - np.maximum(h - small, 0), 0).sum(axis=1)
    missing = small_short + np.maximum(big_short - jokers[:, None], 0)  # (W, V')
    score = missing * 1000.0 - np.exp(tables.log_value[columns])[None, :]
    chosen: IntArray = columns[np.argmin(score, axis=1)]
    return chosen


def _copy(r: Racer) -> Racer:
    return Racer(list(r.small), list(r.big), r.small_short, r.big_short, r.jokers, list(r.spare), r.value)


def _idle() -> Racer:
    """A seat out of play: wants nothing, never wins."""
    return Racer([0] * NUM_KINDS, [0] * NUM_KINDS, 99, 0, 0, [], 0)
