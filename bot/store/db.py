"""The SQLite database: opening it (WAL, foreign keys), migrating it, and explicit transactions."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from .migrations import MIGRATIONS

DEFAULT_PATH = "charleston.db"


def default_db_path() -> str:
    """``CHARLESTON_DB`` if set, else ``./charleston.db``."""
    return os.environ.get("CHARLESTON_DB") or DEFAULT_PATH


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Database:
    """One aiosqlite connection in autocommit mode; writes go through :meth:`transaction`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        # One connection serves every coroutine, so transactions must not interleave on it, and a read must not
        # run inside another coroutine's open transaction (it would see uncommitted rows).
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path | None = None) -> Database:
        path = str(path or default_db_path())
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")  # durable at checkpoints; WAL keeps it consistent
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        db = cls(conn, path)
        await db.migrate()
        return db

    async def close(self) -> None:
        await self.conn.close()

    async def schema_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply every migration not yet applied; returns the schema version."""
        version = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            # executescript commits first; the script and the version bump then run as one transaction.
            await self.conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
        return await self.schema_version()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for reading committed data: never inside another coroutine's open transaction."""
        async with self._lock:
            yield self.conn

    async def fetchall(self, query: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Every row of a query, from committed data."""
        async with self.read() as conn, conn.execute(query, params) as cursor:
            return list(await cursor.fetchall())

    async def fetchone(self, query: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """The first row of a query (or None), from committed data."""
        async with self.read() as conn, conn.execute(query, params) as cursor:
            row: aiosqlite.Row | None = await cursor.fetchone()
            return row

    @asynccontextmanager
    async def single_statement(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for one self-contained write statement (autocommit makes it its own transaction),
        kept from running inside another coroutine's open transaction."""
        async with self._lock:
            yield self.conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back if the block raises."""
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")
