"""Computer players for the classical game (docs/rules.md §9): four sets and a pair, no card.

Every decision rests on two numbers from :mod:`bot.engine.sets`: the rack's *shanten* (how many tiles it is from
waiting on its last one) and its *acceptance* (how many unseen tiles would bring it a step closer). The player
throws the tile that keeps the shanten lowest and the acceptance highest, calls a discard when the exposure (and
the discard after it) brings it closer, lays down a kong when it costs nothing, and always takes Mah Jongg.

* ``easy`` looks at the shanten alone and now and then throws a tile that is not the best;
* ``normal`` breaks ties by acceptance, counting only tiles it has not seen;
* ``hard`` plays as ``normal``. Three refinements were tried against ``normal`` (300 to 1,000 seeded games each)
  and none did measurably better (all within a standard error of parity, one a little below): looking one draw
  further ahead, counting tiles the rack holds a pair of as easier to get (any discard of them may be called),
  and, late in the wall, steering away from tiles an opponent with three sets out might use. In a flat-scored
  race the fastest discard is already the best one (docs/computer-players.md).

A player sees only its own seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.engine.actions import Action, Call, DeclareKong, DeclareMahJongg, Discard, Draw, PassCall
from bot.engine.sets import shanten_of_keys, tile_group
from bot.engine.tiles import KINDS, Tile, number_of, number_tile, suit_of
from bot.engine.views import SeatView


@dataclass(frozen=True, slots=True)
class Settings:
    """What one level of the classical player weighs."""

    acceptance: bool  # break shanten ties by the unseen tiles that improve the rack
    blunder: float  # chance of throwing a random one of the three least useful tiles


LEVEL_SETTINGS = {
    "easy": Settings(acceptance=False, blunder=0.2),
    "normal": Settings(acceptance=True, blunder=0.0),
    "hard": Settings(acceptance=True, blunder=0.0),  # nothing tried beat normal: see the module notes
}


class Keys:
    """A rack as its four group keys (see :mod:`bot.engine.sets`), changed a tile at a time."""

    __slots__ = ("keys",)

    def __init__(self, tiles: Sequence[Tile]) -> None:
        keys = [0, 0, 0, 0, 0]
        for tile in tiles:
            group, weight = tile_group(tile)
            keys[group] += weight
        self.keys = keys

    def shanten(self, sets_needed: int) -> int:
        """The rack's shanten with ``sets_needed`` sets still to make."""
        k = self.keys
        return shanten_of_keys((k[0], k[1], k[2], k[3]), sets_needed)

    def add(self, tile: Tile, count: int = 1) -> None:
        """Add (or, with a negative count, take away) tiles of one kind."""
        group, weight = tile_group(tile)
        self.keys[group] += weight * count


