"""Computer players. A player decides from a :class:`~bot.engine.views.SeatView` alone: the seat's own rack,
what is on the table, and the legal actions. It is never handed the game state, so it cannot see another
player's tiles or the wall.

The four table levels form a ladder, each measured stronger than the one below it under every ruleset
(docs/computer-players.md). ``random`` is uniform among legal actions; the other three are the card reader
(:mod:`bot.ai.strategy`, and :mod:`bot.ai.classical` for the classical game) as :data:`LADDER` sets it up:
``hard`` is the strongest player we have, and ``normal`` and ``easy`` are made weaker on purpose with a *slip*,
a share of discards where a random one of the three least useful tiles is thrown instead of the least useful.

The players behind the levels, and others kept for measurement, can be named directly in ``charleston paired``
(:data:`EXPERIMENTAL_LEVELS`), with or without a slip: ``reader-normal+slip=0.25``.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.engine.actions import Action
from bot.engine.views import SeatView

from . import classical
from .learned import LearnedStrategy
from .search import SEARCH_LEVELS, SearchStrategy
from .strategy import Strategy

LEVELS = ("random", "easy", "normal", "hard")
# The player behind each table level. Nothing we built played measurably better than the card reader with
# normal's settings (not hard's settings, not the search, not the learned player), so that is hard, and the
# levels below it slip on purpose: each step measured at +8 chips a game or more (docs/computer-players.md).
LADDER = {
    "easy": "reader-easy+slip=0.75",
    "normal": "reader-normal+slip=0.25",
    "hard": "reader-normal",
}
# What each level means, in the words a player sees when she picks one in Discord (at most 80 characters each:
# a slash-command choice's name is "level: description" within Discord's 100).
LEVEL_DESCRIPTIONS = {
    "random": "any legal move, at random",
    "easy": "weak on purpose: plays two lines, most discards a little off",
    "normal": "weaker on purpose: reads the card, 1 discard in 4 a little off",
    "hard": "the strongest we have: reads the whole card, no deliberate mistakes",
}
READERS = {"reader-easy": "easy", "reader-normal": "normal", "reader-hard": "hard"}
# Players kept for measurement (``charleston paired``), not offered at a table: see docs/computer-players.md.
EXPERIMENTAL_LEVELS = (*READERS, "learned", *SEARCH_LEVELS)
SLIP = "+slip="  # a player with a chance of a slip at a discard, e.g. reader-normal+slip=0.25


class Player(Protocol):
    """What the table asks of a computer player: a level and a decision from a seat's view."""
    level: str

    def decide(self, view: SeatView) -> Action:
        """One legal action for this seat; ``view.legal`` is never empty when asked."""
        ...


class RandomPlayer:
    """Any legal action, uniformly at random: the baseline the other levels are measured against."""
    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: SeatView) -> Action:
        """One of the seat's legal actions, uniformly."""
        return self.rng.choice(view.legal)


class CardPlayer:
    """A card-reading player (``reader-*``), the learned player or the search player, playing as the table level
    ``level``. ``slip``, if given, replaces the player's chance of throwing a random one of its three least
    useful tiles at a discard."""

    def __init__(self, name: str, seed: int = 0, slip: float | None = None, level: str | None = None) -> None:
        self.level = level or name
        self.slip = slip
        self.reader = READERS.get(name, "normal")  # the classical player's settings (learned, search: normal's)
        rng = random.Random(seed)
        search = SEARCH_LEVELS.get(name)
        self.strategy: Strategy
        if name == "learned":
            self.strategy = LearnedStrategy(rng)
        elif search:
            self.strategy = SearchStrategy(rng, search)
        else:
            self.strategy = Strategy(self.reader, rng)
        if slip is not None:
            self.strategy.slip(slip)

    def decide(self, view: SeatView) -> Action:
        """The strategy's choice; the classical game (no card) has its own player."""
        if view.card.ruleset == "classical":  # no card to read: four sets and a pair (bot.ai.classical)
            return classical.decide(self.reader, self.strategy.rng, view, self.slip)
        return self.strategy.decide(view)


def parse_level(level: str) -> tuple[str, float | None]:
    """``(level or player, slip or None)`` for a name; raises ValueError for a name that is neither a table level
    nor a player of :data:`EXPERIMENTAL_LEVELS` (with or without a slip)."""
    base, sep, rest = level.partition(SLIP)
    if base not in LEVELS and base not in EXPERIMENTAL_LEVELS:
        raise ValueError(f"Unknown computer level '{level}'. Choose one of: {', '.join(LEVELS)}.")
    if not sep:
        return base, None
    try:
        slip = float(rest)
    except ValueError:
        slip = -1.0
    if base in LEVELS or not 0.0 <= slip <= 1.0:
        raise ValueError(f"'{level}': a slip is a chance between 0 and 1 after one of "
                         f"{', '.join(EXPERIMENTAL_LEVELS)}, e.g. reader-normal{SLIP}0.25")
    return base, slip


def make_player(level: str, seed: int = 0) -> Player:
    """A player for a table level (the player :data:`LADDER` names) or for a player of
    :data:`EXPERIMENTAL_LEVELS` (with or without a slip), its choices seeded by ``seed``."""
    name, slip = parse_level(LADDER.get(level, level))
    if name == "random":
        return RandomPlayer(seed)
    return CardPlayer(name, seed, slip, level=level)
