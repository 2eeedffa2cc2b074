"""The one error family the table service raises at its callers: a message for the player, a kind for code."""

from __future__ import annotations

from enum import StrEnum


class ErrorKind(StrEnum):
    """What went wrong, for callers that answer differently per case (the Discord layer picks its reply)."""

    NO_TABLE = "no_table"  # no open table by that id or in that place
    NOT_SEATED = "not_seated"  # the caller has no seat at the table
    SEATING = "seating"  # a seat change that can't be made: full, taken, already seated, game in progress
    NO_GAME = "no_game"  # nothing is being played at the table
    ILLEGAL = "illegal"  # the rules refuse the action; the message says which rule and why
    GONE = "gone"  # the decision a button was drawn for is over
    BAD_INPUT = "bad_input"  # an unknown card, a level or rules option out of range, a malformed action key
    FORBIDDEN = "forbidden"  # the caller may not do this (only the table's creator or a manager closes it)
    CONFLICT = "conflict"  # another process moved the table on; it was reloaded, try again
    NO_LEAGUE = "no_league"  # no league by that name in this server (or none here, or several to choose from)
    EXISTS = "exists"  # a league, season or card of that name already exists in this server


class TableError(Exception):
    """A request the table cannot carry out. ``str(error)`` is written for the person who asked."""

    def __init__(self, kind: ErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
