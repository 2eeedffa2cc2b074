"""The offline Discord's state: guilds, channels, users, messages, commands, interactions, and its counters."""

from __future__ import annotations

import asyncio
import base64
import secrets
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .models import (
    ALL_PERMISSIONS,
    DM,
    EPHEMERAL,
    LOADING,
    PUBLIC_THREAD,
    TEXT,
    Attachment,
    Channel,
    Command,
    Guild,
    Interaction,
    Member,
    Message,
    Snowflakes,
    User,
)

T = TypeVar("T")

# Gateway intents the world checks before dispatching (discord.Intents values).
GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 9, 1 << 12, 1 << 15
# Message flags a bot may set when sending (suppress embeds, ephemeral, suppress notifications, components v2).
SENDABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)


class DiscordError(Exception):
    """An error answer as Discord gives it: HTTP status, JSON error code, message (and an errors tree)."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def to_json(self) -> dict[str, Any]:
        """The error body."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


@dataclass
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class RequestRecord:
    """One REST request the bot made and how it was answered."""

    method: str
    route: str
    path: str
    status: int
    code: int | None = None
    body: Any = None
    at: float = 0.0  # when it arrived (monotonic seconds)
    uploaded: int = 0  # bytes of files uploaded with it (images)

    @property
    def key(self) -> str:
        """``METHOD /route/{template}``, the key of the per-route counters."""
        return f"{self.method} {self.route}"

    @property
    def exempt(self) -> bool:
        """Whether Discord leaves it out of the bot's global limit of 50 a second: an interaction's callback, and
        the routes through the interaction's token (follow-ups, editing or deleting the answers)."""
        return self.route.startswith(("/interactions/", "/webhooks/"))

    @property
    def write_channel(self) -> int | None:
        """The channel (a DM included) whose per-channel write limit (about 5 per 5 s) this request counts
        against: a message posted, edited or deleted there; None for anything else."""
        writes = self.method in ("POST", "PATCH", "DELETE")
        if not writes or not self.route.startswith("/channels/{channel_id}/messages"):
            return None
        part = self.path.split("/channels/", 1)[1].split("/", 1)[0]
        return int(part) if part.isdigit() else None


@dataclass
class InvalidRequest:
    """A request body Discord would refuse (50035): the test fails unless it declared it expected one."""

    method: str
    route: str
    body: Any
    errors: dict[str, Any]


@dataclass
class Fault:
    """How Discord will answer the next ``times`` requests to ``route`` (in channel ``channel_id``, if given): an
    error with its status, JSON body (``code``, ``message``) or plain-text body, and headers; or, with ``stall``,
    no answer for that many seconds (a request the bot gives up on first is dropped unprocessed, as a request
    lost on the way is; one it waits out is then answered normally)."""

    route: str
    status: int = 0  # 0: no error (a stall alone)
    code: int = 0
    message: str = ""
    text: str | None = None  # a plain-text body instead of JSON (Discord's edge answers a 503 so)
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    channel_id: int | None = None
    stall: float = 0.0

    def matches(self, route: str, channel_id: int | None) -> bool:
        """Whether this fault applies to a request."""
        return self.times > 0 and self.route == route and self.channel_id in (None, channel_id)


@dataclass
class Behaviour:
    """Discord's limits and failures on demand; tests change these fields."""

    interaction_deadline: float = 3.0
    token_lifetime: float = 15 * 60.0
    attachment_size_limit: int = 10 * 1024 * 1024
    rate_limits: dict[str, list[float]] = field(default_factory=dict)
    forbidden_channels: set[int] = field(default_factory=set)  # the bot may not post there (403 50013)
    faults: list[Fault] = field(default_factory=list)  # answered before the route runs (see Fault)
    late_callbacks: int = 0  # the next interaction callbacks arrive after Discord's 3 s (10062)
    shards: int = 1  # the shard count GET /gateway/bot recommends
    max_concurrency: int = 1  # IDENTIFYs allowed per identify_spacing in each bucket (shard % max_concurrency)
    identify_spacing: float = 0.0  # 5.0 as on Discord: closer IDENTIFYs of a bucket get op 9 (0: not checked)


