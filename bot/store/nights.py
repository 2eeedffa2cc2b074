"""League nights as stored: the night (when, its rounds, what a remainder of players does, how an absent player's
games count, its sign-up and results messages), who signed up (and from which round: a latecomer plays from the
next one), the tables of each round (their seats and East, the table playing them, how far they are) and who was
away when each of the night's games ended. Everything the night's schedule needs is here, so a restart carries on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .db import Database, Row

_NIGHT = ("night_id, league_id, guild_id, channel_id, starts_at, closes_at, rounds, round_games, round_minutes, "
          "remainder, absent, rules, seed, status, round, round_started_at, signup_message_id, reminded, "
          "results_status, results_message_id, results_tries, results_next_try, created_by, created_at")


@dataclass(frozen=True, slots=True)
class NightRow:
    """A league night as stored (times ISO, UTC)."""

    night_id: int
    league_id: int
    guild_id: int
    channel_id: int
    starts_at: str
    closes_at: str
    rounds: int
    round_games: int | None  # a round is so many games at each table ...
    round_minutes: int | None  # ... or so many minutes (the games under way then are finished)
    remainder: str  # computers, three
    absent: str  # counts, zero: how a game a computer played for an absent player counts for her
    rules: dict[str, Any]  # the tables' card, preset and computer delay
    seed: int
    status: str  # signup, closed, playing, finished, cancelled
    round: int
    round_started_at: str | None
    signup_message_id: int | None
    reminded: bool
    results_status: str | None  # due, posted, failed
    results_message_id: int | None
    results_tries: int
    results_next_try: str | None
    created_by: int | None
    created_at: str


@dataclass(frozen=True, slots=True)
class SignUp:
    """One player's answer to a night: in or out, and the first round she plays (a latecomer: a later one)."""

    player_id: int
    name: str
    status: str  # in, out
    from_round: int
    updated_at: str


@dataclass(frozen=True, slots=True)
class NightTable:
    """One table of a round: its seats (a player, or None for a computer), East, the table playing it."""

    night_id: int
    round: int
    table_no: int
    table_id: int | None
    seats: tuple[int | None, ...]
    east: int
    status: str  # seated, opened, playing, done
    next_deal_at: str | None


def _night(row: Row) -> NightRow:
    values = list(row)
    values[11] = json.loads(values[11])
    values[17] = bool(values[17])
    return NightRow(*values)


def _table(row: Row) -> NightTable:
    layout = json.loads(row[4])
    return NightTable(row[0], row[1], row[2], row[3], tuple(layout["seats"]), int(layout["east"]), row[5], row[6])


async def create(db: Database, night: NightRow) -> NightRow:
    """Store a new night; returns it with its id."""
    async with db.transaction() as conn:
        night_id = await conn.fetchval(
            "INSERT INTO nights (league_id, guild_id, channel_id, starts_at, closes_at, rounds, round_games, "
            "round_minutes, remainder, absent, rules, seed, status, created_by, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?) RETURNING night_id",
            (night.league_id, night.guild_id, night.channel_id, night.starts_at, night.closes_at, night.rounds,
             night.round_games, night.round_minutes, night.remainder, night.absent, json.dumps(night.rules),
             night.seed, night.created_by, night.created_at))
    found = await get(db, int(night_id))
    assert found is not None
    return found


async def get(db: Database, night_id: int) -> NightRow | None:
    """A night by its id."""
    row = await db.fetchone(f"SELECT {_NIGHT} FROM nights WHERE night_id = ?", (night_id,))
    return _night(row) if row else None


async def running(db: Database) -> list[NightRow]:
    """Every night not over (signing up, closed, playing) and every night whose results are still to be posted."""
    rows = await db.fetchall(f"SELECT {_NIGHT} FROM nights WHERE status IN ('signup', 'closed', 'playing') "
                             "OR results_status IN ('due', 'failed') ORDER BY starts_at, night_id")
    return [_night(r) for r in rows]


async def of_league(db: Database, league_id: int) -> list[NightRow]:
    """A league's nights, latest first."""
    rows = await db.fetchall(f"SELECT {_NIGHT} FROM nights WHERE league_id = ? ORDER BY starts_at DESC, night_id DESC",
                             (league_id,))
    return [_night(r) for r in rows]


async def update(db: Database, night_id: int, **fields: object) -> None:
    """Change some of a night's columns."""
    names = ", ".join(f"{name} = ?" for name in fields)
    values = [int(v) if isinstance(v, bool) else v for v in fields.values()]
    async with db.single_statement() as conn:
        await conn.execute(f"UPDATE nights SET {names} WHERE night_id = ?", (*values, night_id))


