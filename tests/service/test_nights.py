"""League nights without Discord (docs/rules.md, *League nights*): scheduling checked (a time in the past, zero
rounds, ...: one sentence, nothing stored), sign-ups until registration closes and latecomers after, the reminders,
the tables made at the start (random seats, East drawn, computers or tables of three for a remainder), rounds
played and everyone reseated apart from those already met, a restart mid-round, and the results scored as the
league scores."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.leagues import GUILD, OTHER
from support.service import OpenDb

from bot.engine.tournament import PRESETS, game_points, outcome_of
from bot.service.clock import ManualClock
from bot.service.errors import ErrorKind, TableError
from bot.service.leagues import LeagueRow, LeagueService
from bot.service.nights import PAUSE, NightJob, NightResults, Nights
from bot.service.nightwhen import read_when
from bot.service.seating import repeats, seat_round, table_sizes
from bot.service.tables import TableService
from bot.service.updates import TableStatus
from bot.store import ledger
from bot.store.db import Database

START = datetime(2026, 11, 18, 12, tzinfo=UTC)
PEOPLE = list(range(101, 110))  # nine people


def test_table_sizes_for_a_remainder_of_computers_or_tables_of_three() -> None:
    assert table_sizes(9, "computers") == [(4, 4), (4, 4), (1, 4)]
    assert table_sizes(9, "three") == [(3, 3), (3, 3), (3, 3)]
    assert table_sizes(10, "three") == [(4, 4), (3, 3), (3, 3)]
    assert table_sizes(8, "three") == [(4, 4), (4, 4)]
    assert table_sizes(5, "three") == [(4, 4), (1, 4)]  # 5 cannot be split into 3s and 4s: a computer table
    assert table_sizes(2, "three") == [(2, 4)]
    assert table_sizes(0, "computers") == []


def test_reseating_keeps_those_who_have_met_apart_where_it_can() -> None:
    first = seat_round(list(range(16)), "computers", 5, 1)
    assert sorted(p for t in first for p in t.people) == list(range(16))
    assert all(0 <= t.east < len(t.seats) for t in first)
    met: dict[tuple[int, int], int] = {}
    for table in first:
        people = sorted(table.people)
        for n, a in enumerate(people):
            for b in people[n + 1:]:
                met[(a, b)] = 1
    second = seat_round(list(range(16)), "computers", 5, 2, met)
    assert repeats([t.people for t in second], met) == 0  # 16 people in 4 tables: a round with nobody met again
    assert seat_round(list(range(16)), "computers", 5, 2, met) == second  # the same seed seats the same way


@given(st.text(max_size=60))
def test_any_typed_time_is_a_moment_or_one_sentence(text: str) -> None:
    try:
        moment = read_when(text, ZoneInfo("America/New_York"), START)
    except TableError as refused:
        assert refused.kind == ErrorKind.BAD_INPUT and "like 2026-12-02 19:00" in refused.message
    else:
        assert moment.tzinfo is not None


@pytest.mark.parametrize(("typed", "wanted"), [
    ("2026-12-02 19:00", datetime(2026, 12, 2, 19, 0)),
    ("2 Dec 2026 7pm", datetime(2026, 12, 2, 19, 0)),
    ("Dec 2, 2026 7:30 pm", datetime(2026, 12, 2, 19, 30)),
    ("2 dec 12am", datetime(2026, 12, 2, 0, 0)),
    ("1 Jan 09:15", datetime(2027, 1, 1, 9, 15)),  # no year: the next 1 January
])
def test_times_are_read_as_organisers_type_them(typed: str, wanted: datetime) -> None:
    zone = ZoneInfo("America/New_York")
    assert read_when(typed, zone, START) == wanted.replace(tzinfo=zone)


class Night:
    """A league, its tables and nights on one database and a manual clock; :meth:`restart` makes new services over
    the same database, as a restarted bot does."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.clock = ManualClock(START)
        self._make()

    def _make(self) -> None:
        self.tables = TableService(self.db, clock=self.clock, computer_delay=0)
        self.leagues = LeagueService(self.db, self.clock)
        self.leagues.watch(self.tables)
        self.nights = Nights(self.db, self.clock, self.tables, self.leagues)

    async def restart(self) -> None:
        """As after a crash: the old services dropped (nothing saved on the way out), new ones restored."""
        await self.tables.hub.close()
        self._make()
        await self.tables.restore()

    def at(self, moment: datetime) -> None:
        """Move the clock to ``moment``."""
        self.clock.advance((moment - self.clock.now()).total_seconds())

    async def tick(self) -> list[NightJob]:
        """A tick, the Discord layer's part done as the bot does it (each opened table dealt)."""
        jobs = await self.nights.tick()
        for job in jobs:
            for table in job.tables:
                await self.nights.deal(table.night_id, table.round, table.table_no)
        return jobs

    async def finish_round(self, round_no: int, night_id: int) -> None:
        """Everyone steps away (a computer plays her seat) and the computers finish every game of the round."""
        view = await self.nights.view(night_id)
        ids = [t.table_id for t in view.round_tables(round_no) if t.table_id is not None]
        for table_id in ids:
            for seat in self.tables.view(table_id).seats:
                if seat.player_id is not None and not seat.away and self.tables.view(table_id).status == \
                        TableStatus.PLAYING:
                    await self.tables.leave(table_id, seat.player_id)
        for _ in range(5000):
            if all(self.tables.view(t).status != TableStatus.PLAYING for t in ids if self.tables.is_open(t)):
                return
            self.clock.advance(1)
            await self.tables.tick()
        raise AssertionError("the round never ended")


