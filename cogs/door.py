"""The one door to Discord: every Discord call whose failure the bot expects goes through here.

Each of Discord's error codes the bot meets is named once (:class:`Code`) with what it means here, and mapped to
one policy (:class:`Failure`). A failure the bot expects is logged as one line (what, the code, the route, the
table) and raised as a :class:`DiscordFailure` for the caller to act on; anything else is logged with its
traceback. discord.py waits out 429s and retries some 5xx itself; what it gives up on (any 5xx, a timeout, a
connection error) is a ``TRANSIENT`` failure, which the caller tries again with :class:`Backoff` (the presenter's
throttles never drop a table message, a DM prompt or a results post; see :mod:`cogs.throttle`).

Interactions are answered here too (:meth:`Door.defer`, :meth:`Door.reply`): the place for a future "answer every
interaction" fallback and for budgeting writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, TypeVar

import aiohttp
import discord

from .payload import Payload

if TYPE_CHECKING:
    from .app import CharlestonBot

log = logging.getLogger("charleston.discord")
T = TypeVar("T")


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


# Discord lets a bot make about 5 writes per 5 s in one channel (a DM included) before it answers 429: the door
# spaces a channel's writes itself, so a burst waits its turn instead of being refused.
CHANNEL_WRITES = 5
CHANNEL_WINDOW = 5.0
# An interaction's token answers for it for 15 minutes; a little less, so a write through it is never refused late.
# A write through it waits for the interaction's first answer, which Discord wants within 3 s.
ANSWER_WAIT = 3.0
TOKEN_LIFETIME = 14 * 60.0


@dataclass
class Hook:
    """An interaction's token, kept to write through it later: its follow-ups and edits are exempt from the bot's
    global request limit. ``at`` is when the interaction came (time.monotonic)."""

    interaction: discord.Interaction[CharlestonBot]
    at: float

    @property
    def live(self) -> bool:
        """Whether the token still answers (with a margin)."""
        return time.monotonic() - self.at < TOKEN_LIFETIME

    @property
    def channel_id(self) -> int | None:
        """Where the interaction was made (its follow-ups go there)."""
        return self.interaction.channel_id

    @property
    def original(self) -> int | None:
        """The message a pressed component sits on: the interaction's original, once deferred."""
        message = self.interaction.message
        return message.id if message is not None else None

    @staticmethod
    def of(interaction: discord.Interaction[CharlestonBot]) -> Hook:
        """The token of an interaction that just came."""
        return Hook(interaction, time.monotonic())


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


