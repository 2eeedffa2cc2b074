"""The PostgreSQL backend against a real server (tests/support/postgres.py): its schema is SQLite's, it migrates
once however many processes start together, its ledger rules are PostgreSQL's own, action saves skip the wait for
the disk and nothing else does, every command takes a URL, and a URL the bot cannot use is one clear line."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from support.cli import refused, run
from support.paths import TESTS
from support.postgres import TestServer, session_server
from support.service import OpenDb

from bot.store.copy import COPY_ORDER
from bot.store.db import Database, DatabaseProblem, IntegrityError
from bot.store.pg_schema import PG_MIGRATIONS

pytestmark = pytest.mark.postgres
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz12.abcdefghijklmnopqrstuvwxyz012345"


@pytest.fixture
def server() -> TestServer:
    return session_server()


@pytest.fixture
async def url(server: TestServer, pg_drops: list[str]) -> str:
    made = await server.new_database()
    pg_drops.append(made)
    return made


@pytest.fixture
async def empty_url(server: TestServer, pg_drops: list[str]) -> str:
    made = await server.new_database(empty=True)
    pg_drops.append(made)
    return made




async def test_the_schema_keeps_sqlites_tables_and_columns(tmp_path: Path, url: str, open_db: OpenDb) -> None:
    sqlite_db, postgres_db = await open_db(tmp_path / "same.db"), await open_db(url)
    theirs, ours = await sqlite_db.table_columns(), await postgres_db.table_columns()
    assert theirs == ours and set(ours) >= {table for table, _ in COPY_ORDER}  # the copy knows each data table
    assert await postgres_db.schema_version() == postgres_db.latest_schema() == len(PG_MIGRATIONS)


@pytest.mark.timeout(120)
async def test_processes_starting_together_migrate_once(empty_url: str, open_db: OpenDb) -> None:
    start = str(time.time() + 4)
    env = {**os.environ, "PYTHONPATH": str(TESTS)}
    processes = [subprocess.Popen([sys.executable, "-m", "support.open_database", empty_url, start],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                 for _ in range(4)]
    for process in processes:
        out, err = process.communicate(timeout=90)
        assert process.returncode == 0, err
        assert out.strip() == str(len(PG_MIGRATIONS))
    db = await open_db(empty_url)
    assert [r[0] for r in await db.fetchall("SELECT version FROM charleston_schema ORDER BY version")] == \
        list(range(1, len(PG_MIGRATIONS) + 1))


async def test_only_action_saves_skip_the_wait_for_the_disk(url: str, open_db: OpenDb) -> None:
    db = await open_db(url)
    async with db.single_statement(durable=False) as conn:
        assert await conn.fetchval("SHOW synchronous_commit") == "off"
    async with db.transaction(durable=False) as conn:
        assert await conn.fetchval("SHOW synchronous_commit") == "off"
    async with db.single_statement() as conn:
        assert await conn.fetchval("SHOW synchronous_commit") == "on"
    async with db.transaction() as conn:  # a game's end and its settlement
        assert await conn.fetchval("SHOW synchronous_commit") == "on"
    assert await db.fetchval("SHOW synchronous_commit") == "on"


async def test_the_zero_sum_is_checked_at_commit_and_the_ledger_is_never_truncated(url: str, open_db: OpenDb) -> None:
    db = await open_db(url)
    closed_by_update = 0
    with pytest.raises(IntegrityError, match="does not balance"):
        async with db.transaction() as conn:
            txn = await conn.fetchval("INSERT INTO ledger_transactions (guild_id, kind, created_at) "
                                      "VALUES (1, 'correction', 'x') RETURNING txn_id")
            await conn.execute("INSERT INTO ledger_postings (txn_id, account, amount) VALUES (?, 'a', 5)", (txn,))
            closed_by_update = await conn.execute("UPDATE ledger_transactions SET closed = 1 WHERE txn_id = ?",
                                                  (txn,))
    assert closed_by_update == 1  # the statement went through: the check is deferred to the commit, which failed
    assert await db.fetchval("SELECT COUNT(*) FROM ledger_transactions") == 0
    for table in ("ledger_postings", "ledger_transactions"):
        with pytest.raises(IntegrityError, match="never deleted"):
            async with db.single_statement() as conn:
                await conn.execute(f"TRUNCATE {table} CASCADE")


async def test_a_unix_socket_host_in_either_form(server: TestServer, url: str, open_db: OpenDb) -> None:
    name = url.rsplit("/", 1)[1]
    for form in (f"postgresql:///{name}?host={server.socket_dir}&port={server.port}&user=postgres",
                 f"postgres://postgres@{quote(server.socket_dir, safe='')}:{server.port}/{name}"):
        db = await open_db(form)
        assert await db.schema_version() == len(PG_MIGRATIONS)


async def test_another_programs_database_is_refused_untouched(empty_url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(empty_url)
    try:
        await conn.execute("CREATE TABLE invoices (id integer)")
        with pytest.raises(DatabaseProblem, match=r"another program's database.*invoices"):
            await Database.open(empty_url)
        assert await conn.fetchval("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'") \
            == 1
    finally:
        await conn.close()


def test_a_url_the_bot_cannot_use_is_one_clear_line(server: TestServer, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    socket = quote(server.socket_dir, safe="")
    missing = f"postgresql://postgres:s3cret@{socket}:{server.port}/no_such_db"
    err = refused(capsys, "ledger", "verify", "--db", missing)
    assert "database no_such_db on" in err and "there is no such database" in err and "s3cret" not in err
    assert "cannot reach" in refused(capsys, "tables", "list", "--db", "postgresql://postgres@127.0.0.1:1/x")
    assert "cannot reach" in refused(capsys, "standings", "--db", "postgresql:///x?host=/nonexistent/folder")
    assert "refused the login of user nobody_here" in refused(
        capsys, "migrate", "--db", f"postgresql://nobody_here@{socket}:{server.port}/postgres")
    assert "mysql:// is not a database Charleston can use" in refused(capsys, "ledger", "verify", "--db",
                                                                      "mysql://localhost/x")
    # the bot: nothing is created where a URL was mistaken for a file
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "CHARLESTON_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CHARLESTON_DB", missing)
    assert "there is no such database" in refused(capsys, "bot", "--check")
    monkeypatch.setenv("CHARLESTON_DB", "sqlite3://charleston.db")
    assert "CHARLESTON_DB: sqlite3:// is not a database" in refused(capsys, "bot", "--check")
    assert list(tmp_path.iterdir()) == []


async def test_bot_check_on_postgresql_counts_tables_without_restoring(url: str, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "CHARLESTON_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CHARLESTON_DB", url.replace("postgres@", "postgres:s3cret@"))
    monkeypatch.setenv("CHARLESTON_SHARD_COUNT", "4")
    monkeypatch.setenv("CHARLESTON_SHARD_IDS", "2-3")
    code, out, _ = await _in_thread(run, capsys, "bot", "--check")
    assert code == 0 and "ok: settings are valid; database postgresql://postgres:***@" in out
    assert "(0 open tables)" in out and "shards 2,3 of 4" in out and "s3cret" not in out
    assert list(tmp_path.iterdir()) == []


async def _in_thread(function, *args):  # type: ignore[no-untyped-def]
    """A command line call (which runs its own event loop) from an async test."""
    import asyncio

    return await asyncio.to_thread(function, *args)


async def test_every_command_takes_a_url(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (await _in_thread(run, capsys, "simulate", "--games", "2", "--db", url, "--json"))[0] == 0
    code, out, _ = await _in_thread(run, capsys, "ledger", "verify", "--db", url)
    assert code == 0 and out.strip() == "ok"
    code, out, _ = await _in_thread(run, capsys, "tables", "list", "--db", url, "--json")
    assert code == 0 and json.loads(out) == []  # the simulation's tables are closed
    code, out, _ = await _in_thread(run, capsys, "standings", "--db", url, "--guild", "0", "--all-time", "--json")
    assert code == 0 and json.loads(out)["standings"] == []  # computers only: no human standings
    code, out, _ = await _in_thread(run, capsys, "migrate", "--db", url)
    assert code == 0 and f"is at schema {len(PG_MIGRATIONS)}" in out
    copy = tmp_path / "backup.db"
    code, out, _ = await _in_thread(run, capsys, "backup", "--db", url, "--to", str(copy))
    assert code == 0 and "backed up" in out
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games WHERE ended_at IS NOT NULL").fetchone()[0] == 2
    code, out, _ = await _in_thread(run, capsys, "ledger", "verify", "--db", str(copy))
    assert code == 0 and out.strip() == "ok"
    assert (await _in_thread(run, capsys, "tables", "resume", "--db", url))[0] == 0
    code, _, err = await _in_thread(run, capsys, "render", "standings", "--db", url, "-o", str(tmp_path / "s.png"))
    assert code == 0, err
