"""``charleston db copy`` on a real SQLite file with games, a game in progress, leagues and a ledger: every row
arrives in PostgreSQL, the ledger is verified on both sides, the game in progress goes on there exactly as it
would have here, and a backup of the PostgreSQL database back into SQLite holds the same rows again."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.cli import run
from support.league_cards import GOOD as GARDEN
from support.postgres import TestServer, session_server

from bot.service.clock import ManualClock
from bot.service.leagues import LeagueService
from bot.service.tables import TableService
from bot.service.updates import TableOptions
from bot.store import leagues as store
from bot.store import ledger
from bot.store.copy import COPY_ORDER
from bot.store.db import Database
from bot.store.ledger import Transfer

pytestmark = pytest.mark.postgres
GUILD = 5


async def a_servers_data(path: Path) -> int:
    """A server's database: a league with a channel, members, a season and a weekly post; finished games settled
    (one corrected); an imported card and a default; a game of four computers in progress, its state last written
    some actions back (as a crash leaves it). Returns that table's id."""
    db = await Database.open(path)
    try:
        return await _fill(db)
    finally:
        await db.close()  # as if the process died: the service writes no final checkpoint


async def _fill(db: Database) -> int:
    clock = ManualClock(datetime(2026, 11, 18, 12, tzinfo=UTC))
    leagues = LeagueService(db, clock)
    service = TableService(db, clock=clock, computer_delay=0)
    league = await leagues.set_channel(await leagues.create(GUILD, "Tuesday Night", by=7), 70)
    leagues.watch(service)
    await leagues.start_season(league, "Autumn")
    await leagues.saw_manager(GUILD, 7)
    await leagues.cards.import_card(GUILD, "garden", GARDEN, "garden.toml", 7, leagues.now_iso())
    await leagues.cards.set_default(GUILD, "garden", leagues.now_iso())
    for seed in (1, 2):
        table_id = (await service.create_table(GUILD, 70, seed=seed)).table_id
        await leagues.attach_table(table_id, league)
        await service.join(table_id, 1001, "Alice", seat=0)
        for seat in (1, 2, 3):
            await service.add_computer(table_id, "normal", seat)
        await service.start(table_id)
        await service.leave(table_id, 1001)  # a computer finishes Alice's hand; her chips still count
        await service.drain()
    (game_id,) = [r[0] for r in await db.fetchall("SELECT game_id FROM games ORDER BY game_id LIMIT 1")]
    await ledger.correct(db, game_id, GUILD, [Transfer(1, None, 0, 1001, 5, "refund")], "a correction")
    await store.record_post(db, league.league_id, "2026-W46", "posted", leagues.now_iso(), channel_id=70,
                            message_id=99)
    paced = (await service.create_table(GUILD, 71, seed=3, options=TableOptions(1.0))).table_id
    for seat in range(4):
        await service.add_computer(paced, "normal", seat)
    await service.start(paced)
    for _ in range(40):
        clock.advance(1.0)
        await service.tick()
    table = service.tables[paced]
    assert table.playing and table.version > table.saved_state > 0  # actions after the last stored state
    await service.drain()
    return paced


def rows_of(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as conn:
        return {table: sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
                for table, _ in COPY_ORDER}



@pytest.fixture
def server() -> TestServer:
    return session_server()


def test_a_servers_sqlite_file_moves_to_postgresql_whole(server: TestServer, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "charleston.db"
    paced = asyncio.run(a_servers_data(source))
    before = rows_of(source)
    assert before["ledger_transactions"] and before["league_members"] and before["guild_cards"]
    url = asyncio.run(server.new_database(empty=True))
    try:
        code, out, err = run(capsys, "db", "copy", "--from", str(source), "--to", url)
        assert code == 0, err
        assert f"copied {sum(map(len, before.values())):,} rows" in out and "ledger verified on both sides" in out
        # every row arrived: backed up from PostgreSQL into a new SQLite file, they are the source's rows
        back = tmp_path / "back.db"
        assert run(capsys, "backup", "--db", url, "--to", str(back))[0] == 0
        assert rows_of(back) == before
        for db in (str(source), url):
            assert run(capsys, "ledger", "verify", "--db", db)[1].strip() == "ok"
        listed = [json.loads(run(capsys, "tables", "list", "--db", db, "--json")[1]) for db in (str(source), url)]
        assert listed[0] == listed[1] and [t["table"] for t in listed[1] if t["phase"]] == [paced]
        standings = [json.loads(run(capsys, "standings", "--db", db, "--guild", str(GUILD), "--all-time",
                                    "--json")[1]) for db in (str(source), url)]
        assert standings[0] == standings[1] and standings[1]["standings"][0]["player_id"] == 1001
        # the game in progress goes on in PostgreSQL exactly as it would have in the file
        alone = tmp_path / "alone.db"
        shutil.copy(source, alone)
        for db in (str(alone), url):
            assert run(capsys, "tables", "resume", "--db", db)[1].startswith(f"finished 1 table: {paced}")
        ended = "SELECT how, winner_seat, line_id, value FROM games g JOIN tables t USING (table_id) WHERE " \
                f"t.table_id = {paced}"
        with sqlite3.connect(alone) as conn:
            expected = conn.execute(ended).fetchall()
        assert expected and rows_of_url(url, ended) == [tuple(r) for r in expected]
        # the identity columns go on after the copied ids
        code, _, err = run(capsys, "simulate", "--games", "1", "--db", url, "--json")
        assert code == 0, err
        # a database with data is never copied into
        code, _, err = run(capsys, "db", "copy", "--from", str(source), "--to", url)
        assert code == 2 and "is not empty" in err and err.count("\n") == 1
    finally:
        asyncio.run(server.drop(url))


def rows_of_url(url: str, query: str) -> list[tuple[object, ...]]:
    async def fetch() -> list[tuple[object, ...]]:
        db = await Database.open(url, readonly=True)
        try:
            return [tuple(r) for r in await db.fetchall(query)]
        finally:
            await db.close()

    return asyncio.run(fetch())


def test_a_file_whose_ledger_is_unsound_is_not_copied(server: TestServer, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "unsound.db"
    assert run(capsys, "simulate", "--games", "1", "--db", str(source), "--json")[0] == 0
    with sqlite3.connect(source) as conn:  # a game's end recorded without its settlement (edited by hand)
        conn.execute("UPDATE games SET ended_at = '2026-01-01T00:00:00.000+00:00' WHERE ended_at IS NULL")
        conn.execute("INSERT INTO tables (guild_id, channel_id, status, rules, created_at, seed) "
                     "VALUES (0, 9, 'open', '{}', 'x', 0)")
        table = conn.execute("SELECT MAX(table_id) FROM tables").fetchone()[0]
        conn.execute("INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at, "
                     "ended_at) VALUES (?, 0, 1, 'practice', '{}', 1, 0, 'x', 'y')", (table,))
    url = asyncio.run(server.new_database(empty=True))
    try:
        code, _, err = run(capsys, "db", "copy", "--from", str(source), "--to", url)
        assert code == 2 and "ledger has problems, so it is not copied" in err and "has no settlement" in err
        assert rows_of_url(url, "SELECT COUNT(*) FROM games") == [(0,)]  # nothing written
    finally:
        asyncio.run(server.drop(url))
