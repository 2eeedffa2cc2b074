"""Bad databases (issue 18): every way a database file can be wrong gives one clear line and exit status 2, the
process always exits, another program's database is refused before anything in it changes, and read-only
commands open the database read-only."""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from support.cli import refused, run

from bot.cli import main
from bot.store import sqlite as store_db
from bot.store.db import Database, DatabaseProblem
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite import APPLICATION_ID

READ_COMMANDS = [["standings"], ["tables", "list"], ["ledger", "verify"]]


def _permissions_bind() -> bool:
    """Whether this process is held to file permissions (root, with its capabilities, is not)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe"
        probe.touch(mode=0o444)
        try:
            probe.open("a").close()
        except PermissionError:
            return True
        return False


as_root = pytest.mark.skipif(not _permissions_bind(), reason="file permissions do not bind this process (root)")



def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def beside(path: Path) -> list[str]:
    """The database's files: itself and any -wal, -shm or -journal next to it."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real Charleston database with two recorded games."""
    path = tmp_path_factory.mktemp("recorded") / "charleston.db"
    assert main(["simulate", "--games", "2", "--db", str(path), "--json"]) == 0
    return path


@pytest.fixture
def charleston_db(recorded: Path, tmp_path: Path) -> Path:
    path = tmp_path / "league.db"
    shutil.copy(recorded, path)
    return path


@pytest.fixture
def other_program_db(tmp_path: Path) -> Path:
    path = tmp_path / "notes.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO notes (body) VALUES ('keep me')")
    conn.close()
    return path


def bad_files(tmp_path: Path, recorded: Path) -> dict[str, Path]:
    files = {"random bytes": os.urandom(8192), "text": b"league notes\n" * 50,
             "truncated": recorded.read_bytes()[:6000], "header only": recorded.read_bytes()[:100]}
    paths = {}
    for label, content in files.items():
        paths[label] = tmp_path / f"{label.replace(' ', '-')}.db"
        paths[label].write_bytes(content)
    return paths


# ------------------------------------------------------------------------------------------- the process exits


@pytest.mark.slow
def test_a_bad_database_ends_the_process_with_one_line(tmp_path: Path, recorded: Path) -> None:
    """The hang of issue 18: a traceback, then an aiosqlite thread that kept the interpreter alive."""
    for label, path in bad_files(tmp_path, recorded).items():
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "bot", "standings", "--db", str(path)], capture_output=True,
                              text=True, timeout=30, check=False)
        assert time.monotonic() - started < 10, label
        assert done.returncode == 2, (label, done.stderr)
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, (label, done.stderr)
        assert str(path) in done.stderr


def test_a_refused_open_closes_its_connection(tmp_path: Path, recorded: Path, other_program_db: Path) -> None:
    before = set(threading.enumerate())
    for path in [*bad_files(tmp_path, recorded).values(), other_program_db]:
        for readonly in (True, False):
            with pytest.raises(DatabaseProblem):
                asyncio.run(Database.open(path, readonly=readonly))
            for thread in set(threading.enumerate()) - before:  # the connection's worker, finishing its last step
                thread.join(timeout=5)
                assert not thread.is_alive(), path


