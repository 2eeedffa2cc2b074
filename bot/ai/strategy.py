"""How the card-reading computer players choose (easy, normal, hard).

Everything rests on one question: how good is this rack? :mod:`bot.ai.outlook` estimates, for every variant of
the card, the chance of completing it from the tiles still unseen (singles and pairs only from draws, big groups
also from jokers and, on X lines, from calls). A rack's *worth* is the chance of its best line plus a share of
the next few lines' (options matter early; late in the wall the far lines' chances fall to nothing by
themselves, so the best line takes over). Each decision compares the worth of the racks an action leads to:

* a discard, pass or courtesy offer gives away the tile whose loss costs the least worth (ties: the tile the
  rest of the card has least use for);
* a call is made when the rack after the exposure (and the discard that follows) is worth more than now;
* a joker exchange is made whenever the rack is worth at least as much with the joker;
* Mah Jongg is always declared or called.

The levels differ only in their :class:`Settings`. ``normal`` reads the card plainly: its two best lines, each by
its best variant, and every draw left in the wall counted as its own. ``hard`` plays the race: it weighs six
lines and the other variants of each (a line made in another suit is a real way out), and counts on only part of
the wall and fewer calls, since another player usually goes out well before the wall runs dry (these figures
come from self-play; they made the hand-building markedly faster). ``easy`` looks at less and now and then
throws a tile that is not the best.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

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
from bot.engine.matching import exposure_group
from bot.engine.notation import counts_of
from bot.engine.pattern import Group
from bot.engine.queries import tiles_in_sight
from bot.engine.state import Phase
from bot.engine.tiles import NUM_KINDS, Tile
from bot.engine.views import SeatView

from .outlook import CardTables, Chances, FloatArray, IntArray, Outlook, card_tables, worth


@dataclass(frozen=True, slots=True)
class Settings:
    """What sets the levels apart: how a rack's worth is read and how boldly the player acts on it."""
    lines: int  # how many of the best lines count towards a rack's worth
    secondary: float  # weight of every line after the best one
    value_weight: float  # how much a line's value counts next to its chance (as an exponent)
    within: float  # weight of a line's other variants (other suits, other numbers) next to its best one
    horizon: float  # share of the wall's remaining draws a hand can count on (others may win first)
    call_share: float  # share of the other players' discards that a seat can hope to call
    call_margin: float  # a call must raise the rack's worth by this factor
    blind_loss: float  # in a blind-pass step, pass blind rather than lose more than this share of the worth
    stop_worth: float  # vote to stop the Charleston when the rack is worth this much (inf: always go on). The
    # second Charleston helps every rack, so a seat already well placed gains by denying it to the others.
    blunder: float  # chance of a random discard among the three least useful tiles
    jokerless: bool  # count a line made without jokers at its doubled value (where the rules pay it: SC3)
    defend_below: int  # with this many wall tiles left or fewer, weigh each discard's risk of a Mah Jongg (0: never)


CALL_REACH = 4.0  # a call is weighed only for variants within this much (log chance) of the best one
INF = float("inf")

LEVEL_SETTINGS = {
    "easy": Settings(lines=2, secondary=0.35, value_weight=0.5, within=0.0, horizon=1.0, call_share=0.1,
                     call_margin=1.5, blind_loss=1.0, stop_worth=INF, blunder=0.25, jokerless=False, defend_below=0),
    "normal": Settings(lines=4, secondary=0.35, value_weight=0.3, within=0.2, horizon=0.6, call_share=0.15,
                       call_margin=1.0, blind_loss=0.15, stop_worth=INF, blunder=0.0, jokerless=False,
                       defend_below=0),
    "hard": Settings(lines=6, secondary=0.35, value_weight=0.6, within=0.2, horizon=0.75, call_share=0.15,
                     call_margin=1.0, blind_loss=0.15, stop_worth=0.3, blunder=0.0, jokerless=True,
                     defend_below=40),
}

# Rules under which hard plays with normal's settings: hard's were tuned on the practice card and NMJL rules, and
# measured weaker than normal under the 1946 rules (docs/computer-players.md, "The 1946 rules").
NORMAL_HARD_PRESETS = frozenset({"nmjl-1946"})

