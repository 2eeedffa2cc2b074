"""The Discord side of running the bot as several processes ("clusters"), each running some of its shards over one
PostgreSQL database (``CHARLESTON_SHARD_COUNT`` with ``CHARLESTON_SHARD_IDS``). The decisions are the service's
(:mod:`bot.service.cluster`); this module meets discord.py where it must:

- **Interactions without a guild.** Discord sends every DM interaction to shard 0 alone. Each INTERACTION_CREATE
  passes through :meth:`ClusterRouter.arrived` before discord.py handles it (discord.py has no public hook ahead of
  its views and command tree, so the router wraps the connection state's parser for that one event). A guild's
  interaction, or a DM press on a table this process holds, goes straight on. Otherwise the table is found (the
  table id in a component's custom_id, or the one table of the person typing a table command) and, if another
  process owns it, handed over as the JSON Discord sent; the owner runs it through its own discord.py exactly as if
  its gateway had delivered it, and answers through the interaction's token. If the owner is down, or has not
  taken it within the service's claim window (1.5 s of Discord's 3), this process answers privately "This table is
  restarting, try again in a moment."
- **IDENTIFY.** discord.py spaces IDENTIFYs within one process only; :meth:`ClusterRouter.identify` waits for the
  shard's bucket's turn across every process (the bot's ``before_identify_hook``).
- **Commands.** Synced by the process running shard 0, once per command set (:meth:`ClusterRouter.sync`).
- **Losing the database.** If the connection holding this process's shards drops, another process may take them:
  this one stops (exit status 1) for its supervisor to start it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.service.cluster import RESTARTING, Cluster, Handover, Joiner, Shards, joiner
from bot.service.surface import TableCalls

from .door import Door
from .show.components import table_named

if TYPE_CHECKING:
    from discord.types.gateway import InteractionCreateEvent

log = logging.getLogger("charleston.cluster")
# Slash commands that act on the caller's table: typed in a DM, they go to the process owning it.
TABLE_COMMANDS = frozenset({"rack", "back", "hint", "play", "table"})
COMPONENT, MODAL_SUBMIT, COMMAND, AUTOCOMPLETE = 3, 5, 2, 4


def _field(data: Mapping[str, object], *path: str) -> object:
    """A field deep in an interaction's JSON (None where any step is missing)."""
    found: object = data
    for key in path:
        found = found.get(key) if isinstance(found, Mapping) else None
    return found


def table_of(data: Mapping[str, object]) -> int | None:
    """The table a component press (or modal) is for, read from its custom_id; None if it names none."""
    if data.get("type") not in (COMPONENT, MODAL_SUBMIT):
        return None
    return table_named(str(_field(data, "data", "custom_id") or ""))


def user_of(data: Mapping[str, object]) -> int | None:
    """Who started an interaction (a DM's carries ``user``, a guild's ``member.user``)."""
    user = _field(data, "user", "id") or _field(data, "member", "user", "id")
    return int(str(user)) if user else None


def command_of(data: Mapping[str, object]) -> str | None:
    """The name of a slash command (or of the command being autocompleted); None for anything else."""
    if data.get("type") not in (COMMAND, AUTOCOMPLETE):
        return None
    return str(_field(data, "data", "name") or "") or None


class ClusterRouter:
    """This process's part of a bot run as several processes: made by the bot when its settings run only some of
    the shards; joins the cluster before the tables are restored, and hands interactions around once started."""

    def __init__(self, client: commands.Bot, door: Door, shards: Shards) -> None:
        self._client = client
        self.door = door
        self.shards = shards
        self._tables: TableCalls | None = None
        self._cluster: Cluster | None = None
        self._parse: Callable[[InteractionCreateEvent], None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._max_concurrency: int | None = None
        self.failed = False  # stopped because the shards' database connection dropped

    @property
    def name(self) -> str:
        """The cluster's name (``shards 2,3 of 4``), the same across restarts: the weekly posts' owner."""
        return self.shards.name

    @property
    def restored(self) -> tuple[int, tuple[int, ...]]:
        """The shards whose guilds' tables this process restores: ``(count, ids)``."""
        return self.shards.count, self.shards.ids

    @property
    def cluster(self) -> Cluster:
        """The cluster (joined in the bot's set-up)."""
        if self._cluster is None:
            raise RuntimeError("the cluster has not been joined")
        return self._cluster

    def join(self) -> Joiner:
        """The service's set-up step that holds this process's shards (before the tables are restored)."""
        return joiner(self.shards, self._joined)

    def _joined(self, cluster: Cluster) -> None:
        self._cluster = cluster
        log.info("%s: holding my shards", self.name)

    async def start(self, guild: discord.Object | None, tables: TableCalls) -> None:
        """Once the bot is set up: see every interaction first, take those handed to this process, sync the
        commands if this is the process that does, and stop if the shards' database connection drops."""
        self._tables = tables
        parsers = self._client._connection.parsers
        self._parse = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self.arrived
        self.cluster.serve(self.delivered)
        self._spawn(self._watch(), "cluster watch")
        await self.sync(guild)

    async def close(self) -> None:
        """Stop handing interactions around and let go of the shards."""
        for task in list(self._tasks):
            if task is asyncio.current_task():
                continue  # the watch, stopping the bot
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._cluster is not None:
            await self._cluster.close()

    # -- interactions ---------------------------------------------------------------------------------------------

    def arrived(self, data: InteractionCreateEvent) -> None:
        """An INTERACTION_CREATE from Discord: handled here at once, or routed (see the module's doc)."""
        parse = self._parse
        assert parse is not None
        if data.get("guild_id") is not None:
            parse(data)  # a guild's interaction comes to the process of the guild's shard: its tables are ours
            return
        table = table_of(data)
        if table is not None and self._tables is not None and self._tables.is_open(table):
            parse(data)
            return
        if table is None and command_of(data) not in TABLE_COMMANDS:
            parse(data)  # about no table (a DM /ping, a helper of no table): any process answers it
            return
        self._spawn(self._route(data, table), f"route interaction {data['id']}")

    async def _route(self, data: InteractionCreateEvent, table: int | None) -> None:
        parse = self._parse
        assert parse is not None
        try:
            if table is not None:
                shard = await self.cluster.owner_of_table(table)
            else:
                player = user_of(data)
                shard = None if player is None else await self.cluster.owner_for_player(player)
            if shard is None or shard in self.shards.ids:
                parse(data)  # no such open table, or ours: answered here
                return
            handed = await self.cluster.hand_over(shard, json.dumps(data, separators=(",", ":")))
        except Exception as exc:
            log.warning("%s: interaction %s could not be handed on (%s): answered 'restarting'", self.name,
                        data["id"], type(exc).__name__)
            handed = Handover.DOWN
        if handed is Handover.DOWN:
            log.info("%s: interaction %s for table %s: its process is down or restarting", self.name, data["id"],
                     table if table is not None else "(the player's)")
            await self._restarting(data)

    async def _restarting(self, data: InteractionCreateEvent) -> None:
        """Say privately that the table is restarting (an autocomplete gets no suggestions)."""
        interaction: discord.Interaction[discord.Client] = discord.Interaction(data=data,
                                                                               state=self._client._connection)
        if interaction.type is discord.InteractionType.autocomplete:
            with contextlib.suppress(Exception):
                await self.door.call(lambda: interaction.response.autocomplete([]), "suggest nothing")
            return
        await self.door.reply(interaction, RESTARTING)

    def delivered(self, payload: str) -> None:
        """An interaction another process handed to this one: handled as if this process's gateway had sent it."""
        parse = self._parse
        assert parse is not None
        try:
            parse(json.loads(payload))
        except Exception:
            log.exception("BUG: a handed-over interaction could not be handled")

    # -- the gateway and the commands -----------------------------------------------------------------------------

    async def identify(self, shard: int | None, *, initial: bool) -> None:
        """Wait for the shard's turn to IDENTIFY across every process (Discord: ``max_concurrency`` per 5 s)."""
        if self._max_concurrency is None:
            _, _, limits = await self._client.http.get_bot_gateway()
            self._max_concurrency = max(1, int(limits["max_concurrency"]))
        if not initial:
            await asyncio.sleep(1.0)  # after a lost session Discord asks for a pause before identifying again
        await self.cluster.identify_turn(shard or 0, self._max_concurrency)
        log.info("%s: shard %s identifies", self.name, shard)

    async def sync(self, guild: discord.Object | None) -> None:
        """Sync the command tree if this process runs shard 0 and this command set was not synced there yet."""
        tree = self._client.tree
        payload = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:32]
        scope = f"guild {guild.id}" if guild is not None else "global"
        if not await self.cluster.should_sync(scope, digest):
            why = "unchanged since last synced" if 0 in self.shards.ids else "synced by the process of shard 0"
            log.info("%s: commands (%s) not synced: %s", self.name, scope, why)
            return
        synced = await tree.sync(guild=guild)
        await self.cluster.synced(scope, digest)
        log.info("%s: synced %d command(s) (%s)", self.name, len(synced), scope)

    async def _watch(self) -> None:
        await self.cluster.lost.wait()
        log.error("%s: the database connection holding my shards dropped; another process may take them now, so "
                  "this one stops (start it again)", self.name)
        self.failed = True
        await self._client.close()

    def _spawn(self, work: Coroutine[None, None, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
