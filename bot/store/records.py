"""Rows for tables, seats, games, the action log and snapshots. Each writer runs inside the caller's
transaction (``Database.transaction``) so an action, its snapshot and a game's result land together or not at
all."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .db import Connection, Database, IntegrityError, now_iso


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
    # How games are seeded: 'fresh', a new secret seed for each game; 'table', game n from ``seed`` + n (a table
    # opened with a seed of its own: tests, simulations, the demo)
    deal_seeds: str = "fresh"


async def upsert_player(conn: Connection, player_id: int, name: str) -> None:
    """Record a player's display name, adding the player if new."""
    await conn.execute(
        "INSERT INTO players (player_id, display_name, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (player_id) DO UPDATE SET display_name = excluded.display_name, updated_at = excluded.updated_at",
        (player_id, name, now_iso()))


async def insert_table(conn: Connection, guild_id: int, channel_id: int, rules: dict[str, Any],
                       created_by: int | None, seed: int, east: int = 0, options: dict[str, Any] | None = None,
                       deal_seeds: str = "fresh") -> int:
    """A new open table with four empty seats; returns its id."""
    table_id = int(await conn.fetchval(
        "INSERT INTO tables (guild_id, channel_id, status, rules, created_by, created_at, seed, next_east, options, "
        "deal_seeds) VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?) RETURNING table_id",
        (guild_id, channel_id, json.dumps(rules), created_by, now_iso(), seed, east, json.dumps(options or {}),
         deal_seeds)))
    await conn.executemany("INSERT INTO table_seats (table_id, seat) VALUES (?, ?)",
                           [(table_id, seat) for seat in range(4)])
    return table_id


async def set_seat(conn: Connection, table_id: int, seat: int, player_id: int | None,
                   computer_level: str | None) -> None:
    """Seat a player or a computer (or nobody), present."""
    await conn.execute("UPDATE table_seats SET player_id = ?, computer_level = ?, away = 0 "
                       "WHERE table_id = ? AND seat = ?", (player_id, computer_level, table_id, seat))


async def set_away(conn: Connection, table_id: int, seats: dict[int, bool]) -> None:
    """Mark seats away (a computer plays for them) or back."""
    await conn.executemany("UPDATE table_seats SET away = ? WHERE table_id = ? AND seat = ?",
                           [(int(away), table_id, seat) for seat, away in seats.items()])


async def set_display(conn: Connection, table_id: int, display: dict[str, Any]) -> None:
    """Where the table is shown (the caller's own data, kept as JSON)."""
    await conn.execute("UPDATE tables SET display = ? WHERE table_id = ?", (json.dumps(display), table_id))


async def set_channel(conn: Connection, table_id: int, channel_id: int) -> None:
    """Move the table to another channel (a thread opened for it)."""
    await conn.execute("UPDATE tables SET channel_id = ? WHERE table_id = ?", (channel_id, table_id))


async def set_table_status(conn: Connection, table_id: int, status: str) -> None:
    """Set a table's status."""
    await conn.execute("UPDATE tables SET status = ? WHERE table_id = ?", (status, table_id))


def open_tables(shards: tuple[int, tuple[int, ...]] | None = None) -> tuple[str, tuple[Any, ...]]:
    """The WHERE part (and its parameters) of the tables not closed; with ``shards`` (a count and the ids a
    process runs), only those of guilds on these shards (Discord puts a guild on shard ``(id >> 22) % count``)."""
    if shards is None:
        return "status != 'closed'", ()
    count, ids = shards
    marks = ", ".join("?" for _ in ids)
    return f"status != 'closed' AND (guild_id >> 22) % ? IN ({marks})", (count, *ids)