@pytest.fixture
async def night(db_target: str, open_db: OpenDb) -> Night:
    return Night(await open_db(db_target))


async def _league(night: Night) -> LeagueRow:
    league = await night.leagues.set_channel(await night.leagues.create(GUILD, "Club"), 70)
    return await night.leagues.set_scoring(league, preset="tournament")


@pytest.mark.parametrize(("options", "message"), [
    ({"when": "2026-11-18 11:00"}, "has passed in UTC"),
    ({"when": "next tuesday"}, "not a date and time I can read"),
    ({"rounds": 0}, "1 to 12 rounds"),
    ({"games": None}, "one of the two"),
    ({"games": 2, "minutes": 60}, "one of the two"),
    ({"games": 0}, "1 to 16 games"),
    ({"games": None, "minutes": 5}, "10 to 300 minutes"),
])
async def test_a_bad_night_is_one_sentence_and_nothing_stored(night: Night, options: dict[str, object],
                                                              message: str) -> None:
    league = await _league(night)
    asked: dict[str, object] = {"when": "2026-11-18 19:00", "rounds": 2, "games": 1, "minutes": None,
                                "remainder": "computers", "absent": "counts", "close_minutes": 10,
                                "computer_delay": 0.0, "by": 1} | options
    with pytest.raises(TableError, match=message) as refused:
        await night.nights.schedule(league, **asked)  # type: ignore[arg-type]
    assert refused.value.kind == ErrorKind.BAD_INPUT
    assert await night.db.fetchval("SELECT COUNT(*) FROM nights") == 0


async def test_a_night_needs_the_leagues_channel(night: Night) -> None:
    league = await night.leagues.create(GUILD, "Roaming")
    with pytest.raises(TableError, match="has no channel yet"):
        await night.nights.schedule(league, when="2026-11-18 19:00", rounds=2, games=1, minutes=None,
                                    remainder="computers", absent="counts", close_minutes=10, computer_delay=0.0,
                                    by=1)
    assert await night.db.fetchval("SELECT COUNT(*) FROM nights") == 0


