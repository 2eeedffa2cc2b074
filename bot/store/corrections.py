"""Corrections of a league's record: a game voided, and a game played at a physical table recorded.

A void is a correcting ledger transaction that puts back every chip the game moved (the settlement and any earlier
correction stay; the ledger still verifies), and a row in ``game_corrections`` saying who voided it, when and why;
the standings leave a voided game out. A recorded game is a game like any other (its own closed table, its seats,
its result and its settlement, paid as the NMJL rules pay: :func:`bot.engine.tournament.recorded_payouts`) with a
``game_corrections`` row keeping who recorded it and the outcome tournament scoring reads. Each is one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.engine.tournament import Outcome, recorded_payouts

from . import ledger
from .db import Connection, Database
from .records import upsert_player


@dataclass(frozen=True, slots=True)
class GameRow:
    """A finished game of a guild as a correction needs it: where it was played and what became of it."""

    game_id: int
    guild_id: int
    table_id: int
    league_id: int | None
    ended_at: str | None
    how: str | None
    winner: str | None  # the winner's name, if someone won
    value: int | None
    voided: bool
    recorded: bool


@dataclass(frozen=True, slots=True)
class CorrectionRow:
    """One correction: a void or a recorded game, who made it (and her name), when and why."""

    game_id: int
    kind: str  # void, recorded
    reason: str
    made_by: int
    made_by_name: str
    made_at: str
    table_id: int


_GAME = ("SELECT g.game_id, g.guild_id, g.table_id, tb.league_id, g.ended_at, g.how, "
         "(SELECT COALESCE(p.display_name, CAST(gs.player_id AS TEXT)) FROM game_seats gs "
         " LEFT JOIN players p ON p.player_id = gs.player_id WHERE gs.game_id = g.game_id "
         " AND gs.seat = g.winner_seat), g.value, "
         "EXISTS (SELECT 1 FROM game_corrections v WHERE v.game_id = g.game_id AND v.kind = 'void'), "
         "EXISTS (SELECT 1 FROM game_corrections r WHERE r.game_id = g.game_id AND r.kind = 'recorded') "
         "FROM games g JOIN tables tb ON tb.table_id = g.table_id")


def _game(row: Any) -> GameRow:
    return GameRow(int(row[0]), int(row[1]), int(row[2]), row[3], row[4], row[5], row[6], row[7], bool(row[8]),
                   bool(row[9]))


async def game(db: Database, game_id: int) -> GameRow | None:
    """A game by its number, in whatever guild (the caller checks the guild)."""
    row = await db.fetchone(f"{_GAME} WHERE g.game_id = ?", (game_id,))
    return _game(row) if row else None


async def recent_games(db: Database, guild_id: int, league_id: int | None, limit: int = 25) -> list[GameRow]:
    """The guild's (or league's) latest finished games, newest first (for suggestions)."""
    where, params = "g.guild_id = ? AND g.ended_at IS NOT NULL", list[object]([guild_id])
    if league_id is not None:
        where += " AND tb.league_id = ?"
        params.append(league_id)
    rows = await db.fetchall(f"{_GAME} WHERE {where} ORDER BY g.game_id DESC LIMIT ?", [*params, limit])
    return [_game(r) for r in rows]


def _reversal(nets: list[tuple[int | None, int, int]]) -> list[ledger.Transfer]:
    """Transfers that bring every seat's net back to zero: each seat that gained pays back, to those that lost, in
    seat order (the fewest transfers is not the point: each seat's net is)."""
    owing = [(player, seat, net) for player, seat, net in nets if net > 0]
    owed = [(player, seat, -net) for player, seat, net in nets if net < 0]
    left = [amount for _, _, amount in owed]
    transfers: list[ledger.Transfer] = []
    for player, seat, gained in owing:
        for n, (other, other_seat, _) in enumerate(owed):
            amount = min(gained, left[n])
            if amount > 0:
                transfers.append(ledger.Transfer(seat, player, other_seat, other, amount, "void"))
                gained -= amount
                left[n] -= amount
    return transfers


async def void(db: Database, game_id: int, guild_id: int, reason: str, made_by: int, made_by_name: str,
               now: str) -> int | None:
    """Void a finished game: a correcting transaction putting back what it moved, and the record of who, when and
    why, in one transaction. Returns the correction's id, or None if the game was voided already (the unique key
    decides, so of two voids at once one is made)."""
    async with db.transaction() as conn:
        await upsert_player(conn, made_by, made_by_name)
        made = await conn.fetchval(
            "INSERT INTO game_corrections (game_id, guild_id, kind, reason, made_by, made_at) "
            "VALUES (?, ?, 'void', ?, ?, ?) ON CONFLICT (game_id, kind) DO NOTHING RETURNING correction_id",
            (game_id, guild_id, reason, made_by, now))
        if made is None:
            return None
        nets = [(r[0], int(r[1]), int(r[2])) for r in await conn.fetchall(
            "SELECT p.player_id, p.seat, SUM(p.amount) FROM ledger_postings p JOIN ledger_transactions t "
            "ON t.txn_id = p.txn_id WHERE t.game_id = ? AND t.closed = 1 GROUP BY p.player_id, p.seat",
            (game_id,))]
        txn = await ledger.post_correction(conn, game_id, guild_id, _reversal(nets),
                                           f"void by {made_by_name}: {reason}")
        await conn.execute("UPDATE game_corrections SET txn_id = ? WHERE correction_id = ?", (txn, made))
        return int(made)


@dataclass(frozen=True, slots=True)
class Recorded:
    """A game played at a physical table, as an organiser records it: its players by seat (names kept), its card
    and line, and its outcome."""

    guild_id: int
    league_id: int
    channel_id: int
    players: tuple[tuple[int, str], ...]  # (player id, name) by seat
    card_id: str
    rules: dict[str, Any]
    line: str | None
    outcome: Outcome


async def record(db: Database, game: Recorded, reason: str, made_by: int, made_by_name: str, now: str) -> int:
    """Store a game played at a physical table, settled in chips, in one transaction. Returns its game id."""
    outcome = game.outcome
    async with db.transaction() as conn:
        for player, name in (*game.players, (made_by, made_by_name)):
            await upsert_player(conn, player, name)
        table_id = await _physical_table(conn, game, made_by, now)
        game_id = int(await conn.fetchval(
            "INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at, ended_at, how, "
            "winner_seat, line_id, value, jokerless, self_pick) VALUES (?, ?, 1, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING game_id",
            (table_id, game.guild_id, game.card_id, json.dumps(game.rules), now, now, outcome.how, outcome.winner,
             game.line, outcome.value, int(outcome.jokerless), int(outcome.self_pick))))
        seats = [(game_id, seat, player) for seat, (player, _) in enumerate(game.players)]
        await conn.executemany("INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)", seats)
        people = dict(enumerate(p for p, _ in game.players))
        transfers = [ledger.Transfer(p.payer, people[p.payer], p.payee, people[p.payee], p.amount, p.reason)
                     for p in recorded_payouts(outcome)]
        await ledger.settle(conn, game_id, game.guild_id, transfers, memo=f"recorded by {made_by_name}")
        txn = await conn.fetchval("SELECT txn_id FROM ledger_transactions WHERE game_id = ? AND kind = 'settlement'",
                                  (game_id,))
        await conn.execute(
            "INSERT INTO game_corrections (game_id, guild_id, kind, txn_id, reason, detail, made_by, made_at) "
            "VALUES (?, ?, 'recorded', ?, ?, ?, ?, ?)",
            (game_id, game.guild_id, txn, reason, json.dumps(outcome.to_json()), made_by, now))
        return game_id


async def _physical_table(conn: Connection, game: Recorded, made_by: int, now: str) -> int:
    """A closed table of the league standing for the physical one (a game belongs to a table), its seats filled."""
    table_id = int(await conn.fetchval(
        "INSERT INTO tables (guild_id, channel_id, status, rules, created_by, created_at, seed, options, league_id) "
        "VALUES (?, ?, 'closed', ?, ?, ?, 0, ?, ?) RETURNING table_id",
        (game.guild_id, game.channel_id, json.dumps(game.rules), made_by, now, json.dumps({"physical": True}),
         game.league_id)))
    await conn.executemany("INSERT INTO table_seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                           [(table_id, seat, game.players[seat][0] if seat < len(game.players) else None)
                            for seat in range(4)])
    await conn.execute("UPDATE tables SET games_played = 1 WHERE table_id = ?", (table_id,))
    return table_id


