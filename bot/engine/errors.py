"""Errors the engine raises. Every message is written for the person who caused it."""

from __future__ import annotations


class EngineError(Exception):
    """Base class: the message says what was wrong and what to do."""


class TileError(EngineError, ValueError):
    """A malformed tile, an impossible count or a wrong number of tiles."""


class CardError(EngineError):
    """A card file that cannot be used; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class IllegalAction(EngineError):
    """The action is not allowed now; the message says why, for the player."""