# How likely an opponent is to be one tile from Mah Jongg, by how many groups she has exposed (late in the
# wall). Rough figures: a seat with three exposures usually has only a pair or a single left to make.
READY_BY_EXPOSURES = (0.0, 0.08, 0.2, 0.45, 0.6)


@dataclass(frozen=True)
class CallQuestion:
    """A call window worth weighing: the calls on offer, the answer if none is made, the tile, and the seat's
    rack, exposures, unseen tiles and the rack's worth as it is."""

    calls: list[Call]
    fallback: Action
    tile: Tile
    rack: list[Tile]
    exposures: list[list[Tile]]
    unseen: list[int]
    now: float

    def after(self, call: Call) -> tuple[list[Tile], list[list[Tile]]]:
        """The rack and the exposures once ``call`` is made."""
        rack = list(self.rack)
        for tile in call.tiles:
            rack.remove(tile)
        return rack, [*self.exposures, [self.tile, *call.tiles]]


class Strategy:
    """The card-reading player's decisions, with one level's settings."""

    def __init__(self, level: str, rng: random.Random) -> None:
        self.settings = LEVEL_SETTINGS[level]
        self.level = level
        self.rng = rng
        self._holding: dict[tuple[tuple[int, int], ...], np.ndarray | None] = {}
        self._call_cache: tuple[object, set[int], float] | None = None

    def slip(self, chance: float) -> None:
        """Throw a random one of the three least useful tiles at this share of discards (a deliberate weakness)."""
        self.settings = replace(self.settings, blunder=chance)

    # -- reading the table ---------------------------------------------------------------------------------
    def unseen(self, view: SeatView) -> list[int]:
        """Copies of each kind this seat has not seen: not in its rack or exposures, not discarded, not in
        another seat's exposures. They are in the wall or in the other racks."""
        on_table = tiles_in_sight(view.public.discards, [other.exposures for other in view.public.seats])
        seen = counts_of([*view.rack, *on_table])
        counts = view.tile_set.counts
        return [max(0, counts[k] - seen[k]) for k in range(NUM_KINDS)]

    def chances(self, view: SeatView, unseen: Sequence[int]) -> Chances:
        """The chance one unseen tile reaches this seat: by its own draws (the wall shared among the live
        seats) or, for a big group on an X line, also by calling another player's discard."""
        public = view.public
        live = sum(1 for s in public.seats if not s.dead and not s.empty) or 1
        pool = max(1, sum(unseen))
        draws = self.settings.horizon * public.wall / live
        draw = min(0.95, draws / pool)
        call = self.settings.call_share * (live - 1) * draws / pool
        return Chances(draw, min(0.95 - draw, call))

    def holding(self, view: SeatView, groups: tuple[Group, ...]) -> np.ndarray | None:
        """Which variants can hold these exposed groups (None when there are none)."""
        if not groups:
            return None
        if groups not in self._holding:
            index = view.card.index
            self._holding[groups] = index.mask_to_bool(index.holding(groups))
        return self._holding[groups]

    def outlook(self, view: SeatView, rack: Sequence[Tile], exposures: Sequence[Sequence[Tile]],
                unseen: Sequence[int] | None = None) -> Outlook:
        """This rack and these exposures measured against every variant of the card."""
        unseen = self.unseen(view) if unseen is None else unseen
        wild = view.card.wild
        naturals = [0] * NUM_KINDS
        for tile in rack:
            naturals[tile] += 1
        jokers = 0
        if wild is not None:
            jokers, naturals[wild] = naturals[wild], 0
        groups = tuple(sorted(exposure_group(e, wild) for e in exposures))
        exposed = [0] * NUM_KINDS
        for tile, size in groups:
            exposed[tile] += size
        unseen_naturals = list(unseen)
        unseen_jokers = 0
        if wild is not None:
            unseen_jokers, unseen_naturals[wild] = unseen_naturals[wild], 0
        value_weight = self.settings.value_weight
        # Only where the rules pay double for a jokerless hand (SC3; the 1946 rules do not).
        jokerless = (self.settings.jokerless and view.rules.winner_pays_double_rules
                     and not any(wild in e for e in exposures))
        return Outlook(self.tables(view), naturals, jokers, exposed, self.holding(view, groups), unseen_naturals,
                       unseen_jokers, self.chances(view, unseen), value_weight,
                       jokerless_bonus=value_weight * math.log(2) if jokerless else 0.0)

    def tables(self, view: SeatView) -> CardTables:
        """The card's variants as arrays (built once per card)."""
        return card_tables(view.card)

    def worth(self, view: SeatView, log_chance: FloatArray, keep: IntArray | None = None) -> FloatArray:
        """A rack's worth from its variants' chances, by this level's settings."""
        settings = self.settings
        return worth(self.tables(view), log_chance, settings.lines, settings.secondary, settings.within, keep)

    def removal_worths(self, view: SeatView, outlook: Outlook, kinds: Sequence[Tile]) -> list[float]:
        """The rack's worth after giving away one tile of each kind in ``kinds`` (the wild kind allowed)."""
        after, keep = outlook.after_removal(kinds, view.card.wild, self.settings.lines)
        return [float(w) for w in self.worth(view, after, keep)]

    def ranked_removals(self, view: SeatView, outlook: Outlook, kinds: Sequence[Tile],
                        risk: FloatArray | None = None) -> list[tuple[Tile, float]]:
        """``(kind, worth after giving one away)``, the best to give away first. Equal worths (tiles none of the
        best lines use) are told apart by what the other lines of the card would lose: in the Charleston above
        all, this keeps the tiles that may still grow into something. ``risk`` (per kind: the chance a discard of
        it hands an opponent Mah Jongg) scales each worth by the chance the game goes on."""
        worths = self.removal_worths(view, outlook, kinds)
        if risk is not None:
            worths = [w * (1.0 - float(risk[k])) for w, k in zip(worths, kinds, strict=True)]
        top = max(worths) or 1.0
        rounded = [round(w / top, 9) for w in worths]
        # The usage only tells equal worths apart: worked out only when some are equal.
        usage = outlook.usage() if len(set(rounded)) < len(rounded) else np.zeros(NUM_KINDS + 1)
        order = sorted(range(len(kinds)), key=lambda n: (-rounded[n], usage[kinds[n]], kinds[n]))
        return [(kinds[n], worths[n]) for n in order]

    def best_discard_worth(self, view: SeatView, rack: Sequence[Tile], exposures: Sequence[Sequence[Tile]],
                           unseen: Sequence[int]) -> float:
        """A 14-tile rack's worth after its best discard."""
        outlook = self.outlook(view, rack, exposures, unseen)
        kinds = sorted(set(rack))
        return max(self.removal_worths(view, outlook, kinds))

    # -- decisions ---------------------------------------------------------------------------------------
    def prepare(self, view: SeatView) -> None:
        """Set up for a decision under the view's rules (hard's settings give way to normal's under some)."""
        if self.level == "hard" and view.rules.preset in NORMAL_HARD_PRESETS:
            self.settings = replace(LEVEL_SETTINGS["normal"], blunder=self.settings.blunder)

    def decide(self, view: SeatView) -> Action:
        """One of the seat's legal actions: Mah Jongg whenever offered, else by the phase."""
        self.prepare(view)
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
        if not any(isinstance(a, Discard) for a in legal):
            return self.answer_discard(view)  # a claim on a discard outside the window (1946)
        exchange = self.joker_exchange(view)
        if exchange is not None:
            return exchange
        return self.discard(view)

    def give_away(self, view: SeatView, rack: list[Tile], count: int, max_loss: float) -> list[Tile]:
        """Up to ``count`` passable tiles, one at a time, each the one whose loss costs the least worth; stops
        early when the next one would cost more than ``max_loss`` of the worth."""
        unseen = self.unseen(view)
        rack = list(rack)
        given: list[Tile] = []
        for _ in range(count):
            kinds = sorted({t for t in rack if t not in (Tile.J, Tile.BL) and t != view.card.wild})
            if not kinds:
                break
            outlook = self.outlook(view, rack, [], unseen)
            now = float(self.worth(view, outlook.log_chance))
            kind, after = self.ranked_removals(view, outlook, kinds)[0]
            if now > 0 and now - after > max_loss * now:
                break
            given.append(kind)
            rack.remove(kind)
        return given

    def charleston_pass(self, view: SeatView) -> Action:
        """The three tiles the rack misses least (some passed blind on a blind step when that costs less)."""
        # On a blind step, rather than give away a tile the rack needs, forward a received tile unseen (CH5).
        blind_allowed = view.public.blind_allowed and self.settings.blind_loss < 1.0
        max_loss = self.settings.blind_loss if blind_allowed else float("inf")
        give = self.give_away(view, list(view.rack), 3, max_loss)
        action = CharlestonPass(view.seat, tuple(give), 3 - len(give))
        if any(_same_pass(action, a) for a in view.legal):
            return action
        return next(a for a in view.legal if isinstance(a, CharlestonPass))

    def vote(self, view: SeatView) -> Action:
        """Whether to stop after the first Charleston."""
        if self.level == "easy":
            return CharlestonVote(view.seat, self.rng.random() < 0.5)
        outlook = self.outlook(view, list(view.rack), [])
        return CharlestonVote(view.seat, float(self.worth(view, outlook.log_chance)) >= self.settings.stop_worth)

    def courtesy(self, view: SeatView) -> Action:
        """Up to three tiles the rack has (almost) no use for."""
        # A tile that adds (almost) nothing is better swapped for an unknown one, which may help.
        offer = self.give_away(view, list(view.rack), 3, 0.02)
        return CourtesyOffer(view.seat, tuple(offer))

    def discard(self, view: SeatView) -> Action:
        """The tile whose loss costs the rack the least worth (late in the wall, its risk counted)."""
        rack = list(view.rack)
        exposures = [list(e) for e in view.exposures]
        discardable = {a.tile: a for a in view.legal if isinstance(a, Discard)}
        kinds = [k for k in sorted(discardable) if leaves_a_discard(view, rack, k)] or sorted(discardable)
        outlook = self.outlook(view, rack, exposures)
        if self.settings.blunder and self.rng.random() < self.settings.blunder:
            ranked = self.ranked_removals(view, outlook, kinds)
            return discardable[self.rng.choice(ranked[:3])[0]]
        return discardable[self.ranked_removals(view, outlook, kinds, self.danger(view))[0][0]]

    def danger(self, view: SeatView) -> FloatArray | None:
        """Late in the wall, per kind: the chance that discarding it hands an opponent her Mah Jongg, read from
        her exposures (None when not defending). The variants that can hold her exposures, and that she can
        still make from what this seat has not seen, say what her concealed tiles may still need; how many
        groups she has out says how likely she is to be one tile away."""
        public = view.public
        if not self.settings.defend_below or public.wall > self.settings.defend_below:
            return None
        tables = self.tables(view)
        wild = view.card.wild
        unseen = np.asarray(self.unseen(view), dtype=np.int64)
        safe = np.ones(NUM_KINDS)
        for other in public.seats:
            if other.seat == view.seat or other.dead or other.empty or not other.exposures:
                continue
            groups = tuple(sorted(exposure_group(list(e), wild) for e in other.exposures))
            holding = self.holding(view, groups)
            if holding is None or not holding.any():
                continue
            exposed = np.zeros(NUM_KINDS, dtype=np.int64)
            for tile, size in groups:
                exposed[tile] += size
            concealed = np.maximum(tables.need_by_kind[holding] - exposed, 0)
            # Her singles and pairs must be in her rack or still to come: all unseen by this seat, bar the
            # one tile she may be waiting for.
            makeable = (tables.small_by_kind[holding] <= unseen + 1).all(axis=1)
            uses = concealed[makeable] > 0
            if wild is not None:
                uses[:, wild] = False  # a discarded joker can't be claimed
            if not len(uses) or not uses.any():
                continue
            ready = READY_BY_EXPOSURES[min(len(other.exposures), len(READY_BY_EXPOSURES) - 1)]
            # If she is one away, the tile is one of the kinds her concealed part uses, these equally likely.
            per_kind = uses.mean(axis=0) / max(1.0, float(uses.sum(axis=1).mean()))
            safe *= 1.0 - np.minimum(0.95, 3.0 * ready * per_kind)
        return 1.0 - safe

    def joker_exchange(self, view: SeatView) -> Action | None:
        """A joker exchange that leaves the rack worth at least as much, if any."""
        exchanges = [a for a in view.legal if isinstance(a, ExchangeJoker)]
        if not exchanges:
            return None
        rack = list(view.rack)
        exposures = [list(e) for e in view.exposures]
        unseen = self.unseen(view)
        before = self.best_discard_worth(view, rack, exposures, unseen)
        wild = view.card.wild if view.card.wild is not None else Tile.J
        for action in exchanges:
            after = list(rack)
            after.remove(action.tile)
            after.append(wild)
            if traps(view, after):
                continue
            mine = [list(e) for e in exposures]
            if action.owner == view.seat:
                group = mine[action.exposure]
                group[group.index(wild)] = action.tile
            # The natural goes where the joker was: it is seen either way, so ``unseen`` does not change.
            if self.best_discard_worth(view, after, mine, unseen) >= before:
                return action
        return None

    def call_question(self, view: SeatView) -> Action | CallQuestion:
        """The answer to a call window when there is nothing to weigh (no call on offer, or a tile no line near
        the best lacks), else what weighing the calls needs."""
        calls = [a for a in view.legal if isinstance(a, Call) and not a.mahjong]
        pass_action = next((a for a in view.legal if isinstance(a, PassCall)), None)
        fallback = pass_action or next((a for a in view.legal if isinstance(a, Hold)), None)
        tile = view.public.window_tile
        if not calls or tile is None:
            return fallback or view.legal[0]
        rack = list(view.rack)
        exposures = [list(e) for e in view.exposures]
        unseen = self.unseen(view)
        wanted, now = self.call_targets(view, rack, exposures, unseen)
        if tile not in wanted:
            return fallback or calls[0]
        return CallQuestion(calls, fallback or calls[0], tile, rack, exposures, unseen, now)

    def answer_discard(self, view: SeatView) -> Action:
        """A call when the exposure makes the rack worth more; else pass."""
        question = self.call_question(view)
        if not isinstance(question, CallQuestion):
            return question
        best_call, best_score = None, question.now * self.settings.call_margin
        for call in question.calls:
            after, exposed = question.after(call)
            if traps(view, after):
                continue
            score = self.best_discard_worth(view, after, exposed, question.unseen)
            if score > best_score:
                best_call, best_score = call, score
        return best_call or question.fallback

    def call_targets(self, view: SeatView, rack: list[Tile], exposures: list[list[Tile]],
                     unseen: Sequence[int]) -> tuple[set[int], float]:
        """The tiles worth thinking of calling (a big group of an X variant near the best lacks them) and the
        rack's worth as it is. Kept while the rack stays the same: it is asked of every discard between two
        turns, and the few tiles discarded meanwhile barely change it."""
        key = (tuple(rack), tuple(tuple(e) for e in exposures))
        if self._call_cache is not None and self._call_cache[0] == key:
            return self._call_cache[1], self._call_cache[2]
        outlook = self.outlook(view, rack, exposures, unseen)
        tables = outlook.tables
        near = (outlook.log_chance >= outlook.log_chance.max() - CALL_REACH) & tables.exposed
        lacking = (outlook.short_big > 0) & near[None, :]
        wanted = {int(k) for k in np.unique(tables.kind[lacking])}
        now = float(self.worth(view, outlook.log_chance))
        self._call_cache = (key, wanted, now)
        return wanted, now


def leaves_a_discard(view: SeatView, rack: Sequence[Tile], kind: Tile) -> bool:
    """Whether the concealed rack left after throwing ``kind`` still holds a tile that may be thrown. Under rules
    that forbid throwing the wild tile (the 1946 flowers, P13), a rack left with wild tiles only would have
    nothing to throw after its next draw (the engine then offers the seat no move at all), so it is avoided."""
    wild = view.card.wild
    if view.rules.discard_flowers or wild is None:
        return True
    rest = list(rack)
    rest.remove(kind)
    return not rest or any(t != wild for t in rest)


def traps(view: SeatView, rack: Sequence[Tile]) -> bool:
    """Whether a 14-tile concealed rack (after a call or an exchange) has no discard that leaves something to
    throw (see :func:`leaves_a_discard`)."""
    wild = view.card.wild
    if view.rules.discard_flowers or wild is None:
        return False
    return not any(leaves_a_discard(view, rack, k) for k in set(rack) if k != wild)


def _same_pass(a: CharlestonPass, b: Action) -> bool:
    return isinstance(b, CharlestonPass) and a.blind == b.blind and sorted(a.tiles) == sorted(b.tiles)
