"""The league service without Discord: finding the league a command means, names and time zones checked,
seasons and their standings, players joining with their first game at a league table."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support.leagues import GUILD, OTHER, game_at
from support.service import ALICE, OpenDb, human_table, move_people

from bot.engine.rules import table_rules
from bot.service.clock import ManualClock
from bot.service.errors import ErrorKind, TableError
from bot.service.leagues import LeagueService
from bot.service.tables import TableService
from bot.store import leagues as store


@pytest.fixture
async def leagues(db_target: str, open_db: OpenDb) -> LeagueService:
    return LeagueService(await open_db(db_target), ManualClock(datetime(2026, 11, 18, 12, tzinfo=UTC)))


async def test_the_league_a_command_means(leagues: LeagueService) -> None:
    with pytest.raises(TableError, match="no league yet") as none:
        await leagues.find(GUILD, None)
    assert none.value.kind == ErrorKind.NO_LEAGUE
    monday = await leagues.create(GUILD, "Monday", by=1)
    assert await leagues.find(GUILD, None) == monday  # the only one
    friday = await leagues.create(GUILD, "Friday")
    await leagues.create(OTHER, "Sunday")
    with pytest.raises(TableError, match=re.escape("Choose a league with the league option: Monday, Friday.")):
        await leagues.find(GUILD, None)
    friday = await leagues.set_channel(friday, 40)
    assert await leagues.find(GUILD, None, [41, 40]) == friday  # a table's thread (41) under Friday's channel
    assert await leagues.find(GUILD, "  MONDAY ") == monday
    with pytest.raises(TableError, match="no league named 'Sunday' in this server"):
        await leagues.find(GUILD, "Sunday")  # another server's league
    assert await leagues.for_new_table(GUILD, None, [99]) is None  # no league here: the table counts for none
    assert await leagues.names(GUILD) == ["Monday", "Friday"]


@pytest.mark.parametrize(("name", "options", "message"), [
    ("", {}, "1 to 40 characters"),
    ("x" * 41, {}, "1 to 40 characters"),
    ("<@123>", {}, "without @"),
    ("Club", {"timezone": "Mars/Olympus"}, "Unknown time zone 'Mars/Olympus'"),
    ("Club", {"timezone": "../etc"}, "Unknown time zone"),
    ("Club", {"week_start": 7}, "from Monday to Sunday"),
])
async def test_bad_league_settings_are_refused(leagues: LeagueService, name: str, options: dict[str, object],
                                               message: str) -> None:
    with pytest.raises(TableError, match=message):
        await leagues.create(GUILD, name, **options)  # type: ignore[arg-type]
    assert await leagues.leagues(GUILD) == []


async def test_seasons_count_the_games_between_their_start_and_end(leagues: LeagueService) -> None:
    clock = leagues.clock
    assert isinstance(clock, ManualClock)
    league = await leagues.create(GUILD, "Club", timezone="America/New_York")
    before = clock.now()
    await game_at(leagues.db, league.league_id, before - timedelta(hours=1), winner=1, loser=2)
    await leagues.start_season(league, "Autumn")
    with pytest.raises(TableError, match="still running"):
        await leagues.start_season(league, "Winter")
    clock.advance(3600)
    await game_at(leagues.db, league.league_id, clock.now(), winner=2, loser=1)
    await game_at(leagues.db, league.league_id, clock.now(), winner=2, loser=3)
    await game_at(leagues.db, None, clock.now(), winner=3, loser=2)  # not a league table
    clock.advance(8 * 86400)
    await game_at(leagues.db, league.league_id, clock.now(), winner=3, loser=1)
    clock.advance(3600)
    assert (await leagues.end_season(league)).name == "Autumn"
    with pytest.raises(TableError, match="no season running"):
        await leagues.end_season(league)
    await game_at(leagues.db, league.league_id, clock.now() + timedelta(minutes=1), winner=1, loser=3)
    with pytest.raises(TableError, match="already had a season named 'Autumn'"):
        await leagues.start_season(league, "autumn")

    autumn = await leagues.season(league, "Autumn")
    assert {s.player_id: s.net for s in autumn.totals} == {1: -50, 2: 50, 3: 0}
    assert [label for label, _ in autumn.weeks] == ["2026-W47", "2026-W48"]
    assert sum(s.games for _, rows in autumn.weeks for s in rows) == sum(s.games for s in autumn.totals)
    everything = await leagues.season(league, None, all_games=True)
    assert {s.player_id: s.net for s in everything.totals} == {1: 0, 2: 25, 3: -25}
    with pytest.raises(TableError, match=re.escape("no season named 'Spring'. Seasons: Autumn.")):
        await leagues.season(league, "Spring")


async def test_weeks_typed_and_suggested(leagues: LeagueService) -> None:
    league = await leagues.create(GUILD, "Club", week_start=6)  # Sunday weeks
    assert leagues.week_of(league, None) == "2026-W47"  # Wednesday 18 November 2026
    assert leagues.week_of(league, " 2026-w40 ") == "2026-W40"
    with pytest.raises(TableError, match="like 23 Nov 2026"):
        leagues.week_of(league, "last week")
    with pytest.raises(TableError, match="2026 has no week 60"):
        leagues.week_of(league, "2026-W60")
    assert leagues.recent_weeks(league, 3) == ["2026-W47", "2026-W46", "2026-W45"]
    # Weeks as people say them: the day the week starts (a Sunday here), and any day in it read back.
    assert leagues.week_choices(league, 2) == [("week of 15 Nov 2026", "2026-W47"), ("week of 8 Nov 2026", "2026-W46")]
    for typed in ("week of 15 Nov 2026", "18 November 2026", "Nov 21, 2026", "2026-11-15"):
        assert leagues.week_of(league, typed) == "2026-W47", typed
    assert leagues.week_of(league, "14 Nov 2026") == "2026-W46"  # the Saturday before: the week before


async def test_a_server_without_a_league_has_standings(tmp_path: Path, open_db: OpenDb) -> None:
    """/standings where no league was made: the server's games, weeks from Monday in UTC, as the command line."""
    db = await open_db(tmp_path / "server.db")
    tables = TableService(db, clock=ManualClock(), computer_delay=0)
    leagues = LeagueService(db, tables.clock)
    table_id = await human_table(tables, [ALICE], seed=5, charleston=False)
    await tables.start(table_id)
    while tables.tables[table_id].playing:
        assert await move_people(tables, table_id)
    assert await leagues.leagues(5) == []
    week = await leagues.server_week(5)
    assert week.name == "week of 2 Nov 2026" and week.label == "2026-W45"  # the service clock's Monday 2 Nov
    ended = datetime.now(UTC).date()  # games are stamped with the wall clock when they end
    this_week = await leagues.server_week(5, ended.isoformat())
    assert [r.player_id for r in this_week.rows] == [ALICE] and this_week.rows[0].games == 1
    totals = await leagues.server_totals(5)
    assert totals.name == "all games" and totals.rows == this_week.rows
    # Suggestions name the server's weeks as people say them; each value reads back as its week
    choices = await leagues.server_week_choices(5, 2)
    assert choices == [("week of 2 Nov 2026", "2026-W45"), ("week of 26 Oct 2026", "2026-W44")]
    assert (await leagues.server_week(5, choices[1][0])).label == "2026-W44"
    with pytest.raises(TableError, match="is not a week"):
        await leagues.server_week(5, "someday")


async def test_players_join_with_their_first_game_at_a_league_table(db_target: str, open_db: OpenDb) -> None:
    db = await open_db(db_target)
    tables = TableService(db, clock=ManualClock(), computer_delay=0)
    leagues = LeagueService(db, tables.clock)
    leagues.watch(tables)
    club = await leagues.create(GUILD, "Club")
    quiet = await leagues.create(GUILD, "Quiet")
    await leagues.set_auto_join(quiet, False)
    for league, player in ((club, 11), (quiet, 12), (None, 13)):
        table = (await tables.create_table(GUILD, 1, seed=3, rules=table_rules())).table_id
        if league is not None:
            await leagues.attach_table(table, league)
        await tables.join(table, player, f"P{player}", 0)
        for seat in (1, 2, 3):
            await tables.add_computer(table, "random", seat)
        await tables.start(table)
        await tables.drain()
    assert await store.member_ids(db, club.league_id) == [11]
    assert await store.member_ids(db, quiet.league_id) == []
    assert await leagues.join(quiet, 12) and not await leagues.join(quiet, 12)
    await leagues.leave(quiet, 12)
    with pytest.raises(TableError, match="not a member of Quiet"):
        await leagues.leave(quiet, 12)
    await tables.close()
