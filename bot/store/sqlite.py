"""The SQLite backend: one file, opened in WAL mode with foreign keys on, one aiosqlite connection per process.

Opening is the one place where a database file is judged: a path that is a folder, a file that is not SQLite,
another program's database, one from a newer Charleston, a locked, read-only or damaged file each become a
:class:`DatabaseProblem` naming the file and what to do, and the connection is closed before it is raised (its
thread would otherwise keep the process alive). Nothing in a file is changed before it is known to be ours.

Durability: WAL with ``synchronous = NORMAL``: a commit survives the bot's crash; after a power cut or an
operating-system crash the last commits before the latest WAL checkpoint may be gone, the file stays consistent.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .db import DEFAULT_PATH, Database, DatabaseProblem, IntegrityError, Row, is_postgres_url
from .migrations import MIGRATIONS

APPLICATION_ID = 0x43484D4A  # "CHMJ" in the file header: marks a Charleston database (SQLite's application_id)
# Tables of the first migration: a database from before APPLICATION_ID was written is recognised by them.
OWN_TABLES = frozenset({"leagues", "players", "tables", "table_seats", "games", "actions", "ledger_transactions",
                        "ledger_postings"})
BUSY_TIMEOUT_MS = 5000


def explain(path: str | Path, exc: BaseException) -> DatabaseProblem | None:
    """The user's side of an SQLite error about the file at ``path``, or None if the error is a bug of ours."""
    if not isinstance(exc, sqlite3.Error):
        return None
    kind = getattr(exc, "sqlite_errorname", "") or ""
    if kind == "SQLITE_NOTADB":
        return DatabaseProblem(f"{path} is not an SQLite database (or it is encrypted); give the path of the bot's "
                               "database, or a new file name to start one")
    if kind.startswith("SQLITE_CORRUPT"):
        return DatabaseProblem(f"{path} is damaged ({exc}); restore it from a backup made with 'charleston backup'")
    if kind.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return DatabaseProblem(f"{path} is locked by another program writing to it; try again when it has finished")
    if kind.startswith("SQLITE_READONLY"):
        return DatabaseProblem(f"{path} is read-only for Charleston: this command writes to it, which needs write "
                               "permission on the file and on its folder")
    if kind.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return DatabaseProblem(f"cannot open {path}: check that it and its folder exist and may be read and written")
    if kind == "SQLITE_FULL":
        return DatabaseProblem(f"cannot write {path}: the disk is full")
    if kind.startswith("SQLITE_IOERR"):
        return DatabaseProblem(f"cannot read or write {path}: input/output error ({exc})")
    return None


