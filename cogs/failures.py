"""Discord's failures as the bot meets them: each error code named once (:class:`Code`) with what it means here and
mapped to one policy (:class:`Failure`); a failure raised as a :class:`DiscordFailure` and logged as one line
(:func:`log_failure`); and how long to wait before trying again (:class:`Backoff`). Only :mod:`cogs.door` makes the
calls that fail; its callers act on the failure's ``kind``."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import IntEnum, StrEnum

import aiohttp
import discord

log = logging.getLogger("charleston.discord")


class Code(IntEnum):
    """Discord's JSON error codes the bot meets, and what each means here."""

    UNKNOWN_CHANNEL = 10003  # the channel or thread was deleted: a table moves to a new thread, or closes
    UNKNOWN_MESSAGE = 10008  # the message was deleted (by someone, or a crash left it half-made): post it again
    UNKNOWN_USER = 10013  # the user is gone: nobody to tell
    UNKNOWN_WEBHOOK = 10015  # the interaction was never acknowledged (after a 10062): nothing more can be said
    UNKNOWN_INTERACTION = 10062  # answered after Discord's 3 s: the player saw "This interaction failed"
    TOO_LARGE = 40005  # a file over the upload limit: a bug in what we drew
    ALREADY_ACKNOWLEDGED = 40060  # the interaction was answered already: follow up instead
    MISSING_ACCESS = 50001  # the bot can no longer see the channel: tell the opener, catch up when it can
    CANNOT_DM = 50007  # the member's DMs are closed: the table says so, "My rack" answers privately
    MISSING_PERMISSIONS = 50013  # a permission was taken away: tell the opener once, catch up when it is back
    INVALID_WEBHOOK_TOKEN = 50027  # the interaction's 15-minute token expired
    INVALID_FORM_BODY = 50035  # Discord refuses what we sent: a bug, logged with the traceback
    THREAD_ARCHIVED = 50083  # the thread is archived: unarchive it, or post anew (which unarchives it)


class Failure(StrEnum):
    """What the bot does about a failed Discord call."""

    GONE = "gone"  # the channel is gone: move the table to a new thread, or close it
    MESSAGE_GONE = "message gone"  # the message is gone: post it again
    EXPIRED = "expired"  # the interaction can no longer be answered: the DM shows the truth
    ACKNOWLEDGED = "acknowledged"  # answered already: follow up
    DMS_CLOSED = "dms closed"  # fall back to the private "My rack" answer
    FORBIDDEN = "forbidden"  # a permission is missing: tell the opener once, try again later
    ARCHIVED = "archived"  # unarchive, or post anew
    TRANSIENT = "transient"  # 5xx, a timeout, a connection error: try again with backoff, never drop
    REFUSED = "refused"  # Discord refuses what we sent: a bug


POLICY: dict[int, Failure] = {
    Code.UNKNOWN_CHANNEL: Failure.GONE,
    Code.UNKNOWN_MESSAGE: Failure.MESSAGE_GONE,
    Code.UNKNOWN_USER: Failure.GONE,
    Code.UNKNOWN_WEBHOOK: Failure.EXPIRED,
    Code.UNKNOWN_INTERACTION: Failure.EXPIRED,
    Code.TOO_LARGE: Failure.REFUSED,
    Code.ALREADY_ACKNOWLEDGED: Failure.ACKNOWLEDGED,
    Code.MISSING_ACCESS: Failure.FORBIDDEN,
    Code.CANNOT_DM: Failure.DMS_CLOSED,
    Code.MISSING_PERMISSIONS: Failure.FORBIDDEN,
    Code.INVALID_WEBHOOK_TOKEN: Failure.EXPIRED,
    Code.INVALID_FORM_BODY: Failure.REFUSED,
    Code.THREAD_ARCHIVED: Failure.ARCHIVED,
}
# Logged as one line at INFO: routine, the bot carries on as planned. Every other expected failure is one WARNING
# line; REFUSED (a bug) is an ERROR with the traceback.
ROUTINE = frozenset({Failure.MESSAGE_GONE, Failure.DMS_CLOSED, Failure.ACKNOWLEDGED})

# What the bot needs where it plays, for the message that tells a manager what is missing.
THREAD_PERMISSIONS = "View Channel, Send Messages in Threads, Attach Files and Read Message History"
CHANNEL_PERMISSIONS = "View Channel, Create Public Threads and Send Messages"


@dataclass
class DiscordFailure(Exception):
    """A Discord call that failed the way the bot expects (see :data:`POLICY`)."""

    kind: Failure
    what: str  # what the bot was doing ("edit the table message")
    route: str = ""  # "PATCH /channels/1/messages/2"
    status: int | None = None
    code: int | None = None
    text: str = ""  # Discord's message, or the exception's name

    def __post_init__(self) -> None:
        super().__init__(self.line())

    @property
    def retry(self) -> bool:
        """Whether trying again later may work (5xx, timeouts, connection errors)."""
        return self.kind is Failure.TRANSIENT

    def line(self, table: int | None = None) -> str:
        """The one log line: what, the code, the route, the table."""
        where = f"table {table}: " if table is not None else ""
        code = self.code or self.status or "-"
        route = f" on {self.route}" if self.route else ""
        return f"{where}{self.what}: Discord {code}{route} ({self.text or self.kind.value})"


@dataclass(frozen=True)
class Backoff:
    """How long to wait before trying again after the ``n``-th failure in a row: ``first`` doubling up to ``cap``."""

    first: float = 1.0
    cap: float = 60.0

    def delay(self, failures: int) -> float:
        """Seconds to wait after ``failures`` failures in a row (1, 2, ...)."""
        return min(self.cap, self.first * 2.0 ** max(0, failures - 1))

    def slower(self, factor: float) -> Backoff:
        """The same schedule, ``factor`` times slower (a missing permission is asked about less often)."""
        return Backoff(self.first * factor, self.cap * factor)


def classify(error: BaseException, what: str) -> DiscordFailure | None:
    """The failure ``error`` is, or None when it is not a Discord or network failure (a bug: raise it as is)."""
    if isinstance(error, discord.HTTPException):
        route = _route(error)
        kind = POLICY.get(error.code)
        if kind is None:
            kind = Failure.TRANSIENT if error.status >= 500 or error.status == 429 else Failure.REFUSED
        text = error.text or (str(error.response.reason or "") if error.response is not None else "")
        return DiscordFailure(kind, what, route, error.status, error.code or None, text[:200])
    if isinstance(error, TimeoutError | aiohttp.ClientError | OSError | discord.RateLimited):
        return DiscordFailure(Failure.TRANSIENT, what, text=type(error).__name__)
    return None


def _route(error: discord.HTTPException) -> str:
    response = error.response
    if response is None:
        return ""
    path = response.url.path
    for prefix in ("/api/v10", "/api/v9"):
        path = path.removeprefix(prefix)
    parts = path.split("/")
    if len(parts) > 3 and parts[1] in ("interactions", "webhooks"):
        parts[3] = "{token}"  # an interaction's token answers for it for 15 minutes: never in the log
    return f"{response.method} {'/'.join(parts)}"


def log_failure(failure: DiscordFailure, table: int | None, error: BaseException | None = None) -> None:
    """Log a failure: one line if the bot expects it, the traceback if it is a bug."""
    if failure.kind is Failure.REFUSED:
        log.error("BUG: %s", failure.line(table), exc_info=error)
    elif failure.kind in ROUTINE:
        log.info("%s", failure.line(table))
    else:
        log.warning("%s", failure.line(table))