class World:
    """Everything the offline Discord knows, and the operations its REST routes and players perform."""

    def __init__(self) -> None:
        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.bot = User(self.application_id, "Charleston", bot=True)
        # Shaped like a real token (base64 of the bot id, a timestamp part, an HMAC part), but worthless.
        encoded_id = base64.b64encode(str(self.bot.id).encode()).decode().rstrip("=")
        self.token = f"{encoded_id}.ZZZZZZ.{secrets.token_urlsafe(27)}"
        self.base_url = ""
        self.behaviour = Behaviour()
        self.intents = 0
        self.clock_offset = 0.0
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.files: dict[int, Attachment] = {}
        self.commands: dict[int, Command] = {}
        self.interactions: dict[int, Interaction] = {}
        self.requests: list[RequestRecord] = []
        self.rest_calls: Counter[str] = Counter()
        self.invalid: list[InvalidRequest] = []
        self.unknown_routes: list[str] = []
        self.crashes: list[str] = []
        self.rate_limited: Counter[str] = Counter()
        self.faults_sent: list[RequestRecord] = []  # requests answered with a fault a test asked for
        self.dispatch: Callable[[str, dict[str, Any]], None] = lambda event, data: None
        self._changed = asyncio.Event()
        self.guild = self.add_guild("Charleston Test")
        self.general = self.add_text_channel(self.guild, "general")

    # -- time and waiting -------------------------------------------------------------------------------

    def now(self) -> float:
        """The world's clock (monotonic seconds), which a test may move forward with ``advance``."""
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Move the world's clock forward: deadlines (3 s, 15 min tokens) pass without waiting."""
        self.clock_offset += seconds

    def notify(self) -> None:
        """Wake everything waiting in ``wait_for`` (called after every change)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "a condition",
                       poll: float = 0.05) -> T:
        """Wait until ``predicate()`` is truthy and return its value; fail with a clear message on timeout.

        The predicate is checked after every change in the world, and every ``poll`` seconds for conditions
        outside it (a bot becoming ready).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (result := predicate()):
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = ", ".join(f"{r.key}->{r.status}" for r in self.requests[-8:])
                raise AssertionError(f"timed out after {timeout}s waiting for {what}; last requests: {recent}")
            try:
                await asyncio.wait_for(self._changed.wait(), min(remaining, poll))
            except TimeoutError:
                continue
        return result

    # -- people and places ---------------------------------------------------------------------------

    def add_guild(self, name: str, shard: tuple[int, int] | None = None) -> Guild:
        """A new guild the bot is a member of (with ``shard``, ``(id, count)``: one Discord puts on that shard)."""
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = Guild(gid, name, owner_id=self.bot.id)
        guild.members[self.bot.id] = Member(self.bot, guild.id)
        self.guilds[guild.id] = guild
        return guild

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        """A new text channel in a guild."""
        channel = Channel(self.ids.next(), TEXT, name=name, guild_id=guild.id, position=len(guild.channel_ids))
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        if self.intents & GUILDS:
            self.dispatch("CHANNEL_CREATE", channel.to_json())
        self.notify()
        return channel

    def add_user(self, name: str, *, dms_open: bool | None = None, guild: Guild | None = None) -> User:
        """The user with this name (created on first use, as a member of the guild); ``dms_open`` if given."""
        user = next((u for u in self.users.values() if u.name == name), None)
        if user is None:
            user = User(self.ids.next(), name)
            self.users[user.id] = user
        if dms_open is not None:
            user.dms_open = dms_open
        guild = guild or self.guild
        guild.members.setdefault(user.id, Member(user, guild.id))
        return user

    def member(self, guild: Guild, user: User) -> Member:
        """The user's membership of a guild."""
        return guild.members[user.id]

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild a channel belongs to (None for a DM)."""
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and this user (opened on first use)."""
        for channel in self.channels.values():
            if channel.type == DM and channel.recipient is user:
                return channel
        channel = Channel(self.ids.next(), DM, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def threads(self, guild: Guild) -> list[Channel]:
        """The guild's threads."""
        return [c for c in self.channels.values() if c.is_thread and c.guild_id == guild.id]

    def create_thread(self, parent: Channel, name: str, kind: int = PUBLIC_THREAD, *, thread_id: int | None = None,
                      invited: tuple[User, ...] = ()) -> Channel:
        """A thread under a text channel, owned by the bot (a thread from a message takes its id)."""
        if parent.type != TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        thread = Channel(thread_id or self.ids.next(), kind, name=name, guild_id=parent.guild_id,
                         parent_id=parent.id, owner_id=self.bot.id, member_ids={self.bot.id, *(u.id for u in invited)})
        self.channels[thread.id] = thread
        if self.intents & GUILDS:
            self.dispatch("THREAD_CREATE", {**thread.to_json(), "newly_created": True})
        self.notify()
        return thread

    def upload(self, filename: str, data: bytes, content_type: str | None = None,
               description: str | None = None, channel_id: int = 0) -> Attachment:
        """Store a file and give it a URL the double serves."""
        att_id = self.ids.next()
        url = f"{self.base_url}/attachments/{channel_id}/{att_id}/{filename}"
        attachment = Attachment(att_id, filename, data, url, description, content_type)
        self.files[att_id] = attachment
        return attachment

    # -- messages ---------------------------------------------------------------------------------------

    def post(self, channel: Channel, author: User, body: dict[str, Any], uploads: Sequence[Upload] = (),
             *, interaction: Interaction | None = None, msg_type: int = 0, extra_flags: int = 0) -> Message:
        """Create a message from a request body (content, embeds, components, attachments, flags)."""
        closed = channel.recipient is not None and not channel.recipient.dms_open
        # An interaction's answers reach the user even in a closed DM: they started it.
        if channel.type == DM and author is self.bot and closed and interaction is None:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.locked:
            raise DiscordError(403, 50083, "Thread is archived")
        flags = (int(body.get("flags") or 0) & SENDABLE_FLAGS) | extra_flags
        msg = Message(self.ids.next(), channel, author, type=msg_type, flags=flags, interaction=interaction)
        if interaction is not None:
            msg.webhook_id = self.application_id
            if flags & EPHEMERAL:
                msg.visible_to = interaction.user.id
        self._fill(msg, body, uploads, replace_attachments=True)
        channel.messages.append(msg)
        self.messages[msg.id] = msg
        self._announce("MESSAGE_CREATE", msg)
        self.notify()
        return msg

    def edit(self, msg: Message, body: dict[str, Any], uploads: Sequence[Upload] = ()) -> Message:
        """Apply an edit (only the keys given change); a deferred placeholder stops loading."""
        if msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        self._fill(msg, body, uploads, replace_attachments="attachments" in body)
        if "flags" in body:
            msg.flags = (msg.flags & EPHEMERAL) | (int(body.get("flags") or 0) & SENDABLE_FLAGS & ~EPHEMERAL)
        msg.flags &= ~LOADING
        msg.edited_at = time.time()
        msg.edits += 1
        self._announce("MESSAGE_UPDATE", msg)
        self.notify()
        return msg

    def delete(self, msg: Message) -> None:
        """Delete a message."""
        if msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        msg.deleted = True
        if msg.visible_to is None and self._may_see(msg.channel):
            data = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.channel.guild_id:
                data["guild_id"] = str(msg.channel.guild_id)
            self.dispatch("MESSAGE_DELETE", data)
        self.notify()

    def _fill(self, msg: Message, body: dict[str, Any], uploads: Sequence[Upload], *,
              replace_attachments: bool) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = _number_components(list(body["components"] or []))
        for upload in uploads:
            if len(upload.data) > self.behaviour.attachment_size_limit:
                raise DiscordError(413, 40005, "Request entity too large")
        if not replace_attachments:
            msg.attachments += [self._stored(msg, u, None) for u in uploads]
            return
        by_index = {u.index: u for u in uploads}
        kept: list[Attachment] = []
        for i, entry in enumerate(body.get("attachments") or []):
            ref = int(entry["id"])
            if ref in by_index:
                kept.append(self._stored(msg, by_index.pop(ref), entry))
            elif ref in self.files and any(a.id == ref for a in msg.attachments):
                kept.append(self.files[ref])
            else:
                raise DiscordError(400, 50035, "Invalid Form Body",
                                   {"attachments": {str(i): {"_errors": [{"code": "ATTACHMENT_NOT_FOUND",
                                                                           "message": f"Unknown attachment {ref}"}]}}})
        msg.attachments = kept + [self._stored(msg, u, None) for u in by_index.values()]

    def _stored(self, msg: Message, upload: Upload, entry: dict[str, Any] | None) -> Attachment:
        filename = (entry or {}).get("filename") or upload.filename
        description = (entry or {}).get("description")
        return self.upload(filename, upload.data, upload.content_type, description, channel_id=msg.channel.id)

    def _may_see(self, channel: Channel) -> bool:
        needed = DIRECT_MESSAGES if channel.type == DM else GUILD_MESSAGES
        return bool(self.intents & needed)

    def _announce(self, event: str, msg: Message) -> None:
        """Dispatch a message event the way the bot's intents allow (no ephemeral messages, content gated)."""
        if msg.visible_to is not None or not self._may_see(msg.channel):
            return
        data = msg.to_json(self.application_id)
        mentioned = self.bot.mention in msg.content
        if not (self.intents & MESSAGE_CONTENT) and msg.author is not self.bot and msg.channel.type != DM \
                and not mentioned:
            data.update(content="", embeds=[], attachments=[], components=[])
        guild = self.guild_of(msg.channel)
        if guild is not None and msg.author.id in guild.members:
            data["member"] = guild.members[msg.author.id].to_json(with_user=False)
        self.dispatch(event, data)

    # -- counters ---------------------------------------------------------------------------------------

    def latencies(self) -> list[float]:
        """Seconds from each interaction's dispatch to its first accepted response."""
        return [i.latency for i in self.interactions.values() if i.latency is not None]

    def latency_percentiles(self) -> dict[str, float]:
        """p50 and p99 of the interaction latencies (seconds), and how many there were."""
        values = sorted(self.latencies())
        if not values:
            return {"n": 0, "p50": 0.0, "p99": 0.0}
        p99 = values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
        return {"n": len(values), "p50": statistics.median(values), "p99": p99}

    def rate_limit(self, route: str, times: int = 1, retry_after: float = 0.05) -> None:
        """Answer the next ``times`` requests to ``route`` ("POST /channels/{channel_id}/messages") with 429."""
        self.behaviour.rate_limits[route] = [times, retry_after]

    def take_rate_limit(self, route: str) -> float | None:
        """If a 429 is due on this route, use it up and return its retry_after."""
        pending = self.behaviour.rate_limits.get(route)
        if not pending or pending[0] <= 0:
            return None
        pending[0] -= 1
        self.rate_limited[route] += 1
        return pending[1]

    def take_fault(self, route: str, channel_id: int | None) -> Fault | None:
        """The fault due for this request, if any (one of its ``times`` used up)."""
        for fault in self.behaviour.faults:
            if fault.matches(route, channel_id):
                fault.times -= 1
                return fault
        return None

    def forbidden(self, channel: Channel) -> bool:
        """Whether the bot may not write in ``channel`` (forbidden there, or in the channel a thread is in)."""
        forbidden = self.behaviour.forbidden_channels
        return channel.id in forbidden or (channel.parent_id is not None and channel.parent_id in forbidden)

    def check_writable(self, channel: Channel) -> None:
        """Refuse a write where the bot lacks the permission (50013), or in an archived thread (50083)."""
        if self.forbidden(channel):
            raise DiscordError(403, 50013, "Missing Permissions")
        if channel.is_thread and channel.archived:
            raise DiscordError(400, 50083, "Thread is archived")

    def permissions_changed(self, channel: Channel) -> None:
        """A channel's permissions changed: CHANNEL_UPDATE (THREAD_UPDATE for a thread), as Discord sends it."""
        if self.intents & GUILDS:
            self.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.to_json())
        self.notify()

    def archive(self, thread: Channel) -> None:
        """A thread is archived (by a moderator, or after a day without messages): THREAD_UPDATE is sent."""
        thread.archived = True
        if self.intents & GUILDS:
            self.dispatch("THREAD_UPDATE", thread.to_json())
        self.notify()

    def permissions_for(self, user: User, guild: Guild | None = None) -> str:
        """A member's permissions in a guild's channels: every permission unless the test gave them fewer."""
        member = (guild or self.guild).members.get(user.id)
        return member.permissions if member is not None and member.permissions is not None else ALL_PERMISSIONS

    def remove_channel(self, channel: Channel) -> None:
        """Delete a guild channel or thread (the world forgets it; its messages go with it, and a channel's threads
        with it: Discord sends CHANNEL_DELETE for the channel alone)."""
        for thread in [c for c in self.channels.values() if c.parent_id == channel.id and c.is_thread]:
            del self.channels[thread.id]
        del self.channels[channel.id]
        guild = self.guilds.get(channel.guild_id or 0)
        if guild is not None and channel.id in guild.channel_ids:
            guild.channel_ids.remove(channel.id)
        if self.intents & GUILDS:
            self.dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", channel.to_json())
        self.notify()


def _number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every component a numeric ``id`` as Discord does (counting depth first from 1)."""
    counter = 0

    def walk(comp: dict[str, Any]) -> dict[str, Any]:
        nonlocal counter
        counter += 1
        out = dict(comp)
        if out.get("id") is None:
            out["id"] = counter
        if isinstance(out.get("components"), list):
            out["components"] = [walk(c) for c in out["components"]]
        for key in ("accessory", "component"):
            if isinstance(out.get(key), dict):
                out[key] = walk(out[key])
        return out

    return [walk(c) for c in components]
