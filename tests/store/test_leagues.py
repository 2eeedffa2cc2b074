"""Schema 4 against real SQLite files: an older database's league becomes its guild's first league (its tables,
games and players with it), league names and channels are unique per guild, and standings and the ledger can be
read per league without one guild seeing another's."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from support.service import OpenDb

from bot.store import leagues as store
from bot.store import ledger
from bot.store.db import Database
from bot.store.ledger import Transfer
from bot.store.migrations import MIGRATIONS
from bot.store.sqlite import APPLICATION_ID
from bot.store.standings import get_league, set_league, standings

NOW = "2026-11-20T12:00:00.000+00:00"


def _old_database(path: Path) -> None:
    """A database as schema 3 left it: guild 9 has a league row (with a channel and a default card), guild 10
    none; both played games, settled in the ledger."""
    conn = sqlite3.connect(path)
    conn.executescript("\n".join(MIGRATIONS[:3]) + f"\nPRAGMA user_version = 3;\nPRAGMA application_id = "
                       f"{APPLICATION_ID};")
    conn.execute("INSERT INTO leagues (guild_id, name, timezone, week_start, standings_channel_id, default_card, "
                 "created_at) VALUES (9, 'Club', 'America/New_York', 6, 55, 'nmjl-1946', ?)", (NOW,))
    conn.execute("INSERT INTO leagues (guild_id, created_at) VALUES (11, ?)", (NOW,))  # a row never named
    for player in (1, 2, 3):
        conn.execute("INSERT INTO players VALUES (?, ?, ?)", (player, f"P{player}", NOW))
    for guild, players in ((9, (1, 2)), (10, (2, 3))):
        table = conn.execute("INSERT INTO tables (guild_id, channel_id, status, rules, created_at, seed) "
                             "VALUES (?, 1, 'open', '{}', ?, 0)", (guild, NOW)).lastrowid
        game = conn.execute(
            "INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at, ended_at, how, "
            "winner_seat, value, jokerless, self_pick) VALUES (?, ?, 1, 'practice', '{}', 1, 0, ?, ?, 'discard', 0, "
            "25, 0, 0)", (table, guild, NOW, NOW)).lastrowid
        for seat, player in enumerate((*players, None, None)):
            conn.execute("INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)", (game, seat, player))
        txn = conn.execute("INSERT INTO ledger_transactions (game_id, guild_id, kind, created_at) "
                           "VALUES (?, ?, 'settlement', ?)", (game, guild, NOW)).lastrowid
        conn.executemany("INSERT INTO ledger_postings (txn_id, account, player_id, seat, amount) "
                         "VALUES (?, ?, ?, ?, ?)",
                         [(txn, f"player:{players[1]}", players[1], 1, -25),
                          (txn, f"player:{players[0]}", players[0], 0, 25)])
        conn.execute("UPDATE ledger_transactions SET closed = 1 WHERE txn_id = ?", (txn,))
    conn.commit()
    conn.close()


async def test_migration_4_makes_the_old_league_its_guilds_first_league(tmp_path: Path, open_db: OpenDb) -> None:
    path = tmp_path / "old.db"
    _old_database(path)
    db = await open_db(path)
    assert await db.schema_version() == len(MIGRATIONS) >= 5  # later migrations apply on top
    (club,) = await store.leagues_of(db, 9)
    assert (club.name, club.timezone, club.week_start, club.channel_id) == ("Club", "America/New_York", 6, 55)
    assert club.auto_join and datetime.fromisoformat(club.posts_after) > datetime.fromisoformat(NOW)
    assert [x.name for x in await store.leagues_of(db, 11)] == ["League"]
    assert await store.leagues_of(db, 10) == []
    (default,) = await db.fetchone("SELECT default_card FROM guild_settings WHERE guild_id = 9")
    assert default == "nmjl-1946"
    by_guild = {row[0]: row[1] for row in await db.fetchall("SELECT guild_id, league_id FROM tables")}
    assert by_guild == {9: club.league_id, 10: None}
    assert await store.member_ids(db, club.league_id) == [1, 2]
    league_rows = await standings(db, 9, league_id=club.league_id)
    assert [(s.player_id, s.net) for s in league_rows] == [(1, 25), (2, -25)]
    assert league_rows == await standings(db, 9)  # every game of the guild counted before, and still does
    assert await ledger.verify(db) == []
    # the old API still reads and writes the guild's first league
    assert (await get_league(db, 9)).timezone == "America/New_York"
    await set_league(db, 9, week_start=2)
    assert (await store.league_by_id(db, 9, club.league_id)).week_start == 2  # type: ignore[union-attr]


async def test_league_names_are_unique_per_guild_whatever_their_case(db: Database) -> None:
    first = await store.insert_league(db, 1, "Tuesday Night", "UTC", 0, 7, NOW)
    assert first is not None and first.created_by == 7
    assert await store.insert_league(db, 1, "tuesday   NIGHT", "UTC", 0, 7, NOW) is None
    other = await store.insert_league(db, 2, "Tuesday Night", "UTC", 0, 8, NOW)  # another guild: no clash
    assert other is not None and other.league_id != first.league_id
    assert await store.league_by_name(db, 1, "TUESDAY NIGHT") == first
    assert await store.league_by_id(db, 1, other.league_id) is None  # an id from another guild finds nothing


async def test_a_channel_belongs_to_one_league_and_the_first_channel_starts_the_posts(db: Database) -> None:
    one = await store.insert_league(db, 1, "One", "UTC", 0, None, NOW)
    two = await store.insert_league(db, 1, "Two", "UTC", 0, None, NOW)
    elsewhere = await store.insert_league(db, 2, "Three", "UTC", 0, None, NOW)
    assert one and two and elsewhere
    later = "2026-11-21T08:00:00.000+00:00"
    assert await store.set_channel(db, one, 100, later)
    assert not await store.set_channel(db, two, 100, later)  # taken in this guild
    assert await store.set_channel(db, elsewhere, 100, later)  # the same id in another guild is another channel
    one = await store.league_by_id(db, 1, one.league_id)
    assert one is not None and one.channel_id == 100 and one.posts_after == later
    assert await store.set_channel(db, one, 101, "2026-11-28T08:00:00.000+00:00")
    moved = await store.league_by_id(db, 1, one.league_id)
    assert moved is not None and moved.posts_after == later  # a league that had a channel keeps its weeks
    assert await store.league_by_channel(db, 1, [999, 101]) == moved
    assert [x.league_id for x in await store.leagues_with_channel(db)] == [one.league_id, elsewhere.league_id]


async def test_a_season_at_a_time_and_post_records(db: Database) -> None:
    league = await store.insert_league(db, 1, "One", "UTC", 0, None, NOW)
    assert league is not None
    assert await store.insert_season(db, league.league_id, "Spring", NOW) is not None
    assert await store.insert_season(db, league.league_id, "Summer", NOW) is None  # one open season at a time
    spring = await store.open_season(db, league.league_id)
    assert spring is not None
    await store.end_season(db, spring.season_id, "2026-12-01T00:00:00.000+00:00")
    assert await store.open_season(db, league.league_id) is None
    assert await store.insert_season(db, league.league_id, "spring", NOW) is None  # a name is used once
    assert await store.insert_season(db, league.league_id, "Summer", NOW) is not None
    await store.record_post(db, league.league_id, "2026-W47", "sending", NOW, channel_id=5, attempt=True)
    failed = await store.record_post(db, league.league_id, "2026-W47", "failed", NOW, error="gone",
                                     next_try_at="2026-11-20T12:05:00.000+00:00")
    assert (failed.status, failed.attempts, failed.channel_id, failed.last_error) == ("failed", 1, 5, "gone")
    posted = await store.record_post(db, league.league_id, "2026-W47", "posted", NOW, message_id=77)
    assert (posted.status, posted.message_id, posted.last_error, posted.next_try_at) == ("posted", 77, None, None)
    await store.record_post(db, league.league_id, "2027-W01", "empty", NOW)
    assert await store.last_week_handled(db, league.league_id) == "2027-W01"


async def test_a_statement_and_the_export_stay_in_their_guild_and_league(tmp_path: Path, open_db: OpenDb) -> None:
    path = tmp_path / "scoped.db"
    _old_database(path)
    db = await open_db(path)
    (club,) = await store.leagues_of(db, 9)
    total, count, latest = await ledger.player_statement(db, 9, 2)
    assert (total, count) == (-25, 1) and latest[0]["amount"] == -25
    assert (await ledger.player_statement(db, 10, 2))[:2] == (25, 1)  # the same player, the other guild
    assert (await ledger.player_statement(db, 9, 3))[:2] == (0, 0)
    assert (await ledger.player_statement(db, 9, 2, league_id=club.league_id))[:2] == (-25, 1)
    rows = await ledger.guild_postings(db, 9)
    assert {r[7] for r in rows} == {1, 2} and all(r[5] == "Club" for r in rows)
    await ledger.correct(db, 2, 10, [Transfer(0, 2, 1, 3, 5, "refund")], "oops")
    assert (await ledger.player_statement(db, 10, 3))[:2] == (-20, 2)  # lost 25, refunded 5