async def load_tables(db: Database, where: str = "status != 'closed'", params: tuple[Any, ...] = ()) -> list[TableRow]:
    """The tables matching ``where`` (default: every table not closed), with their seats."""
    rows = await db.fetchall(f"SELECT * FROM tables WHERE {where} ORDER BY table_id", params)
    seats: dict[int, list[SeatRow]] = {}
    for r in await db.fetchall("SELECT table_id, seat, player_id, computer_level, away FROM table_seats "
                               f"WHERE table_id IN (SELECT table_id FROM tables WHERE {where}) "
                               "ORDER BY table_id, seat", params):
        seats.setdefault(r[0], []).append(SeatRow(r[1], r[2], r[3], bool(r[4])))
    return [TableRow(row["table_id"], row["guild_id"], row["channel_id"], row["status"], json.loads(row["rules"]),
                     row["created_by"], row["games_played"], row["next_east"], row["seed"],
                     seats.get(row["table_id"], []), json.loads(row["options"]), json.loads(row["display"]),
                     row["deal_seeds"])
            for row in rows]


async def insert_game(conn: Connection, table: TableRow, game_no: int, card_id: str, seed: int,
                      east: int, state: dict[str, Any], seats: list[SeatRow]) -> int:
    """Store a new game at a table with its first snapshot; returns its id."""
    game_id = int(await conn.fetchval(
        "INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING game_id",
        (table.table_id, table.guild_id, game_no, card_id, json.dumps(table.rules), seed, east, now_iso())))
    await conn.executemany(
        "INSERT INTO game_seats (game_id, seat, player_id, computer_level) VALUES (?, ?, ?, ?)",
        [(game_id, s.seat, s.player_id, s.computer_level) for s in seats])
    await conn.execute(
        "INSERT INTO snapshots (game_id, version, state, deadline, updated_at, state_version) "
        "VALUES (?, 0, ?, NULL, ?, 0)", (game_id, json.dumps(state), now_iso()))
    await conn.execute("UPDATE tables SET status = 'playing', games_played = ? WHERE table_id = ?",
                       (game_no, table.table_id))
    return game_id


RECORD_ACTION = ("INSERT INTO applied_actions (game_id, seq, action, state, deadline, applied_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)")


def record_action_params(game_id: int, version: int, action: dict[str, Any], state: dict[str, Any] | None,
                         deadline: str | None) -> tuple[Any, ...]:
    """The row of one action in the log, as parameters for its INSERT."""
    return game_id, version, json.dumps(action), None if state is None else json.dumps(state), deadline, now_iso()


async def record_action(conn: Connection, game_id: int, version: int, action: dict[str, Any],
                        state: dict[str, Any] | None, deadline: str | None) -> None:
    """Append action ``version`` (0-based) and move the snapshot from ``version`` to ``version + 1``, in one
    statement (the ``applied_actions`` trigger); with ``state`` (the state after the action, its log left out)
    the stored state is replaced too, else it stays at the version it was written at and the actions after it
    are replayed on restore. Raises :class:`StaleVersion` if the snapshot has moved on."""
    try:
        await conn.execute(RECORD_ACTION, record_action_params(game_id, version, action, state, deadline))
    except IntegrityError as exc:
        if "stale snapshot version" in str(exc):
            raise StaleVersion(f"game {game_id} is no longer at version {version}") from None
        raise


async def save_state(conn: Connection, game_id: int, version: int, state: dict[str, Any]) -> None:
    """Store the full state of a game at its current ``version`` (a checkpoint: nothing left to replay)."""
    await conn.execute("UPDATE snapshots SET state = ?, state_version = ? WHERE game_id = ? AND version = ?",
                       (json.dumps(state), version, game_id, version))


async def set_deadline(conn: Connection, game_id: int, deadline: str | None) -> None:
    """Set the deadline stored with a game's snapshot."""
    await conn.execute("UPDATE snapshots SET deadline = ? WHERE game_id = ?", (deadline, game_id))


async def finish_game(conn: Connection, game_id: int, table_id: int, result: dict[str, Any],
                      next_east: int) -> None:
    """Store a game's result and the table's next East."""
    await conn.execute(
        "UPDATE games SET ended_at = ?, how = ?, winner_seat = ?, line_id = ?, value = ?, jokerless = ?, "
        "self_pick = ? WHERE game_id = ?",
        (now_iso(), result["how"], result["winner"], result["line"], result["value"], int(result["jokerless"]),
         int(result["how"] in ("self_pick", "heavenly")), game_id))
    await conn.execute("UPDATE tables SET status = 'open', next_east = ? WHERE table_id = ?", (next_east, table_id))


