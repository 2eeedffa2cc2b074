"""The one door to Discord: every Discord call whose failure the bot expects goes through here.

A failure the bot expects (each error code is named once, with its policy, in :mod:`cogs.failures`) is logged as
one line (what, the code, the route, the table) and raised as a :class:`~cogs.failures.DiscordFailure` for the
caller to act on; anything else is logged with its traceback. discord.py waits out 429s and retries some 5xx
itself; what it gives up on (any 5xx, a timeout, a connection error) is a ``TRANSIENT`` failure, which the caller
tries again with its :class:`~cogs.failures.Backoff` (the throttles of :mod:`cogs.show.throttle` never drop a table
message, a DM prompt or a results post).

Interactions are answered here too (:meth:`Door.defer`, :meth:`Door.reply`): the place for a future "answer every
interaction" fallback. A write through the channel says how urgent it is (``urgency``): the process's pacer
(:mod:`cogs.pacer`) starts a DM with a decision before anything waiting, and a table-message edit after.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import discord

from .failures import Backoff, DiscordFailure, Failure, classify, log_failure
from .pacer import Urgency, urgency
from .payload import Payload
from .show.fit import fit_lines

log = logging.getLogger("charleston.discord")
T = TypeVar("T")
# Every interaction the Discord layer handles: the bot's parts are handed in (cogs/app.py), never reached through the
# interaction's client, so the client's own type is all the cogs need to know of it.
Interaction = discord.Interaction[discord.Client]


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

    interaction: Interaction
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
    def of(interaction: Interaction) -> Hook:
        """The token of an interaction that just came."""
        return Hook(interaction, time.monotonic())


class Door:
    """Discord calls for the cogs: each tried once (or ``attempts`` times, waiting out TRANSIENT failures with the
    backoff), limited to ``timeout`` seconds, and turned into a :class:`DiscordFailure` when it fails."""

    def __init__(self, client: discord.Client, *, timeout: float = 15.0, backoff: Backoff | None = None) -> None:
        self._client = client
        self.timeout = timeout
        self.backoff = backoff or Backoff()
        self._expired: dict[int, None] = {}  # interactions found expired (the latest few): not tried again
        self._writes: dict[int, deque[list[float]]] = {}  # each channel's latest writes (time.monotonic)

    def expired(self, interaction: Interaction) -> bool:
        """Whether Discord refused to let this interaction be answered (10062): the player saw it fail."""
        return interaction.id in self._expired

    def _expire(self, interaction: Interaction) -> None:
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
        return self._client.get_partial_messageable(channel_id)

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
                                                        view=payload.components or discord.utils.MISSING,
                                                        allowed_mentions=mentions or discord.utils.MISSING),
                                   what, table=table)

    async def edit(self, channel_id: int, message_id: int, payload: Payload, what: str, *,
                   table: int | None = None, level: Urgency = Urgency.NORMAL) -> discord.Message:
        """Edit one of the bot's messages into ``payload`` (its new files replace the old ones but those kept)."""
        message = self._channel(channel_id).get_partial_message(message_id)
        async with self.pace(channel_id):
            with urgency(level):
                return await self.call(lambda: message.edit(content=payload.content, attachments=payload.attachments,
                                                            view=payload.components), what, table=table)

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
            content=payload.content, files=payload.files, view=payload.components or discord.utils.MISSING, wait=True,
            ephemeral=ephemeral, allowed_mentions=discord.AllowedMentions.none()), what, table=table)

    async def edit_hook(self, hook: Hook, message_id: int, payload: Payload, what: str, *,
                        table: int | None = None) -> discord.Message:
        """Edit a message through the interaction's token: its original (the message a pressed button sits on)
        or one of its follow-ups."""
        await self._answered(hook, what, table)
        interaction = hook.interaction
        if message_id == hook.original:
            return await self.call(lambda: interaction.edit_original_response(
                content=payload.content, attachments=payload.attachments, view=payload.components), what, table=table)
        return await self.call(lambda: interaction.followup.edit_message(
            message_id, content=payload.content, attachments=payload.attachments, view=payload.components),
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
                      table: int | None = None, attempts: int = 1,
                      level: Urgency = Urgency.NORMAL) -> discord.Message | None:
        """DM a user (through the DM channel already known, else after looking the user up once); None when their
        DMs are closed."""
        async def send() -> discord.Message:
            if channel_id is not None:
                channel: discord.abc.Messageable = self._client.get_partial_messageable(
                    channel_id, type=discord.ChannelType.private)
            else:
                channel = self._client.get_user(user_id) or await self._client.fetch_user(user_id)
            return await channel.send(content=payload.content, files=payload.files,
                                      view=payload.components or discord.utils.MISSING,
                                      allowed_mentions=discord.AllowedMentions.none())
        try:
            with urgency(level):
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
                shown = Payload(fit_lines(text, "… and {more}: too long for one message."))
                if await self.send_dm(user_id, shown, what, table=table, attempts=3) is not None:
                    told.append(user_id)
            except DiscordFailure:
                continue  # logged; the others are still told
        return told

    async def create_thread(self, parent_id: int, name: str, what: str, *, table: int | None = None) -> discord.Thread:
        """A public thread in a text channel (auto-archived after a day without messages)."""
        async def create() -> discord.Thread:
            parent = self._client.get_channel(parent_id) or await self._client.fetch_channel(parent_id)
            if not isinstance(parent, discord.TextChannel):
                raise DiscordFailure(Failure.GONE, what, text=f"channel {parent_id} is not a text channel")
            return await parent.create_thread(name=name, type=discord.ChannelType.public_thread,
                                              auto_archive_duration=1440)
        return await self.call(create, what, table=table)

    async def set_archived(self, thread_id: int, archived: bool, what: str, *, table: int | None = None) -> None:
        """Archive a thread, or bring an archived one back (``PATCH /channels/{id}`` with ``archived``)."""
        async def edit() -> None:
            thread = self._client.get_channel(thread_id) or await self._client.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread):
                await thread.edit(archived=archived)
        await self.call(edit, what, table=table)

    def cached_channel(self, channel_id: int) -> object | None:
        """A channel or thread as discord.py's cache knows it (no request); None if it is not there."""
        return self._client.get_channel(channel_id)

    async def find_own_post(self, channel_id: int, guild_id: int, starts: str, what: str, *,
                            lookback: int = 50) -> discord.Message | None:
        """The bot's latest message in a channel starting with ``starts`` among the last ``lookback`` (a post a
        crash may have sent without recording it); None if there is none, or the channel can't be read."""
        me = self._client.user
        channel = self._client.get_partial_messageable(channel_id, guild_id=guild_id)

        async def find() -> discord.Message | None:
            async for message in channel.history(limit=lookback):
                if me is not None and message.author.id == me.id and message.content.startswith(starts):
                    return message
            return None
        try:
            return await self.call(find, what)
        except DiscordFailure:
            return None

    # -- interactions --------------------------------------------------------------------------------------------
    async def defer(self, interaction: Interaction, *, ephemeral: bool = True,
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

    async def reply(self, interaction: Interaction, content: str | None = None, *,
                    ephemeral: bool = True, files: list[discord.File] | None = None,
                    components: discord.ui.View | None = None, mentions: discord.AllowedMentions | None = None) -> bool:
        """Answer an interaction: its first response if it has none yet, else a followup. False when it can no
        longer be answered (expired: logged)."""
        files = files or []
        what = _what(interaction)
        if self.expired(interaction):
            return False
        allowed = mentions or discord.utils.MISSING

        async def followup() -> None:
            await interaction.followup.send(content or discord.utils.MISSING, ephemeral=ephemeral, wait=True,
                                            files=files or discord.utils.MISSING,
                                            view=components or discord.utils.MISSING, allowed_mentions=allowed)
        try:
            if not interaction.response.is_done():
                try:
                    await self.call(lambda: interaction.response.send_message(
                        content, ephemeral=ephemeral, files=files or discord.utils.MISSING,
                        view=components or discord.utils.MISSING, allowed_mentions=allowed), what)
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

    async def edit_response(self, interaction: Interaction, payload: Payload) -> bool:
        """Edit the message the interaction answered (a private answer brought up to date); False if expired."""
        if self.expired(interaction):
            return False
        try:
            await self.call(lambda: interaction.edit_original_response(content=payload.content,
                                                                        attachments=payload.files,
                                                                        view=payload.components), _what(interaction))
        except DiscordFailure as failure:
            if failure.kind in (Failure.EXPIRED, Failure.MESSAGE_GONE):
                return False
            raise
        return True


def _what(interaction: Interaction) -> str:
    """What an interaction was, for the log: ``/table new`` or ``press ch:a:3:1t4:d.5D``."""
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return f"answer /{command}" if command else f"answer a press of {custom_id!r}"