async def advance(db: Database, night_id: int, status: str, expected: str, **fields: object) -> bool:
    """Move a night from ``expected`` to ``status`` (with other columns); False if it was not at ``expected`` (so
    a step is taken once)."""
    names = "".join(f", {name} = ?" for name in fields)
    async with db.single_statement() as conn:
        changed = await conn.execute(f"UPDATE nights SET status = ?{names} WHERE night_id = ? AND status = ?",
                                     (status, *fields.values(), night_id, expected))
    return changed == 1


# -- sign-ups -------------------------------------------------------------------------------------------------------


async def sign_up(db: Database, night_id: int, player_id: int, name: str, status: str, from_round: int,
                  now: str) -> None:
    """A player's answer (a later answer replaces an earlier one)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO players (player_id, display_name, updated_at) VALUES (?, ?, ?) ON CONFLICT (player_id) "
            "DO UPDATE SET display_name = excluded.display_name, updated_at = excluded.updated_at",
            (player_id, name, now))
        await conn.execute(
            "INSERT INTO night_players (night_id, player_id, name, status, from_round, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (night_id, player_id) DO UPDATE SET name = excluded.name, "
            "status = excluded.status, from_round = excluded.from_round, updated_at = excluded.updated_at",
            (night_id, player_id, name, status, from_round, now))


async def sign_ups(db: Database, night_id: int) -> list[SignUp]:
    """Every answer to a night, in the order given."""
    rows = await db.fetchall("SELECT player_id, name, status, from_round, updated_at FROM night_players "
                             "WHERE night_id = ? ORDER BY updated_at, player_id", (night_id,))
    return [SignUp(int(r[0]), r[1], r[2], int(r[3]), r[4]) for r in rows]


# -- tables ---------------------------------------------------------------------------------------------------------


async def seat(db: Database, night_id: int, round_no: int, tables: list[tuple[tuple[int | None, ...], int]],
               started_at: str) -> bool:
    """A round's tables, and the night at that round, in one transaction; False if the round was seated already."""
    async with db.transaction() as conn:
        changed = await conn.execute("UPDATE nights SET round = ?, round_started_at = ?, status = 'playing' "
                                     "WHERE night_id = ? AND round = ?", (round_no, started_at, night_id, round_no - 1))
        if changed != 1:
            return False
        await conn.executemany(
            "INSERT INTO night_tables (night_id, round, table_no, seats, players, status) VALUES (?, ?, ?, ?, ?, "
            "'seated')", [(night_id, round_no, n, json.dumps({"seats": list(seats), "east": east}), len(seats))
                          for n, (seats, east) in enumerate(tables, start=1)])
    return True


async def tables(db: Database, night_id: int, round_no: int | None = None) -> list[NightTable]:
    """A night's tables (of one round), in round and table order."""
    where, params = "night_id = ?", [night_id]
    if round_no is not None:
        where += " AND round = ?"
        params.append(round_no)
    rows = await db.fetchall("SELECT night_id, round, table_no, table_id, seats, status, next_deal_at FROM "
                             f"night_tables WHERE {where} ORDER BY round, table_no", params)
    return [_table(r) for r in rows]


async def update_table(db: Database, night_id: int, round_no: int, table_no: int, **fields: object) -> None:
    """Change some of a night table's columns."""
    names = ", ".join(f"{name} = ?" for name in fields)
    async with db.single_statement() as conn:
        await conn.execute(f"UPDATE night_tables SET {names} WHERE night_id = ? AND round = ? AND table_no = ?",
                           (*fields.values(), night_id, round_no, table_no))


async def note_away(db: Database, table_id: int, players: list[int]) -> None:
    """Who was away (a computer playing her seat) when the table's latest game ended."""
    game = await db.fetchval("SELECT MAX(game_id) FROM games WHERE table_id = ? AND ended_at IS NOT NULL", (table_id,))
    if game is None or not players:
        return
    async with db.transaction() as conn:
        for player in players:
            await conn.execute("INSERT INTO night_away (game_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                               (game, player))


async def games_played(db: Database, table_id: int) -> int:
    """How many games the table has finished (an abandoned game does not count)."""
    return int(await db.fetchval("SELECT COUNT(*) FROM games WHERE table_id = ? AND ended_at IS NOT NULL",
                                 (table_id,)) or 0)