async def abandon_game(conn: Connection, game_id: int) -> None:
    """Record an unfinished game as abandoned (its table closed mid-game): ``how`` is 'abandoned' and ``ended_at``
    stays empty, so no standings or settlement count it; its actions and last snapshot stay for the record."""
    await conn.execute("UPDATE games SET how = 'abandoned' WHERE game_id = ? AND ended_at IS NULL", (game_id,))
    await conn.execute("UPDATE snapshots SET deadline = NULL WHERE game_id = ?", (game_id,))


# A game in progress: not ended, and not abandoned (a table closed mid-game leaves its game unended).
_IN_PROGRESS = "g.ended_at IS NULL AND (g.how IS NULL OR g.how <> 'abandoned')"


@dataclass(slots=True)
class SavedGame:
    """A game in progress as stored: its state as written at ``state_version`` (without its log), every action
    applied so far (the log: those after ``state_version`` are replayed), and the clock's next deadline."""

    game_id: int
    table_id: int
    version: int
    state_version: int
    state: dict[str, Any]
    actions: list[dict[str, Any]]
    deadline: str | None


async def unfinished_games(db: Database, where: str = "", params: tuple[Any, ...] = ()) -> dict[int, SavedGame]:
    """The game in progress of each table (of the tables matching ``where``, default every one), by table id,
    with its action log: three queries, however many tables."""
    scope = f" AND g.table_id IN (SELECT table_id FROM tables WHERE {where})" if where else ""
    rows = await db.fetchall(
        "SELECT g.game_id, g.table_id, s.version, s.state_version, s.state, s.deadline FROM games g "
        f"JOIN snapshots s ON s.game_id = g.game_id WHERE {_IN_PROGRESS}{scope} ORDER BY g.game_id", params)
    games = {int(r[0]): SavedGame(int(r[0]), int(r[1]), int(r[2]), int(r[3]), json.loads(r[4]), [], r[5])
             for r in rows}
    for game_id, action in await db.fetchall(
            "SELECT a.game_id, a.action FROM actions a JOIN games g ON g.game_id = a.game_id "
            f"WHERE {_IN_PROGRESS}{scope} ORDER BY a.game_id, a.seq", params):
        if game_id in games:
            games[game_id].actions.append(json.loads(action))
    # a table has one game in progress; if a crash ever left two, the latest is the table's
    return {game.table_id: game for game in games.values()}


async def unfinished_game(db: Database, table_id: int) -> SavedGame | None:
    """The table's game in progress, if any (see :func:`unfinished_games`)."""
    return (await unfinished_games(db, "table_id = ?", (table_id,))).get(table_id)


async def game_seat_players(db: Database, game_id: int) -> list[SeatRow]:
    """Who played each seat of a game (as dealt; away flags are the table's)."""
    rows = await db.fetchall("SELECT seat, player_id, computer_level FROM game_seats WHERE game_id = ? ORDER BY seat",
                             (game_id,))
    return [SeatRow(*r) for r in rows]


async def seat_names(db: Database, tables: list[TableRow]) -> dict[int, dict[int, str]]:
    """The display names of the seated people and computers, by table and seat (one query)."""
    people = {s.player_id for t in tables for s in t.seats if s.player_id is not None}
    known: dict[int, str] = {}
    for chunk in _chunks(sorted(people), 500):
        marks = ", ".join("?" for _ in chunk)
        known.update({int(r[0]): str(r[1]) for r in await db.fetchall(
            f"SELECT player_id, display_name FROM players WHERE player_id IN ({marks})", chunk)})
    names: dict[int, dict[int, str]] = {}
    for table in tables:
        names[table.table_id] = {}
        for seat in table.seats:
            if seat.player_id is not None:
                names[table.table_id][seat.seat] = known.get(seat.player_id, str(seat.player_id))
            elif seat.computer_level:
                names[table.table_id][seat.seat] = f"Computer ({seat.computer_level})"
    return names


def _chunks(items: list[int], size: int) -> list[list[int]]:
    return [items[i:i + size] for i in range(0, len(items), size)]
