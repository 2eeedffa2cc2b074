"""``charleston ledger verify``, ``charleston standings`` and ``charleston tables list|resume``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from bot.cli.common import (
    WRITE_HELP,
    UsageProblem,
    add_db_option,
    database_to_write,
    file_path,
    guild_id,
    output_file,
    plural,
    print_json,
    same_file,
    with_database,
)
from bot.service.errors import TableError
from bot.service.leagues import LeagueService
from bot.service.tables import TableService
from bot.service.weeks import read_week, week_name
from bot.store import ledger
from bot.store.copy import backup_to_file
from bot.store.db import Database, is_postgres_url
from bot.store.sqlite import SqliteDatabase
from bot.store.standings import get_league, standings, to_csv, weekly_standings


def register(commands: Any) -> None:
    """Add `charleston ledger`, `standings`, `backup`, `migrate` and `tables` to the command line."""
    p = commands.add_parser("ledger", help="check or export the chip ledger")
    sub = p.add_subparsers(dest="ledger_command", required=True, metavar="ACTION")
    v = sub.add_parser("verify", help="every game's entries sum to zero and no game is settled twice")
    add_db_option(v)
    v.set_defaults(run=run_verify)
    e = sub.add_parser("export", help="every posting of a server's ledger as CSV, as /ledger export gives it")
    add_db_option(e)
    e.add_argument("--guild", type=guild_id, default=None, metavar="ID", help="default: the database's only guild")
    e.add_argument("-o", "--output", type=file_path, default=None, metavar="FILE.csv",
                   help=f"the CSV file to write (an existing file is replaced; {WRITE_HELP}); default: standard "
                   "output")
    e.set_defaults(run=run_export)

    p = commands.add_parser("standings", help="a league's weekly (or all-time) standings",
                            description="The standings of the people who played: computer players are not "
                            "counted, so games among computers alone (simulate --db, demo --db) leave them empty; "
                            "'charleston sample-week' records a week of named players to try them.")
    add_db_option(p)
    p.add_argument("--guild", type=guild_id, default=None, metavar="ID",
                   help="default: every guild in the database")
    p.add_argument("--league", default=None, metavar="NAME",
                   help="one league of the guild (needs --guild): its weeks, and its scoring (chips or tournament "
                        "points; total, best N a week or an average)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--week", default=None, metavar="DAY",
                       help="a day of the week (23 Nov 2026) or its ISO label 2026-W48; default: the current week")
    which.add_argument("--all-time", action="store_true", help="totals over every game instead of one week")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one line of JSON: each guild's week and standings")
    form.add_argument("--csv", action="store_true", help="CSV for a spreadsheet")
    p.set_defaults(run=run_standings)

    p = commands.add_parser("backup", help="copy the database safely, even while the bot is running")
    add_db_option(p)
    p.add_argument("--to", type=file_path, required=True, metavar="FILE",
                   help=f"the new SQLite file to write (an existing file is refused; {WRITE_HELP})")
    p.set_defaults(run=run_backup)

    p = commands.add_parser("migrate", help="bring the database's schema up to date, or create a new one (the bot "
                            "does this on start-up)")
    add_db_option(p, "a new file name creates the database", creates=True)
    p.set_defaults(run=run_migrate)

    p = commands.add_parser("tables", help="tables kept in the database")
    sub = p.add_subparsers(dest="tables_command", required=True, metavar="ACTION")
    t = sub.add_parser("list", help="every table that is not closed")
    add_db_option(t)
    t.add_argument("--json", action="store_true", help="one line of JSON, a list of the tables, for scripts")
    t.set_defaults(run=run_tables_list)
    t = sub.add_parser("resume", help="finish every unfinished table whose seats are all computer players")
    add_db_option(t)
    t.set_defaults(run=run_tables_resume)


def run_verify(args: argparse.Namespace) -> int:
    """`ledger verify`: every game's postings sum to zero; 1 if not."""
    async def work(db: Database) -> int:
        problems = await ledger.verify(db)
        if not problems:
            print("ok")
            return 0
        for problem in problems:
            print(problem)
        return 1

    return with_database(args.db, work, readonly=True, numbers_checked=True)


