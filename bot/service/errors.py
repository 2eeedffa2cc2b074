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
    MAHJONG_AT_STAKE = "mahjong_at_stake"  # the move would throw away a Mah Jongg the player can claim now
    CONFIRM = "confirm"  # a move easily made by mistake and never taken back (discarding a joker): asked again


class TableError(Exception):
    """A request the table cannot carry out. ``str(error)`` is written for the person who asked."""

    def __init__(self, kind: ErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class NeedsConfirmation(TableError):
    """A move refused until the player confirms it: the caller asks her to choose between ``anyway`` (the refused
    move again, with ``confirm=True``) and, where there is one, ``instead``: the key and label of a better move."""

    def __init__(self, kind: ErrorKind, message: str, anyway: str, instead: tuple[str, str] | None = None) -> None:
        super().__init__(kind, message)
        self.anyway = anyway  # the label of the refused move made anyway: "Pass anyway", "Discard the joker"
        self.instead = instead  # (key, label) of the move offered instead, if any: ("cm", "Mah Jongg!")


class MahJonggAtStake(NeedsConfirmation):
    """A pass or a discard refused because the player can claim Mah Jongg now: the caller asks her to choose
    (``win_key``, the move that wins; or the refused move again with ``confirm=True``)."""

    def __init__(self, message: str, win_key: str, anyway: str) -> None:
        super().__init__(ErrorKind.MAHJONG_AT_STAKE, message, anyway, (win_key, "Mah Jongg!"))
        self.win_key = win_key  # the action key of the Mah Jongg: "cm" on a discard, "m" on her own tiles
        self.win_label = "Mah Jongg!"
