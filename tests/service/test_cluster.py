"""Several bot processes over one PostgreSQL database (bot/service/cluster.py, bot/store/cluster.py), each cluster
here with its own connections as a process has: a shard is run by one process at a time, an interaction handed to
a table's owner reaches it once, or comes back to the sender when the owner is down or restarting, IDENTIFYs take
turns across processes, and commands are synced by one of them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from support.postgres import TestServer, session_server
from support.service import OpenDb

from bot.service import cluster as cluster_module
from bot.service.clock import ManualClock
from bot.service.cluster import Cluster, Handover, Shards
from bot.service.tables import TableService
from bot.store.cluster import ShardTaken
from bot.store.db import Database

pytestmark = pytest.mark.postgres
LOW, HIGH = Shards(4, (0, 1)), Shards(4, (2, 3))
ALICE, BOB = 501, 502


def on_shard(shard: int, n: int = 0) -> int:
    """A guild id Discord puts on ``shard`` of 4."""
    return ((4 * n + shard) << 22) + 99


@pytest.fixture
def server() -> TestServer:
    return session_server()


@pytest.fixture
async def url(server: TestServer, pg_drops: list[str]) -> str:
    made = await server.new_database()
    pg_drops.append(made)
    return made


Join = Callable[..., Awaitable[Cluster]]


@pytest.fixture
async def join(url: str, open_db: OpenDb) -> AsyncIterator[Join]:
    """Clusters joined as processes would (each its own database pools and shard connection), closed at the end."""
    joined: list[Cluster] = []

    async def joiner(shards: Shards, wait: float = 60.0) -> Cluster:
        cluster = await Cluster.join(await open_db(url), shards, wait=wait)
        joined.append(cluster)
        return cluster

    yield joiner
    for cluster in joined:
        await cluster.close()


@pytest.fixture(autouse=True)
def short_claim_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "CLAIM_WINDOW", 0.5)


async def test_an_interaction_handed_to_the_owner_reaches_it_once(join: Join) -> None:
    low, high = await join(LOW), await join(HIGH)
    got: list[str] = []
    high.serve(got.append)
    assert await low.hand_over(2, '{"id": "1"}') is Handover.DELIVERED
    assert await low.hand_over(1, '{"id": "2"}') is Handover.LOCAL  # its own shard: nothing handed
    assert got == ['{"id": "1"}'] and high.delivered == 1
    assert await low.db.fetchval("SELECT COUNT(*) FROM cluster_inbox") == 0


async def test_an_owner_down_or_not_yet_serving_sends_the_interaction_back(join: Join) -> None:
    low = await join(LOW)
    started = time.monotonic()
    assert await low.hand_over(3, "{}") is Handover.DOWN  # nobody runs shard 3: known at once
    assert time.monotonic() - started < 0.4
    high = await join(HIGH)  # shards held, still restoring its tables: not serving yet
    assert await low.hand_over(3, "{}") is Handover.DOWN
    assert await low.db.fetchval("SELECT COUNT(*) FROM cluster_inbox") == 0  # taken back, never by both
    got: list[str] = []
    high.serve(got.append)
    assert await low.hand_over(3, "{}") is Handover.DELIVERED and got == ["{}"]


async def test_a_shard_is_run_by_one_process_at_a_time(join: Join) -> None:
    high = await join(HIGH)
    with pytest.raises(ShardTaken, match=r"shard 2 is run by another bot process \(its database session is "
                                         r"PostgreSQL pid \d+"):
        await join(Shards(4, (2,)), wait=0.3)
    closing = asyncio.create_task(high.close())
    again = await join(Shards(4, (2, 3)), wait=10)  # the predecessor let go: taken
    await closing
    assert again.shards.ids == (2, 3)


async def test_identifies_take_turns_per_bucket_across_processes(join: Join) -> None:
    low, high = await join(LOW), await join(HIGH)
    started = time.monotonic()
    await low.identify_turn(0, 2, spacing=0.5)  # bucket 0
    await low.identify_turn(1, 2, spacing=0.5)  # bucket 1: at once
    assert time.monotonic() - started < 0.4
    await high.identify_turn(2, 2, spacing=0.5)  # bucket 0 again: waits out the spacing
    assert time.monotonic() - started >= 0.5


async def test_the_owner_of_a_table_or_of_a_players_one_table(join: Join, url: str, open_db: OpenDb) -> None:
    low = await join(LOW)
    service = TableService(await open_db(url), clock=ManualClock(), computer_delay=0)
    first = (await service.create_table(on_shard(2), 1)).table_id
    second = (await service.create_table(on_shard(1, 3), 1)).table_id
    await service.join(first, ALICE, "Alice")
    await service.join(first, BOB, "Bob")
    await service.join(second, BOB, "Bob")
    assert (await low.owner_of_table(first), await low.owner_of_table(second)) == (2, 1)
    assert await low.owner_of_table(999) is None
    assert await low.owner_for_player(ALICE) == 2
    assert await low.owner_for_player(BOB) is None  # two tables: the command must say which (in its thread)
    closed = (await service.create_table(on_shard(3), 1)).table_id
    await service.close_table(closed)
    assert await low.owner_of_table(closed) is None


async def test_commands_are_synced_by_the_process_of_shard_0_once_per_command_set(join: Join) -> None:
    low, high = await join(LOW), await join(HIGH)
    assert not await high.should_sync("global", "abc")
    assert await low.should_sync("global", "abc")
    await low.synced("global", "abc")
    assert not await low.should_sync("global", "abc")  # a restart with the same commands: nothing to sync
    assert await low.should_sync("global", "abd") and await low.should_sync("guild 5", "abc")


async def test_the_cluster_tables_stay_out_of_the_schema_sqlite_shares(url: str, open_db: OpenDb) -> None:
    db: Database = await open_db(url)
    assert not [name for name in await db.table_columns() if name.startswith("cluster")]


async def test_a_cluster_knows_when_the_connection_holding_its_shards_drops(join: Join) -> None:
    high = await join(HIGH)
    low = await join(LOW)
    ended = await low.db.fetchval("SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                  "WHERE application_name = 'charleston shards' AND datname = current_database() "
                                  "AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = 2)")
    assert ended == 1
    await asyncio.wait_for(high.lost.wait(), 10)  # the bot stops: another process may take its shards now
    assert not low.lost.is_set()
    assert await low.hand_over(2, "{}") is Handover.DOWN
