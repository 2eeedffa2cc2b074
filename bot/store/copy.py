"""Copying a whole database into another, empty one: SQLite to PostgreSQL (the upgrade of a server's data), or
either into a new SQLite file (a backup of a PostgreSQL database). The source is read as of one moment; the
destination is written in one transaction, so it ends with everything or nothing. The ledger goes through its own
rules on the way in (each transaction is closed only after its postings, and must balance), and is verified on both
sides: the same transactions, postings and balance of every account.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import ledger
from .db import Connection, Database, DatabaseProblem, each_row
from .postgres import PgConnection, PostgresDatabase

# Every table, parents before children, with its primary key (the order rows are read in).
COPY_ORDER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("players", ("player_id",)),
    ("leagues", ("league_id",)),
    ("guild_settings", ("guild_id",)),
    ("guild_cards", ("guild_id", "name")),
    ("guild_managers", ("guild_id", "user_id")),
    ("tables", ("table_id",)),
    ("table_seats", ("table_id", "seat")),
    ("league_members", ("league_id", "player_id")),
    ("seasons", ("season_id",)),
    ("league_posts", ("league_id", "week")),
    ("games", ("game_id",)),
    ("game_seats", ("game_id", "seat")),
    ("actions", ("game_id", "seq")),
    ("snapshots", ("game_id",)),
    ("deal_seals", ("game_id",)),
    ("ledger_transactions", ("txn_id",)),
    ("ledger_postings", ("posting_id",)),
    # issue 31: corrections of a league's record, and league nights
    ("game_corrections", ("correction_id",)),
    ("nights", ("night_id",)),
    ("night_players", ("night_id", "player_id")),
    ("night_tables", ("night_id", "round", "table_no")),
    ("night_away", ("game_id", "player_id")),
)
_BALANCES = ("SELECT p.account, SUM(p.amount) FROM ledger_postings p JOIN ledger_transactions t "
             "ON t.txn_id = p.txn_id WHERE t.closed = 1 GROUP BY p.account ORDER BY p.account")


class CopyProblem(DatabaseProblem):
    """A copy that was refused or did not come out identical; the message says why."""


@dataclass
class CopyReport:
    """What was copied: rows per table, and the ledger as checked on both sides."""

    rows: dict[str, int] = field(default_factory=dict)
    transactions: int = 0
    postings: int = 0
    accounts: int = 0

    def summary(self) -> str:
        """One line for the operator."""
        total = sum(self.rows.values())
        return (f"copied {total:,} rows ({self.rows.get('games', 0):,} games, {self.rows.get('actions', 0):,} "
                f"actions, {self.rows.get('leagues', 0):,} leagues); ledger verified on both sides: "
                f"{self.transactions:,} transactions, {self.postings:,} postings, the same balance in each of "
                f"{self.accounts:,} accounts")


async def copy_database(source: Database, dest: Database) -> CopyReport:
    """Copy every row of ``source`` into the empty database ``dest`` and check the result (see the module's
    doc). Raises :class:`CopyProblem` if the source's ledger is not sound, the schemas differ, the destination is
    not empty, or the copy does not match."""
    columns = await _same_schema(source, dest)
    problems = await ledger.verify(source)
    if problems:
        raise CopyProblem(f"{source.path}'s ledger has problems, so it is not copied ({'; '.join(problems[:3])}); "
                          "'charleston ledger verify' lists them")
    for table, _ in COPY_ORDER:
        if await dest.fetchval(f"SELECT COUNT(*) FROM {table}"):
            raise CopyProblem(f"{dest.path} is not empty (its {table} table has rows): copy into a new database")
    report = CopyReport()
    async with source.consistent_read() as src, dest.transaction() as dst:
        for table, key in COPY_ORDER:
            report.rows[table] = await _copy_table(src, dst, table, columns[table], key)
        # Transactions came in open (postings may only be added to an open one); closing them now runs the
        # balance check of each, as the ledger demands.
        closed = [int(r[0]) for r in await src.fetchall("SELECT txn_id FROM ledger_transactions WHERE closed = 1")]
        for start in range(0, len(closed), 500):
            chunk = closed[start:start + 500]
            await dst.execute(f"UPDATE ledger_transactions SET closed = 1 WHERE txn_id IN "
                              f"({', '.join('?' for _ in chunk)})", chunk)
        if isinstance(dest, PostgresDatabase) and isinstance(dst, PgConnection):
            await dest.reset_identities(dst)
    await _check(source, dest, report)
    return report


async def backup_to_file(source: Database, path: str | Path) -> CopyReport:
    """A copy of ``source`` in the new SQLite file ``path`` (as of one moment, even while the bot writes)."""
    target = Path(path)
    if target.exists() or target.is_symlink():
        raise DatabaseProblem(f"{target} already exists; choose a new file name")
    if not target.parent.is_dir():
        raise DatabaseProblem(f"cannot write {target}: the folder {target.parent} does not exist")
    dest = await Database.open(target)
    try:
        report = await copy_database(source, dest)
    except BaseException:
        await dest.close()
        for leftover in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
            leftover.unlink(missing_ok=True)
        raise
    await dest.close()
    return report


async def _same_schema(source: Database, dest: Database) -> dict[str, list[str]]:
    theirs, ours = await source.table_columns(), await dest.table_columns()
    if theirs != ours:
        differ = sorted(t for t in set(theirs) | set(ours) if theirs.get(t) != ours.get(t))
        raise CopyProblem(f"{source.path} and {dest.path} have different tables or columns ({', '.join(differ)}): "
                          "bring both to the latest schema first ('charleston migrate')")
    missing = set(ours) - {table for table, _ in COPY_ORDER}
    if missing:
        raise CopyProblem(f"this Charleston does not know how to copy the table(s) {', '.join(sorted(missing))}")
    return ours


async def _copy_table(src: Connection, dst: Connection, table: str, columns: list[str], key: tuple[str, ...]) -> int:
    copied = 0
    closed = columns.index("closed") if table == "ledger_transactions" else None
    async for batch in each_row(src, table, columns, key):
        rows = [tuple(row) for row in batch]
        if closed is not None:
            rows = [(*r[:closed], 0, *r[closed + 1:]) for r in rows]
        if isinstance(dst, PgConnection):
            await dst.conn.copy_records_to_table(table, records=rows, columns=columns)
        else:
            await dst.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                                  f"({', '.join('?' for _ in columns)})", rows)
        copied += len(rows)
    return copied


async def _check(source: Database, dest: Database, report: CopyReport) -> None:
    for table, _ in COPY_ORDER:
        count = int(await dest.fetchval(f"SELECT COUNT(*) FROM {table}"))
        if count != report.rows[table]:
            raise CopyProblem(f"the copy of {table} has {count} rows, not {report.rows[table]}")
    problems = await ledger.verify(dest)
    if problems:
        raise CopyProblem(f"the copied ledger has problems: {'; '.join(problems[:3])}")
    before = [(str(r[0]), int(r[1])) for r in await source.fetchall(_BALANCES)]
    after = [(str(r[0]), int(r[1])) for r in await dest.fetchall(_BALANCES)]
    if before != after:
        raise CopyProblem("the copied ledger's balances differ from the source's")
    report.transactions = int(await dest.fetchval("SELECT COUNT(*) FROM ledger_transactions"))
    report.postings = int(await dest.fetchval("SELECT COUNT(*) FROM ledger_postings"))
    report.accounts = len(after)
