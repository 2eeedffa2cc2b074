"""Rows for tables, seats, games, the action log and snapshots. Each writer runs inside the caller's
transaction (``Database.transaction``) so an action, its snapshot and a game's result land together or not at
all."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from .db import Database, now_iso


class StaleVersion(Exception):
    """The snapshot moved on since it was read: someone else applied an action first."""


@dataclass(slots=True)
class SeatRow:
    """One seat of a stored table: its person or computer level, and whether the person is away."""
    seat: int
    player_id: int | None
    computer_level: str | None
    away: bool = False  # a computer is playing this person's seat until they come back


@dataclass(slots=True)
class TableRow:
    """A stored table: where it is, its status, rules, options, seats and display."""
    table_id: int
    guild_id: int
    channel_id: int
    status: str
    rules: dict[str, Any]
    created_by: int | None
    games_played: int
    next_east: int
    seed: int
    seats: list[SeatRow]
    options: dict[str, Any] = field(default_factory=dict)
    display: dict[str, Any] = field(default_factory=dict)


async def upsert_player(conn: aiosqlite.Connection, player_id: int, name: str) -> None:
    """Record a player's display name, adding the player if new."""
    await conn.execute(
        "INSERT INTO players (player_id, display_name, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (player_id) DO UPDATE SET display_name = excluded.display_name, updated_at = excluded.updated_at",
        (player_id, name, now_iso()))


async def insert_table(conn: aiosqlite.Connection, guild_id: int, channel_id: int, rules: dict[str, Any],
                       created_by: int | None, seed: int, east: int = 0, options: dict[str, Any] | None = None) -> int:
    """A new open table with four empty seats; returns its id."""
    cursor = await conn.execute(
        "INSERT INTO tables (guild_id, channel_id, status, rules, created_by, created_at, seed, next_east, options) "
        "VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?)",
        (guild_id, channel_id, json.dumps(rules), created_by, now_iso(), seed, east, json.dumps(options or {})))
    assert cursor.lastrowid is not None
    for seat in range(4):
        await conn.execute("INSERT INTO table_seats (table_id, seat) VALUES (?, ?)", (cursor.lastrowid, seat))
    return cursor.lastrowid


async def set_seat(conn: aiosqlite.Connection, table_id: int, seat: int, player_id: int | None,
                   computer_level: str | None) -> None:
    """Seat a player or a computer (or nobody), present."""
    await conn.execute("UPDATE table_seats SET player_id = ?, computer_level = ?, away = 0 "
                       "WHERE table_id = ? AND seat = ?", (player_id, computer_level, table_id, seat))


async def set_away(conn: aiosqlite.Connection, table_id: int, seats: dict[int, bool]) -> None:
    """Mark seats away (a computer plays for them) or back."""
    await conn.executemany("UPDATE table_seats SET away = ? WHERE table_id = ? AND seat = ?",
                           [(int(away), table_id, seat) for seat, away in seats.items()])


async def set_display(conn: aiosqlite.Connection, table_id: int, display: dict[str, Any]) -> None:
    """Where the table is shown (the caller's own data, kept as JSON)."""
    await conn.execute("UPDATE tables SET display = ? WHERE table_id = ?", (json.dumps(display), table_id))


async def set_channel(conn: aiosqlite.Connection, table_id: int, channel_id: int) -> None:
    """Move the table to another channel (a thread opened for it)."""
    await conn.execute("UPDATE tables SET channel_id = ? WHERE table_id = ?", (channel_id, table_id))


async def set_table_status(conn: aiosqlite.Connection, table_id: int, status: str) -> None:
    """Set a table's status."""
    await conn.execute("UPDATE tables SET status = ? WHERE table_id = ?", (status, table_id))


async def load_tables(db: Database, where: str = "status != 'closed'", params: tuple[Any, ...] = ()) -> list[TableRow]:
    """The tables matching ``where`` (default: every table not closed), with their seats."""
    rows = await db.fetchall(f"SELECT * FROM tables WHERE {where} ORDER BY table_id", params)
    tables = []
    for row in rows:
        seats = [SeatRow(r[0], r[1], r[2], bool(r[3])) for r in await db.fetchall(
            "SELECT seat, player_id, computer_level, away FROM table_seats WHERE table_id = ? ORDER BY seat",
            (row["table_id"],))]
        tables.append(TableRow(row["table_id"], row["guild_id"], row["channel_id"], row["status"],
                               json.loads(row["rules"]), row["created_by"], row["games_played"], row["next_east"],
                               row["seed"], seats, json.loads(row["options"]), json.loads(row["display"])))
    return tables


