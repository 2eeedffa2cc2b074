"""How the card-reading computer players choose (easy, normal, hard).

Everything rests on one question asked of the card analysis: how good is this rack? A rack's worth is the sum,
over its few best *possible* lines, of the line's value discounted steeply by the tiles it still misses. Each
decision compares the worth of the racks an action leads to:

* passes, courtesy offers and discards give away the tiles the best lines use least;
* a call is made when the rack after the exposure (and the discard that follows) is worth clearly more;
* a joker exchange is made whenever the rack is worth at least as much with the joker;
* Mah Jongg is always declared or called.

``hard`` looks at more lines and more discard candidates, weighs how many copies of a needed tile are still
unseen, and late in the wall refuses to throw a tile that an opponent's exposures say she is waiting for.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.actions import (
    Action,
    Call,
    CharlestonPass,
    CharlestonVote,
    CourtesyOffer,
    DeclareMahJongg,
    Discard,
    Draw,
    ExchangeJoker,
    Hold,
    PassCall,
)
from bot.engine.analysis import LineAnalysis, analyze
from bot.engine.matching import exposure_verdict
from bot.engine.state import Phase
from bot.engine.tiles import NUM_KINDS, Tile
from bot.engine.views import SeatView


@dataclass(frozen=True, slots=True)
class Settings:
    lines: int  # how many of the best lines count towards a rack's worth
    discard_candidates: int  # how many discards are evaluated with a full analysis
    call_margin: float  # a call must raise the rack's worth by this factor
    stop_at: int  # vote to stop the Charleston when the best line misses this many or fewer
    defend_below: int  # defend when the wall holds this many tiles or fewer (0: never)
    live_counts: bool  # weigh lines by the unseen copies of the tiles they need
    blunder: float  # chance of a random discard among the three least useful tiles


SECONDARY = 0.35  # weight of every line after the best one: keeps options open without losing focus

LEVEL_SETTINGS = {
    "easy": Settings(lines=2, discard_candidates=1, call_margin=1.6, stop_at=3, defend_below=0, live_counts=False,
                     blunder=0.25),
    "normal": Settings(lines=4, discard_candidates=3, call_margin=1.0, stop_at=2, defend_below=0, live_counts=True,
                       blunder=0.0),
    "hard": Settings(lines=6, discard_candidates=5, call_margin=1.1, stop_at=4, defend_below=36, live_counts=True,
                     blunder=0.0),
}


class Strategy:
    def __init__(self, level: str, rng: random.Random) -> None:
        self.settings = LEVEL_SETTINGS[level]
        self.level = level
        self.rng = rng

    # -- the rack's worth ----------------------------------------------------------------------------------
    def lines(self, view: SeatView, rack: Sequence[int], exposures: Sequence[Sequence[int]],
              visible: Sequence[int] | None = None) -> list[LineAnalysis]:
        seen = view.visible_elsewhere() if visible is None else visible
        ranked = analyze(view.card, rack, exposures, seen, view.tile_set)
        return [a for a in ranked[: self.settings.lines * 2] if a.possible][: self.settings.lines]

    def worth(self, view: SeatView, lines: list[LineAnalysis], unseen: Sequence[int] | None = None) -> float:
        total = 0.0
        for n, line in enumerate(lines):
            weight = line.line.value * (0.25 ** line.missing) * (1.0 if n == 0 else SECONDARY)
            if unseen is not None and line.missing:
                short = Counter(line.need)
                for tile, count in short.items():
                    if unseen[tile] < count:
                        weight *= 0.4  # needs more copies than are out there: only jokers can fill it
                    elif unseen[tile] <= count + 1:
                        weight *= 0.8
            total += weight
        return total

    def rack_worth(self, view: SeatView, rack: Sequence[int], exposures: Sequence[Sequence[int]],
                   visible: Sequence[int] | None = None) -> float:
        lines = self.lines(view, rack, exposures, visible)
        return self.worth(view, lines, self.unseen(view) if self.settings.live_counts else None)

    def unseen(self, view: SeatView) -> list[int]:
        """Copies of each kind this seat has not seen anywhere (the wall and other racks hold them)."""
        counts = view.tile_set.counts
        seen = Counter([*view.visible_elsewhere(), *view.rack, *(t for e in view.exposures for t in e)])
        return [max(0, counts[k] - seen[k]) for k in range(NUM_KINDS)]

    def usefulness(self, view: SeatView, rack: Sequence[int], lines: list[LineAnalysis]) -> dict[int, float]:
        """Per kind in the rack: how much the best lines use one copy of it."""
        have = Counter(rack)
        use: dict[int, float] = {kind: 0.0 for kind in have}
        for n, line in enumerate(lines):
            weight = line.line.value * (0.25 ** line.missing) * (1.0 if n == 0 else SECONDARY)
            spare = Counter(line.spare)
            for kind, count in have.items():
                use[kind] += weight * (count - spare[kind]) / count
        wild = view.card.wild
        if wild is not None and wild in use:
            use[wild] = float("inf")  # keep wild tiles: they can only help
        return use

    # -- decisions ---------------------------------------------------------------------------------------
    def decide(self, view: SeatView) -> Action:
        legal = view.legal
        for action in legal:
            if isinstance(action, DeclareMahJongg) or (isinstance(action, Call) and action.mahjong):
                return action
        phase = view.public.phase
        if phase == Phase.CHARLESTON:
            return self.charleston_pass(view)
        if phase == Phase.CHARLESTON_VOTE:
            return self.vote(view)
        if phase == Phase.COURTESY:
            return self.courtesy(view)
        if phase == Phase.CALL_WINDOW:
            return self.answer_discard(view)
        if any(isinstance(a, Draw) for a in legal):
            return next(a for a in legal if isinstance(a, Draw))
        exchange = self.joker_exchange(view)
        if exchange is not None:
            return exchange
        return self.discard(view)

    def charleston_pass(self, view: SeatView) -> Action:
        rack = list(view.rack)
        lines = self.lines(view, rack, [])
        use = self.usefulness(view, rack, lines)
        order = self.giveaway_order(rack, use)
        blind_allowed = view.public.blind_allowed and self.level != "easy"
        give: list[int] = []
        blind = 0
        best_use = max((u for k, u in use.items() if u != float("inf")), default=0.0)
        for tile in order[:3]:
            # Rather than break up the best line, forward a received tile unseen (CH5).
            if blind_allowed and best_use and use[tile] >= 0.5 * best_use:
                blind += 1
            else:
                give.append(tile)
        if len(give) + blind < 3:
            blind = 3 - len(give) if blind_allowed else 0
            give = order[: 3 - blind]
        action = CharlestonPass(view.seat, tuple(give), blind)
        return action if action in view.legal else CharlestonPass(view.seat, tuple(order[:3]), 0)

    def giveaway_order(self, rack: Sequence[int], use: dict[int, float]) -> list[int]:
        """Passable tiles, least useful first, one entry per copy."""
        tiles = [t for t in rack if t not in (Tile.J, Tile.BL)]
        jitter = {kind: self.rng.random() * 1e-9 for kind in set(tiles)}
        return sorted(tiles, key=lambda t: (use[t] + jitter[t], t))

    def vote(self, view: SeatView) -> Action:
        lines = self.lines(view, list(view.rack), [])
        stop = bool(lines) and lines[0].missing <= self.settings.stop_at
        if self.level == "easy":
            stop = self.rng.random() < 0.5
        return CharlestonVote(view.seat, stop)

    def courtesy(self, view: SeatView) -> Action:
        rack = list(view.rack)
        lines = self.lines(view, rack, [])
        use = self.usefulness(view, rack, lines)
        best = max((u for u in use.values() if u != float("inf")), default=0.0)
        offer = [t for t in self.giveaway_order(rack, use) if use[t] <= 0.05 * best][:3]
        return CourtesyOffer(view.seat, tuple(offer))

    def discard(self, view: SeatView) -> Action:
        rack = list(view.rack)
        exposures = [list(e) for e in view.exposures]
        discardable = {a.tile: a for a in view.legal if isinstance(a, Discard)}
        lines = self.lines(view, rack, exposures)
        use = self.usefulness(view, rack, lines)
        candidates = sorted(discardable, key=lambda t: (use.get(t, 0.0), t))
        if self.settings.blunder and self.rng.random() < self.settings.blunder:
            return discardable[self.rng.choice(candidates[:3])]
        shortlist = candidates[: self.settings.discard_candidates]
        danger = self.danger(view) if self.settings.defend_below else {}
        if len(shortlist) == 1 and not danger:
            return discardable[shortlist[0]]
        best_tile, best_score = shortlist[0], float("-inf")
        for tile in shortlist:
            after = list(rack)
            after.remove(tile)
            score = self.rack_worth(view, after, exposures) * (1.0 - danger.get(tile, 0.0))
            if score > best_score:
                best_tile, best_score = tile, score
        return discardable[best_tile]

    def danger(self, view: SeatView) -> dict[int, float]:
        """Late in the wall: how likely each tile completes an opponent's hand, read from her exposures."""
        if view.public.wall > self.settings.defend_below:
            return {}
        risk: dict[int, float] = {}
        for other in view.public.seats:
            if other.seat == view.seat or other.dead or other.empty or not other.exposures:
                continue
            exposures = [list(e) for e in other.exposures]
            verdict = exposure_verdict(view.card, exposures[-1], exposures[:-1])
            if not verdict.lines:
                continue
            wanted: Counter[int] = Counter()
            for line in verdict.lines:
                kinds = {t for v in line.variants for t, _ in v.groups}
                wanted.update(kinds)
            for tile, count in wanted.items():
                share = count / len(verdict.lines) * min(1.0, len(exposures) / 3)
                risk[tile] = max(risk.get(tile, 0.0), 0.9 * share)
        return risk

    def joker_exchange(self, view: SeatView) -> Action | None:
        exchanges = [a for a in view.legal if isinstance(a, ExchangeJoker)]
        if not exchanges:
            return None
        rack = list(view.rack)
        exposures = [list(e) for e in view.exposures]
        before = self.rack_worth(view, rack, exposures)
        for action in exchanges:
            after = list(rack)
            after.remove(action.tile)
            after.append(Tile.J)
            mine = [list(e) for e in exposures]
            if action.owner == view.seat:
                group = mine[action.exposure]
                group[group.index(Tile.J)] = action.tile
            if self.rack_worth(view, after, mine) >= before:
                return action
        return None

    def answer_discard(self, view: SeatView) -> Action:
        calls = [a for a in view.legal if isinstance(a, Call) and not a.mahjong]
        pass_action = next((a for a in view.legal if isinstance(a, PassCall)), None)
        fallback = pass_action or next(a for a in view.legal if isinstance(a, Hold))
        tile = view.public.window_tile
        if not calls or tile is None:
            return fallback
        rack = list(view.rack)
        exposures = [list(e) for e in view.exposures]
        lines = self.lines(view, rack, exposures)
        if not lines or all(tile not in line.need for line in lines):
            return fallback
        now = self.worth(view, lines, self.unseen(view) if self.settings.live_counts else None)
        best_call, best_score = None, now * self.settings.call_margin
        visible = view.visible_elsewhere()
        visible.remove(tile)  # the discard would sit in the exposure, not in the pool
        for call in calls:
            after = list(rack)
            for t in call.tiles:
                after.remove(t)
            exposed = [*exposures, [tile, *call.tiles]]
            after_lines = self.lines(view, after, exposed, visible)
            if not after_lines:
                continue
            use = self.usefulness(view, after, after_lines)
            if not use:
                continue
            worst = min(use, key=lambda t: (use[t], t))
            after.remove(worst)
            score = self.rack_worth(view, after, exposed, visible)
            if score > best_score:
                best_call, best_score = call, score
        return best_call or fallback
