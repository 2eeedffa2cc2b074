"""Corrections and tournament scoring through the league service (docs/rules.md, *Tournament scoring* and
*Corrections*): a night of games recorded at a physical table, scored by hand and by the league's scoring (total,
best N a week, an average with a minimum), a void as a correcting ledger transaction (the originals stay, the
ledger verifies), both in the standings' detail and the ledger's export with who and when; bad input refused with
one sentence and nothing stored."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.leagues import GUILD, OTHER, game_at
from support.service import OpenDb

from bot.engine.tournament import ScoringError
from bot.service.cards import load_card
from bot.service.clock import ManualClock
from bot.service.corrections import PhysicalGame, outcome_of_physical
from bot.service.errors import ErrorKind, TableError
from bot.service.leagues import LeagueRow, LeagueService, Standing, read_penalty
from bot.service.weekly import WeeklyPosts
from bot.store import ledger
from bot.store.db import Database

ANN, BEA, CY, DOT = 11, 12, 13, 14
SEATS = ((ANN, "Ann"), (BEA, "Bea"), (CY, "Cy"), (DOT, "Dot"))
ORGANISER = 99


@pytest.fixture
async def leagues(db_target: str, open_db: OpenDb) -> LeagueService:
    return LeagueService(await open_db(db_target), ManualClock(datetime(2026, 11, 18, 19, tzinfo=UTC)))


async def _night(leagues: LeagueService) -> tuple[list[int], LeagueRow]:
    """Four games at a physical table, hand-scored below (the practice card: 2468-1 is 25, like-2 40 concealed,
    sp-1 50 Singles & Pairs)."""
    league = await leagues.set_channel(await leagues.create(GUILD, "Club"), 70)
    league = await leagues.set_scoring(league, preset="tournament")
    games = [
        PhysicalGame(SEATS, winner=ANN, line="2468-1", thrower=BEA, exposures=2),  # Ann 25, Bea -20
        PhysicalGame(SEATS, winner=CY, line="like-2", jokerless=True),  # self-pick: Cy 40 + 10 + 20
        PhysicalGame(SEATS, dead=DOT),  # a wall game: 10 each, Dot's dead hand 0
        PhysicalGame(SEATS, winner=BEA, line="sp-1", thrower=DOT, jokerless=True),  # Bea 50 (no S&P bonus), Dot -10
    ]
    numbers = []
    for game in games:
        numbers.append(await leagues.corrections.record(league, game, ORGANISER, "Org"))
        assert isinstance(leagues.clock, ManualClock)
        leagues.clock.advance(600)
    return numbers, league


def _scores(rows: list[Standing]) -> dict[str, float]:
    return {row.name: row.value for row in rows}


async def test_a_hand_scored_night_of_recorded_games_in_tournament_points_and_in_chips(
        leagues: LeagueService) -> None:
    _, league = await _night(leagues)
    week = await leagues.week(league, leagues.week_of(league, None))
    assert _scores(week.rows) == {"Cy": 80, "Bea": 40, "Ann": 35, "Dot": -10}
    assert [row.name for row in week.rows] == ["Cy", "Bea", "Ann", "Dot"]
    # The chips the same games pay (SC1-SC3): Ann +100 -160 -50, Bea -50 -160 +200, Cy -25 +480 -50, Dot the rest.
    assert {row.name: row.net for row in week.rows} == {"Ann": -110, "Bea": -10, "Cy": 405, "Dot": -285}
    assert [(c.kind, c.made_by_name) for c in week.corrections] == [("recorded", "Org")] * 4
    assert await ledger.verify(leagues.db) == []


async def test_best_games_a_week_and_an_average_with_a_minimum(leagues: LeagueService) -> None:
    _, league = await _night(leagues)
    label = leagues.week_of(league, None)
    best = await leagues.set_scoring(league, rule="best", best=2)
    # Ann 25 0 10 0, Bea -20 0 10 50, Cy 0 70 10 0, Dot 0 0 0 -10: the best two of each.
    assert _scores((await leagues.week(best, label)).rows) == {"Ann": 35, "Bea": 60, "Cy": 80, "Dot": 0}
    average = await leagues.set_scoring(best, rule="average", minimum=5)
    season = await leagues.season(average, None, all_games=True)
    assert _scores(season.totals) == {"Ann": 8.75, "Bea": 10, "Cy": 20, "Dot": -2.5}
    assert not any(row.ranked for row in season.totals)  # 4 games each, 5 wanted
    met = await leagues.set_scoring(average, minimum=4)
    assert all(row.ranked for row in (await leagues.season(met, None, all_games=True)).totals)


async def test_chips_totals_stay_the_standings_they_were(leagues: LeagueService) -> None:
    league = await leagues.create(GUILD, "Club")
    await game_at(leagues.db, league.league_id, leagues.now(), winner=1, loser=2)
    rows = (await leagues.week(league, leagues.week_of(league, None))).rows
    assert [(row.name, row.net, row.value, row.score) for row in rows] == [("P1", 25, 25, None), ("P2", -25, -25, None)]


async def test_a_void_puts_the_chips_back_with_a_correcting_transaction_and_leaves_the_standings(
        leagues: LeagueService) -> None:
    numbers, league = await _night(leagues)
    voided = await leagues.corrections.void(GUILD, numbers[1], "  dealt   with 150 tiles ", ORGANISER, "Org")
    assert voided.game_id == numbers[1]
    week = await leagues.week(league, leagues.week_of(league, None))
    assert _scores(week.rows) == {"Ann": 35, "Bea": 40, "Cy": 10, "Dot": -10}
    assert {row.name: row.net for row in week.rows} == {"Ann": 50, "Bea": 150, "Cy": -75, "Dot": -125}
    void = [c for c in week.corrections if c.kind == "void"]
    assert [(c.game_id, c.reason, c.made_by_name) for c in void] == [(numbers[1], "dealt with 150 tiles", "Org")]
    # The original settlement stays; a correction beside it; every transaction still sums to zero.
    kinds = await leagues.db.fetchall("SELECT kind FROM ledger_transactions WHERE game_id = ? ORDER BY txn_id",
                                      (numbers[1],))
    assert [k[0] for k in kinds] == ["settlement", "correction"]
    assert await ledger.verify(leagues.db) == []
    with pytest.raises(TableError, match="voided already") as again:
        await leagues.corrections.void(GUILD, numbers[1], "twice", ORGANISER, "Org")
    assert again.value.kind == ErrorKind.EXISTS


async def test_the_ledger_export_shows_each_correction_with_who_and_when(leagues: LeagueService) -> None:
    numbers, league = await _night(leagues)
    await leagues.corrections.void(GUILD, numbers[2], "wrong table", ORGANISER, "Org")  # a wall game: no chips
    text, _ = await leagues.ledger_csv(GUILD, league)
    rows = list(csv.DictReader(io.StringIO(text)))
    recorded = {int(r["game_id"]) for r in rows if r["correction"] == "recorded"}
    assert recorded == set(numbers)
    (void,) = [r for r in rows if r["correction"] == "void"]
    assert (int(void["game_id"]), void["made_by"], void["made_by_name"], void["correction_reason"]) == \
        (numbers[2], str(ORGANISER), "Org", "wrong table")
    assert void["account"] == ""  # a wall game moved no chips: the void is a line of its own
    assert datetime.fromisoformat(void["made_at"]) == leagues.now()


async def _count(db: Database) -> tuple[int, int, int]:
    games = await db.fetchval("SELECT COUNT(*) FROM games")
    txns = await db.fetchval("SELECT COUNT(*) FROM ledger_transactions")
    fixes = await db.fetchval("SELECT COUNT(*) FROM game_corrections")
    return int(games), int(txns), int(fixes)


@pytest.mark.parametrize(("game", "message"), [
    (PhysicalGame(SEATS[:2], winner=ANN, line="2468-1"), "3 or 4 different players"),
    (PhysicalGame((*SEATS[:3], (ANN, "Ann")), winner=ANN, line="2468-1"), "3 or 4 different players"),
    (PhysicalGame(SEATS, winner=77, line="2468-1"), "The winner must be one of the game's players"),
    (PhysicalGame(SEATS, winner=ANN, line="2468-1", thrower=ANN), "never the winner"),
    (PhysicalGame(SEATS, winner=ANN), "Name the winning line"),
    (PhysicalGame(SEATS, winner=ANN, line="9999-9"), "has no line '9999-9'"),
    (PhysicalGame(SEATS, winner=ANN, line="like-2", exposures=1), "concealed line"),
    (PhysicalGame(SEATS, winner=ANN, line="2468-1", exposures=5), "0 to 4 exposures"),
    (PhysicalGame(SEATS, line="2468-1"), "A wall game has no winner"),
    (PhysicalGame(SEATS, winner=ANN, line="2468-1", dead=ANN), "cannot be dead"),
    (PhysicalGame(SEATS, winner=ANN, line="2468-1", card="nope"), "There is no card 'nope'"),
])
async def test_a_malformed_recorded_game_is_one_sentence_and_nothing_stored(
        leagues: LeagueService, game: PhysicalGame, message: str) -> None:
    league = await leagues.set_channel(await leagues.create(GUILD, "Club"), 70)
    before = await _count(leagues.db)
    with pytest.raises(TableError, match=message) as refused:
        await leagues.corrections.record(league, game, ORGANISER, "Org")
    assert refused.value.kind == ErrorKind.BAD_INPUT and refused.value.message.count(". ") <= 1
    assert await _count(leagues.db) == before


async def test_a_void_of_another_servers_game_or_an_unfinished_one_is_refused(leagues: LeagueService) -> None:
    numbers, _ = await _night(leagues)
    before = await _count(leagues.db)
    with pytest.raises(TableError, match=f"This server has no game {numbers[0]}"):
        await leagues.corrections.void(OTHER, numbers[0], "not mine", ORGANISER, "Org")
    with pytest.raises(TableError, match="This server has no game 999"):
        await leagues.corrections.void(GUILD, 999, "no such game", ORGANISER, "Org")
    with pytest.raises(TableError, match="reason of 1 to 200"):
        await leagues.corrections.void(GUILD, numbers[0], "   ", ORGANISER, "Org")
    async with leagues.db.transaction() as conn:
        await conn.execute("UPDATE games SET ended_at = NULL, how = 'abandoned' WHERE game_id = ?", (numbers[3],))
    with pytest.raises(TableError, match="has not ended"):
        await leagues.corrections.void(GUILD, numbers[3], "abandoned", ORGANISER, "Org")
    assert await _count(leagues.db) == before


@pytest.mark.parametrize(("settings", "message"), [
    ({"preset": "nope"}, "Unknown preset 'nope'"),
    ({"unit": "dollars"}, "chips or tournament points"),
    ({"rule": "median"}, "total, best or average"),
    ({"best": 0}, "counts 1 to 50 games"),
    ({"minimum": 0}, "minimum of 1 to 500"),
    ({"self_pick": -5}, "from 0 to 1000"),
    ({"throw_penalty": "10 20"}, "four whole numbers"),
])
async def test_bad_scoring_settings_are_one_sentence_and_nothing_changes(
        leagues: LeagueService, settings: dict[str, object], message: str) -> None:
    league = await leagues.create(GUILD, "Club")
    with pytest.raises(TableError, match=message):
        await leagues.set_scoring(league, **settings)  # type: ignore[arg-type]
    assert (await leagues.find(GUILD, "Club")).scoring == league.scoring


async def test_scoring_numbers_change_one_at_a_time_and_make_the_preset_custom(leagues: LeagueService) -> None:
    league = await leagues.set_scoring(await leagues.create(GUILD, "Club"), preset="mahjcon")
    assert (league.scoring.unit, league.scoring.tournament.preset) == ("tournament", "mahjcon")
    custom = await leagues.set_scoring(league, wall=5, throw_penalty="5, 5, 15, 20")
    assert custom.scoring.tournament.throw_penalty == (5, 5, 15, 20)
    assert (custom.scoring.tournament.wall, custom.scoring.tournament.preset) == (5, "custom")
    assert "custom numbers" in custom.scoring.describe()
    back = await leagues.set_scoring(custom, unit="chips")
    assert back.scoring.unit == "chips" and back.scoring.tournament == custom.scoring.tournament


async def test_the_weekly_post_carries_the_weeks_corrections(leagues: LeagueService) -> None:
    numbers, _ = await _night(leagues)
    await leagues.corrections.void(GUILD, numbers[0], "wrong seats", ORGANISER, "Org")
    assert isinstance(leagues.clock, ManualClock)
    leagues.clock.advance(8 * 86400)  # the week is over
    (job,) = await WeeklyPosts(leagues.db, leagues.clock).due()
    assert [(c.game_id, c.kind) for c in job.corrections] == [*((n, "recorded") for n in numbers),
                                                              (numbers[0], "void")]  # in the order made
    assert {row.name: row.value for row in job.rows} == {"Ann": 10, "Bea": 60, "Cy": 80, "Dot": -10}


PEOPLE_IDS = st.sampled_from([ANN, BEA, CY, DOT, 77])


@given(players=st.lists(PEOPLE_IDS, min_size=0, max_size=5), winner=st.none() | PEOPLE_IDS,
       line=st.none() | st.sampled_from(["2468-1", "like-2", "sp-1", "", "nope", "2468-1 "]) | st.text(max_size=8),
       thrower=st.none() | PEOPLE_IDS, jokerless=st.booleans(), exposures=st.integers(-3, 7),
       dead=st.none() | PEOPLE_IDS)
@settings(max_examples=120, deadline=None)
def test_any_recorded_game_is_an_outcome_or_one_sentence(players: list[int], winner: int | None, line: str | None,
                                                          thrower: int | None, jokerless: bool, exposures: int,
                                                          dead: int | None) -> None:
    game = PhysicalGame(tuple((p, f"P{p}") for p in players), winner, line, thrower, jokerless, exposures, dead)
    try:
        outcome, found = outcome_of_physical(game, load_card("practice"))
    except TableError as refused:
        assert refused.kind == ErrorKind.BAD_INPUT and refused.message.endswith((".", ")"))
        return
    assert len(outcome.seats) == len(players) in (3, 4)
    if winner is None:
        assert outcome.how == "wall" and found is None
    else:
        assert found is not None and outcome.value == found.value and outcome.winner == players.index(winner)
        assert outcome.self_pick == (thrower is None) and 0 <= outcome.exposures <= 4


@given(st.text(max_size=30) | st.lists(st.text(alphabet="0123456789²٣-, ", min_size=1, max_size=6), min_size=4,
                                         max_size=4).map(" ".join))
@settings(max_examples=200)
def test_any_typed_thrower_penalty_is_four_numbers_or_one_sentence(text: str) -> None:
    try:
        penalty = read_penalty(text)
    except ScoringError as refused:
        assert "four whole numbers" in str(refused)
        return
    assert len(penalty) == 4 and all(isinstance(n, int) for n in penalty)
