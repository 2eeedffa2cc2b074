"""The things the offline Discord keeps, each able to render itself as Discord's JSON."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7

TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12


class Snowflakes:
    """Rising snowflake ids whose timestamp part is the current time (discord.py reads it for created_at)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """A fresh id, greater than every id handed out before."""
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(now, self._last + 1)
        return self._last

    def next_on_shard(self, shard: int, count: int) -> int:
        """A fresh id of a guild Discord puts on ``shard`` of ``count`` (``(id >> 22) % count``)."""
        moment = (self.next() >> 22) + 1
        while moment % count != shard:
            moment += 1
        self._last = moment << 22
        return self._last


def iso(ts: float) -> str:
    """Discord's ISO-8601 timestamp for a Unix time."""
    return datetime.fromtimestamp(ts, UTC).isoformat()


@dataclass(eq=False)
class User:
    """A Discord user; ``dms_open=False`` makes a DM to them fail with 50007."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}{'' if self.dms_open else ' DMs closed'}>"

    def to_json(self) -> dict[str, Any]:
        """The user object."""
        return {
            "id": str(self.id), "username": self.name, "discriminator": "0",
            "global_name": None if self.bot else self.name.title(), "avatar": None, "bot": self.bot,
            "public_flags": 0, "flags": 0, "banner": None, "accent_color": None, "avatar_decoration_data": None,
        }

    @property
    def mention(self) -> str:
        """The mention markup for this user."""
        return f"<@{self.id}>"


@dataclass(eq=False)
class Member:
    """A user's membership of a guild."""

    user: User
    guild_id: int
    joined_at: float = field(default_factory=time.time)
    nick: str | None = None
    permissions: str | None = None  # in the guild's channels; None: every permission

    def to_json(self, *, with_user: bool = True, permissions: str | None = None) -> dict[str, Any]:
        """The guild member object (optionally without its user, as in ``resolved.members``)."""
        data: dict[str, Any] = {
            "roles": [], "joined_at": iso(self.joined_at), "nick": self.nick, "avatar": None, "banner": None,
            "deaf": False, "mute": False, "flags": 0, "pending": False, "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.to_json()
        if permissions is not None:
            data["permissions"] = permissions
        return data


@dataclass(eq=False)
class Attachment:
    """An uploaded file: its bytes are kept so tests can open it; ``description`` is its alt text."""

    id: int
    filename: str
    data: bytes
    url: str
    description: str | None = None
    content_type: str | None = None

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {len(self.data)} bytes alt={self.description!r}>"

    def size_px(self) -> tuple[int, int] | None:
        """Width and height read from a PNG header, None for anything else."""
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            return int.from_bytes(self.data[16:20], "big"), int.from_bytes(self.data[20:24], "big")
        return None

    def to_json(self) -> dict[str, Any]:
        """The attachment object, with a URL the double serves."""
        data: dict[str, Any] = {
            "id": str(self.id), "filename": self.filename, "size": len(self.data), "url": self.url,
            "proxy_url": self.url, "content_type": self.content_type, "flags": 0,
        }
        if self.description is not None:
            data["description"] = self.description
        size = self.size_px()
        if size:
            data["width"], data["height"] = size
        return data


@dataclass(eq=False)
class Channel:
    """A text channel, a thread or a DM channel; its messages include ephemeral ones (see Message.visible_to)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: User | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    created_at: float = field(default_factory=time.time)
    member_ids: set[int] = field(default_factory=set)
    messages: list[Message] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<Channel {self.id} type={self.type} {self.name or self.recipient!r}>"

    @property
    def is_thread(self) -> bool:
        """True for public and private threads."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def live_messages(self) -> list[Message]:
        """Messages not deleted, oldest first (ephemeral ones included)."""
        return [m for m in self.messages if not m.deleted]

    def to_json(self) -> dict[str, Any]:
        """The channel object for this channel's type."""
        last = self.live_messages[-1].id if self.live_messages else None
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "last_message_id": _sid(last), "flags": 0}
        if self.type == DM:
            assert self.recipient is not None
            data["recipients"] = [self.recipient.to_json()]
            return data
        data.update({"guild_id": _sid(self.guild_id), "name": self.name, "parent_id": _sid(self.parent_id),
                     "rate_limit_per_user": 0, "nsfw": False})
        if self.is_thread:
            data.update({
                "owner_id": _sid(self.owner_id), "message_count": len(self.live_messages),
                "member_count": len(self.member_ids), "total_message_sent": len(self.messages),
                "thread_metadata": {"archived": self.archived, "auto_archive_duration": 1440,
                                    "archive_timestamp": iso(self.created_at), "locked": self.locked,
                                    "create_timestamp": iso(self.created_at), "invitable": True},
            })
        else:
            data.update({"position": self.position, "permission_overwrites": [], "topic": None})
        return data


def _sid(value: int | None) -> str | None:
    return None if value is None else str(value)


