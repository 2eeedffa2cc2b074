"""The test-facing face of the offline Discord: players, channels, behaviours on demand, and running a bot."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TypeVar

import discord
import yarl

from .gateway import Gateway
from .models import MEMBER_PERMISSIONS, Channel, Guild, Message
from .players import Player
from .server import DiscordDouble
from .world import Fault, World

# What Discord's edge answers when it is overloaded: a 503 with a plain-text body.
OVERLOADED = "upstream connect error or disconnect/reset before headers. reset reason: overflow"

T = TypeVar("T")
BotT = TypeVar("BotT", bound=discord.Client)


@contextlib.contextmanager
def discord_pointed_at(api_base: str, gateway_url: str) -> Iterator[None]:
    """Point this process's discord.py at another Discord (the two base URLs), restoring them after."""
    old_base, old_gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


class Double:
    """A running offline Discord: one guild with ``#general``, the bot's token, and scripted players."""

    def __init__(self, server: DiscordDouble) -> None:
        self.server = server
        self.world: World = server.world
        self.gateway: Gateway = server.gateway
        self._expected_invalid = 0
        self._expect_unknown = False
        self._expect_too_soon = False

    # -- where it is ----------------------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        """``http://127.0.0.1:<port>/api/v10`` (DISCORD_API_BASE)."""
        return self.server.api_base

    @property
    def gateway_url(self) -> str:
        """``ws://127.0.0.1:<port>/gateway/`` (DISCORD_GATEWAY_URL)."""
        return self.server.gateway_url

    @property
    def token(self) -> str:
        """The bot token the double accepts."""
        return self.world.token

    def env(self) -> dict[str, str]:
        """Environment variables for a bot process: DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL."""
        return {"DISCORD_TOKEN": self.token, "DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url}

    # -- the world --------------------------------------------------------------------------------------

    @property
    def guild_id(self) -> int:
        """The id of the guild everyone is in."""
        return self.world.guild.id

    @property
    def general(self) -> Channel:
        """The guild's ``#general`` text channel."""
        return self.world.general

    def channel(self, name: str, guild: Guild | None = None) -> Channel:
        """A text channel of the guild (or of another ``guild``) by name (created on first use)."""
        guild = guild or self.world.guild
        for cid in guild.channel_ids:
            if self.world.channels[cid].name == name:
                return self.world.channels[cid]
        return self.world.add_text_channel(guild, name)

    def add_guild(self, name: str, *, shard: int | None = None) -> Guild:
        """Another guild with its own ``#general``, the bot a member (announced at once to the shard that holds it,
        if connected). With ``shard``, its id puts it on that shard of :meth:`shard`'s count."""
        guild = self.world.add_guild(name, None if shard is None else (shard, self.world.behaviour.shards))
        self.world.add_text_channel(guild, "general")
        channels = [self.world.channels[c] for c in guild.channel_ids]
        self.gateway.dispatch("GUILD_CREATE", guild.to_json(channels, [], guild.members[self.world.bot.id]))
        return guild

    def shard(self, count: int, *, max_concurrency: int = 1, identify_spacing: float = 5.0) -> None:
        """Discord recommends ``count`` shards (GET /gateway/bot) with this ``max_concurrency``, and refuses with op 9
        an IDENTIFY less than ``identify_spacing`` seconds after another of its bucket (``shard % max_concurrency``)
        (a test fails at teardown if that happened, unless it called :meth:`expect_identify_too_soon`)."""
        behaviour = self.world.behaviour
        behaviour.shards, behaviour.max_concurrency = count, max_concurrency
        behaviour.identify_spacing = identify_spacing

    def guild_shard(self, guild: Guild | None = None) -> int:
        """The shard a guild is on, of :meth:`shard`'s count."""
        return ((guild or self.world.guild).id >> 22) % self.world.behaviour.shards

    def user(self, name: str, *, dms_open: bool | None = None, guild: Guild | None = None,
             manager: bool | None = None) -> Player:
        """A guild member acting in #general (created on first use; ``dms_open=False``: DMs to them fail). With
        ``guild``, a member of that guild acting in its #general; ``manager=False`` takes Manage Server and
        Administrator from their permissions there (everyone has every permission otherwise)."""
        guild = guild or self.world.guild
        user = self.world.add_user(name, dms_open=dms_open, guild=guild)
        if manager is not None:
            guild.members[user.id].permissions = None if manager else MEMBER_PERMISSIONS
        return Player(self.world, user, self.channel("general", guild))

    def forbid(self, channel: Channel, forbidden: bool = True) -> None:
        """The bot may no longer write in ``channel`` and its threads (403, 50013 Missing Permissions: posting,
        editing, deleting, opening threads), or may again (CHANNEL_UPDATE tells the bot, as Discord does when a
        channel's permissions change)."""
        if forbidden:
            self.world.behaviour.forbidden_channels.add(channel.id)
        else:
            self.world.behaviour.forbidden_channels.discard(channel.id)
            self.world.permissions_changed(channel)

    def delete_channel(self, channel: Channel) -> None:
        """Someone deletes a channel or a thread (the bot is told, as by Discord: THREAD_DELETE for a thread,
        CHANNEL_DELETE for a channel, whose threads go with it)."""
        self.world.remove_channel(channel)

    def archive(self, thread: Channel) -> None:
        """Someone archives a thread (or a day passes without a message): THREAD_UPDATE; edits there get 50083."""
        self.world.archive(thread)

    def delete_message(self, message: Message) -> None:
        """Someone deletes a message (MESSAGE_DELETE; 10008 afterwards)."""
        self.world.delete(message)

    def threads(self) -> list[Channel]:
        """The threads of the guild."""
        return self.world.threads(self.world.guild)

    def last_message(self, channel: Channel | None = None) -> Message | None:
        """The newest message everyone can see in a channel (ephemeral ones left out)."""
        public = [m for m in (channel or self.general).live_messages if m.visible_to is None]
        return public[-1] if public else None

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "a condition") -> T:
        """Wait until ``predicate()`` is truthy (checked on every change) and return it; AssertionError on timeout."""
        return await self.world.wait_for(predicate, timeout, what)

    async def wait_for_commands(self, *names: str, guild: bool = True, timeout: float = 10.0) -> None:
        """Wait until the bot has synced these commands (to the guild, or globally with ``guild=False``)."""
        gid = self.guild_id if guild else None

        def synced() -> bool:
            have = {c.name for c in self.world.commands.values() if c.guild_id == gid}
            return set(names) <= have

        await self.wait_for(synced, timeout, f"commands {names} to be synced")

    # -- Discord's behaviours on demand ----------------------------------------------------------------------

    def rate_limit(self, route: str, times: int = 1, retry_after: float = 0.05) -> None:
        """The next ``times`` requests to ``route`` (``"POST /channels/{channel_id}/messages"``) get 429."""
        self.world.rate_limit(route, times, retry_after)

    def fail(self, route: str, status: int, code: int = 0, message: str = "", *, times: int = 1,
             channel: Channel | None = None, text: str | None = None, headers: dict[str, str] | None = None) -> None:
        """Answer the next ``times`` requests to ``route`` (in ``channel``) with an error as Discord sends it:
        ``status`` with ``{"code", "message"}`` (or a plain ``text`` body) and ``headers``."""
        self.world.behaviour.faults.append(Fault(route, status, code, message, text, dict(headers or {}), times,
                                                 channel.id if channel else None))

    def overloaded(self, route: str, *, times: int = 1, channel: Channel | None = None) -> None:
        """Discord's edge answers the next requests to ``route`` with 503 and a plain-text body (discord.py does
        not retry a 503: it raises)."""
        self.fail(route, 503, text=OVERLOADED, times=times, channel=channel, headers={"Via": "1.1 google"})

    def stall(self, route: str, seconds: float, *, times: int = 1, channel: Channel | None = None) -> None:
        """The next requests to ``route`` (in ``channel``) get no answer for ``seconds``: a bot that gives up first
        sees a timeout, and the request is dropped unprocessed."""
        self.world.behaviour.faults.append(Fault(route, times=times, channel_id=channel.id if channel else None,
                                                 stall=seconds))

    def late_callbacks(self, times: int = 1) -> None:
        """The bot's first response to the next ``times`` interactions arrives after Discord's 3 s: 404, 10062
        (the player sees "This interaction failed") and the interaction's token is dead afterwards (10015)."""
        self.world.behaviour.late_callbacks += times

    def advance(self, seconds: float) -> None:
        """Move Discord's clock: an interaction older than 3 s (or a token older than 15 min) expires."""
        self.world.advance(seconds)

    async def reconnect(self, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT and wait for the bot's RESUME (dispatches meanwhile are replayed)."""
        resumes = self.gateway.resumes
        await self.gateway.reconnect()
        await self.wait_for(lambda: self.gateway.resumes > resumes and self.gateway.connected, timeout,
                            "the bot to RESUME after op 7")

    async def close_gateway(self, code: int = 4000, *, resumable: bool = True, timeout: float = 15.0) -> None:
        """Close the bot's gateway connection with ``code`` and wait for it to come back: RESUME when
        ``resumable``, else a fresh IDENTIFY (the session is gone, and what was dispatched meanwhile with it)."""
        resumes, identifies = self.gateway.resumes, self.gateway.identifies
        await self.gateway.close(code, resumable=resumable)
        await self._back(resumable, resumes, identifies, timeout, f"the bot to come back after close code {code}")

    async def invalidate_session(self, resumable: bool, timeout: float = 15.0) -> None:
        """Send op 9 INVALID_SESSION and wait for the bot's RESUME (``resumable``) or new IDENTIFY."""
        resumes, identifies = self.gateway.resumes, self.gateway.identifies
        await self.gateway.invalidate(resumable)
        await self._back(resumable, resumes, identifies, timeout, f"the bot to come back after op 9 ({resumable})")

    async def _back(self, resumed: bool, resumes: int, identifies: int, timeout: float, what: str) -> None:
        def back() -> bool:
            again = self.gateway.resumes > resumes if resumed else self.gateway.identifies > identifies
            return again and self.gateway.connected

        await self.wait_for(back, timeout, what)

    def expect_invalid(self, count: int = 1) -> None:
        """Declare that this test sends ``count`` invalid bodies on purpose (the teardown check allows them)."""
        self._expected_invalid += count

    def expect_unknown_routes(self) -> None:
        """Declare that this test calls routes the double does not serve on purpose."""
        self._expect_unknown = True

    def expect_identify_too_soon(self) -> None:
        """Declare that this test's bots IDENTIFY faster than Discord allows on purpose."""
        self._expect_too_soon = True

    def problems(self) -> list[str]:
        """What the teardown check reports: invalid bodies, unknown routes, crashes of the double."""
        found = [f"double crashed: {c}" for c in self.world.crashes]
        if len(self.world.invalid) != self._expected_invalid:
            found += [f"invalid body for {i.method} {i.route}: {i.errors}" for i in self.world.invalid]
            if self._expected_invalid:
                found.append(f"expected {self._expected_invalid} invalid request(s), got {len(self.world.invalid)}")
        if self.world.unknown_routes and not self._expect_unknown:
            found += [f"route the double does not serve: {r}" for r in self.world.unknown_routes]
        if not self._expect_too_soon:
            found += [f"IDENTIFY of shard {shard} came {gap:.2f}s after another of its bucket (Discord allows "
                      f"{self.world.behaviour.max_concurrency} per {self.world.behaviour.identify_spacing:g}s)"
                      for shard, gap in self.gateway.too_soon]
        return found

    # -- running a bot in this process ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def running(self, bot: BotT, timeout: float = 10.0) -> AsyncIterator[BotT]:
        """Start ``bot`` against the double, wait for ``on_ready``, and close it on exit.

        The bot's ``guild_ready_timeout`` (discord.py waits that long after the last GUILD_CREATE) is lowered to
        0.05 s so tests start fast.
        """
        with discord_pointed_at(self.api_base, self.gateway_url):
            bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, 0.05)
            task = asyncio.create_task(bot.start(self.token))

            def ready() -> bool:
                if task.done():
                    task.result()
                    raise AssertionError("the bot stopped before it was ready")
                return bot.is_ready()

            try:
                await self.wait_for(ready, timeout, "the bot to be ready")
                yield bot
            finally:
                await bot.close()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, timeout)