async def corrections(db: Database, guild_id: int, league_id: int | None, start: str | None = None,
                      end: str | None = None) -> list[CorrectionRow]:
    """The guild's (or league's) corrections of the games that ended in [start, end) (ISO, UTC), oldest first: the
    detail of those games' standings, whenever the correction was made."""
    where, params = "gc.guild_id = ?", list[object]([guild_id])
    if league_id is not None:
        where += " AND tb.league_id = ?"
        params.append(league_id)
    if start is not None:
        where += " AND g.ended_at >= ?"
        params.append(start)
    if end is not None:
        where += " AND g.ended_at < ?"
        params.append(end)
    rows = await db.fetchall(
        "SELECT gc.game_id, gc.kind, gc.reason, gc.made_by, COALESCE(p.display_name, CAST(gc.made_by AS TEXT)), "
        "gc.made_at, g.table_id FROM game_corrections gc JOIN games g ON g.game_id = gc.game_id "
        "JOIN tables tb ON tb.table_id = g.table_id LEFT JOIN players p ON p.player_id = gc.made_by "
        f"WHERE {where} ORDER BY gc.made_at, gc.correction_id", params)
    return [CorrectionRow(int(r[0]), r[1], r[2], int(r[3]), r[4], r[5], int(r[6])) for r in rows]
