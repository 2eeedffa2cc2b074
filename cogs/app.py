"""The Discord bot: a ``commands.Bot`` over the table service, its start-up, its one error path, its shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Iterator

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.service.clock import Clock
from bot.service.cluster import Shards
from bot.service.leagues import LeagueService
from bot.service.tables import TableService
from bot.service.weekly import DEFAULT_OWNER, WeeklyPosts
from bot.settings import Settings

from .cluster import ClusterRouter
from .components import DYNAMIC_ITEMS, answer_removed, shows_component
from .controls import Controls
from .door import Backoff, Door
from .drawing import Drawing
from .keeper import Keeper
from .poster import WeeklyPoster
from .presenter import Presenter
from .replies import report_error

log = logging.getLogger("charleston.discord")

EXTENSIONS = ("cogs.general", "cogs.tables", "cogs.play", "cogs.league", "cogs.cards")


class CharlestonTree(app_commands.CommandTree["CharlestonBot"]):
    """The command tree, with the cogs' one error path."""

    async def on_error(self, interaction: discord.Interaction[CharlestonBot],
                       error: app_commands.AppCommandError) -> None:
        """Answer the user and log what they can't see."""
        await report_error(interaction, error)


class CharlestonBot(commands.Bot):
    """The bot process: opens the database, restores the tables, loads the cogs and runs the tables' clock."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None, computer_delay: float = 1.5,
                 extensions: tuple[str, ...] = EXTENSIONS, seeds: Iterator[int] | None = None,
                 backoff: Backoff | None = None, request_timeout: float = 15.0) -> None:
        point_discord_at(settings.api_base, settings.gateway_url)
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         tree_cls=CharlestonTree, help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True))
        self.settings = settings
        self._clock = clock
        self._computer_delay = computer_delay
        self._seeds = seeds
        self._extensions = extensions
        self._service: TableService | None = None
        self._leagues: LeagueService | None = None
        self._poster: WeeklyPoster | None = None
        self._stop_clock = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None
        self.drawing = Drawing(settings.render_workers)
        self.door = Door(self, timeout=request_timeout, backoff=backoff)  # every Discord call that may fail
        self.presenter = Presenter(self, settings.refresh_seconds)
        self.keeper = Keeper(self)
        self.controls = Controls(self)
        # Several processes, each running some of the shards (cogs/cluster.py); None: this process runs them all.
        self.cluster: ClusterRouter | None = None
        if settings.sharded and settings.shard_count is not None and settings.shard_ids is not None:
            self.cluster = ClusterRouter(self, Shards(settings.shard_count, settings.shard_ids))

    @property
    def service(self) -> TableService:
        """The table service (open once :meth:`setup_hook` has run)."""
        if self._service is None:
            raise RuntimeError("the bot has not started")
        return self._service

    @property
    def leagues(self) -> LeagueService:
        """The league service (open once :meth:`setup_hook` has run)."""
        if self._leagues is None:
            raise RuntimeError("the bot has not started")
        return self._leagues

    @property
    def poster(self) -> WeeklyPoster:
        """The weekly standings poster (running once :meth:`setup_hook` has run)."""
        if self._poster is None:
            raise RuntimeError("the bot has not started")
        return self._poster

    async def setup_hook(self) -> None:
        """Open and migrate the database, restore every open table (and the cards servers imported), load the
        cogs, start the clock and the weekly poster, sync."""
        cluster = self.cluster
        self._service = service = await TableService.open(self.settings.db_path, clock=self._clock,
                                                          computer_delay=self._computer_delay, seeds=self._seeds,
                                                          thinkers=self.settings.think_workers,
                                                          shards=cluster.restored if cluster else None,
                                                          before_restore=cluster.join() if cluster else None)
        self._leagues = LeagueService(service.db, service.clock)
        imported = await self._leagues.cards.load_all()  # restoring the tables registered them already
        self._leagues.watch(service)
        log.info("database %s: %d open table(s) restored, %d imported card(s)", self.settings.db_path,
                 len(service.table_ids()), imported)
        for extension in self._extensions:
            await self.load_extension(extension)
        await self.add_cog(self.keeper)  # listens for deleted threads and messages, and permissions coming back
        self.add_dynamic_items(*DYNAMIC_ITEMS)  # every button drawn before a restart works after it
        self.presenter.start()
        await self.presenter.refresh_all()
        self._clock_task = asyncio.create_task(self.service.run(self._stop_clock), name="table clock")
        owner = cluster.name if cluster else DEFAULT_OWNER  # whose claims a restart finds its own
        self._poster = WeeklyPoster(self, WeeklyPosts(service.db, service.clock, owner))
        self._poster.start()
        guild = discord.Object(self.settings.guild_id) if self.settings.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if cluster is not None:
            await cluster.start(guild)  # interactions handed between processes; commands synced by one of them
            return
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d command(s) %s", len(synced), f"to guild {guild.id}" if guild else "globally")

    async def on_interaction(self, interaction: discord.Interaction[CharlestonBot]) -> None:
        """Every press gets an answer: one of a component the bot removed a moment before (the table message is
        re-edited as the game moves) is not dispatched by discord.py, so it is handled here; and a person's latest
        interaction in a table's thread is kept (a player with closed DMs is told of her moves through it)."""
        if interaction.guild_id is not None:
            self.presenter.saw(interaction)
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        custom_id = str(interaction.data.get("custom_id") or "")
        if custom_id and not shows_component(interaction.message, custom_id):
            await answer_removed(interaction, custom_id)

    async def on_message(self, message: discord.Message) -> None:
        """Someone posted in a table's thread: the table message moves back to the bottom at its next update."""
        if self.user is not None and message.author.id != self.user.id:
            self.presenter.something_posted(message.channel.id)

    async def close(self) -> None:
        """Stop the clock, let in-flight actions finish, close the database, then disconnect."""
        self._stop_clock.set()
        if self._poster is not None:
            await self._poster.stop()
        if self._clock_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._clock_task, timeout=10)
        if self._service is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.presenter.settle(), timeout=5)
            self.presenter.stop()
            service, self._service = self._service, None
            await service.close()
        if self.cluster is not None:
            await self.cluster.close()
        self.drawing.close()
        await super().close()


class ShardedCharlestonBot(CharlestonBot, commands.AutoShardedBot):
    """The bot running the shards ``CHARLESTON_SHARD_IDS`` of ``CHARLESTON_SHARD_COUNT`` (discord.py's
    AutoShardedBot); other processes may run the rest (cogs/cluster.py)."""

    async def connect(self, *, reconnect: bool = True) -> None:
        """Connect the shards the settings name (discord.py launches ``shard_ids`` of ``shard_count``)."""
        if self.settings.shard_count is not None:
            self.shard_count = self.settings.shard_count
            self.shard_ids = list(self.settings.shard_ids) if self.settings.shard_ids is not None else None
        await super().connect(reconnect=reconnect)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for the shard's turn to IDENTIFY across every process of the bot (discord.py spaces IDENTIFYs
        within one process only)."""
        if self.cluster is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        await self.cluster.identify(shard_id, initial=initial)


def make_bot(settings: Settings) -> CharlestonBot:
    """The bot the settings ask for: sharded when they name a shard count, else one process with every shard."""
    return (ShardedCharlestonBot if settings.shard_count is not None else CharlestonBot)(settings)


def point_discord_at(api_base: str, gateway_url: str) -> None:
    """Send discord.py's REST calls and gateway connection to these addresses (a proxy, or an offline Discord)."""
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def run_bot(settings: Settings) -> int:
    """Run until SIGINT or SIGTERM, then shut down cleanly; returns the exit status (1: a cluster that lost its
    shards' database connection stopped)."""
    bot = make_bot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(settings.token))
        stopping = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if running in done:
            stopping.cancel()
            running.result()  # a login failure or a crash: raised to the caller
            return 1 if bot.cluster is not None and bot.cluster.failed else 0
        log.info("stopping: finishing in-flight actions")
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await running
    return 0