class ClassicalStrategy:
    """One level's way of playing the classical game."""

    def __init__(self, level: str, rng: random.Random) -> None:
        self.settings = LEVEL_SETTINGS.get(level, LEVEL_SETTINGS["normal"])
        self.rng = rng

    # -- reading the table -------------------------------------------------------------------------------
    @staticmethod
    def unseen(view: SeatView) -> list[int]:
        """Copies of each kind this seat has not seen: not in its rack, not discarded, not in any exposure."""
        counts = list(view.tile_set.counts)
        for tile in view.rack:
            counts[tile] -= 1
        for _, tile in view.public.discards:
            counts[tile] -= 1
        for seat in view.public.seats:
            for exposure in seat.exposures:
                for tile in exposure:
                    counts[tile] -= 1
        return [max(0, n) for n in counts]

    def acceptance(self, keys: Keys, sets_needed: int, unseen: Sequence[int], now: int) -> int:
        """Unseen tiles that would lower a waiting rack's shanten below ``now``."""
        total = 0
        for tile in KINDS[: Tile.WD + 1]:
            if unseen[tile]:
                keys.add(tile)
                if keys.shanten(sets_needed) < now:
                    total += unseen[tile]
                keys.add(tile, -1)
        return total

    # -- decisions ---------------------------------------------------------------------------------------
    def decide(self, view: SeatView) -> Action:
        """One legal action for the seat."""
        legal = view.legal
        for action in legal:
            if isinstance(action, DeclareMahJongg) or (isinstance(action, Call) and action.mahjong):
                return action
        if any(isinstance(a, Draw) for a in legal):
            return next(a for a in legal if isinstance(a, Draw))
        calls = [a for a in legal if isinstance(a, Call)]
        passes = [a for a in legal if isinstance(a, PassCall)]
        if passes or calls:
            return self.answer(view, calls, passes)
        kongs = [a for a in legal if isinstance(a, DeclareKong)]
        kong = self.kong(view, kongs) if kongs else None
        if kong is not None:
            return kong
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return self.discard(view, discards)
        return legal[0]

    def sets_needed(self, view: SeatView) -> int:
        """Sets the seat still has to make (four less its exposures)."""
        return 4 - len(view.exposures)

    def ranked_discards(self, view: SeatView, tiles: Sequence[Tile], rack: Sequence[Tile],
                        sets_needed: int) -> list[tuple[int, tuple[float, ...]]]:
        """(tile, score) for throwing each of ``tiles`` from ``rack``, the best first (lowest score)."""
        unseen = self.unseen(view)
        keys = Keys(rack)
        scored: list[tuple[int, tuple[float, ...]]] = []
        for tile in tiles:
            keys.add(tile, -1)
            after = keys.shanten(sets_needed)
            accept = self.acceptance(keys, sets_needed, unseen, after) if self.settings.acceptance else 0
            keys.add(tile)
            scored.append((tile, (after, -accept, _usefulness(tile, rack))))
        scored.sort(key=lambda item: item[1])
        return scored

    def discard(self, view: SeatView, discards: Sequence[Discard]) -> Action:
        """Throw the tile that leaves the rack closest to Mah Jongg."""
        ranked = self.ranked_discards(view, sorted({a.tile for a in discards}), view.rack, self.sets_needed(view))
        choice = ranked[0][0]
        if self.settings.blunder and self.rng.random() < self.settings.blunder:
            choice = self.rng.choice(ranked[:3])[0]
        return next(a for a in discards if a.tile == choice)

    def answer(self, view: SeatView, calls: Sequence[Call], passes: Sequence[PassCall]) -> Action:
        """Call the discard when the exposure brings the rack closer to Mah Jongg; else pass."""
        tile = view.public.window_tile
        fallback: Action = passes[0] if passes else calls[0]
        if tile is None or not calls:
            return fallback
        needed = self.sets_needed(view)
        keys = Keys(view.rack)
        now = keys.shanten(needed)
        best: tuple[int, Call] | None = None
        for call in calls:
            keys.add(tile)
            for t in (tile, *call.tiles):
                keys.add(t, -1)
            if len(call.tiles) == 3:
                after = keys.shanten(needed - 1)  # a kong: a replacement comes before the discard
                gain = now - after + 1 if after <= now else 0
            else:
                rest = [t for t in view.rack]
                for t in call.tiles:
                    rest.remove(t)
                after = min(_shanten_after_discard(keys, rest, needed - 1), now)
                gain = now - after
            for t in (tile, *call.tiles):
                keys.add(t)
            keys.add(tile, -1)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, call)
        return best[1] if best is not None else fallback

    def kong(self, view: SeatView, kongs: Sequence[DeclareKong]) -> Action | None:
        """Lay down a kong when the rack is no further from Mah Jongg without those tiles (a free draw)."""
        needed = self.sets_needed(view)
        rack = list(view.rack)
        keys = Keys(rack)
        best_now = _shanten_after_discard(keys, rack, needed)
        for kong in kongs:
            held = rack.count(kong.tile)
            keys.add(kong.tile, -held)
            after = keys.shanten(needed - 1 if held == 4 else needed)
            keys.add(kong.tile, held)
            if after <= best_now:
                return kong
        return None


def _shanten_after_discard(keys: Keys, rack: Sequence[Tile], sets_needed: int) -> int:
    """The lowest shanten the rack reaches by throwing one of its tiles."""
    best = 9
    for tile in set(rack):
        keys.add(tile, -1)
        best = min(best, keys.shanten(sets_needed))
        keys.add(tile)
    return best


def _usefulness(tile: Tile, rack: Sequence[Tile]) -> int:
    """Ties between equally good discards: keep tiles with neighbours and middle numbers; throw lone honours and
    terminals first."""
    score = rack.count(tile) * 4
    suit, number = suit_of(tile), number_of(tile)
    if suit is not None and number is not None:
        score += 1 + min(number - 1, 9 - number)
        for near in (-2, -1, 1, 2):
            if 1 <= number + near <= 9 and number_tile(suit, number + near) in rack:
                score += 3 - abs(near)
    return score


def decide(level: str, rng: random.Random, view: SeatView, slip: float | None = None) -> Action:
    """The classical player of ``level``'s move for the seat (``slip``: another chance of a random one of the
    three least useful tiles at a discard)."""
    strategy = ClassicalStrategy(level, rng)
    if slip is not None:
        strategy.settings = replace(strategy.settings, blunder=slip)
    return strategy.decide(view)
