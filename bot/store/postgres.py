"""The PostgreSQL backend (asyncpg): a pool of connections, raw SQL, numbered migrations under an advisory lock.

A URL is ``postgresql://user:password@host:port/database`` (``postgres://`` too); a Unix-socket host is a folder,
``postgresql:///charleston?host=/var/run/postgresql`` or ``postgresql://%2Fvar%2Frun%2Fpostgresql/charleston``.
Opening is where a URL is judged: a server that does not answer, a database that does not exist, a login
refused, another program's tables, a schema from a newer Charleston each become one :class:`DatabaseProblem`
naming the server and database (never the password) and what to do.

Durability. A commit is on disk when it returns (PostgreSQL's default, about 4 ms here), except the action log:
its writes go through a second pool whose connections run with ``synchronous_commit = off``, so a commit returns
once it is in the server's memory and the WAL writer puts it on disk within 3 x ``wal_writer_delay`` (600 ms by
default). What that risks: if the PostgreSQL server (or its machine) crashes, the actions committed in that
last fraction of a second are gone; the database stays consistent (they are lost as a suffix of each game's log,
never with a gap, and a later durable commit carries every earlier one to disk). A crash of the bot loses
nothing. A game's last action, its result and its settlement are one durable transaction, as is every other
write.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import socket
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import unquote, urlsplit

from .db import Database, DatabaseProblem, IntegrityError, Row, is_postgres_url, shown
from .pg_schema import PG_MIGRATIONS

if TYPE_CHECKING:
    import asyncpg

MIGRATION_LOCK = 0x43484D4A  # the advisory lock held while migrating ("CHMJ", as SQLite's application_id)
CONNECT_TIMEOUT = 10.0  # seconds to wait for the server at start-up
POOL_SIZE = 8  # connections for reads and durable writes
ACTION_POOL_SIZE = 4  # connections for the action log (synchronous_commit off): each holds one for one statement
_COUNT = re.compile(r"(\d+)$")


def _asyncpg() -> Any:
    import asyncpg  # imported on first use: a command that never touches PostgreSQL does not load the driver

    return asyncpg


@functools.lru_cache(maxsize=2048)
def numbered(query: str) -> str:
    """``query`` with its ``?`` placeholders as PostgreSQL's ``$1``, ``$2``... (quoted text left alone)."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in query:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def _changed(status: str) -> int:
    found = _COUNT.search(status or "")
    return int(found.group(1)) if found else 0


