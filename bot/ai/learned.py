"""The learned player: the card-reading measure proposes, a model fitted on self-play chooses.

At every decision the player lists its candidate choices, works out the rack each one leads to, reads that
rack's line features (:mod:`bot.ai.features`) and scores it with the model of that kind of decision
(:mod:`bot.ai.model`); it plays the best-scored candidate (ties: the one listed first, which is the one
``normal``'s measure prefers). The candidates:

* a Charleston pass: every three of the five tiles ``normal``'s measure misses least, and on a blind step
  passing two, one or none of its own with the rest forwarded blind;
* the courtesy offer: none, one, two or three of those tiles;
* the stop vote: stop or go on;
* a call: passing, or each way of calling (each scored on the rack after the exposure and its best discard);
* a joker exchange: none, or each exchange (each scored on the rack after it and its best discard);
* a discard: every tile it may throw.

Mah Jongg is always taken. With an :class:`Exploration` (training only), a decision is now and then picked at
random among the best few candidates, and every decision is reported to a recorder: that randomness is what
lets training tell a choice's effect on the game's chips from the luck of the deal. The player sees only its
seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from bot.engine.actions import (
    Action,
    Call,
    CharlestonPass,
    CharlestonVote,
    CourtesyOffer,
    Discard,
    ExchangeJoker,
)
from bot.engine.tiles import Tile
from bot.engine.views import SeatView

from .features import line_features, near_variants, rack_features, value_scale
from .model import NORMAL_WORTH, Model, inputs, load_model
from .outlook import FloatArray
from .strategy import INF, CallQuestion, Settings, Strategy, leaves_a_discard, traps

# The measure the features are read with: normal's horizon and calls, plain chances (value weight 0), six lines
# worked out, and the late-wall danger read from 60 wall tiles left.
LEARNED_SETTINGS = Settings(lines=6, secondary=0.35, value_weight=0.0, within=0.2, horizon=0.6, call_share=0.15,
                            call_margin=1.0, blind_loss=0.15, stop_worth=INF, blunder=0.0, jokerless=False,
                            defend_below=60)
POOL = 5  # a pass is chosen among the threes of this many least-missed tiles
DEALT = 53  # tiles in the racks after the deal (13 each, East 14): the wall at the first draw is the rest


@dataclass(frozen=True, slots=True)
class Exploration:
    """Training only: how often a decision is picked at random, and among how many of the best candidates."""

    epsilon: float
    top: int = 3
    vote: float = 0.5  # the stop vote is explored this often (stop or go, evenly)


# A recorder is told of each decision: its group, the inputs of the best few candidates as ranked (best
# first), the position chosen among them, and whether the choice was random.
Recorder = Callable[[str, FloatArray, int, bool], None]


class LearnedStrategy(Strategy):
    """The model's choice among the candidates the card-reading measure lists."""

    def __init__(self, rng: random.Random, model: Model | None = None, explore: Exploration | None = None,
                 recorder: Recorder | None = None) -> None:
        super().__init__("normal", rng)
        self.level = "learned"
        self.settings = LEARNED_SETTINGS
        self.model = model if model is not None else load_model()
        self.explore = explore
        self.recorder = recorder
        self.weights: dict[str, FloatArray] = {}
        self.slip_chance = 0.0

    def slip(self, chance: float) -> None:
        """Throw a random one of the three best-scored tiles at this share of discards (a deliberate weakness)."""
        self.slip_chance = chance

    # -- choosing --------------------------------------------------------------------------------------------
    def choose(self, group: str, rows: FloatArray) -> int:
        """The candidate (row of inputs) to play: the best-scored, or in training now and then a random one of
        the best few."""
        scores = rows @ self.weights[group]
        order = sorted(range(len(scores)), key=lambda n: (-round(float(scores[n]), 9), n))
        pick = 0
        explored = False
        if self.explore is not None and len(order) > 1:
            chance = self.explore.vote if group == "vote" else self.explore.epsilon
            if self.rng.random() < chance:
                pick = self.rng.randrange(min(self.explore.top, len(order)))
                explored = True
        if self.recorder is not None:
            top = order[:self.explore.top if self.explore is not None else 3]
            self.recorder(group, rows[top], pick, explored)
        return order[pick]

    def wall_share(self, view: SeatView) -> float:
        """The share of the wall still to draw (1 at the first draw)."""
        return min(1.0, view.public.wall / max(1, sum(view.tile_set.counts) - DEALT))

    def features(self, view: SeatView, rack: Sequence[Tile], exposures: Sequence[Sequence[Tile]],
                 unseen: Sequence[int]) -> FloatArray:
        """One rack's line features."""
        outlook = self.outlook(view, rack, exposures, unseen)
        return rack_features(self.tables(view), outlook.log_chance, self.settings.lines, value_scale(view.card))

    def discard_rows(self, view: SeatView, rack: Sequence[Tile], exposures: Sequence[Sequence[Tile]],
                     unseen: Sequence[int], risk: FloatArray | None) -> tuple[list[Tile], FloatArray]:
        """The tiles this rack may throw and the ``play`` inputs of the rack after each."""
        wild = view.card.wild
        kinds = sorted({t for t in rack if view.rules.discard_flowers or t != wild})
        kinds = [k for k in kinds if leaves_a_discard(view, rack, k)] or kinds
        outlook = self.outlook(view, rack, exposures, unseen)
        after, keep = outlook.after_removal(kinds, wild, self.settings.lines)
        x = line_features(self.tables(view), after, keep, value_scale(view.card))
        danger = risk[kinds] if risk is not None else 0.0
        return kinds, inputs("play", x, wall=self.wall_share(view), risk=danger, exposed=len(exposures))

    def best_row(self, view: SeatView, rack: Sequence[Tile], exposures: Sequence[Sequence[Tile]],
                 unseen: Sequence[int], risk: FloatArray | None) -> FloatArray:
        """The ``play`` inputs of this 14-tile rack after its best-scored discard."""
        _, rows = self.discard_rows(view, rack, exposures, unseen, risk)
        scores = rows @ self.weights["play"]
        best: FloatArray = rows[int(np.argmax(scores))]
        return best

    def leads_to(self, view: SeatView, rack: Sequence[Tile], exposures: Sequence[Sequence[Tile]],
                 unseen: Sequence[int], risk: FloatArray | None) -> FloatArray | None:
        """:meth:`best_row` for a call's or an exchange's rack, or None when that rack could be left with nothing
        it may throw (see :func:`~bot.ai.strategy.leaves_a_discard`)."""
        if traps(view, rack):
            return None
        return self.best_row(view, rack, exposures, unseen, risk)

    # -- decisions ---------------------------------------------------------------------------------------
    def prepare(self, view: SeatView) -> None:
        """Take the model's weights for the view's rules (each decision is then the model's choice)."""
        self.weights = self.model.for_preset(view.rules.preset)

    def pass_pool(self, view: SeatView, rack: Sequence[Tile], unseen: Sequence[int]) -> list[Tile]:
        """Up to :data:`POOL` passable tiles, the one ``normal``'s measure misses least first."""
        wild = view.card.wild
        kinds = sorted({t for t in rack if t not in (Tile.J, Tile.BL) and t != wild})
        if not kinds:
            return []
        outlook = self.outlook(view, rack, [], unseen)
        after, keep = outlook.after_removal(kinds, wild, self.settings.lines)
        loss = line_features(self.tables(view), after, keep, value_scale(view.card))[:, NORMAL_WORTH]
        pool: list[Tile] = []
        for n in sorted(range(len(kinds)), key=lambda n: (-round(float(loss[n]), 9), kinds[n])):
            pool.extend([kinds[n]] * min(3, rack.count(kinds[n])))
        return pool[:POOL]

    def pass_rows(self, view: SeatView, options: Sequence[tuple[Tile, ...]], unseen: Sequence[int]) -> FloatArray:
        """The ``charleston`` inputs of the rack kept after giving away each option's tiles."""
        chances = []
        for tiles in options:
            kept = list(view.rack)
            for t in tiles:
                kept.remove(t)
            chances.append(self.outlook(view, kept, [], unseen).log_chance)
        # All options are read over the same variants: those that matter to any of them.
        tables = self.tables(view)
        keep = np.unique(np.concatenate([near_variants(tables, c, self.settings.lines) for c in chances]))
        x = line_features(tables, np.array(chances)[:, keep], keep, value_scale(view.card))
        incoming = np.array([len(t) / 3 for t in options])
        return inputs("charleston", x, incoming=incoming)

    def charleston_pass(self, view: SeatView) -> Action:
        """The pass whose kept rack scores best (blind passes among them on a blind step)."""
        unseen = self.unseen(view)
        pool = self.pass_pool(view, list(view.rack), unseen)
        options: list[tuple[tuple[Tile, ...], int]] = []
        for three in combinations(pool, 3):
            if (three, 0) not in options:
                options.append((three, 0))
        if view.public.blind_allowed:
            options += [(tuple(pool[:own]), 3 - own) for own in (2, 1, 0)]
        allowed = {(tuple(sorted(a.tiles)), a.blind) for a in view.legal if isinstance(a, CharlestonPass)}
        legal = [(tiles, blind) for tiles, blind in options if (tuple(sorted(tiles)), blind) in allowed]
        if not legal:
            return next(a for a in view.legal if isinstance(a, CharlestonPass))
        pick = self.choose("charleston", self.pass_rows(view, [t for t, _ in legal], unseen))
        tiles, blind = legal[pick]
        return CharlestonPass(view.seat, tiles, blind)

    def courtesy(self, view: SeatView) -> Action:
        """Offer none to three of the least-missed tiles, whichever kept rack scores best."""
        unseen = self.unseen(view)
        pool = self.pass_pool(view, list(view.rack), unseen)
        options = [tuple(pool[:k]) for k in range(min(3, len(pool)) + 1)]
        legal = [o for o in options if CourtesyOffer(view.seat, o) in view.legal] or [()]
        return CourtesyOffer(view.seat, legal[self.choose("charleston", self.pass_rows(view, legal, unseen))])

    def vote(self, view: SeatView) -> Action:
        """Stop the second Charleston when the model scores stopping above going on (which scores 0)."""
        x = self.features(view, list(view.rack), [], self.unseen(view))
        stop = inputs("vote", x)
        rows = np.vstack([np.zeros_like(stop), stop])
        return CharlestonVote(view.seat, self.choose("vote", rows) == 1)

    def discard(self, view: SeatView) -> Action:
        """The discard whose rack after it scores best."""
        discardable = {a.tile: a for a in view.legal if isinstance(a, Discard)}
        rack = list(view.rack)
        kinds, rows = self.discard_rows(view, rack, [list(e) for e in view.exposures], self.unseen(view),
                                        self.danger(view))
        allowed = [n for n, k in enumerate(kinds) if k in discardable]
        if not allowed:
            return next(iter(discardable.values()))
        if self.slip_chance and self.rng.random() < self.slip_chance:
            scores = rows[allowed] @ self.weights["play"]
            order = sorted(range(len(allowed)), key=lambda n: (-round(float(scores[n]), 9), n))
            return discardable[kinds[allowed[self.rng.choice(order[:3])]]]
        pick = self.choose("play", rows[allowed])
        return discardable[kinds[allowed[pick]]]

    def joker_exchange(self, view: SeatView) -> Action | None:
        """A joker exchange when the rack after it (and its best discard) scores best; else None."""
        exchanges = [a for a in view.legal if isinstance(a, ExchangeJoker)]
        if not exchanges:
            return None
        rack = list(view.rack)
        exposures = [list(e) for e in view.exposures]
        unseen = self.unseen(view)
        risk = self.danger(view)
        rows = [self.best_row(view, rack, exposures, unseen, risk)]
        wild = view.card.wild if view.card.wild is not None else Tile.J
        options: list[ExchangeJoker | None] = [None]
        for action in exchanges:
            after = list(rack)
            after.remove(action.tile)
            after.append(wild)
            mine = [list(e) for e in exposures]
            if action.owner == view.seat:
                group = mine[action.exposure]
                group[group.index(wild)] = action.tile
            row = self.leads_to(view, after, mine, unseen, risk)
            if row is not None:
                rows.append(row)
                options.append(action)
        if len(options) == 1:
            return None
        return options[self.choose("play", np.array(rows))]

    def answer_discard(self, view: SeatView) -> Action:
        """Call when the rack after the exposure and its best discard scores above the rack as it is."""
        question = self.call_question(view)
        if not isinstance(question, CallQuestion):
            return question
        x = self.features(view, question.rack, question.exposures, question.unseen)
        rows = [inputs("play", x, wall=self.wall_share(view), exposed=len(question.exposures))[0]]
        risk = self.danger(view)
        options: list[Call | None] = [None]
        for call in question.calls:
            after, exposed = question.after(call)
            row = self.leads_to(view, after, exposed, question.unseen, risk)
            if row is not None:
                rows.append(row)
                options.append(call)
        choice = options[self.choose("play", np.array(rows))] if len(options) > 1 else None
        return choice or question.fallback
