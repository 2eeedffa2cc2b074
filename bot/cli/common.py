"""Helpers shared by the command modules: the one error type a command raises for bad input, opening the
database, checking option values, and the two rules every command follows: where its database is when ``--db`` is
not given (:func:`add_db_option`), and how it writes a file (:func:`output_file`, :func:`output_folder`)."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from bot.engine.card import Card
from bot.engine.errors import CardError
from bot.service.cards import UnknownCard, is_card_path, load_card
from bot.settings import SettingsError, default_database
from bot.store.db import Database, DatabaseProblem, is_postgres_url, target_problem
from bot.store.integrity import check_numbers

T = TypeVar("T")

MAX_SEED = 2**32 - 1
MAX_ID = 2**63 - 1  # Discord ids (snowflakes) are positive 64-bit integers; SQLite stores them signed


class UsageProblem(Exception):
    """Bad input from the command line: printed as one line on stderr, exit status 2."""


def print_json(data: Any) -> None:
    """``data`` as one line of JSON on standard output."""
    print(json.dumps(data, ensure_ascii=False))


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``3 games``, ``0 games`` (``many`` for a word whose plural is not ``word`` + s)."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"


CARD_HELP = ("a card's id (see 'charleston card list') or a card file's path (my-card.toml); a line is named as "
             "the card prints it, e.g. '2468 #1'")


def card_or_explain(card_id: str) -> Card:
    """A card by id or file path (see :func:`~bot.service.cards.load_card`), or a :class:`UsageProblem` saying
    which cards exist or what is wrong with this one."""
    try:
        return load_card(card_id)
    except UnknownCard as exc:
        raise UsageProblem(str(exc)) from None
    except CardError as exc:
        if is_card_path(card_id):
            more = (f" ({len(exc.problems)} problems: run 'charleston card validate {card_id}' to see them all)"
                    if len(exc.problems) > 1 else "")
            raise UsageProblem(f"cannot use the card file {card_id}: {exc.problems[0]}{more}") from None
        raise UsageProblem(f"card '{card_id}' is broken; run 'charleston card validate' on it. "
                           f"First problem: {exc.problems[0]}") from None


@contextmanager
def database_errors(path: str | Path) -> Iterator[None]:
    """Turns an error about the database at ``path`` that the user can act on (a damaged or locked file, a full
    disk, a server gone away...) into a :class:`DatabaseProblem`; any other error is a bug and goes on."""
    try:
        yield
    except DatabaseProblem:
        raise
    except Exception as exc:
        problem = Database.explain(path, exc)
        if problem is None:
            raise
        raise problem from None


def with_database(path: str, work: Callable[[Database], Awaitable[T]], *, readonly: bool,
                  create: bool = False, any_schema: bool = False, numbers_checked: bool = False,
                  judged_elsewhere: frozenset[str] = frozenset()) -> T:
    """Open the database (see :meth:`Database.open`), run ``work`` on it and close it whatever happens;
    ``numbers_checked``: first refuse a record with a whole-number field broken by a hand edit
    (:class:`~bot.store.integrity.BrokenNumber`), for the commands that add up games and chips, but for the fields
    ``judged_elsewhere`` that ``work`` reports itself."""

    async def run() -> T:
        db = await Database.open(path, readonly=readonly, create=create, any_schema=any_schema)
        try:
            if numbers_checked:
                await check_numbers(db, judged_elsewhere)
            return await work(db)
        finally:
            await db.close()

    with database_errors(path):
        return asyncio.run(run())


_WHOLE = re.compile(r"-?[0-9]{1,25}")
_DECIMAL = re.compile(r"[0-9]{1,12}(\.[0-9]{0,12})?|\.[0-9]{1,12}")


def _bounded_int(low: int, high: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        # ASCII digits only: int() would also read "١٢" or "1_000", numbers nobody meant to type
        value = int(text) if _WHOLE.fullmatch(text.strip()) else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what}, not {text[:30]!r}")
        return value

    return parse


seed = _bounded_int(0, MAX_SEED, f"a seed is a whole number from 0 to {MAX_SEED}")
guild_id = _bounded_int(0, MAX_ID, "a guild (Discord server) id is a whole number of up to 19 digits")


def file_path(text: str) -> str:
    """An argparse type: a file or folder path (not empty, no NUL character, of a length a system accepts)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("give a file path, not an empty one")
    if "\0" in text or len(text) > 4096:
        raise argparse.ArgumentTypeError(f"{text[:30]!r}... is not a usable path")
    return text