@pytest.mark.parametrize("label", ["random bytes", "text", "truncated", "header only"])
def test_every_database_command_refuses_a_bad_file(tmp_path: Path, recorded: Path, label: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = bad_files(tmp_path, recorded)[label]
    content = path.read_bytes()
    for command in [*READ_COMMANDS, ["tables", "resume"], ["migrate"], ["backup", "--to", str(tmp_path / "b.db")],
                    ["render", "standings", "-o", str(tmp_path / "s.png")]]:
        line = refused(capsys, *command, "--db", str(path))
        assert str(path) in line and ("not an SQLite database" in line or "is damaged" in line), line
    for command in (["simulate", "--games", "1"], ["demo"]):
        assert str(path) in refused(capsys, *command, "--db", str(path))
    assert path.read_bytes() == content
    assert not (tmp_path / "b.db").exists() and not (tmp_path / "s.png").exists()


# ----------------------------------------------------------------------------------- another program's database


def test_another_programs_database_is_refused_untouched(other_program_db: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(other_program_db)
    for command in [*READ_COMMANDS, ["tables", "resume"], ["migrate"], ["demo"], ["simulate", "--games", "1"]]:
        line = refused(capsys, *command, "--db", str(other_program_db))
        assert "another program's database, not Charleston's (it holds notes)" in line
    assert digest(other_program_db) == before and beside(other_program_db) == ["notes.db"]
    with sqlite3.connect(other_program_db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # never switched to WAL
    conn.close()


def test_a_database_from_a_newer_charleston_is_refused(charleston_db: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(charleston_db) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    before = digest(charleston_db)
    for command in [*READ_COMMANDS, ["tables", "resume"]]:
        assert "written by a newer version of Charleston" in refused(capsys, *command, "--db", str(charleston_db))
    assert digest(charleston_db) == before


def test_a_new_database_is_marked_as_charlestons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new.db"
    assert run(capsys, "simulate", "--games", "1", "--db", str(path))[0] == 0
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


# ------------------------------------------------------------------------------------------ read-only opening


def test_read_only_commands_change_nothing_and_leave_nothing_beside_the_file(
        charleston_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(charleston_db)
    for command in READ_COMMANDS:
        assert run(capsys, *command, "--db", str(charleston_db))[0] == 0
    assert run(capsys, "render", "standings", "--db", str(charleston_db), "-o",
               str(charleston_db.parent / "s.png"))[0] == 0
    assert digest(charleston_db) == before and beside(charleston_db) == ["league.db"]


def test_a_read_only_database_refuses_writes(charleston_db: Path) -> None:
    async def attempt() -> None:
        db = await Database.open(charleston_db, readonly=True)
        try:
            await db.conn.execute("DELETE FROM players")
        finally:
            await db.close()

    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        asyncio.run(attempt())


@as_root
def test_read_only_commands_work_without_write_permission(charleston_db: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    charleston_db.chmod(0o444)
    charleston_db.parent.chmod(0o555)
    try:
        for command in READ_COMMANDS:
            assert run(capsys, *command, "--db", str(charleston_db))[0] == 0
        assert "is read-only" in refused(capsys, "tables", "resume", "--db", str(charleston_db))
    finally:
        charleston_db.parent.chmod(0o755)


def test_an_older_schema_is_upgraded_by_migrate_not_by_a_read(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
    conn.close()
    line = refused(capsys, "standings", "--db", str(path))
    assert f"uses an older schema (1; this Charleston uses {len(MIGRATIONS)})" in line
    assert f"charleston migrate --db {path}" in line
    code, out, _ = run(capsys, "migrate", "--db", str(path))
    assert code == 0 and f"at schema {len(MIGRATIONS)}" in out
    assert run(capsys, "standings", "--db", str(path))[0] == 0


# ----------------------------------------------------------------------------------- paths, locks, backups


def test_a_folder_given_as_the_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in [*READ_COMMANDS, ["tables", "resume"], ["demo"], ["simulate", "--games", "1"]]:
        line = refused(capsys, *command, "--db", str(tmp_path))
        assert f"{tmp_path} is a folder; give the path of a database file" in line


def test_a_locked_database_is_reported_not_waited_on_for_ever(charleston_db: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(store_db, "BUSY_TIMEOUT_MS", 100)
    with sqlite3.connect(charleston_db) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")  # a rollback journal: an exclusive lock stops readers too
    conn.close()
    writer = sqlite3.connect(charleston_db, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        for command in [["standings"], ["tables", "resume"]]:
            assert "is locked by another program" in refused(capsys, *command, "--db", str(charleston_db))
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_backup_refuses_a_target_it_cannot_write(charleston_db: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = str(charleston_db)
    assert "already exists" in refused(capsys, "backup", "--db", db, "--to", str(tmp_path))
    assert "the database itself" in refused(capsys, "backup", "--db", db, "--to", db)
    (tmp_path / "notes").write_text("mine")
    behind_a_file = tmp_path / "notes" / "copy.db"
    assert f"{tmp_path / 'notes'} is a file, not a folder" in refused(capsys, "backup", "--db", db, "--to",
                                                                      str(behind_a_file))
    missing = tmp_path / "no" / "such" / "folder" / "copy.db"  # the README's rule: missing folders are made
    assert run(capsys, "backup", "--db", db, "--to", str(missing))[0] == 0 and missing.is_file()
    copy = tmp_path / "copy.db"
    assert run(capsys, "backup", "--db", db, "--to", str(copy))[0] == 0
    assert run(capsys, "ledger", "verify", "--db", str(copy))[:2] == (0, "ok\n")


@as_root
def test_backup_into_a_folder_without_write_permission(charleston_db: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        line = refused(capsys, "backup", "--db", str(charleston_db), "--to", str(locked / "copy.db"))
        assert str(locked / "copy.db") in line
    finally:
        locked.chmod(0o755)


def test_a_header_that_claims_an_older_schema_than_the_tables_is_reported(charleston_db: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the fuzz test: a damaged version number made the opener re-run a migration and fail as a bug."""
    with sqlite3.connect(charleston_db) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    conn.close()
    line = refused(capsys, "tables", "resume", "--db", str(charleston_db))
    assert f"says it is at schema {len(MIGRATIONS) - 1}, but its tables do not match" in line
