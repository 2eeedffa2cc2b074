"""Numbers broken by a hand edit: SQLite keeps any text in an INTEGER column, so a games row's ``value`` or a
posting's ``amount`` typed over in ``sqlite3`` reaches the standings, the statistics, the ledger and the deal
checks as text. :func:`find_broken_number` finds the first such field before those commands read the record, so
the user is told which game and which field, not shown a traceback (PostgreSQL refuses such a write itself)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Database, shown

# The tables the record's readers go through (standings, stats, ledger, fairness), with the column that names the
# row to a person: a game's number wherever there is one. The action log and snapshots are left out: they are
# the largest tables, and a game's moves are checked when it is replayed.
CHECKED: dict[str, str] = {
    "games": "game_id", "game_seats": "game_id", "deal_seals": "game_id", "game_corrections": "game_id",
    "ledger_transactions": "txn_id", "ledger_postings": "posting_id", "players": "player_id",
    "tables": "table_id", "table_seats": "table_id", "leagues": "league_id", "league_members": "league_id",
    "seasons": "league_id",
}

# Chips past this are no game's (a line is worth at most a few hundred): a hand edit, and one whose sums would
# overflow SQLite's 64-bit integers.
MAX_CHIPS = 1_000_000_000
BOUNDED = {("ledger_postings", "amount"), ("games", "value")}


class BrokenNumber(Exception):
    """A field of the database that should hold a whole number and holds something else; the message names the
    database, the row (the game, where there is one), the field and what to do."""


@dataclass(frozen=True, slots=True)
class BrokenField:
    """Where a whole number was expected and what was found instead."""

    table: str
    column: str
    key_column: str
    key: object
    found: object
    game_id: object | None

    def describe(self, target: str) -> str:
        """One line for the user: which row, which field, what is in it and how to put it right."""
        if self.game_id is not None and self.table == "games":
            row = f"game {self.game_id}"
        elif self.game_id is not None:
            row = f"game {self.game_id}'s {self.table} row ({self.key_column} {self.key})"
        else:
            row = f"the {self.table} row with {self.key_column} {self.key}"
        belongs = (f"far past any game's chips (at most {MAX_CHIPS:,} either way)" if isinstance(self.found, int)
                   else "where a whole number belongs")
        return (f"{shown(target)}: {row} has {_quoted(self.found)} in {self.table}.{self.column}, {belongs} (SQLite "
                "keeps whatever is typed into a field, so it was likely edited by hand). "
                "Put the right number back with sqlite3, or restore a backup; nothing was read further or changed.")


def _quoted(value: object) -> str:
    if isinstance(value, bytes):
        return f"{len(value)} bytes of binary data"
    text = repr(value) if isinstance(value, float) else str(value)
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


async def find_broken_number(db: Database, judged_elsewhere: frozenset[str] = frozenset()) -> BrokenField | None:
    """The first field of :data:`CHECKED` declared a whole number that holds anything else (text, a fraction,
    binary data), or chips past :data:`MAX_CHIPS`, or None; always None on PostgreSQL, whose columns keep their
    types. ``judged_elsewhere``: fields (``games.seed``) the caller reports game by game itself."""
    if db.kind != "sqlite":
        return None
    columns = await db.table_columns()
    for table, key in CHECKED.items():
        if table not in columns:
            continue
        declared = {str(r[1]): str(r[2]).upper() for r in await db.fetchall(f"PRAGMA table_info({table})")}
        numbers = [c for c in columns[table] if "INT" in declared.get(c, "")  # SQLite's rule for integer affinity
                   and f"{table}.{c}" not in judged_elsewhere]
        if not numbers:
            continue
        has_game = "game_id" in columns[table]
        wrong = " OR ".join(f"typeof({c}) NOT IN ('integer', 'null')" for c in numbers)
        wrong += "".join(f" OR {c} > {MAX_CHIPS} OR {c} < -{MAX_CHIPS}" for c in numbers if (table, c) in BOUNDED)
        picked = ", ".join(numbers)
        found = await db.fetchone(f"SELECT {key}, {'game_id' if has_game else 'NULL'}, {picked} FROM {table} "
                                  f"WHERE {wrong} LIMIT 1")
        if found is None:
            continue
        for n, column in enumerate(numbers):
            value = found[2 + n]
            if value is not None and (not isinstance(value, int) or ((table, column) in BOUNDED
                                                                     and abs(value) > MAX_CHIPS)):
                game = found[1] if has_game and isinstance(found[1], int) else await _posting_game(db, table, found[0])
                return BrokenField(table, column, key, found[0], value, game)
    return None


async def _posting_game(db: Database, table: str, posting: object) -> object | None:
    """The game a ledger posting settles (through its transaction), to name it to the user; None for others."""
    if table != "ledger_postings":
        return None
    game = await db.fetchval("SELECT t.game_id FROM ledger_postings p JOIN ledger_transactions t ON t.txn_id = "
                             "p.txn_id WHERE p.posting_id = ?", (posting,))
    return game if isinstance(game, int) else None


async def check_numbers(db: Database, judged_elsewhere: frozenset[str] = frozenset()) -> None:
    """Raise :class:`BrokenNumber` naming the first broken whole-number field of the record, if there is one."""
    broken = await find_broken_number(db, judged_elsewhere)
    if broken is not None:
        raise BrokenNumber(broken.describe(str(db.path)))