class PgConnection:
    """The :class:`~bot.store.db.Connection` calls over one asyncpg connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, query: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        with _integrity():
            return _changed(await self.conn.execute(numbered(query), *params))

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        with _integrity():
            await self.conn.executemany(numbered(query), list(rows))

    async def fetchall(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""
        with _integrity():
            return cast(list[Row], await self.conn.fetch(numbered(query), *params))

    async def fetchone(self, query: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or None."""
        with _integrity():
            return cast("Row | None", await self.conn.fetchrow(numbered(query), *params))

    async def fetchval(self, query: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row, or None."""
        with _integrity():
            return await self.conn.fetchval(numbered(query), *params)


@contextlib.contextmanager
def _integrity() -> Any:
    """asyncpg's integrity errors (a unique key, a check, a ledger rule, a stale version) as IntegrityError."""
    try:
        yield
    except Exception as exc:
        if isinstance(exc, _asyncpg().IntegrityConstraintViolationError):
            raise IntegrityError(str(exc)) from None
        raise


class PostgresDatabase(Database):
    """Two asyncpg pools: one for reads and durable writes, one for the action log (see the module's doc)."""

    kind = "postgresql"

    def __init__(self, url: str, pool: asyncpg.Pool, actions: asyncpg.Pool | None) -> None:
        self.url = url
        self.path = shown(url)
        self._pool = pool
        self._actions = actions or pool

    @classmethod
    def accepts(cls, target: str) -> bool:
        """A ``postgresql://`` or ``postgres://`` URL."""
        return is_postgres_url(target)

    @classmethod
    def explain_error(cls, target: str, exc: BaseException) -> DatabaseProblem | None:
        """:func:`explain`."""
        return explain(target, exc)

    @classmethod
    async def connect(cls, target: str, *, readonly: bool, create: bool, any_schema: bool) -> PostgresDatabase:
        """Connect, identify the database, migrate it under the advisory lock (see :meth:`Database.open`; a
        database must exist before Charleston uses it, so ``create`` changes nothing here)."""
        settings = {"application_name": "charleston"}
        if readonly:
            settings["default_transaction_read_only"] = "on"
        pool = await _pool(target, settings, POOL_SIZE)
        actions = None
        try:
            async with pool.acquire() as conn:
                current = readonly and not any_schema
                await _identify(conn, target, current=current)
                if not readonly:
                    await _migrate(conn, target)
            if not readonly:
                actions = await _pool(target, {**settings, "synchronous_commit": "off"}, ACTION_POOL_SIZE)
        except BaseException as exc:
            await pool.close()
            if (problem := explain(target, exc)) is not None:
                raise problem from None
            raise
        return cls(target, pool, actions)

    async def close(self) -> None:
        """Close both pools (waiting a few seconds for connections in use)."""
        for pool in {id(p): p for p in (self._actions, self._pool)}.values():
            try:
                await asyncio.wait_for(pool.close(), timeout=10)
            except (TimeoutError, OSError):
                pool.terminate()

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        async with self._pool.acquire() as conn:
            return await _version(conn)

    def latest_schema(self) -> int:
        """The number of PostgreSQL's last migration."""
        return len(PG_MIGRATIONS)

    async def fetchall(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, from committed data."""
        async with self._pool.acquire() as conn:
            return await PgConnection(conn).fetchall(query, params)

    async def fetchone(self, query: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query (or None), from committed data."""
        async with self._pool.acquire() as conn:
            return await PgConnection(conn).fetchone(query, params)

    async def fetchval(self, query: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row (or None), from committed data."""
        async with self._pool.acquire() as conn:
            return await PgConnection(conn).fetchval(query, params)

    @asynccontextmanager
    async def single_statement(self, *, durable: bool = True) -> AsyncIterator[PgConnection]:
        """A connection for one statement, committed on its own (``durable=False``: see the module's doc)."""
        async with (self._pool if durable else self._actions).acquire() as conn:
            yield PgConnection(conn)

    @asynccontextmanager
    async def transaction(self, *, durable: bool = True) -> AsyncIterator[PgConnection]:
        """A connection in one transaction: committed at the end of the block (the ledger's deferred check runs
        then), rolled back if the block raises."""
        async with (self._pool if durable else self._actions).acquire() as conn:
            txn = conn.transaction()
            await txn.start()
            try:
                yield PgConnection(conn)
            except BaseException:
                with contextlib.suppress(Exception):  # a broken connection: the pool discards it
                    await txn.rollback()
                raise
            with _integrity():
                await txn.commit()

    @asynccontextmanager
    async def consistent_read(self) -> AsyncIterator[PgConnection]:
        """A read-only REPEATABLE READ transaction: every read in it sees one moment of the database."""
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            yield PgConnection(conn)

    async def table_columns(self) -> dict[str, list[str]]:
        """Every table of the schema (the migrations' own record and the cluster's working tables left out) and its
        columns, in order."""
        rows = await self.fetchall(
            "SELECT c.table_name, c.column_name FROM information_schema.columns c "
            "JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
            "WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' "
            "AND c.table_name != 'charleston_schema' AND c.table_name NOT LIKE 'cluster\\_%' "
            "ORDER BY c.table_name, c.ordinal_position")
        columns: dict[str, list[str]] = {}
        for table, column in rows:
            columns.setdefault(str(table), []).append(str(column))
        return columns

    async def reset_identities(self, conn: PgConnection) -> None:
        """After rows were copied in with their own ids: each identity column continues after its largest id."""
        for table, column in await conn.fetchall(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND is_identity = 'YES'"):
            await conn.fetchval(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                                f"COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")


async def _pool(url: str, settings: dict[str, str], size: int) -> asyncpg.Pool:
    try:
        pool = await _asyncpg().create_pool(url, min_size=1, max_size=size, timeout=CONNECT_TIMEOUT,
                                            server_settings=settings, max_inactive_connection_lifetime=300)
    except BaseException as exc:
        problem = explain(url, exc, connecting=True)
        if problem is None:
            raise
        raise problem from None
    return cast("asyncpg.Pool", pool)


async def _version(conn: asyncpg.Connection) -> int:
    if not await conn.fetchval("SELECT to_regclass('charleston_schema') IS NOT NULL"):
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM charleston_schema"))


async def _identify(conn: asyncpg.Connection, url: str, *, current: bool) -> int:
    """The database's schema version, once it is known to be Charleston's (or empty, to become one; with
    ``current``, already at the latest schema). Only reads, so another program's database is refused untouched."""
    where = _where(url)
    version = await _version(conn)
    if version == 0:
        names = [str(r[0]) for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            "ORDER BY table_name")]
        if names:
            held = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
            raise DatabaseProblem(f"{where} is another program's database, not Charleston's (it holds {held}); "
                                  "nothing in it was changed. Give Charleston a database of its own (createdb)")
        if current:
            raise DatabaseProblem(f"{where} holds no Charleston data yet: it is empty")
    if version > len(PG_MIGRATIONS):
        raise DatabaseProblem(f"{where} was written by a newer version of Charleston (schema {version}; this one "
                              f"knows up to {len(PG_MIGRATIONS)}); update Charleston to use it")
    if current and version < len(PG_MIGRATIONS):
        raise DatabaseProblem(f"{where} uses an older schema ({version}; this Charleston uses {len(PG_MIGRATIONS)});"
                              f" upgrade it first with 'charleston migrate --db URL' (or start the bot once)")
    return version


async def _migrate(conn: asyncpg.Connection, url: str) -> None:
    """Apply the migrations not yet applied, each in its own transaction, holding the advisory lock: a second
    process starting at the same moment waits, then finds nothing left to do."""
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        version = await _identify(conn, url, current=False)  # another process may have migrated
        for number, script in enumerate(PG_MIGRATIONS[version:], start=version + 1):
            async with conn.transaction():
                await conn.execute(script)
                await conn.execute("INSERT INTO charleston_schema (version) VALUES ($1)", number)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


def _place(url: str) -> tuple[str, str]:
    """The server (host, port or socket folder) and the database a URL names."""
    parts = urlsplit(url)
    query = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
    host = unquote(parts.hostname or "") or unquote(query.get("host", "")) or "localhost"
    if parts.port:
        host += f":{parts.port}"
    database = unquote(parts.path.lstrip("/")) or unquote(query.get("dbname", "")) or (parts.username or "")
    return host, database or "(default)"


def _where(url: str) -> str:
    """The server and database of a URL, for a message: ``PostgreSQL database charleston on /run/postgresql``."""
    host, database = _place(url)
    return f"PostgreSQL database {database} on {host}"


def explain(url: str, exc: BaseException, *, connecting: bool = False) -> DatabaseProblem | None:
    """The user's side of an error met with the database at ``url`` (``connecting``: while connecting, where any
    OS error means the server cannot be reached), or None if the error is a bug of ours."""
    pg = _asyncpg()
    where = _where(url)
    user = urlsplit(url).username or "(default)"
    if isinstance(exc, DatabaseProblem):
        return exc
    if isinstance(exc, pg.InvalidCatalogNameError):
        database = _place(url)[1]
        return DatabaseProblem(f"{where}: there is no such database; create it first (createdb {database}, or "
                               f"CREATE DATABASE {database}) and give the URL of it")
    if isinstance(exc, pg.InvalidPasswordError | pg.InvalidAuthorizationSpecificationError):
        return DatabaseProblem(f"{where} refused the login of user {user}: check the user and password in the URL "
                               f"({exc})")
    if isinstance(exc, pg.InsufficientPrivilegeError):
        return DatabaseProblem(f"{where}: user {user} lacks a permission Charleston needs ({exc}); make it the "
                               "database's owner, or run 'charleston migrate' once as the owner")
    if isinstance(exc, pg.TooManyConnectionsError):
        return DatabaseProblem(f"{where} has no free connection (max_connections): raise it, or run fewer processes")
    if isinstance(exc, pg.DiskFullError):
        return DatabaseProblem(f"{where}: the server's disk is full")
    if isinstance(exc, pg.ReadOnlySQLTransactionError):
        return DatabaseProblem(f"{where} is read-only for this command ({exc})")
    unreachable: tuple[type[BaseException], ...] = (
        pg.CannotConnectNowError, pg.ConnectionDoesNotExistError, pg.PostgresConnectionError, ConnectionError,
        TimeoutError, socket.gaierror)
    if isinstance(exc, unreachable) or (connecting and isinstance(exc, OSError | pg.InterfaceError)):
        reason = str(exc) or type(exc).__name__
        return DatabaseProblem(f"cannot reach the {where} ({reason}): check that the server is running and that the "
                               "URL's host, port and socket folder are right")
    return None