class Door:
    """Discord calls for the cogs: each tried once (or ``attempts`` times, waiting out TRANSIENT failures with the
    backoff), limited to ``timeout`` seconds, and turned into a :class:`DiscordFailure` when it fails."""

    def __init__(self, bot: CharlestonBot, *, timeout: float = 15.0, backoff: Backoff | None = None) -> None:
        self.bot = bot
        self.timeout = timeout
        self.backoff = backoff or Backoff()
        self._expired: dict[int, None] = {}  # interactions found expired (the latest few): not tried again
        self._writes: dict[int, deque[list[float]]] = {}  # each channel's latest writes (time.monotonic)

    def expired(self, interaction: discord.Interaction[CharlestonBot]) -> bool:
        """Whether Discord refused to let this interaction be answered (10062): the player saw it fail."""
        return interaction.id in self._expired

    def _expire(self, interaction: discord.Interaction[CharlestonBot]) -> None:
        self._expired[interaction.id] = None
        while len(self._expired) > 256:
            del self._expired[next(iter(self._expired))]

    async def call(self, action: Callable[[], Awaitable[T]], what: str, *, table: int | None = None,
                   attempts: int = 1) -> T:
        """Run one Discord call; a failure is logged and raised as a DiscordFailure (bugs are raised as they are)."""
        failures = 0
        while True:
            try:
                return await asyncio.wait_for(action(), self.timeout)
            except DiscordFailure as ours:  # raised by the action itself
                log_failure(ours, table)
                raise
            except Exception as error:
                failure = classify(error, what)
                if failure is None:
                    raise
                failures += 1
                log_failure(failure, table, error)
                if not failure.retry or failures >= attempts:
                    raise failure from error
            await asyncio.sleep(self.backoff.delay(failures))

    # -- channels and messages -------------------------------------------------------------------------------
    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    @contextlib.asynccontextmanager
    async def pace(self, channel_id: int) -> AsyncIterator[None]:
        """Around one write to a channel: wait, if need be, so that the channel gets no more than 5 writes in any
        5 s as Discord counts them. A write's moment is when Discord has answered it (so, later than Discord got
        it): the sixth starts 5 s after the first was done."""
        writes = self._writes.get(channel_id)
        if writes is None:
            if len(self._writes) > 4096:  # forget the channels written to longest ago
                for old in list(self._writes)[:1024]:
                    del self._writes[old]
            writes = self._writes[channel_id] = deque(maxlen=CHANNEL_WRITES)
        if len(writes) == CHANNEL_WRITES and (wait := writes[0][0] + CHANNEL_WINDOW - time.monotonic()) > 0:
            slot = [time.monotonic() + wait]  # taken now, so that others queue behind it
            writes.append(slot)
            await asyncio.sleep(wait)
        else:
            slot = [time.monotonic()]
            writes.append(slot)
        try:
            yield
        finally:
            slot[0] = max(slot[0], time.monotonic())

    async def send(self, channel_id: int, payload: Payload, what: str, *, table: int | None = None,
                   mentions: discord.AllowedMentions | None = None) -> discord.Message:
        """Post a message in a channel, thread or DM channel."""
        channel = self._channel(channel_id)
        async with self.pace(channel_id):
            return await self.call(lambda: channel.send(content=payload.content, files=payload.files,
                                                        view=payload.view or discord.utils.MISSING,
                                                        allowed_mentions=mentions or discord.utils.MISSING),
                                   what, table=table)

    async def edit(self, channel_id: int, message_id: int, payload: Payload, what: str, *,
                   table: int | None = None) -> discord.Message:
        """Edit one of the bot's messages into ``payload`` (its new files replace the old ones but those kept)."""
        message = self._channel(channel_id).get_partial_message(message_id)
        async with self.pace(channel_id):
            return await self.call(lambda: message.edit(content=payload.content, attachments=payload.attachments,
                                                        view=payload.view), what, table=table)

    async def delete(self, channel_id: int, message_id: int, what: str, *, table: int | None = None) -> bool:
        """Delete one of the bot's messages (tried a few times); False if it could not be (logged already)."""
        message = self._channel(channel_id).get_partial_message(message_id)
        try:
            async with self.pace(channel_id):
                await self.call(message.delete, what, table=table, attempts=3)
        except DiscordFailure as failure:
            return failure.kind is Failure.MESSAGE_GONE
        return True

    # -- through an interaction's token (exempt from the global limit; EXPIRED once the token is dead) -----------
    async def _answered(self, hook: Hook, what: str, table: int | None) -> None:
        """Wait for the interaction's first answer: Discord refuses a write through its token before it (10015),
        and a press is answered within 3 s or never."""
        deadline = time.monotonic() + ANSWER_WAIT
        while not hook.interaction.response.is_done():
            if time.monotonic() >= deadline:
                failure = DiscordFailure(Failure.EXPIRED, what, text="the interaction was never answered")
                log_failure(failure, table)
                raise failure
            await asyncio.sleep(0.02)

    async def send_hook(self, hook: Hook, payload: Payload, what: str, *, table: int | None = None,
                        ephemeral: bool = False) -> discord.WebhookMessage:
        """Post a message as a follow-up of an interaction, in the channel where it was made."""
        await self._answered(hook, what, table)
        return await self.call(lambda: hook.interaction.followup.send(
            content=payload.content, files=payload.files, view=payload.view or discord.utils.MISSING, wait=True,
            ephemeral=ephemeral, allowed_mentions=discord.AllowedMentions.none()), what, table=table)

    async def edit_hook(self, hook: Hook, message_id: int, payload: Payload, what: str, *,
                        table: int | None = None) -> discord.Message:
        """Edit a message through the interaction's token: its original (the message a pressed button sits on)
        or one of its follow-ups."""
        await self._answered(hook, what, table)
        interaction = hook.interaction
        if message_id == hook.original:
            return await self.call(lambda: interaction.edit_original_response(
                content=payload.content, attachments=payload.attachments, view=payload.view), what, table=table)
        return await self.call(lambda: interaction.followup.edit_message(
            message_id, content=payload.content, attachments=payload.attachments, view=payload.view),
            what, table=table)

    async def delete_hook(self, hook: Hook, message_id: int, what: str, *, table: int | None = None) -> None:
        """Delete a message through the interaction's token (its original or one of its follow-ups)."""
        await self._answered(hook, what, table)
        interaction = hook.interaction
        if message_id == hook.original:
            await self.call(interaction.delete_original_response, what, table=table)
        else:
            await self.call(lambda: interaction.followup.delete_message(message_id), what, table=table)

    async def send_dm(self, user_id: int, payload: Payload, what: str, *, channel_id: int | None = None,
                      table: int | None = None, attempts: int = 1) -> discord.Message | None:
        """DM a user (through the DM channel already known, else after looking the user up once); None when their
        DMs are closed."""
        async def send() -> discord.Message:
            if channel_id is not None:
                channel: discord.abc.Messageable = self.bot.get_partial_messageable(
                    channel_id, type=discord.ChannelType.private)
            else:
                channel = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            return await channel.send(content=payload.content, files=payload.files,
                                      view=payload.view or discord.utils.MISSING,
                                      allowed_mentions=discord.AllowedMentions.none())
        try:
            if channel_id is None:
                return await self.call(send, what, table=table, attempts=attempts)
            async with self.pace(channel_id):
                return await self.call(send, what, table=table, attempts=attempts)
        except DiscordFailure as failure:
            if failure.kind is Failure.DMS_CLOSED:
                return None
            raise

    async def tell(self, user_ids: list[int], text: str, what: str, *, table: int | None = None) -> list[int]:
        """DM a short notice to each of these people (a few tries each); returns those who got it."""
        told: list[int] = []
        for user_id in dict.fromkeys(user_ids):
            try:
                if await self.send_dm(user_id, Payload(text[:2000]), what, table=table, attempts=3) is not None:
                    told.append(user_id)
            except DiscordFailure:
                continue  # logged; the others are still told
        return told

    async def create_thread(self, parent_id: int, name: str, what: str, *, table: int | None = None) -> discord.Thread:
        """A public thread in a text channel (auto-archived after a day without messages)."""
        async def create() -> discord.Thread:
            parent = self.bot.get_channel(parent_id) or await self.bot.fetch_channel(parent_id)
            if not isinstance(parent, discord.TextChannel):
                raise DiscordFailure(Failure.GONE, what, text=f"channel {parent_id} is not a text channel")
            return await parent.create_thread(name=name, type=discord.ChannelType.public_thread,
                                              auto_archive_duration=1440)
        return await self.call(create, what, table=table)

    async def set_archived(self, thread_id: int, archived: bool, what: str, *, table: int | None = None) -> None:
        """Archive a thread, or bring an archived one back (``PATCH /channels/{id}`` with ``archived``)."""
        async def edit() -> None:
            thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=archived)
        await self.call(edit, what, table=table)

    # -- interactions --------------------------------------------------------------------------------------------
    async def defer(self, interaction: discord.Interaction[CharlestonBot], *, ephemeral: bool = True,
                    thinking: bool = False) -> bool:
        """Acknowledge an interaction now (work may take longer than Discord's 3 s); False if it had expired
        (10062: the player saw "This interaction failed")."""
        if interaction.response.is_done():
            return True
        if self.expired(interaction):
            return False
        try:
            await self.call(lambda: interaction.response.defer(ephemeral=ephemeral, thinking=thinking),
                            _what(interaction))
        except DiscordFailure as failure:
            if failure.kind is Failure.ACKNOWLEDGED:
                return True
            if failure.kind is Failure.EXPIRED:
                self._expire(interaction)
                return False
            raise
        return True

    async def reply(self, interaction: discord.Interaction[CharlestonBot], content: str | None = None, *,
                    ephemeral: bool = True, files: list[discord.File] | None = None,
                    view: discord.ui.View | None = None, mentions: discord.AllowedMentions | None = None) -> bool:
        """Answer an interaction: its first response if it has none yet, else a followup. False when it can no
        longer be answered (expired: logged)."""
        files = files or []
        what = _what(interaction)
        if self.expired(interaction):
            return False
        allowed = mentions or discord.utils.MISSING

        async def followup() -> None:
            await interaction.followup.send(content or discord.utils.MISSING, ephemeral=ephemeral, wait=True,
                                            files=files or discord.utils.MISSING, view=view or discord.utils.MISSING,
                                            allowed_mentions=allowed)
        try:
            if not interaction.response.is_done():
                try:
                    await self.call(lambda: interaction.response.send_message(
                        content, ephemeral=ephemeral, files=files or discord.utils.MISSING,
                        view=view or discord.utils.MISSING, allowed_mentions=allowed), what)
                    return True
                except DiscordFailure as failure:
                    if failure.kind is not Failure.ACKNOWLEDGED:
                        raise
                    for file in files:
                        file.reset()
            await self.call(followup, what)
        except DiscordFailure as failure:
            if failure.kind is Failure.EXPIRED:
                self._expire(interaction)
                return False
            raise
        return True

    async def edit_response(self, interaction: discord.Interaction[CharlestonBot], payload: Payload) -> bool:
        """Edit the message the interaction answered (a private answer brought up to date); False if expired."""
        if self.expired(interaction):
            return False
        try:
            await self.call(lambda: interaction.edit_original_response(content=payload.content,
                                                                        attachments=payload.files,
                                                                        view=payload.view), _what(interaction))
        except DiscordFailure as failure:
            if failure.kind in (Failure.EXPIRED, Failure.MESSAGE_GONE):
                return False
            raise
        return True


def _what(interaction: discord.Interaction[CharlestonBot]) -> str:
    """What an interaction was, for the log: ``/table new`` or ``press ch:a:3:1t4:d.5D``."""
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return f"answer /{command}" if command else f"answer a press of {custom_id!r}"