async def insert_game(conn: aiosqlite.Connection, table: TableRow, game_no: int, card_id: str, seed: int,
                      east: int, state: dict[str, Any], seats: list[SeatRow]) -> int:
    """Store a new game at a table with its first snapshot; returns its id."""
    cursor = await conn.execute(
        "INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (table.table_id, table.guild_id, game_no, card_id, json.dumps(table.rules), seed, east, now_iso()))
    game_id = cursor.lastrowid
    assert game_id is not None
    await conn.executemany(
        "INSERT INTO game_seats (game_id, seat, player_id, computer_level) VALUES (?, ?, ?, ?)",
        [(game_id, s.seat, s.player_id, s.computer_level) for s in seats])
    await conn.execute(
        "INSERT INTO snapshots (game_id, version, state, deadline, updated_at) VALUES (?, 0, ?, NULL, ?)",
        (game_id, json.dumps(state), now_iso()))
    await conn.execute("UPDATE tables SET status = 'playing', games_played = ? WHERE table_id = ?",
                       (game_no, table.table_id))
    return game_id


RECORD_ACTION = ("INSERT INTO applied_actions (game_id, seq, action, state, deadline, applied_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)")


def record_action_params(game_id: int, version: int, action: dict[str, Any], state: dict[str, Any],
                         deadline: str | None) -> tuple[Any, ...]:
    """The row of one action in the log, as parameters for its INSERT."""
    return game_id, version, json.dumps(action), json.dumps(state), deadline, now_iso()


async def record_action(conn: aiosqlite.Connection, game_id: int, version: int, action: dict[str, Any],
                        state: dict[str, Any], deadline: str | None) -> None:
    """Append action ``version`` (0-based) and move the snapshot from ``version`` to ``version + 1``, in one
    statement (migration 2's trigger); raises :class:`StaleVersion` if the snapshot has moved on."""
    try:
        await conn.execute(RECORD_ACTION, record_action_params(game_id, version, action, state, deadline))
    except sqlite3.IntegrityError as exc:
        if "stale snapshot version" in str(exc):
            raise StaleVersion(f"game {game_id} is no longer at version {version}") from None
        raise


async def set_deadline(conn: aiosqlite.Connection, game_id: int, deadline: str | None) -> None:
    """Set the deadline stored with a game's snapshot."""
    await conn.execute("UPDATE snapshots SET deadline = ? WHERE game_id = ?", (deadline, game_id))


async def finish_game(conn: aiosqlite.Connection, game_id: int, table_id: int, result: dict[str, Any],
                      next_east: int) -> None:
    """Store a game's result and the table's next East."""
    await conn.execute(
        "UPDATE games SET ended_at = ?, how = ?, winner_seat = ?, line_id = ?, value = ?, jokerless = ?, "
        "self_pick = ? WHERE game_id = ?",
        (now_iso(), result["how"], result["winner"], result["line"], result["value"], int(result["jokerless"]),
         int(result["how"] in ("self_pick", "heavenly")), game_id))
    await conn.execute("UPDATE tables SET status = 'open', next_east = ? WHERE table_id = ?", (next_east, table_id))


async def abandon_game(conn: aiosqlite.Connection, game_id: int) -> None:
    """Record an unfinished game as abandoned (its table closed mid-game): ``how`` is 'abandoned' and ``ended_at``
    stays empty, so no standings or settlement count it; its actions and last snapshot stay for the record."""
    await conn.execute("UPDATE games SET how = 'abandoned' WHERE game_id = ? AND ended_at IS NULL", (game_id,))
    await conn.execute("UPDATE snapshots SET deadline = NULL WHERE game_id = ?", (game_id,))


async def unfinished_game(db: Database, table_id: int) -> tuple[int, int, dict[str, Any], str | None] | None:
    """(game_id, version, state, deadline) of the table's game in progress, with its action log restored."""
    row = await db.fetchone(
            "SELECT g.game_id, s.version, s.state, s.deadline FROM games g JOIN snapshots s USING (game_id) "
            "WHERE g.table_id = ? AND g.ended_at IS NULL ORDER BY g.game_id DESC LIMIT 1", (table_id,))
    if row is None:
        return None
    state = json.loads(row["state"])
    actions = await db.fetchall("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (row["game_id"],))
    state["log"] = [json.loads(r[0]) for r in actions]
    return row["game_id"], row["version"], state, row["deadline"]


async def game_seat_players(db: Database, game_id: int) -> list[SeatRow]:
    """Who played each seat of a game (as dealt; away flags are the table's)."""
    rows = await db.fetchall("SELECT seat, player_id, computer_level FROM game_seats WHERE game_id = ? ORDER BY seat",
                             (game_id,))
    return [SeatRow(*r) for r in rows]


async def seat_names(db: Database, seats: list[SeatRow]) -> dict[int, str]:
    """The display names of the seated people, by seat."""
    names: dict[int, str] = {}
    for seat in seats:
        if seat.player_id is not None:
            row = await db.fetchone("SELECT display_name FROM players WHERE player_id = ?", (seat.player_id,))
            names[seat.seat] = row[0] if row else str(seat.player_id)
        elif seat.computer_level:
            names[seat.seat] = f"Computer ({seat.computer_level})"
    return names
