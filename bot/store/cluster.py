"""The database side of a bot run as several processes ("clusters", each running some of the bot's Discord shards)
over one PostgreSQL database: who runs which shard, interactions handed from one process to another, the spacing of
IDENTIFYs, and which command set was synced. PostgreSQL only (a sharded process is refused on SQLite).

**Who runs a shard.** A process holds one session-level advisory lock per shard it runs, on a connection of its own
(:class:`ShardLocks`), for as long as it runs: a second process asking for a shard already held waits, then is
refused, and a process that dies (even by SIGKILL) lets go the moment its server connection closes. Whether a
shard is run now is whether its lock is held (:func:`shard_held`). The link's connection asks the server to probe
it (TCP keepalives: idle 10 s, then every 5 s, 3 probes), so a machine that vanishes lets go within about 25 s.

**The inbox.** An interaction for a table another process runs is written to ``cluster_inbox`` (an UNLOGGED table:
nothing in it outlives a few seconds) and announced with ``NOTIFY charleston_shard_<n>`` carrying the row's id, in
one statement (:meth:`ShardLocks.post`). The process running shard n LISTENs on that channel and takes the row with
one ``DELETE ... RETURNING`` (:meth:`ShardLocks.take`); the poster takes it back the same way if nobody has after a
moment. Whoever deletes the row answers the interaction: never both, never neither. These statements go through
two connections of the process's own (``synchronous_commit = off``), never queued behind the games' writes: a
hand-over is on the way to a person's first answer, the games' writes are not.

**IDENTIFY.** Discord allows ``max_concurrency`` IDENTIFYs per 5 s, one per bucket (``shard % max_concurrency``),
across every process of the bot. :func:`identify_turn` takes a bucket's turn in one upsert, by the server's clock.

**Commands.** ``cluster_syncs`` records the digest of the command set synced per scope (global, or a guild), so a
restart with the same commands does not sync again (:func:`last_synced`, :func:`record_sync`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .db import Database, DatabaseProblem
from .postgres import PostgresDatabase, _asyncpg

if TYPE_CHECKING:
    import asyncpg

SHARD_LOCK = 0x43480053  # the first key of a shard's advisory lock (the second is the shard id)
HAND_OVER_CONNECTIONS = 2  # a process's own connections for handing interactions over
# Whether a shard's lock is held (by any process), with placeholders for the lock's two keys.
_HELD = ("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE "
         "datname = current_database()) AND classid::bigint = {lock} AND objid::bigint = {shard} AND objsubid = 2 "
         "AND granted")
KEEPALIVE = {"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3"}


def channel(shard: int) -> str:
    """The NOTIFY channel of a shard's inbox."""
    return f"charleston_shard_{shard}"


class ShardTaken(DatabaseProblem):
    """Another process runs a shard this one was asked to run."""