def folder_path(text: str) -> str:
    """An argparse type: a folder to write into (not empty, no NUL character, of a length a system accepts)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("give a folder, not an empty name")
    return file_path(text)


def db_target(text: str) -> str:
    """An argparse type: a database, the path of an SQLite file or a ``postgresql://`` URL."""
    target = file_path(text)
    if (problem := target_problem(target)) is not None:
        raise argparse.ArgumentTypeError(problem)
    return target


def count(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""
    return _bounded_int(low, high, f"give a whole number from {low:,} to {high:,}")


def seconds(high: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from 0 to ``high``."""

    def parse(text: str) -> float:
        value = float(text) if _DECIMAL.fullmatch(text.strip()) else -1.0  # not "inf", "1e3" or "١"
        if not 0 <= value <= high:
            raise argparse.ArgumentTypeError(f"give a number of seconds from 0 to {high:g}, not {text[:30]!r}")
        return value

    return parse


DB_HELP = "default: CHARLESTON_DB from the environment, else from .env, else ./charleston.db"
WRITE_HELP = "missing folders are created"


def add_db_option(parser: argparse.ArgumentParser, help: str = "", *, creates: bool = False) -> None:
    """``--db`` for a command that works on the bot's database: when it is not given, :func:`fill_defaults` puts
    the database of the one rule there (``CHARLESTON_DB`` from the environment, then ``.env``, then
    ``./charleston.db``); ``creates``: a command that makes the database if it is missing. A command that records
    only when asked (``demo --db``) adds its own ``--db`` instead."""
    parser.add_argument("--db", type=db_target, default=None, metavar="DB",
                        help=f"{help}; {DB_HELP}" if help else DB_HELP)
    parser.set_defaults(db_from_settings=True, db_creates=creates)


def fill_defaults(args: argparse.Namespace) -> None:
    """After parsing: ``--db`` left out of a command that takes :func:`add_db_option` becomes the default database."""
    if getattr(args, "db_from_settings", False) and args.db is None:
        try:
            args.db = default_database()
        except SettingsError as exc:
            raise UsageProblem(f"{exc} (or give --db)") from None
        if not getattr(args, "db_creates", False) and not is_postgres_url(args.db) and not Path(args.db).exists():
            raise UsageProblem(f"no database at {args.db}, the default (CHARLESTON_DB from the environment or .env, "
                               "else ./charleston.db): give --db FILE, or start one with 'charleston migrate'")


def _make_folder(folder: Path, option: str, text: str) -> None:
    """Create ``folder`` (and its parents) if missing, saying so on stderr: the one rule for every file written."""
    if folder.is_dir():
        return
    if folder.exists():
        raise UsageProblem(f"{option} {text}: {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageProblem(f"{option} {text}: cannot create the folder {folder}: {exc.strerror or exc}") from None
    print(f"charleston: created the folder {folder}", file=sys.stderr)


def output_file(text: str, option: str) -> Path:
    """A file a command is about to write: missing folders on the way to it are created (and said on stderr);
    a folder given where a file belongs is a :class:`UsageProblem`."""
    path = Path(text)
    if path.is_dir():
        raise UsageProblem(f"{option} {text}: that is a folder; give a file name, e.g. {path / 'name'}")
    _make_folder(path.parent, option, text)
    return path


def output_folder(text: str, option: str) -> Path:
    """A folder to write into, created with any missing parents (and said on stderr); a :class:`UsageProblem` if
    it is a file or cannot be made."""
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise UsageProblem(f"{option} {text}: that is a file; give a folder to write into")
    _make_folder(folder, option, text)
    return folder


def database_to_write(target: str, option: str = "--db") -> str:
    """A database a command may create: a new SQLite file follows :func:`output_file`'s rule (its folders are
    created, and said); a PostgreSQL URL is left as it is."""
    if is_postgres_url(target):
        return target
    if Path(target).is_dir():
        raise UsageProblem(f"{option} {target} is a folder; give the path of a database file, e.g. "
                           f"{Path(target) / 'charleston.db'}")
    if not Path(target).exists():
        output_file(target, option)
    return target


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one existing file (so an output would overwrite an input)."""
    try:
        return Path(a).exists() and Path(b).exists() and Path(a).samefile(b)
    except OSError:
        return False

