"""The store against real databases (an SQLite file, and a PostgreSQL database of the test's own): migrations, the
ledger's guarantees, standings by league week."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.store import ledger
from bot.store.db import Database, IntegrityError
from bot.store.ledger import Transfer
from bot.store.migrations import MIGRATIONS
from bot.store.standings import (
    League,
    parse_week,
    set_league,
    standings,
    to_csv,
    week_bounds,
    week_label,
    week_start_date,
    weekly_standings,
)


async def add_game(db: Database, guild: int, seats: list[int | None], *, ended: str, winner: int | None,
                   self_pick: bool = False, jokerless: bool = False) -> int:
    async with db.transaction() as conn:
        for player in seats:
            if player is not None:
                await conn.execute("INSERT INTO players VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                   (player, f"P{player}", ended))
        table = await conn.fetchval("INSERT INTO tables (guild_id, channel_id, status, rules, created_at, seed) "
                                    "VALUES (?, 1, 'open', '{}', ?, 0) RETURNING table_id", (guild, ended))
        game = await conn.fetchval(
            "INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at, ended_at, how, "
            "winner_seat, value, jokerless, self_pick) VALUES (?, ?, 1, 'practice', '{}', 1, 0, ?, ?, ?, ?, 25, ?, ?) "
            "RETURNING game_id", (table, guild, ended, ended, "self_pick" if self_pick else "discard", winner,
                                  int(jokerless), int(self_pick)))
        for seat, player in enumerate(seats):
            await conn.execute("INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                               (game, seat, player))
    assert game is not None
    return game


def transfers_to(winner: int, seats: list[int | None], amount: int) -> list[Transfer]:
    return [Transfer(s, seats[s], winner, seats[winner], amount, "test") for s in range(4) if s != winner]


async def test_sqlite_migrations_apply_once_and_set_wal_and_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    first = await Database.open(path)
    assert await first.schema_version() == len(MIGRATIONS)
    async with first.conn.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with first.conn.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1
    await first.close()
    again = await Database.open(path)  # opening again applies nothing and loses nothing
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_settlement_sums_to_zero_and_balances_follow(db: Database) -> None:
    seats = [1, 2, 3, 4]
    game = await add_game(db, 7, seats, ended="2026-11-03T10:00:00.000+00:00", winner=0)
    async with db.transaction() as conn:
        assert await ledger.settle(conn, game, 7, [Transfer(1, 2, 0, 1, 50, "discarder"),
                                                   Transfer(2, 3, 0, 1, 25, "value"),
                                                   Transfer(3, 4, 0, 1, 25, "value")])
    assert await ledger.balance(db, 1) == 100
    assert await ledger.balance(db, 2) == -50
    assert sum([await ledger.balance(db, p) for p in seats]) == 0
    assert await ledger.verify(db) == []
    breakdown = await ledger.game_breakdown(db, game)
    assert sum(row["amount"] for row in breakdown) == 0 and len(breakdown) == 6


async def test_settling_a_game_twice_changes_nothing(db: Database) -> None:
    seats = [1, 2, 3, 4]
    game = await add_game(db, 7, seats, ended="2026-11-03T10:00:00.000+00:00", winner=0)
    for attempt in range(2):
        async with db.transaction() as conn:
            wrote = await ledger.settle(conn, game, 7, transfers_to(0, seats, 25))
        assert wrote is (attempt == 0)
    assert await ledger.balance(db, 1) == 75
    assert await ledger.verify(db) == []


async def test_an_unbalanced_transaction_cannot_be_closed(db: Database) -> None:
    game = await add_game(db, 7, [1, 2, 3, 4], ended="2026-11-03T10:00:00.000+00:00", winner=0)
    with pytest.raises(IntegrityError, match="does not balance"):
        async with db.transaction() as conn:
            txn = await conn.fetchval("INSERT INTO ledger_transactions (game_id, guild_id, kind, created_at) "
                                      "VALUES (?, 7, 'settlement', 'x') RETURNING txn_id", (game,))
            await conn.execute("INSERT INTO ledger_postings (txn_id, account, player_id, amount) "
                               "VALUES (?, 'player:1', 1, 10)", (txn,))
            await conn.execute("UPDATE ledger_transactions SET closed = 1 WHERE txn_id = ?", (txn,))
    # the whole transaction rolled back: nothing was written
    assert await db.fetchval("SELECT COUNT(*) FROM ledger_postings") == 0
    assert await db.fetchval("SELECT COUNT(*) FROM ledger_transactions") == 0


async def test_postings_are_never_edited_and_corrections_are_new_entries(db: Database) -> None:
    seats = [1, 2, 3, 4]
    game = await add_game(db, 7, seats, ended="2026-11-03T10:00:00.000+00:00", winner=0)
    async with db.transaction() as conn:
        await ledger.settle(conn, game, 7, transfers_to(0, seats, 25))
    with pytest.raises(IntegrityError, match="never edited"):
        async with db.transaction() as conn:
            await conn.execute("UPDATE ledger_postings SET amount = 0")
    with pytest.raises(IntegrityError, match="never deleted"):
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM ledger_postings")
    with pytest.raises(IntegrityError, match="closed"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO ledger_postings (txn_id, account, player_id, amount) SELECT txn_id, "
                               "'player:1', 1, 5 FROM ledger_transactions")
    with pytest.raises(IntegrityError, match="closed"):
        async with db.transaction() as conn:
            await conn.execute("UPDATE ledger_transactions SET closed = 0")
    # West (player 3) should not have paid: a correction pays her back
    await ledger.correct(db, game, 7, [Transfer(0, 1, 2, 3, 25, "refund")], "West was dead before the deal")
    assert await ledger.balance(db, 3) == 0 and await ledger.balance(db, 1) == 50
    assert await ledger.verify(db) == []
    kinds = [row["kind"] for row in await ledger.game_breakdown(db, game)]
    assert kinds.count("correction") == 2


async def test_verify_reports_an_ended_game_without_settlement(db: Database) -> None:
    game = await add_game(db, 7, [1, 2, 3, 4], ended="2026-11-03T10:00:00.000+00:00", winner=0)
    problems = await ledger.verify(db)
    assert problems == [f"game {game} has ended but has no settlement"]


def test_week_labels_follow_the_league_week_start() -> None:
    # Monday start: exactly ISO weeks
    assert week_label(date(2026, 11, 23), 0) == "2026-W48"
    assert week_start_date("2026-W48", 0) == date(2026, 11, 23)
    # Sunday start: Sunday 22 to Saturday 28 November 2026 is W48
    assert week_label(date(2026, 11, 22), 6) == "2026-W48"
    assert week_label(date(2026, 11, 28), 6) == "2026-W48"
    assert week_label(date(2026, 11, 29), 6) == "2026-W49"
    assert week_start_date("2026-W48", 6) == date(2026, 11, 22)
    for start in range(7):
        for day in range(1, 29):
            d = date(2026, 2, day)
            assert week_start_date(week_label(d, start), start) <= d
    with pytest.raises(ValueError, match="YYYY-Www"):
        parse_week("2026-48")


def test_week_bounds_use_the_league_time_zone() -> None:
    start, end = week_bounds(League(1, timezone="America/New_York", week_start=0), "2026-W48")
    assert start == datetime(2026, 11, 23, 5, 0, tzinfo=UTC)  # local midnight, EST = UTC-5
    assert (end - start).days == 7


async def test_weekly_standings_count_only_that_weeks_games_in_local_time(db: Database) -> None:
    await set_league(db, 9, timezone="America/New_York", week_start=0)
    seats: list[int | None] = [1, 2, 3, None]  # a computer in seat 3
    # Sunday 23:30 in New York is Monday 04:30 UTC: still the week before (W47) locally
    late_sunday = await add_game(db, 9, seats, ended="2026-11-23T04:30:00.000+00:00", winner=0)
    monday = await add_game(db, 9, seats, ended="2026-11-23T15:00:00.000+00:00", winner=1, self_pick=True,
                            jokerless=True)
    for game, winner in ((late_sunday, 0), (monday, 1)):
        async with db.transaction() as conn:
            await ledger.settle(conn, game, 9, transfers_to(winner, seats, 25))
    label, week48 = await weekly_standings(db, 9, "2026-W48")
    assert label == "2026-W48"
    by_player = {s.player_id: s for s in week48}
    assert set(by_player) == {1, 2, 3}  # the computer seat is not a player
    assert by_player[2].wins == 1 and by_player[2].self_picks == 1 and by_player[2].jokerless_wins == 1
    assert by_player[2].net == 75 and by_player[1].net == -25
    assert week48[0].player_id == 2
    _, week47 = await weekly_standings(db, 9, "2026-W47")
    assert {s.player_id: s.net for s in week47} == {1: 75, 2: -25, 3: -25}
    season = await standings(db, 9)
    assert {s.player_id: (s.games, s.net) for s in season} == {1: (2, 50), 2: (2, 50), 3: (2, -50)}
    assert season[0].mahjong_rate == 0.5
    csv_text = to_csv(season)
    assert csv_text.splitlines()[0].startswith("rank,player_id,name,net")
    assert len(csv_text.splitlines()) == 4


async def test_set_league_rejects_an_unknown_time_zone(db: Database) -> None:
    with pytest.raises(ValueError, match="time zone"):
        await set_league(db, 1, timezone="Mars/Olympus")