class ShardLocks:
    """A process's own connections to the database: one holds the advisory lock of every shard the process runs
    and listens for the interactions other processes hand to those shards; a small pool of its own carries the
    hand-overs."""

    def __init__(self, conn: asyncpg.Connection, pool: asyncpg.Pool, shards: tuple[int, ...]) -> None:
        self._conn = conn
        self._pool = pool
        self.shards = shards
        self.lost = asyncio.Event()  # the connection dropped: the locks are gone with it

    @classmethod
    async def hold(cls, db: Database, shards: Sequence[int], deliver: Callable[[int], None], *,
                   wait: float = 60.0) -> ShardLocks:
        """Connect, listen to the shards' inboxes (``deliver`` gets each row id announced), then take every shard's
        lock, waiting up to ``wait`` seconds for a process that is going away; :class:`ShardTaken` names the
        holder if one stays."""
        if not isinstance(db, PostgresDatabase):
            raise DatabaseProblem("several bot processes need a PostgreSQL database (CHARLESTON_DB=postgresql://...)")
        asyncpg = _asyncpg()
        conn = await asyncpg.connect(db.url, server_settings={"application_name": "charleston shards", **KEEPALIVE})
        try:
            pool = await asyncpg.create_pool(db.url, min_size=HAND_OVER_CONNECTIONS, max_size=HAND_OVER_CONNECTIONS,
                                             server_settings={"application_name": "charleston hand-over",
                                                              "synchronous_commit": "off"})
        except BaseException:
            await conn.close()
            raise
        locks = cls(conn, pool, tuple(shards))
        try:
            for shard in locks.shards:
                await conn.add_listener(channel(shard), lambda _c, _pid, _ch, payload: deliver(int(payload)))
            await locks._take_all(wait)
        except BaseException:
            await locks.close()
            raise
        conn.add_termination_listener(lambda _conn: locks.lost.set())
        return locks

    async def _take_all(self, wait: float) -> None:
        missing = list(self.shards)
        loop = asyncio.get_running_loop()
        give_up = loop.time() + wait
        while True:
            missing = [s for s in missing
                       if not await self._conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK, s)]
            if not missing:
                return
            if loop.time() >= give_up:
                raise ShardTaken(f"shard {missing[0]} is run by another bot process ({await self._holder(missing[0])})"
                                 ": give each process shards of its own (CHARLESTON_SHARD_IDS)")
            await asyncio.sleep(0.25)

    async def _holder(self, shard: int) -> str:
        row = await self._conn.fetchrow(
            "SELECT a.pid, a.client_addr, a.client_hostname FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database "
            "WHERE datname = current_database()) AND l.classid::bigint = $1 AND l.objid::bigint = $2 "
            "AND l.objsubid = 2 AND l.granted", SHARD_LOCK, shard)
        if row is None:
            return "it let go just now"
        where = row["client_hostname"] or row["client_addr"] or "this machine"
        return f"its database session is PostgreSQL pid {row['pid']}, from {where}"

    async def post(self, shard: int, payload: str) -> int | None:
        """Put an interaction in a shard's inbox and announce it, if some process runs the shard; returns the row's
        id (None: nobody runs it, nothing was written). One statement: one round trip."""
        found = await self._pool.fetchval(
            f"WITH held AS ({_HELD.format(lock='$1', shard='$2')}), "
            "posted AS (INSERT INTO cluster_inbox (shard, payload) SELECT $2, $3 WHERE EXISTS (SELECT 1 FROM held) "
            "RETURNING inbox_id) "
            "SELECT inbox_id FROM posted, LATERAL (SELECT pg_notify($4, posted.inbox_id::text)) AS announced",
            SHARD_LOCK, shard, payload, channel(shard))
        return None if found is None else int(found)

    async def take(self, inbox_id: int) -> str | None:
        """Take an interaction out of the inbox (None if another process took it: it is theirs to answer)."""
        found = await self._pool.fetchval("DELETE FROM cluster_inbox WHERE inbox_id = $1 RETURNING payload", inbox_id)
        return None if found is None else str(found)

    async def close(self) -> None:
        """Let go of the shards (closing the connection releases every lock it holds)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._pool.close(), timeout=5)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._conn.close(), timeout=5)
        if not self._conn.is_closed():
            self._conn.terminate()


async def shard_held(db: Database, shard: int) -> bool:
    """Whether some process runs ``shard`` now (holds its lock)."""
    return bool(await db.fetchval(f"SELECT EXISTS ({_HELD.format(lock='?', shard='?')})", (SHARD_LOCK, shard)))


async def clear_stale(db: Database, shards: Sequence[int], seconds: float = 60.0) -> int:
    """Forget inbox rows of these shards older than ``seconds`` (left by processes that died mid-hand-over)."""
    marks = ", ".join("?" for _ in shards)
    async with db.single_statement(durable=False) as conn:
        return await conn.execute(f"DELETE FROM cluster_inbox WHERE shard IN ({marks}) AND created_at < "
                                  "clock_timestamp() - make_interval(secs => ?)", (*shards, float(seconds)))


async def identify_turn(db: Database, bucket: int, spacing: float) -> float:
    """Take the bucket's turn to IDENTIFY if ``spacing`` seconds have passed since its last one (by the server's
    clock), returning 0; else the seconds left to wait before asking again."""
    async with db.single_statement() as conn:
        taken = await conn.fetchval(
            "INSERT INTO cluster_identify (bucket, identified_at) VALUES (?, clock_timestamp()) "
            "ON CONFLICT (bucket) DO UPDATE SET identified_at = excluded.identified_at "
            "WHERE cluster_identify.identified_at <= clock_timestamp() - make_interval(secs => ?) RETURNING bucket",
            (bucket, float(spacing)))
        if taken is not None:
            return 0.0
        left = await conn.fetchval(
            "SELECT EXTRACT(EPOCH FROM identified_at + make_interval(secs => ?) - clock_timestamp()) "
            "FROM cluster_identify WHERE bucket = ?", (float(spacing), bucket))
    return max(0.01, float(left or 0.0))


async def last_synced(db: Database, scope: str) -> str | None:
    """The digest of the command set last synced to ``scope`` (``global``, or ``guild <id>``)."""
    found: Any = await db.fetchval("SELECT digest FROM cluster_syncs WHERE scope = ?", (scope,))
    return None if found is None else str(found)


async def record_sync(db: Database, scope: str, digest: str, by: str) -> None:
    """A command set was synced to ``scope``."""
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO cluster_syncs (scope, digest, synced_by, synced_at) "
                           "VALUES (?, ?, ?, clock_timestamp()) ON CONFLICT (scope) DO UPDATE SET "
                           "digest = excluded.digest, synced_by = excluded.synced_by, synced_at = excluded.synced_at",
                           (scope, digest, by))


async def table_guild(db: Database, table_id: int) -> int | None:
    """The guild of an open table (None if there is no such open table)."""
    found: Any = await db.fetchval("SELECT guild_id FROM tables WHERE table_id = ? AND status != 'closed'",
                                   (table_id,))
    return None if found is None else int(found)


async def player_tables(db: Database, player_id: int) -> list[tuple[int, int]]:
    """The open tables where a person has a seat, as (table, guild)."""
    rows = await db.fetchall("SELECT t.table_id, t.guild_id FROM tables t JOIN table_seats s ON s.table_id = "
                             "t.table_id WHERE s.player_id = ? AND t.status != 'closed' ORDER BY t.table_id",
                             (player_id,))
    return [(int(r[0]), int(r[1])) for r in rows]
