"""This process's part in a bot run as several processes ("clusters") over one PostgreSQL database, each running
some of the bot's Discord shards. No discord here: the Discord layer (:mod:`cogs.cluster`) hands interactions over
as the JSON Discord sent, and answers what this module cannot deliver.

A table belongs to the process running its guild's shard (``(guild_id >> 22) % count``): only that process restores
it, moves it on and plays its computers. Discord sends every interaction without a guild (a DM button, a slash
command typed in a DM) to shard 0 alone, so the process running shard 0 finds the table the interaction is for
(from its custom_id, or the one table of the person who typed the command) and, when another process owns it,
hands it over (:meth:`Cluster.hand_over`): the owner takes it from the inbox and acts on it as if Discord had sent
it there, answering through the interaction's token (any process may, for 15 minutes). If the owner is down, or
has not taken it within :data:`CLAIM_WINDOW`, the result is :attr:`Handover.DOWN` and the sender tells the person
the table is restarting. See :mod:`bot.store.cluster` for the database side.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum

from bot.store import cluster as store
from bot.store.db import Database

log = logging.getLogger("charleston.cluster")

CLAIM_WINDOW = 1.5  # seconds the owner has to take an interaction handed to it (Discord waits 3 s for an answer)
IDENTIFY_SPACING = 6.0  # Discord allows an IDENTIFY per bucket per 5 s; 1 s more for the way from here to Discord
RESTARTING = "This table is restarting, try again in a moment."
REMEMBERED = 10_000  # tables whose shard the process of shard 0 remembers


class Handover(Enum):
    """What became of an interaction for a table: this process's own to handle, delivered to its owner, or not
    (the owner is down or restarting: the sender answers :data:`RESTARTING`)."""

    LOCAL = "local"
    DELIVERED = "delivered"
    DOWN = "down"


@dataclass(frozen=True, slots=True)
class Shards:
    """The bot's shards in all (``count``) and those this process runs (``ids``)."""

    count: int
    ids: tuple[int, ...]

    def of(self, guild_id: int) -> int:
        """The shard Discord puts a guild on."""
        return (guild_id >> 22) % self.count

    def runs(self, guild_id: int) -> bool:
        """Whether this process runs the guild's shard (owns its tables)."""
        return self.of(guild_id) in self.ids

    @property
    def name(self) -> str:
        """The cluster's name, the same across restarts: ``shards 2,3 of 4``."""
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


class Cluster:
    """This process's shards, held in the database for as long as it runs, and the hand-over of interactions
    between processes."""

    def __init__(self, db: Database, shards: Shards, locks: store.ShardLocks) -> None:
        self.db = db
        self.shards = shards
        self._locks = locks
        self._deliver: Callable[[str], None] | None = None
        self._table_shards: OrderedDict[int, int] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self.delivered = 0  # interactions taken from this process's inbox
        self.handed = 0  # interactions handed to other processes (delivered or not)

    @classmethod
    async def join(cls, db: Database, shards: Shards, *, wait: float = 60.0) -> Cluster:
        """Hold this process's shards (waiting up to ``wait`` seconds for a predecessor that is going away;
        :class:`bot.store.cluster.ShardTaken` if another process keeps one) and clear the inbox of what was left
        for them long ago. Interactions handed over are taken once :meth:`serve` is called."""
        holder: list[Cluster] = []
        locks = await store.ShardLocks.hold(db, shards.ids, lambda inbox_id: holder[0]._announced(inbox_id),
                                            wait=wait)
        joined = cls(db, shards, locks)
        holder.append(joined)
        await store.clear_stale(db, shards.ids)
        return joined

    @property
    def name(self) -> str:
        """The cluster's name (its shards), the same across restarts."""
        return self.shards.name

    @property
    def lost(self) -> asyncio.Event:
        """Set if the database connection holding the shards dropped: another process may take them now, so this
        one must stop."""
        return self._locks.lost

    def serve(self, deliver: Callable[[str], None]) -> None:
        """From now on, each interaction handed to this process is taken and given to ``deliver`` (until then
        they are left, and their senders answer that the table is restarting)."""
        self._deliver = deliver

    def _announced(self, inbox_id: int) -> None:
        if self._deliver is None:
            return
        task = asyncio.get_running_loop().create_task(self._take(inbox_id), name=f"inbox {inbox_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _take(self, inbox_id: int) -> None:
        try:
            payload = await self._locks.take(inbox_id)
        except Exception:
            log.exception("BUG: inbox %d: taking a handed-over interaction failed", inbox_id)
            return
        if payload is not None and self._deliver is not None:
            self.delivered += 1
            self._deliver(payload)

    async def owner_of_table(self, table_id: int) -> int | None:
        """The shard whose process owns an open table (None: no such open table). A table never changes guild, so
        the answer is remembered (for the :data:`REMEMBERED` tables looked up last)."""
        if (shard := self._table_shards.get(table_id)) is not None:
            self._table_shards.move_to_end(table_id)
            return shard
        guild = await store.table_guild(self.db, table_id)
        if guild is None:
            return None
        self._table_shards[table_id] = shard = self.shards.of(guild)
        while len(self._table_shards) > REMEMBERED:
            self._table_shards.popitem(last=False)
        return shard

    async def owner_for_player(self, player_id: int) -> int | None:
        """The shard owning the one open table where a person has a seat (None: they have none, or several)."""
        found = await store.player_tables(self.db, player_id)
        return self.shards.of(found[0][1]) if len(found) == 1 else None

    async def hand_over(self, shard: int, payload: str) -> Handover:
        """Give an interaction to the process running ``shard``; :attr:`Handover.LOCAL` if that is this one."""
        if shard in self.shards.ids:
            return Handover.LOCAL
        self.handed += 1
        inbox_id = await self._locks.post(shard, payload)
        if inbox_id is None:
            return Handover.DOWN  # nobody runs the shard: known at once
        await asyncio.sleep(CLAIM_WINDOW)
        return Handover.DOWN if await self._locks.take(inbox_id) is not None else Handover.DELIVERED

    async def identify_turn(self, shard: int, max_concurrency: int, spacing: float = IDENTIFY_SPACING) -> None:
        """Wait for the shard's bucket's turn to IDENTIFY, across every process of the bot."""
        bucket = shard % max(1, max_concurrency)
        while (wait := await store.identify_turn(self.db, bucket, spacing)) > 0:
            await asyncio.sleep(wait)

    async def should_sync(self, scope: str, digest: str) -> bool:
        """Whether this process syncs the command set of ``digest`` to ``scope``: the process running shard 0 does,
        unless that very set was synced there already; the others never do."""
        return 0 in self.shards.ids and await store.last_synced(self.db, scope) != digest

    async def synced(self, scope: str, digest: str) -> None:
        """The command set of ``digest`` was synced to ``scope``."""
        await store.record_sync(self.db, scope, digest, self.name)

    async def close(self) -> None:
        """Stop taking interactions and let go of the shards."""
        self._deliver = None
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._locks.close()


# The service's set-up step that holds a cluster's shards (``TableService.open``'s ``before_restore``).
Joiner = Callable[[Database], Awaitable[None]]


def joiner(shards: Shards, joined: Callable[[Cluster], None]) -> Joiner:
    """The set-up step that holds ``shards`` in the service's database before its tables are restored; ``joined``
    is handed the cluster."""
    async def join(db: Database) -> None:
        joined(await Cluster.join(db, shards))
    return join