class SqliteConnection:
    """The :class:`~bot.store.db.Connection` calls over one aiosqlite connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, query: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        try:
            async with self.conn.execute(query, params) as cursor:
                return cursor.rowcount
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from None

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        try:
            await self.conn.executemany(query, rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from None

    async def fetchall(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""
        try:
            async with self.conn.execute(query, params) as cursor:
                return list(await cursor.fetchall())
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from None

    async def fetchone(self, query: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or None (the statement is run to its end)."""
        rows = await self.fetchall(query, params)
        return rows[0] if rows else None

    async def fetchval(self, query: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row, or None."""
        row = await self.fetchone(query, params)
        return None if row is None else row[0]


class SqliteDatabase(Database):
    """One aiosqlite connection in autocommit mode; writes go through :meth:`transaction`."""

    kind = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._handle = SqliteConnection(conn)
        # One connection serves every coroutine, so transactions must not interleave on it, and a read must not
        # run inside another coroutine's open transaction (it would see uncommitted rows).
        self._lock = asyncio.Lock()

    @classmethod
    def accepts(cls, target: str) -> bool:
        """Anything that is not a PostgreSQL URL is an SQLite file's path."""
        return not is_postgres_url(target)

    @classmethod
    def explain_error(cls, target: str, exc: BaseException) -> DatabaseProblem | None:
        """:func:`explain`."""
        return explain(target, exc)

    @classmethod
    async def connect(cls, target: str, *, readonly: bool, create: bool, any_schema: bool) -> SqliteDatabase:
        """Open the file (see :meth:`Database.open`)."""
        path = target
        memory = path == ":memory:"
        if not memory:
            _check_path(Path(path), readonly=readonly, create=create)
        try:
            conn = await aiosqlite.connect(_target(path, readonly), isolation_level=None, uri=not memory)
        except sqlite3.Error as exc:
            raise explain(path, exc) or exc from None
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            app_id = await _identify(conn, path, current=readonly and not any_schema)
            if readonly:
                await conn.execute("PRAGMA query_only = ON")
            else:
                await conn.execute("PRAGMA journal_mode = WAL")
                await conn.execute("PRAGMA synchronous = NORMAL")  # durable at checkpoints; WAL keeps it consistent
            await conn.execute("PRAGMA foreign_keys = ON")
            db = cls(conn, path)
            if not readonly:
                await _migrate(db, path)
                if app_id != APPLICATION_ID:
                    await conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            return db
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, sqlite3.Error) and (problem := explain(path, exc)) is not None:
                raise problem from None
            raise

    async def close(self) -> None:
        """Close the connection (and stop its thread)."""
        await self.conn.close()

    async def backup_to(self, target: str | Path) -> None:
        """A consistent copy of the whole database in the new file ``target``, even while others write (SQLite's
        online backup). Raises :class:`DatabaseProblem` if ``target`` exists or cannot be written; a partial copy
        is removed."""
        target = Path(target)
        if target.exists() or target.is_symlink():
            raise DatabaseProblem(f"{target} already exists; choose a new file name")
        if not target.parent.is_dir():
            raise DatabaseProblem(f"cannot write {target}: the folder {target.parent} does not exist")
        try:
            copy = await aiosqlite.connect(str(target), isolation_level=None)
            try:
                await self.conn.backup(copy)
            finally:
                await copy.close()
        except sqlite3.Error as exc:
            target.unlink(missing_ok=True)
            raise explain(target, exc) or exc from None

    async def schema_version(self) -> int:
        """The schema version of the file (SQLite's user_version)."""
        async with self.conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    def latest_schema(self) -> int:
        """The number of SQLite's last migration."""
        return len(MIGRATIONS)

    async def migrate(self) -> int:
        """Apply every migration not yet applied; returns the schema version."""
        version = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            # executescript commits first; the script and the version bump then run as one transaction.
            await self.conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
        return await self.schema_version()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteConnection]:
        """The connection for reading committed data: never inside another coroutine's open transaction."""
        async with self._lock:
            yield self._handle

    async def fetchall(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, from committed data."""
        async with self.read() as conn:
            return await conn.fetchall(query, params)

    async def fetchone(self, query: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query (or None), from committed data."""
        async with self.read() as conn:
            return await conn.fetchone(query, params)

    @asynccontextmanager
    async def single_statement(self, *, durable: bool = True) -> AsyncIterator[SqliteConnection]:
        """The connection for one self-contained write statement (autocommit makes it its own transaction),
        kept from running inside another coroutine's open transaction. Every write is equally durable here."""
        async with self._lock:
            yield self._handle

    @asynccontextmanager
    async def transaction(self, *, durable: bool = True) -> AsyncIterator[SqliteConnection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back if the block raises."""
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._handle
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            try:
                await self.conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                await self.conn.execute("ROLLBACK")
                raise IntegrityError(str(exc)) from None

    @asynccontextmanager
    async def consistent_read(self) -> AsyncIterator[SqliteConnection]:
        """One read transaction: in WAL mode every read in it sees the database as of its first."""
        async with self._lock:
            await self.conn.execute("BEGIN")
            try:
                yield self._handle
            finally:
                await self.conn.execute("COMMIT")

    async def table_columns(self) -> dict[str, list[str]]:
        """Every table (views and SQLite's own left out) and its columns, in order."""
        names = [str(r[0]) for r in await self.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {name: [str(r[1]) for r in await self.fetchall(f"PRAGMA table_info({name})")] for name in names}


async def _migrate(db: SqliteDatabase, path: str) -> None:
    version = await db.schema_version()
    try:
        await db.migrate()
    except sqlite3.Error as exc:
        if explain(path, exc) is not None:
            raise
        # Every migration is tested from every earlier version, so one that fails here met a file whose schema
        # is not what its version number says: edited by hand, or damaged.
        raise DatabaseProblem(f"{path} says it is at schema {version}, but its tables do not match ({exc}); it may "
                              "be damaged: restore it from a backup made with 'charleston backup'") from None


def _check_path(path: Path, *, readonly: bool, create: bool) -> None:
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if readonly or not create:
            raise DatabaseProblem(f"no database at {path}") from None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseProblem(f"cannot create the folder {path.parent}: {exc.strerror or exc}") from None
        return
    except OSError as exc:
        raise DatabaseProblem(f"cannot open {path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise DatabaseProblem(f"{path} is a folder; give the path of a database file, e.g. {path / DEFAULT_PATH}")
    if not stat.S_ISREG(mode):
        raise DatabaseProblem(f"{path} is not a regular file; give the path of a database file")
    if not readonly and not os.access(path, os.W_OK):
        raise DatabaseProblem(f"{path} is read-only: this command writes to the database, so it needs write "
                              "permission on the file")


def _target(path: str, readonly: bool) -> str:
    """What to hand ``sqlite3.connect``: a URI, so that a read never creates the file."""
    if path == ":memory:":
        return path
    uri = Path(path).resolve().as_uri()
    if not readonly:
        return uri + "?mode=rwc"
    # Read-only work goes through a read-write handle with query_only when the file may be written: as the last
    # connection to close, it then removes the -wal and -shm files SQLite makes beside a WAL database, where a
    # mode=ro handle would leave them behind.
    folder = Path(path).resolve().parent
    if os.access(path, os.W_OK) and os.access(folder, os.W_OK):
        return uri + "?mode=rw"
    if not Path(path + "-wal").exists():
        # SQLite cannot make the -shm file a WAL database needs in a folder it may not write; with no -wal file
        # no one is writing, so the file alone is the whole database and may be read as unchanging.
        return uri + "?mode=ro&immutable=1"
    return uri + "?mode=ro"


async def _identify(conn: aiosqlite.Connection, path: str, *, current: bool) -> int:
    """The file's application id, once it is known to be a Charleston database (or an empty
    one that may become one; with ``current``, one already at the latest schema). Only reads, so another
    program's database is refused untouched."""
    async with conn.execute("PRAGMA application_id") as cursor:
        app_id = int((await cursor.fetchone() or (0,))[0])
    async with conn.execute("PRAGMA user_version") as cursor:
        version = int((await cursor.fetchone() or (0,))[0])
    async with conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") as cursor:
        names = {str(row[0]) for row in await cursor.fetchall()}
    foreign = app_id not in (0, APPLICATION_ID) or (version == 0 and bool(names)) or (
        version > 0 and app_id == 0 and not names >= OWN_TABLES)
    if foreign:
        shown = ", ".join(sorted(names)[:3]) + (", ..." if len(names) > 3 else "")
        held = f" (it holds {shown})" if names else ""
        raise DatabaseProblem(f"{path} is another program's database, not Charleston's{held}; nothing in it was "
                              "changed. Give the path of the bot's database, or a new file name to start one")
    if version > len(MIGRATIONS):
        raise DatabaseProblem(f"{path} was written by a newer version of Charleston (schema {version}; this one "
                              f"knows up to {len(MIGRATIONS)}); update Charleston to use it")
    if current and version == 0:
        raise DatabaseProblem(f"{path} holds no Charleston data yet: it is empty")
    if current and version < len(MIGRATIONS):
        raise DatabaseProblem(f"{path} uses an older schema ({version}; this Charleston uses {len(MIGRATIONS)}); "
                              f"upgrade it first with 'charleston migrate --db {path}' (or start the bot once)")
    return app_id
