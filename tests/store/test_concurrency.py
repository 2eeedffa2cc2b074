"""What the store promises when several connections or processes write at once, on both backends: a game is
settled once, one action per version, a league name or a channel taken once, each weekly post claimed by exactly
one process. Real concurrent connections (two opened databases over one file or one PostgreSQL database) and real
processes, no mocks."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest
from support.leagues import GUILD, game_at
from support.paths import TESTS
from support.service import OpenDb

from bot.service.clock import ManualClock
from bot.service.leagues import LeagueService
from bot.store import leagues as store
from bot.store import ledger, records
from bot.store.db import Database
from bot.store.ledger import Transfer
from bot.store.records import StaleVersion

WEDNESDAY = datetime(2026, 11, 18, 12, tzinfo=UTC)


async def a_game(db: Database) -> int:
    """A table and an unfinished game at version 0."""
    async with db.transaction() as conn:
        table_id = await records.insert_table(conn, GUILD, 1, {}, None, 1)
    (row,) = await records.load_tables(db, "table_id = ?", (table_id,))
    async with db.transaction() as conn:
        return await records.insert_game(conn, row, 1, "practice", 2, 0, {"state": "of the game"}, row.seats)


async def test_a_game_is_settled_once_when_two_writers_race(db_target: str, open_db: OpenDb) -> None:
    one, two = await open_db(db_target), await open_db(db_target)
    game = await a_game(one)
    transfers = [Transfer(1, None, 0, None, 25, "discarder")]

    async def settle(db: Database) -> bool:
        async with db.transaction() as conn:
            return await ledger.settle(conn, game, GUILD, transfers)

    async with one.transaction() as conn:
        assert await ledger.settle(conn, game, GUILD, transfers)
        second = asyncio.create_task(settle(two))
        await asyncio.sleep(0.3)
        assert not second.done()  # it waits for the first writer's commit...
    assert await second is False  # ...then finds the game settled and writes nothing
    assert await one.fetchval("SELECT COUNT(*) FROM ledger_transactions") == 1
    assert await ledger.verify(one) == []


async def test_one_action_per_version_when_two_processes_race(db_target: str, open_db: OpenDb) -> None:
    one, two = await open_db(db_target), await open_db(db_target)
    game = await a_game(one)

    async def record(db: Database, who: str) -> str:
        try:
            async with db.transaction() as conn:
                await records.record_action(conn, game, 0, {"by": who}, None, None)
                await asyncio.sleep(0.2)  # both hold their version-0 move at once
        except StaleVersion:
            return "stale"
        return "saved"

    results = await asyncio.gather(record(one, "one"), record(two, "two"))
    assert sorted(results) == ["saved", "stale"]
    rows = await one.fetchall("SELECT seq, action FROM actions WHERE game_id = ?", (game,))
    assert len(rows) == 1 and json.loads(rows[0][1])["by"] == ("one" if results[0] == "saved" else "two")
    assert await one.fetchval("SELECT version FROM snapshots WHERE game_id = ?", (game,)) == 1
    assert await one.fetchval("SELECT state_version FROM snapshots WHERE game_id = ?", (game,)) == 0


async def test_a_league_name_and_a_channel_are_taken_once(db_target: str, open_db: OpenDb) -> None:
    one, two = await open_db(db_target), await open_db(db_target)
    made = await asyncio.gather(*(store.insert_league(db, 1, "Tuesday Night", "UTC", 0, None, "2026-11-20T12:00")
                                  for db in (one, two, one, two)))
    assert sum(league is not None for league in made) == 1
    a = await store.insert_league(one, 1, "A", "UTC", 0, None, "2026-11-20T12:00")
    b = await store.insert_league(two, 1, "B", "UTC", 0, None, "2026-11-20T12:00")
    assert a and b
    given = await asyncio.gather(store.set_channel(one, a, 70, "2026-11-20T12:00"),
                                 store.set_channel(two, b, 70, "2026-11-20T12:00"))
    assert sorted(given) == [False, True]


@pytest.mark.slow
@pytest.mark.timeout(120)
async def test_each_weekly_post_is_claimed_by_exactly_one_of_several_processes(db_target: str,
                                                                                open_db: OpenDb) -> None:
    db = await open_db(db_target)
    leagues = LeagueService(db, ManualClock(WEDNESDAY))
    for name, channel in (("Club", 70), ("Other", 71)):
        league = await leagues.set_channel(await leagues.create(GUILD, name), channel)
        await game_at(db, league.league_id, WEDNESDAY)
    after_the_week = (WEDNESDAY + timedelta(days=6)).isoformat()
    env = {**os.environ, "PYTHONPATH": str(TESTS)}
    start = str(time.time() + 4)  # every process has started and connected by then: they claim at once
    processes = [subprocess.Popen([sys.executable, "-m", "support.claim_posts", db_target, f"cluster-{n}",
                                   after_the_week, start], stdout=subprocess.PIPE, text=True, env=env)
                 for n in range(4)]
    claimed: list[tuple[int, str]] = []
    for process in processes:
        out, _ = process.communicate(timeout=90)
        assert process.returncode == 0
        claimed += [tuple(job) for job in json.loads(out)]  # type: ignore[misc]
    assert sorted(week for _, week in claimed) == ["2026-W47", "2026-W47"]  # each league's week, once
    assert len({league for league, _ in claimed}) == 2
    owners = {r[0] for r in await db.fetchall("SELECT claimed_by FROM league_posts")}
    assert len(owners) >= 1 and owners <= {f"cluster-{n}" for n in range(4)}