@dataclass(eq=False)
class Message:
    """A message as the world keeps it; ``visible_to`` is set for an ephemeral one (only that user sees it)."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    visible_to: int | None = None
    interaction: Interaction | None = None
    webhook_id: int | None = None
    deleted: bool = False
    edits: int = 0

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        extra += " deleted" if self.deleted else ""
        return (f"<Message {self.id} in {self.channel.name or 'DM'} by {self.author.name}{extra}: {self.content[:60]!r}"
                f" components={self.custom_ids} files={[a.filename for a in self.attachments]}>")

    @property
    def ephemeral(self) -> bool:
        """True for a message only one user can see."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while the message is a deferred 'thinking...' placeholder."""
        return bool(self.flags & LOADING)

    def visible(self, user: User) -> bool:
        """Whether this user can see the message (a private thread shows only to its members)."""
        if self.channel.type == PRIVATE_THREAD and user.id not in self.channel.member_ids:
            return False
        return not self.deleted and (self.visible_to is None or self.visible_to == user.id)

    def walk_components(self) -> list[dict[str, Any]]:
        """Every component in the message, rows and their children, depth first."""
        found: list[dict[str, Any]] = []
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            found.append(comp)
            children = list(comp.get("components") or [])
            for key in ("accessory", "component"):
                if isinstance(comp.get(key), dict):
                    children.append(comp[key])
            stack.extend(reversed(children))
        return found

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The component with this custom_id, if the message has one."""
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    @property
    def custom_ids(self) -> list[str]:
        """The custom_ids of every interactive component, in order."""
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def to_json(self, application_id: int | None = None) -> dict[str, Any]:
        """The message object."""
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel.id), "type": self.type, "content": self.content,
            "author": self.author.to_json(), "embeds": self.embeds, "components": self.components,
            "attachments": [a.to_json() for a in self.attachments], "flags": self.flags,
            "timestamp": iso(self.created_at), "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
        }
        if self.channel.guild_id is not None:
            data["guild_id"] = str(self.channel.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(application_id or self.webhook_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata()
        return data


@dataclass(eq=False)
class Command:
    """An application command as synced by the bot (the body it sent, plus the id Discord gave it)."""

    id: int
    application_id: int
    guild_id: int | None
    body: dict[str, Any]
    version: int

    @property
    def name(self) -> str:
        """The command's name."""
        return str(self.body["name"])

    def to_json(self) -> dict[str, Any]:
        """The application command object Discord answers with."""
        data: dict[str, Any] = {"type": 1, "description": "", "options": [], "default_member_permissions": None,
                                "nsfw": False, "contexts": None, "integration_types": [0]}
        data.update(self.body)
        data.update({"id": str(self.id), "application_id": str(self.application_id), "version": str(self.version)})
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass(eq=False)
class Interaction:
    """One interaction a player started, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    message: Message | None
    clock_at: float
    perf_at: float
    name: str | None = None
    response_type: int | None = None
    responded_perf: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    errors: list[int] = field(default_factory=list)
    expired: bool = False  # its first response came too late (10062): its token is dead

    def __repr__(self) -> str:
        what = self.name or self.data.get("custom_id")
        return f"<Interaction {self.id} type={self.type} {what!r} by {self.user.name} response={self.response_type}>"

    @property
    def responded(self) -> bool:
        """True once the bot gave its initial response."""
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the bot's first (accepted) response."""
        return None if self.responded_perf is None else self.responded_perf - self.perf_at

    @property
    def messages(self) -> list[Message]:
        """The original response message (if it made one) and the followups, live ones only."""
        found = ([self.original] if self.original is not None and self.original is not self.message else [])
        return [m for m in found + self.followups if not m.deleted]

    def metadata(self) -> dict[str, Any]:
        """The ``interaction_metadata`` a response message carries."""
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "user": self.user.to_json(),
                                "authorizing_integration_owners": {}}
        if self.name is not None:
            data["name"] = self.name
        return data


# Every permission bit up to 2**50, Administrator included: the bot and players may do anything.
ALL_PERMISSIONS = str((1 << 50) - 1)
ADMINISTRATOR, MANAGE_GUILD = 1 << 3, 1 << 5
# A member who is not a server manager: everything but Administrator and Manage Server.
MEMBER_PERMISSIONS = str(int(ALL_PERMISSIONS) & ~ADMINISTRATOR & ~MANAGE_GUILD)


@dataclass(eq=False)
class Guild:
    """A guild: its members and the ids of its channels (the channels live in the world's table)."""

    id: int
    name: str
    owner_id: int
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    created_at: float = field(default_factory=time.time)

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"

    def role_json(self) -> dict[str, Any]:
        """The @everyone role (its id is the guild's)."""
        return {"id": str(self.id), "name": "@everyone", "permissions": ALL_PERMISSIONS, "position": 0, "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
                "unicode_emoji": None}

    def to_json(self, channels: list[Channel], threads: list[Channel], bot: Member) -> dict[str, Any]:
        """The GUILD_CREATE payload: without the privileged members intent only the bot's own member."""
        return {
            "id": str(self.id), "name": self.name, "owner_id": str(self.owner_id), "icon": None, "splash": None,
            "discovery_splash": None, "banner": None, "description": None, "features": [],
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0, "premium_subscription_count": 0,
            "preferred_locale": "en-US", "afk_channel_id": None, "afk_timeout": 300, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "public_updates_channel_id": None,
            "vanity_url_code": None, "application_id": None, "max_members": 500000, "max_video_channel_users": 25,
            "premium_progress_bar_enabled": False, "roles": [self.role_json()], "emojis": [], "stickers": [],
            "joined_at": iso(bot.joined_at), "large": False, "unavailable": False,
            "member_count": len(self.members), "voice_states": [], "members": [bot.to_json()],
            "channels": [c.to_json() for c in channels], "threads": [t.to_json() for t in threads],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }
