"""The wiring of the Discord layer: :class:`CharlestonBot` opens the services, builds every part with what it uses
(the door, the drawing, the DMs, the presenter, the keeper, the controls, the press router, the weekly poster and
the command groups), and hands each its collaborators in its constructor. It is the one module that holds the
parts: no other reaches one through the bot (tests/house/test_layout.py). Its start-up, its one error path, its
shutdown.
"""

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
from bot.service.nights import Nights
from bot.service.stats import StatsService
from bot.service.tables import TableService
from bot.service.weekly import DEFAULT_OWNER, WeeklyPosts
from bot.settings import Settings

from .cluster import ClusterRouter
from .commands.card_desk import CardDesk
from .commands.cards import CardAdmin, Cards
from .commands.general import General
from .commands.leagues import League, LeagueAdmin
from .commands.moves import Play
from .commands.seat import Seat
from .commands.standings import Standings
from .commands.stats import Stats
from .commands.tables import Tables
from .door import Door
from .failures import Backoff, DiscordFailure
from .keeper import Keeper
from .pacer import Pacer, share
from .press.controls import Controls
from .press.replies import report_error
from .press.router import PressRouter
from .show.dms import Dms
from .show.drawing import Drawing
from .show.night_runner import NightRunner
from .show.poster import WeeklyPoster
from .show.presenter import Presenter, ShownTable

log = logging.getLogger("charleston.discord")


class CharlestonTree(app_commands.CommandTree["CharlestonBot"]):
    """The command tree, with the cogs' one error path."""

    async def on_error(self, interaction: discord.Interaction[CharlestonBot],
                       error: app_commands.AppCommandError) -> None:
        """Answer the user and log what they can't see."""
        await report_error(self.client.door, interaction, error)


class CharlestonBot(commands.Bot):
    """The bot process: opens the database, restores the tables, builds the Discord layer and runs the tables'
    clock."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None, computer_delay: float = 1.5,
                 seeds: Iterator[int] | None = None, backoff: Backoff | None = None,
                 request_timeout: float = 15.0) -> None:
        point_discord_at(settings.api_base, settings.gateway_url)
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         tree_cls=CharlestonTree, help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True))
        self.settings = settings
        self._clock = clock
        self._computer_delay = computer_delay
        self._seeds = seeds
        self._service: TableService | None = None
        self._leagues: LeagueService | None = None
        self._poster: WeeklyPoster | None = None
        self._nights: Nights | None = None  # league nights (issue 31): the service, and
        self.night_runner: NightRunner | None = None  # what carries out their steps in Discord
        self._stop_clock = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None
        self.door = Door(self, timeout=request_timeout, backoff=backoff)  # every Discord call that may fail
        # Every request counted against the bot's global limit waits for this process's share of it (cogs/pacer.py).
        ours = len(settings.shard_ids) if settings.shard_ids is not None else 1
        self.pacer = Pacer(share(settings.global_limit, ours, (settings.shard_count or 1) if settings.shard_ids else 1))
        self.pacer.install(self.http)
        self.drawing = Drawing(settings.render_workers)
        # Several processes, each running some of the shards (cogs/cluster.py); None: this process runs them all.
        self.cluster: ClusterRouter | None = None
        if settings.sharded and settings.shard_count is not None and settings.shard_ids is not None:
            self.cluster = ClusterRouter(self, self.door, Shards(settings.shard_count, settings.shard_ids))
        # Built once the services are open (setup_hook): they need them.
        self._dms: Dms | None = None
        self._presenter: Presenter | None = None
        self._keeper: Keeper | None = None
        self._router: PressRouter | None = None

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
    def nights(self) -> Nights:
        """The league nights (open once :meth:`setup_hook` has run)."""
        if self._nights is None:
            raise RuntimeError("the bot has not started")
        return self._nights

    @property
    def poster(self) -> WeeklyPoster:
        """The weekly standings poster (running once :meth:`setup_hook` has run)."""
        if self._poster is None:
            raise RuntimeError("the bot has not started")
        return self._poster

    @property
    def presenter(self) -> Presenter:
        """The table messages (built in :meth:`setup_hook`)."""
        if self._presenter is None:
            raise RuntimeError("the bot has not started")
        return self._presenter

    @property
    def dms(self) -> Dms:
        """The players' DMs (built in :meth:`setup_hook`)."""
        if self._dms is None:
            raise RuntimeError("the bot has not started")
        return self._dms

    async def setup_hook(self) -> None:
        """Open and migrate the database, restore every open table (and the cards servers imported), build the
        Discord layer, start the clock and the weekly poster, sync."""
        service, leagues = await self._open_services()
        for cog in self._wire(service, leagues):
            await self.add_cog(cog)
        self.presenter.start()
        await self.presenter.refresh_all()
        self._clock_task = asyncio.create_task(service.run(self._stop_clock), name="table clock")
        self.poster.start()
        if self.night_runner is not None:
            self.night_runner.start()
        guild = discord.Object(self.settings.guild_id) if self.settings.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if self.cluster is not None:
            await self.cluster.start(guild, service)  # interactions handed between processes; commands synced once
            return
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d command(s) %s", len(synced), f"to guild {guild.id}" if guild else "globally")

    async def _open_services(self) -> tuple[TableService, LeagueService]:
        cluster = self.cluster
        self._service = service = await TableService.open(self.settings.db_path, clock=self._clock,
                                                          computer_delay=self._computer_delay, seeds=self._seeds,
                                                          thinkers=self.settings.think_workers,
                                                          shards=cluster.restored if cluster else None,
                                                          before_restore=cluster.join() if cluster else None)
        self._leagues = leagues = LeagueService(service.db, service.clock)
        imported = await leagues.cards.load_all()  # restoring the tables registered them already
        leagues.watch(service)
        shards = cluster.restored if cluster else None
        self._nights = Nights(service.db, service.clock, service, leagues,
                              owns=(lambda guild: (guild >> 22) % shards[0] in shards[1]) if shards else lambda _: True)
        log.info("database %s: %d open table(s) restored, %d imported card(s)", self.settings.db_path,
                 len(service.table_ids()), imported)
        return service, leagues

    def _wire(self, service: TableService, leagues: LeagueService) -> list[commands.Cog]:
        """Build the parts, each handed what it uses. Two pairs call each other, each one way plus a callback: the
        DMs tell the presenter when a person can't be reached (``on_trouble``), and the presenter hands a failed
        write to the table's thread to the keeper (``on_failure``)."""
        interval = self.settings.refresh_seconds
        self._dms = dms = Dms(service, self.door, self.drawing, lambda table: presenter.seat_trouble(table),
                              interval=interval)
        self._presenter = presenter = Presenter(service, self.door, self.drawing, dms, self._table_failed,
                                                interval=interval)
        self._keeper = keeper = Keeper(service, self.door, presenter, dms, leagues.managers)
        assert self._nights is not None
        desk = CardDesk(leagues, self.door)  # /card-admin's buttons and proof sheets (issue 29)
        controls = Controls(service, self.door, presenter, dms, self.drawing, nights=self._nights, cards=desk)
        self.night_runner = runner = NightRunner(self._nights, service, self.door, presenter)
        self._router = PressRouter(controls)
        owner = self.cluster.name if self.cluster else DEFAULT_OWNER  # whose claims a restart finds its own
        self._poster = poster = WeeklyPoster(self.door, WeeklyPosts(service.db, service.clock, owner))
        return [
            General(service, self.door, lambda: self.latency),
            Tables(service, leagues, self.door, presenter, controls, self.drawing),
            Play(service, self.door, controls), Seat(service, controls),
            League(leagues, self.door), LeagueAdmin(leagues, self.door, poster.wake, self._nights, runner.wake),
            Standings(leagues, self.door),
            Cards(leagues, self.door), CardAdmin(leagues, self.door, desk),
            Stats(leagues, StatsService(service.db), self.door),  # /stats (bot/service/stats.py)
            keeper,  # listens for deleted threads and messages, and permissions coming back
        ]

    async def _table_failed(self, shown: ShownTable, failure: DiscordFailure, thread: int) -> float | None:
        assert self._keeper is not None
        return await self._keeper.table_failed(shown, failure, thread)

    async def on_interaction(self, interaction: discord.Interaction[CharlestonBot]) -> None:
        """Every press goes to the press router (:mod:`cogs.press.router`), whether or not its component is still on
        its message; and a person's latest interaction in a table's thread is kept (a player with closed DMs is told
        of her moves through it)."""
        if interaction.guild_id is not None and self._presenter is not None:
            self._presenter.saw(interaction)
        if self._router is not None:
            await self._router.route(interaction)

    async def on_message(self, message: discord.Message) -> None:
        """Someone posted in a table's thread: the table message moves back to the bottom at its next update."""
        if self.user is not None and message.author.id != self.user.id and self._presenter is not None:
            self._presenter.something_posted(message.channel.id)

    async def close(self) -> None:
        """Stop the clock, let in-flight actions finish, close the database, then disconnect."""
        self._stop_clock.set()
        if self._poster is not None:
            await self._poster.stop()
        if self.night_runner is not None:
            await self.night_runner.stop()
        if self._clock_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._clock_task, timeout=10)
        if self._service is not None:
            if self._presenter is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._presenter.settle(), timeout=5)
                self._presenter.stop()
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