@pytest.mark.slow
async def test_a_night_of_nine_two_rounds_a_latecomer_and_a_restart(night: Night) -> None:
    league = await _league(night)
    view = await night.nights.schedule(league, when="18 Nov 2026 7pm", rounds=2, games=1, minutes=None,
                                       remainder="computers", absent="counts", close_minutes=10,
                                       computer_delay=0.0, by=1)
    night_id = view.night.night_id
    assert view.night.starts_at.startswith("2026-11-18T19:00") and view.night.closes_at.startswith("2026-11-18T18:50")
    for player in PEOPLE:
        await night.nights.answer(GUILD, night_id, player, f"P{player}", True)
    await night.nights.answer(GUILD, night_id, 120, "Nope", False)
    await night.nights.answer(GUILD, night_id, PEOPLE[0], "P101", False)  # changes her mind ...
    await night.nights.answer(GUILD, night_id, PEOPLE[0], "P101", True)  # ... and back
    with pytest.raises(TableError, match="no longer here"):
        await night.nights.answer(OTHER, night_id, 5, "Elsewhere", True)
    assert len((await night.nights.view(night_id)).coming) == 9
    assert await night.tick() == []  # nothing due yet

    night.at(datetime(2026, 11, 18, 18, 51, tzinfo=UTC))
    jobs = await night.tick()
    assert [j.kind for j in jobs] == ["refresh", "remind"] and sorted(jobs[1].players) == PEOPLE
    assert await night.tick() == []  # reminded once
    late = await night.nights.answer(GUILD, night_id, 150, "Late", True)  # after registration closed
    assert next(s for s in late.coming if s.player_id == 150).from_round == 2

    night.at(datetime(2026, 11, 18, 19, 0, 1, tzinfo=UTC))
    jobs = await night.tick()
    assert [len(j.tables) for j in jobs if j.kind == "open"] == [3]
    round_one = (await night.nights.view(night_id)).round_tables(1)
    assert sorted(sum(p is not None for p in t.seats) for t in round_one) == [1, 4, 4]
    assert 150 not in [p for t in round_one for p in t.seats]  # the latecomer waits for round 2
    for table in round_one:
        assert table.table_id is not None
        seen = night.tables.view(table.table_id)
        assert seen.status == TableStatus.PLAYING
        assert [s.player_id for s in seen.seats] == list(table.seats)
        assert seen.game is not None and seen.game.east == table.east  # East as drawn

    await night.finish_round(1, night_id)
    await night.tick()  # the tables note their games; the round is done
    await night.tick()
    round_two = (await night.nights.view(night_id)).round_tables(2)
    assert sorted(sum(p is not None for p in t.seats) for t in round_two) == [2, 4, 4]  # ten now, the latecomer in
    assert 150 in [p for t in round_two for p in t.seats]
    with pytest.raises(TableError, match="The last round has begun") as full:
        await night.nights.answer(GUILD, night_id, 160, "Too late", True)
    assert full.value.kind == ErrorKind.CONFLICT
    again = await night.nights.answer(GUILD, night_id, PEOPLE[1], "P102", True)  # pressed twice: nothing changes
    assert next(s for s in again.coming if s.player_id == PEOPLE[1]).from_round == 1
    assert all(not night.tables.is_open(t.table_id) for t in round_one if t.table_id)  # round 1's tables closed

    await night.restart()  # mid-round
    await night.finish_round(2, night_id)
    found = []
    for _ in range(3):
        found = [j.results for j in await night.tick() if j.kind == "results"]
        if found:
            break
    (results,) = found
    assert results is not None and results.games == 6
    people = {row.player_id for row in results.rows}
    assert people == {*PEOPLE, 150}
    # The league scores tournament points: each game's, from its final state, by the player in each seat.
    wanted: dict[int, int] = dict.fromkeys(people, 0)
    for game_id, state in await night.db.fetchall("SELECT game_id, state FROM snapshots"):
        outcome = outcome_of(json.loads(state))
        assert outcome is not None
        seats = dict(await night.db.fetchall("SELECT seat, player_id FROM game_seats WHERE game_id = ?", (game_id,)))
        for seat, points in game_points(outcome, PRESETS["tournament"].scoring).items():
            if seats.get(seat) is not None:
                wanted[seats[seat]] += points
    assert {row.player_id: row.value for row in results.rows} == wanted
    assert sum(row.games for row in results.rows) == 4 + 4 + 1 + 4 + 4 + 2
    await night.nights.results_posted(night_id, 999)
    assert [j for j in await night.tick() if j.kind == "results"] == []
    assert (await night.nights.view(night_id)).night.status == "finished"
    assert await ledger.verify(night.db) == []


