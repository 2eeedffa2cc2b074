"""Computer players. A player decides from a :class:`~bot.engine.views.SeatView` alone: the seat's own rack,
what is on the table, and the legal actions. It is never handed the game state, so it cannot see another
player's tiles or the wall.

Levels: ``random`` (uniform among legal actions, the baseline), ``easy``, ``normal`` and ``hard`` (built on
an estimate of each card line's chance from the tiles still unseen; see :mod:`bot.ai.strategy` and
:mod:`bot.ai.outlook`).
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
# What each level means, in the words a player sees when she picks one in Discord (at most 80 characters each:
# a slash-command choice's name is "level: description" within Discord's 100).
LEVEL_DESCRIPTIONS = {
    "random": "any legal move, at random",
    "easy": "plays for two lines and often throws a useful tile",
    "normal": "reads the whole card and plays the best-placed lines",
    "hard": "normal's play with more lines; measured no stronger than normal",
}
# Levels kept for measurement (``charleston paired``), not offered at a table: see docs/computer-players.md.
EXPERIMENTAL_LEVELS = ("learned", *SEARCH_LEVELS)


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
    """easy, normal or hard: a :class:`Strategy` with that level's settings. ``slip``, if given, replaces the
    level's chance of throwing a random one of its three least useful tiles at a discard."""

    def __init__(self, level: str, seed: int = 0, slip: float | None = None) -> None:
        self.level = level
        self.slip = slip
        rng = random.Random(seed)
        search = SEARCH_LEVELS.get(level)
        self.strategy: Strategy
        if level == "learned":
            self.strategy = LearnedStrategy(rng)
        else:
            self.strategy = SearchStrategy(rng, search) if search else Strategy(level, rng)
        if slip is not None:
            self.strategy.slip(slip)

    def decide(self, view: SeatView) -> Action:
        """The strategy's choice; the classical game (no card) has its own player."""
        if view.card.ruleset == "classical":  # no card to read: four sets and a pair (bot.ai.classical)
            return classical.decide(self.level, self.strategy.rng, view, self.slip)
        return self.strategy.decide(view)


SLIP = "+slip="  # an experimental level: a level with another chance of a slip at a discard, e.g. normal+slip=0.2


def parse_level(level: str) -> tuple[str, float | None]:
    """``(base level, slip or None)`` for a level's name; raises ValueError for a name that is neither a level
    nor a level with a slip."""
    base, sep, rest = level.partition(SLIP)
    if base not in LEVELS and base not in EXPERIMENTAL_LEVELS:
        raise ValueError(f"Unknown computer level '{level}'. Choose one of: {', '.join(LEVELS)}.")
    if not sep:
        return base, None
    try:
        slip = float(rest)
    except ValueError:
        slip = -1.0
    if base == "random" or not 0.0 <= slip <= 1.0:
        raise ValueError(f"'{level}': a slip is a chance between 0 and 1 after a card-reading level, e.g. "
                         "normal+slip=0.2")
    return base, slip


def make_player(level: str, seed: int = 0) -> Player:
    """A player of ``level`` (a table level, an experimental one, or either with a slip), its choices seeded by
    ``seed``."""
    base, slip = parse_level(level)
    if base == "random":
        return RandomPlayer(seed)
    return CardPlayer(base, seed, slip)