def run_export(args: argparse.Namespace) -> int:
    """`ledger export`: a guild's postings as CSV, on stdout or into -o."""
    if args.output is not None and same_file(args.output, args.db):
        raise UsageProblem(f"-o {args.output} is the database; choose another output file")

    async def work(db: Database) -> str:
        guilds = [row[0] for row in await db.fetchall("SELECT DISTINCT guild_id FROM games ORDER BY guild_id")]
        if args.guild is None and len(guilds) > 1:
            raise UsageProblem(f"the database holds several guilds ({', '.join(map(str, guilds))}); choose one "
                               "with --guild")
        guild = args.guild if args.guild is not None else (guilds[0] if guilds else 0)
        text, _ = await LeagueService(db).ledger_csv(guild, None)
        return text

    text = with_database(args.db, work, readonly=True, numbers_checked=True)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        output_file(args.output, "-o").write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageProblem(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"wrote {args.output}: {plural(text.count(chr(10)) - 1, 'posting')}", file=sys.stderr)
    return 0


def run_standings(args: argparse.Namespace) -> int:
    """`standings`: a week's or all-time standings, as a table or CSV."""
    if args.week:
        try:
            read_week(args.week, 0)
        except ValueError as exc:
            raise UsageProblem(str(exc)) from None

    if args.league is not None and args.guild is None:
        raise UsageProblem("--league needs --guild: league names are per server.")

    async def work(db: Database) -> int:
        if args.league is not None:
            return await _league_standings(db, args)
        if args.guild is not None:
            guilds = [args.guild]
        else:
            guilds = [row[0] for row in await db.fetchall("SELECT DISTINCT guild_id FROM games ORDER BY guild_id")]
        report: list[dict[str, Any]] = []
        for guild in guilds:
            if args.all_time:
                label, rows = "all time", await standings(db, guild)
                named = "all games"
            else:
                week_start = (await get_league(db, guild)).week_start
                label, rows = await weekly_standings(db, guild, read_week(args.week, week_start) if args.week else None)
                named = week_name(label, week_start)
            report.append({"guild": guild, "week": label, "name": named, "standings": [_row(r) for r in rows]})
            if args.csv:
                sys.stdout.write(to_csv(rows))
        if not guilds and not args.json and not args.csv:
            print(f"No games in {args.db}. {NO_PEOPLE_WHY}")
        if args.json:
            print_json(report if args.guild is None else report[0])
        elif not args.csv:
            for part in report:
                print(f"Guild {part['guild']}, {part['name']}:")
                if not part["standings"]:
                    print(f"  {NO_PEOPLE}")
                for rank, r in enumerate(part["standings"], start=1):
                    print(f"  {rank:>2}. {r['name']:<20} {r['net']:>+7}  {plural(r['games'], 'game')}, "
                          f"{plural(r['wins'], 'win')} "
                          f"({r['mahjong_rate']:.0%}), {r['self_picks']} self-picked, {r['jokerless_wins']} jokerless")
        return 0

    return with_database(args.db, work, readonly=True, numbers_checked=True)


NO_PEOPLE_WHY = ("Standings count people only: games among computer players alone (simulate --db, demo --db) "
                 "are not in them; 'charleston sample-week --db FILE' records a week of named players to try them.")
NO_PEOPLE = f"no games by people this week. {NO_PEOPLE_WHY}"


def _row(row: Any) -> dict[str, Any]:
    data = dataclasses.asdict(row)
    if data.get("score") is None:  # chips over every game: the figures as they always were
        data.pop("score", None)
        data.pop("ranked", None)
    return data


async def _league_standings(db: Database, args: argparse.Namespace) -> int:
    """`standings --guild G --league NAME`: one league's week (or every game so far), as its scoring ranks it."""
    leagues = LeagueService(db)
    try:
        league = await leagues.find(args.guild, args.league)
        if args.all_time:
            named, label = "all games", "all time"
            rows = (await leagues.season(league, None, all_games=True)).totals
        else:
            week = await leagues.week(league, leagues.week_of(league, args.week))
            named, label, rows = week.name, week.label, week.rows
    except TableError as exc:
        raise UsageProblem(exc.message) from None
    if args.csv:
        sys.stdout.write(to_csv(rows))
        return 0
    if args.json:
        print_json({"guild": args.guild, "league": league.name, "scoring": league.scoring.to_json(), "week": label,
                    "name": named, "standings": [_row(r) for r in rows]})
        return 0
    print(f"{league.name}, {named}: {league.scoring.describe()}")
    if not rows:
        print("  no games")
    for rank, r in enumerate(rows, start=1):
        place = f"{rank:>2}." if r.ranked else "  *"
        print(f"  {place} {r.name:<20} {r.value:>+7g} {league.scoring.what()}, net chips {r.net:+d}, "
              f"{plural(r.games, 'game')}, {plural(r.wins, 'win')}")
    return 0


def run_tables_list(args: argparse.Namespace) -> int:
    """`tables list`: the open tables in a database."""
    async def work(db: Database) -> int:
        service = TableService(db)
        await service.restore()
        rows: list[dict[str, Any]] = []
        for table in service.tables.values():
            game = table.game
            rows.append({"table": table.table_id, "guild": table.row.guild_id, "channel": table.row.channel_id,
                         "status": table.row.status, "games": table.row.games_played,
                         "phase": game.state.phase.value if game else None, "version": table.version,
                         "seats": [s.player_id if s.player_id is not None else f"computer:{s.computer_level}"
                                   if s.computer_level else None for s in table.row.seats]})
        if args.json:
            print(json.dumps(rows))
        elif not rows:
            print("No open tables.")
        else:
            for r in rows:
                seats = "; ".join(f"{n} {_seat_text(s)}" for n, s in enumerate(r["seats"]))
                print(f"table {r['table']}: guild {r['guild']} channel {r['channel']}, {r['status']}, "
                      f"{plural(r['games'], 'game')}, phase {r['phase'] or '-'}; seats {seats}")
        return 0

    return with_database(args.db, work, readonly=True)


def _seat_text(seat: int | str | None) -> str:
    """A seat as a person reads it: a player's id, a computer and its level, or empty."""
    if seat is None:
        return "empty"
    if isinstance(seat, str):
        return seat.replace("computer:", "computer (") + ")"
    return f"player {seat}"


def run_tables_resume(args: argparse.Namespace) -> int:
    """`tables resume`: play out the tables only computers sit at."""
    async def work(db: Database) -> int:
        service = TableService(db)
        await service.restore()
        finished = await service.finish_computer_tables()
        print(f"finished {plural(len(finished), 'table')}" + (f": {', '.join(map(str, finished))}" if finished else ""))
        return 0

    return with_database(args.db, work, readonly=False)


def run_backup(args: argparse.Namespace) -> int:
    """`backup`: a consistent copy of the database in a new SQLite file, safe while the bot runs."""
    if same_file(args.db, args.to):
        raise UsageProblem(f"{args.to} is the database itself; choose a new file name")
    if is_postgres_url(args.to):
        raise UsageProblem("--to is the new SQLite file to write; to copy into PostgreSQL use 'charleston db copy'")
    if Path(args.to).exists():
        raise UsageProblem(f"--to {args.to} already exists; choose a new file name (a backup never replaces one)")
    output_file(args.to, "--to")

    async def work(db: Database) -> int:
        if isinstance(db, SqliteDatabase):
            await db.backup_to(args.to)
        else:  # PostgreSQL: every row as of one moment, into a new SQLite file (pg_dump does it too: README)
            await backup_to_file(db, args.to)
        print(f"backed up {db.path} to {args.to}")
        return 0

    return with_database(args.db, work, readonly=True, any_schema=True)


def run_migrate(args: argparse.Namespace) -> int:
    """`migrate`: bring a database to the latest schema and say which it is at."""
    new = not is_postgres_url(args.db) and not Path(args.db).exists()
    database_to_write(args.db)

    async def work(db: Database) -> int:
        made = "created; it " if new else ""
        print(f"{db.path} {made}is at schema {await db.schema_version()} (the latest is {db.latest_schema()})")
        return 0

    return with_database(args.db, work, readonly=False, create=True)
