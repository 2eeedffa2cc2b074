"""``charleston db copy``: move a server's data from one database into another, empty one (SQLite to PostgreSQL
when a bot outgrows one process), the ledger verified on both sides."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from bot.cli.common import DB_HELP, UsageProblem, database_errors, database_to_write, db_target, same_file
from bot.settings import SettingsError, default_database
from bot.store.copy import copy_database
from bot.store.db import Database, is_postgres_url, shown


def register(commands: Any) -> None:
    """Add ``charleston db copy``."""
    p = commands.add_parser("db", help="move the bot's data between databases")
    sub = p.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    c = sub.add_parser("copy", help="copy every table, game and the ledger into a new, empty database (stop the "
                       "bot first)", description="Copy everything from one database into another, empty one: an "
                       "SQLite file into PostgreSQL (postgresql://user@host/db), or into a new SQLite file. The "
                       "destination is written in one transaction; the ledger is verified on both sides.")
    c.add_argument("--from", dest="source", type=db_target, default=None, metavar="DB",
                   help=f"the database to copy: an SQLite file or a postgresql:// URL; {DB_HELP}")
    c.add_argument("--to", dest="dest", type=db_target, required=True, metavar="DB",
                   help="an empty database: a postgresql:// URL (the database must exist) or a new SQLite file "
                   "(missing folders are created)")
    c.set_defaults(run=run_copy)


def run_copy(args: argparse.Namespace) -> int:
    """`db copy`: everything from --from into the empty --to, then the ledger checked on both."""
    if args.source is None:  # the bot's database, by the rule of every command's --db
        args.source = default_source()
    if args.source == args.dest or same_file(args.source, args.dest):
        raise UsageProblem("--from and --to are the same database")
    database_to_write(args.dest, "--to")

    async def work() -> int:
        source = await Database.open(args.source, readonly=True)
        try:
            with database_errors(args.dest):
                dest = await Database.open(args.dest)
            try:
                report = await copy_database(source, dest)
            finally:
                await dest.close()
        finally:
            await source.close()
        print(f"{shown(args.source)} -> {shown(args.dest)}: {report.summary()}")
        return 0

    with database_errors(args.source):
        return asyncio.run(work())


def default_source() -> str:
    """The database ``db copy`` reads when not given ``--from``: the bot's, as every command's ``--db`` finds it
    (``CHARLESTON_DB`` from the environment, then ``.env``, then ``./charleston.db``), which must exist."""
    try:
        source = default_database()
    except SettingsError as exc:
        raise UsageProblem(f"{exc} (or give --from)") from None
    if not is_postgres_url(source) and not Path(source).exists():
        raise UsageProblem(f"no database at {source}, the default of --from (CHARLESTON_DB from the environment or "
                           ".env, else ./charleston.db): give --from DB")
    return source