@pytest.mark.slow
async def test_tables_of_three_and_absent_players_scoring_zero(night: Night) -> None:
    """Six people at tables of three; nobody plays, so at every seat a computer stands in once her time runs out
    (as at any table), and the night's rule scores such games 0 tournament points for her; the chips are settled."""
    league = await _league(night)
    view = await night.nights.schedule(league, when="18 Nov 2026 13:00", rounds=1, games=1, minutes=None,
                                       remainder="three", absent="zero", close_minutes=0, computer_delay=0.0, by=1)
    night_id = view.night.night_id
    for player in PEOPLE[:6]:
        await night.nights.answer(GUILD, night_id, player, f"P{player}", True)
    night.at(datetime(2026, 11, 18, 13, 0, 1, tzinfo=UTC))
    await night.tick()
    await night.tick()
    tables = (await night.nights.view(night_id)).round_tables(1)
    assert [len(t.seats) for t in tables] == [3, 3] and all(None not in t.seats for t in tables)
    for table in tables:
        assert table.table_id is not None and len(night.tables.view(table.table_id).seats) >= 3
    for _ in range(3000):  # nobody moves: each person's time runs out and a computer plays her seat
        if all(night.tables.view(t.table_id).status != TableStatus.PLAYING for t in tables if t.table_id):
            break
        night.clock.advance(2)
        await night.tables.tick()
    else:
        raise AssertionError("the games never ended")
    found = []
    for _ in range(3):
        found = [j.results for j in await night.tick() if j.kind == "results"]
        if found:
            break
    (results,) = found
    assert results is not None and results.games == 2
    assert {row.player_id: row.value for row in results.rows} == dict.fromkeys(PEOPLE[:6], 0)
    away = await night.db.fetchval("SELECT COUNT(*) FROM night_away")
    assert away == 6


async def _results_after(night: Night, night_id: int, tries: int = 3) -> NightResults:
    for _ in range(tries):
        found = [j.results for j in await night.tick() if j.kind == "results"]
        if found:
            assert found[0] is not None
            return found[0]
    raise AssertionError("no results")


@pytest.mark.slow
async def test_a_round_of_two_games_deals_again_after_a_pause(night: Night) -> None:
    league = await _league(night)
    view = await night.nights.schedule(league, when="18 Nov 2026 13:00", rounds=1, games=2, minutes=None,
                                       remainder="computers", absent="counts", close_minutes=0, computer_delay=0.0,
                                       by=1)
    night_id = view.night.night_id
    for player in PEOPLE[:4]:
        await night.nights.answer(GUILD, night_id, player, f"P{player}", True)
    night.at(datetime(2026, 11, 18, 13, 0, 1, tzinfo=UTC))
    await night.tick()
    await night.finish_round(1, night_id)
    (table,) = (await night.nights.view(night_id)).round_tables(1)
    assert table.table_id is not None
    await night.tick()  # the first game is over: the next is dealt after a pause, not at once
    assert night.tables.view(table.table_id).status == TableStatus.OPEN
    night.clock.advance(PAUSE + 1)
    await night.tick()
    assert night.tables.view(table.table_id).status == TableStatus.PLAYING
    assert night.tables.view(table.table_id).games_played == 2  # the second game is dealt
    await night.finish_round(1, night_id)
    results = await _results_after(night, night_id)
    assert results.games == 2


@pytest.mark.slow
async def test_a_round_of_minutes_deals_no_game_after_its_time(night: Night) -> None:
    league = await _league(night)
    view = await night.nights.schedule(league, when="18 Nov 2026 13:00", rounds=1, games=None, minutes=10,
                                       remainder="computers", absent="counts", close_minutes=0, computer_delay=0.0,
                                       by=1)
    night_id = view.night.night_id
    for player in PEOPLE[:4]:
        await night.nights.answer(GUILD, night_id, player, f"P{player}", True)
    night.at(datetime(2026, 11, 18, 13, 0, 1, tzinfo=UTC))
    await night.tick()
    (table,) = (await night.nights.view(night_id)).round_tables(1)
    night.clock.advance(11 * 60)  # the round's time is up while its first game is under way ...
    await night.tick()
    assert table.table_id is not None and night.tables.view(table.table_id).status == TableStatus.PLAYING
    await night.finish_round(1, night_id)  # ... which is played to the end, and no other is dealt
    results = await _results_after(night, night_id)
    assert results.games == 1
    assert (await night.nights.view(night_id)).night.status == "finished"
