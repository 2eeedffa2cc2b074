"""The database commands: ledger verify, standings, tables list/resume, backup, simulate and demo with --db."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.cli import main
from bot.service.clock import ManualClock
from bot.service.corrections import PhysicalGame
from bot.service.leagues import LeagueService
from bot.service.tables import TableService
from bot.store.db import Database

GUILD = 77


async def league_with_games(path: Path, games: int) -> None:
    """Two human players and two computers play ``games`` games; the humans step away at once, so computers
    finish each hand for them (their chips still count)."""
    db = await Database.open(path)
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = (await service.create_table(GUILD, 1, seed=5)).table_id
    await service.join(table_id, 11, "Ruth", seat=0)
    await service.join(table_id, 12, "Sadie", seat=1)
    await service.add_computer(table_id, "normal", 2)
    await service.add_computer(table_id, "normal", 3)
    for _ in range(games):
        await service.start(table_id)
        await service.leave(table_id, 11)
        await service.leave(table_id, 12)
    await db.close()


@pytest.mark.slow
def test_simulate_db_then_ledger_verify_and_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sim.db"
    assert main(["simulate", "--games", "3", "--seed", "4", "--db", str(path), "--json"]) == 0
    recorded = json.loads(capsys.readouterr().out)
    assert main(["simulate", "--games", "3", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wins_by_seat"] == recorded["wins_by_seat"]
    assert main(["ledger", "verify", "--db", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "ok"
    assert main(["tables", "list", "--db", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []  # simulation tables close after their game
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games WHERE ended_at IS NOT NULL").fetchone()[0] == 3


def test_ledger_verify_lists_problems_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.db"
    assert main(["simulate", "--games", "1", "--seed", "4", "--db", str(path)]) == 0
    capsys.readouterr()
    with sqlite3.connect(path) as conn:  # someone removes a settlement by hand (a damaged file)
        conn.execute("DROP TRIGGER ledger_postings_undeletable")
        conn.execute("DROP TRIGGER ledger_transactions_undeletable")
        conn.execute("DELETE FROM ledger_postings")
        conn.execute("DELETE FROM ledger_transactions")
    assert main(["ledger", "verify", "--db", str(path)]) == 1
    assert "has ended but has no settlement" in capsys.readouterr().out


@pytest.mark.slow
def test_standings_json_csv_and_week(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "league.db"
    asyncio.run(league_with_games(path, 3))
    assert main(["standings", "--db", str(path), "--guild", str(GUILD), "--all-time", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    players = {row["player_id"]: row for row in report["standings"]}
    assert set(players) == {11, 12} and all(row["games"] == 3 for row in players.values())
    assert set(report["standings"][0]) == {"player_id", "name", "net", "games", "wins", "mahjong_rate",
                                           "self_picks", "jokerless_wins"}
    with sqlite3.connect(path) as conn:
        net_11 = conn.execute("SELECT COALESCE(SUM(amount), 0) FROM ledger_postings WHERE player_id = 11").fetchone()
    assert players[11]["net"] == net_11[0]
    # this week's standings hold the same games (they all ended just now)
    assert main(["standings", "--db", str(path), "--guild", str(GUILD), "--json"]) == 0
    week = json.loads(capsys.readouterr().out)
    assert {r["player_id"]: r["games"] for r in week["standings"]} == {11: 3, 12: 3}
    assert main(["standings", "--db", str(path), "--guild", str(GUILD), "--week", "2001-W05", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["standings"] == []
    assert main(["standings", "--db", str(path), "--guild", str(GUILD), "--all-time", "--csv"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[0][:4] == ["rank", "player_id", "name", "net"] and len(table) == 3


def test_standings_rejects_a_bad_week(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "league.db"
    asyncio.run(league_with_games(path, 1))
    assert main(["standings", "--db", str(path), "--week", "week 5"]) == 2
    assert "like 23 Nov 2026" in capsys.readouterr().err


def test_tables_resume_finishes_computer_tables_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "resume.db"

    async def leave_two_unfinished() -> None:
        db = await Database.open(path)
        clock = ManualClock()
        service = TableService(db, clock=clock, computer_delay=1.5)
        computers = (await service.create_table(GUILD, 1, seed=9)).table_id
        for _ in range(4):
            await service.add_computer(computers, "easy")
        await service.start(computers)
        for _ in range(2):  # the computers move at their pace, and the bot stops mid-Charleston
            clock.advance(1.5)
            await service.tick()
        human = (await service.create_table(GUILD, 2, seed=10)).table_id
        await service.join(human, 11, "Ruth")
        for _ in range(3):
            await service.add_computer(human, "easy")
        await service.start(human)
        await db.close()

    asyncio.run(leave_two_unfinished())
    assert main(["tables", "list", "--db", str(path), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert sorted(t["phase"] for t in listed) == ["charleston", "charleston"]
    assert main(["tables", "resume", "--db", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "finished 1 table: 1"
    assert main(["ledger", "verify", "--db", str(path)]) == 0


def test_backup_is_a_complete_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "live.db"
    asyncio.run(league_with_games(path, 1))
    copy = tmp_path / "copy.db"
    assert main(["backup", "--db", str(path), "--to", str(copy)]) == 0
    with sqlite3.connect(path) as a, sqlite3.connect(copy) as b:
        query = "SELECT game_id, how, winner_seat FROM games ORDER BY game_id"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()
    assert main(["backup", "--db", str(path), "--to", str(copy)]) == 2  # never overwrites


def test_demo_records_its_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "demo.db"
    assert main(["demo", "--seed", "7", "--db", str(path), "--no-images"]) == 0
    assert "Recorded as game 1" in capsys.readouterr().out
    assert main(["ledger", "verify", "--db", str(path)]) == 0


def test_commands_on_a_missing_database_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ledger", "verify", "--db", str(tmp_path / "nope.db")]) == 2
    assert "no database" in capsys.readouterr().err


async def _tournament_league(path: Path) -> None:
    """A league scoring tournament points (the I Love Mahj preset) with two games recorded at a physical table."""
    db = await Database.open(path)
    leagues = LeagueService(db, ManualClock(datetime.now(UTC)))
    league = await leagues.set_channel(await leagues.create(GUILD, "Club"), 5)
    league = await leagues.set_scoring(league, preset="tournament", rule="average", minimum=2)
    seats = ((11, "Ruth"), (12, "Sadie"), (13, "Ann"))
    await leagues.corrections.record(league, PhysicalGame(seats, winner=12, line="2468-1", thrower=13), 1, "Org")
    await leagues.corrections.record(league, PhysicalGame((*seats, (14, "Bea"))), 1, "Org")
    await db.close()


def test_standings_of_a_league_follow_its_scoring(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "points.db"
    asyncio.run(_tournament_league(path))
    assert main(["standings", "--db", str(path), "--guild", str(GUILD), "--league", "club", "--all-time",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["league"] == "Club" and report["scoring"]["rule"] == "average"
    # Sadie 25 then 10, Ruth 0 then 10, Ann -10 then 10 (averages over 2 games); Bea 10 in one game: unranked.
    scores = {r["name"]: (r["score"], r["ranked"]) for r in report["standings"]}
    assert scores == {"Sadie": (17.5, True), "Ruth": (5, True), "Ann": (0, True), "Bea": (10, False)}
    assert [r["name"] for r in report["standings"]] == ["Sadie", "Ruth", "Ann", "Bea"]
    assert main(["standings", "--db", str(path), "--guild", str(GUILD), "--league", "Club", "--all-time"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Club, all games: Scoring: tournament points") and "  * Bea" in text
    assert main(["standings", "--db", str(path), "--league", "Club"]) == 2
    assert "--league needs --guild" in capsys.readouterr().err
    assert main(["standings", "--db", str(path), "--guild", str(GUILD), "--league", "Nope"]) == 2
    assert "no league named 'Nope'" in capsys.readouterr().err
