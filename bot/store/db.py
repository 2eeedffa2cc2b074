"""The database, whichever it is: the interface every store module writes to, and the one place a target is judged.

A target is a PostgreSQL URL (``postgresql://`` or ``postgres://``, a Unix-socket host included) or else the path
of an SQLite file. The two backends (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`) subclass
:class:`Database`; importing :mod:`bot.store` makes both available to :meth:`Database.open`.

Store modules write SQL once for both: ``?`` placeholders, ``ON CONFLICT`` instead of ``INSERT OR IGNORE``,
``RETURNING`` instead of ``lastrowid``, ``CASE`` instead of boolean sums. A connection's calls are
:class:`Connection`'s; rows are read by index or column name (:class:`Row`).
"""

from __future__ import annotations

import os
import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

DEFAULT_PATH = "charleston.db"
POSTGRES_SCHEMES = ("postgresql", "postgres")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


class DatabaseProblem(Exception):
    """A database that cannot be used; the message names it, says what is wrong and what to do."""


class IntegrityError(Exception):
    """The database refused a write that breaks one of its rules (a unique key, the ledger's balance, a stale
    snapshot version): the same exception on both backends, with the rule's message."""


class Row(Protocol):
    """A result row: by position or by column name, iterable over its values; ``dict(row)`` gives a dict."""

    def __getitem__(self, key: int | str, /) -> Any:
        """The value at a position or of a column."""

    def __iter__(self) -> Iterator[Any]:
        """The values, in column order."""

    def __len__(self) -> int:
        """The number of columns."""

    def keys(self) -> Iterable[str]:
        """The column names."""


class Connection(Protocol):
    """One connection (inside a transaction, or for one statement): SQL with ``?`` placeholders."""

    async def execute(self, query: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""

    async def fetchall(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""

    async def fetchone(self, query: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or None."""

    async def fetchval(self, query: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row (None if there is no row): ``INSERT ... RETURNING id``."""


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database (else it is an SQLite file's path)."""
    found = _SCHEME.match(str(target))
    return found is not None and found.group(1).lower() in POSTGRES_SCHEMES


def target_problem(target: str) -> str | None:
    """Why ``target`` cannot name a database (a URL of a scheme we do not know), or None if it may."""
    found = _SCHEME.match(target)
    if found is None or found.group(1).lower() in POSTGRES_SCHEMES:
        return None
    return (f"{found.group(1)}:// is not a database Charleston can use: give a postgresql:// URL, or the path of "
            "an SQLite file")


def shown(target: str | Path) -> str:
    """The target as it may be printed: a URL without its password."""
    text = str(target)
    if not is_postgres_url(text):
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


def default_db_path() -> str:
    """``CHARLESTON_DB`` if set, else ``./charleston.db``."""
    return os.environ.get("CHARLESTON_DB") or DEFAULT_PATH


def now_iso() -> str:
    """The current UTC time as ISO 8601 text, to the millisecond (how the store writes times)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Database(ABC):
    """A Charleston database: reads of committed data, writes in transactions, the schema's version.

    ``durable=False`` on a write (the action log) lets the backend return before the commit is on disk: such a
    write survives the bot's crash, and may be lost only if the database server or the machine crashes within a
    fraction of a second (see :mod:`bot.store.postgres`). Every other write is as durable as the backend's
    default; a game's settlement always is.
    """

    kind: str  # "sqlite" or "postgresql"
    path: str  # what was opened, as it may be printed (no password)

    @classmethod
    async def open(cls, target: str | Path | None = None, *, readonly: bool = False, create: bool = True,
                   any_schema: bool = False) -> Database:
        """Open the database ``target`` names (default :func:`default_db_path`), check that it is Charleston's,
        and bring its schema up to date. ``readonly`` never writes, so it refuses a database whose schema is out
        of date unless ``any_schema`` (for copying it as it is); ``create=False`` refuses one that does not
        exist yet. Raises :class:`DatabaseProblem`, with every connection closed."""
        text = str(target or default_db_path())
        if (problem := target_problem(text)) is not None:
            raise DatabaseProblem(problem)
        for backend in Database.__subclasses__():
            if backend.accepts(text):
                return await backend.connect(text, readonly=readonly, create=create, any_schema=any_schema)
        raise DatabaseProblem(f"no database backend can open {shown(text)}")  # bot.store was not imported

    @classmethod
    @abstractmethod
    def accepts(cls, target: str) -> bool:
        """Whether this backend opens ``target``."""

    @classmethod
    @abstractmethod
    async def connect(cls, target: str, *, readonly: bool, create: bool, any_schema: bool) -> Database:
        """This backend's :meth:`open`."""

    @abstractmethod
    async def close(self) -> None:
        """Close every connection."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abstractmethod
    def latest_schema(self) -> int:
        """The number of this backend's last migration."""

    @abstractmethod
    async def fetchall(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query, from committed data."""

    @abstractmethod
    async def fetchone(self, query: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query (or None), from committed data."""

    async def fetchval(self, query: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row of a query (or None), from committed data."""
        row = await self.fetchone(query, params)
        return None if row is None else row[0]

    @abstractmethod
    def transaction(self, *, durable: bool = True) -> AbstractAsyncContextManager[Connection]:
        """A connection in one transaction, committed at the end of the block and rolled back if it raises."""

    @abstractmethod
    def single_statement(self, *, durable: bool = True) -> AbstractAsyncContextManager[Connection]:
        """A connection for one self-contained write statement (its own transaction)."""

    @abstractmethod
    def consistent_read(self) -> AbstractAsyncContextManager[Connection]:
        """A connection whose reads all see one moment of the database (for copies and backups)."""

    @abstractmethod
    async def table_columns(self) -> dict[str, list[str]]:
        """Every table of the schema and its columns, in order."""

    @classmethod
    def explain_error(cls, target: str, exc: BaseException) -> DatabaseProblem | None:
        """The user's side of an error met while using ``target`` (damaged, locked, unreachable...), or None if
        the error is a bug of ours."""
        return None

    @staticmethod
    def explain(target: str | Path, exc: BaseException) -> DatabaseProblem | None:
        """:meth:`explain_error` of the backend that opens ``target``."""
        text = str(target)
        for backend in Database.__subclasses__():
            if backend.accepts(text):
                return backend.explain_error(text, exc)
        return None


async def each_row(conn: Connection, table: str, columns: Sequence[str], key: Sequence[str],
                   batch: int = 5000) -> AsyncIterator[list[Row]]:
    """Every row of ``table`` in batches, in order of ``key`` (its primary key), without holding it all at once."""
    names = ", ".join(columns)
    order = ", ".join(key)
    last: Sequence[Any] | None = None
    while True:
        if last is None:
            rows = await conn.fetchall(f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ?", (batch,))
        else:
            marks = ", ".join("?" for _ in key)
            rows = await conn.fetchall(f"SELECT {names} FROM {table} WHERE ({order}) > ({marks}) ORDER BY {order} "
                                       "LIMIT ?", (*last, batch))
        if not rows:
            return
        yield rows
        if len(rows) < batch:
            return
        final = rows[-1]
        last = [final[columns.index(k)] for k in key]
