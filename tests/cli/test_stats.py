"""``charleston stats``: every player's figures and the totals, recomputed from the record, checked against games
whose figures were counted by hand from their action logs (and the logs replayed here say the same)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.engine.actions import action_from_json
from bot.engine.game import Game
from bot.engine.payouts import payouts
from bot.engine.rules import rules_from_dict
from bot.service.cards import load_card
from bot.service.clock import ManualClock
from bot.service.tables import TableService
from bot.store import leagues as store
from bot.store.db import Database

GUILD, OTHER_GUILD = 77, 88
RUTH, SADIE, DORA = 11, 12, 13


async def _record(path: Path) -> None:
    """Table 1 (league Tuesday): Ruth in seat 0, Sadie in seat 1, four games, East going round. Table 2 (no league):
    Ruth in seat 2, Dora in seat 3, one game, then a second abandoned when the table is closed. The people step
    away at once and computers play their seats (the seats and chips stay theirs). In another guild, Ruth once more
    at table 3 is left out by --guild."""
    db = await Database.open(path)
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    league = await store.insert_league(db, GUILD, "Tuesday", "UTC", 0, None, "2026-11-01T00:00:00.000+00:00")
    assert league is not None
    first = (await service.create_table(GUILD, 1, seed=5)).table_id
    await store.attach_table(db, first, league.league_id)
    await service.join(first, RUTH, "Ruth", seat=0)
    await service.join(first, SADIE, "Sadie", seat=1)
    for seat in (2, 3):
        await service.add_computer(first, "normal", seat)
    for _ in range(4):
        await service.start(first)
        await service.leave(first, RUTH)
        await service.leave(first, SADIE)
    second = (await service.create_table(GUILD, 2, seed=8)).table_id
    await service.join(second, RUTH, "Ruth", seat=2)
    await service.join(second, DORA, "Dora", seat=3)
    for seat in (0, 1):
        await service.add_computer(second, "normal", seat)
    await service.start(second)
    await service.leave(second, RUTH)
    await service.leave(second, DORA)
    await service.start(second)
    await service.close_table(second)  # mid-game: abandoned, so no standings count it
    await db.close()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stats") / "league.db"
    asyncio.run(_record(path))
    return path


# Counted by hand from the six games' logs (the test below replays each log to show they say this):
#   game 1, East seat 0: Ruth (seat 0, East) wins on a discard with run-3: Ruth +120, Sadie -30
#   game 2, East seat 1 (Sadie): seat 2 (a computer) wins on a discard with run-3: Ruth -30, Sadie -30
#   game 3, East seat 2: a wall game, no chips
#   game 4, East seat 3: seat 2 (a computer) wins on a discard with run-1: Ruth -25, Sadie -50
#   game 5, East seat 0 (a computer): Ruth (seat 2) self-picks run-8: Ruth +180, Dora -60
#   game 6: abandoned, not counted
HAND_COUNTED = {  # game: (East, how, winner seat, line, {player: chips}, {player: seat})
    1: (0, "discard", 0, "run-3", {RUTH: 120, SADIE: -30}, {RUTH: 0, SADIE: 1}),
    2: (1, "discard", 2, "run-3", {RUTH: -30, SADIE: -30}, {RUTH: 0, SADIE: 1}),
    3: (2, "wall", None, None, {RUTH: 0, SADIE: 0}, {RUTH: 0, SADIE: 1}),
    4: (3, "discard", 2, "run-1", {RUTH: -25, SADIE: -50}, {RUTH: 0, SADIE: 1}),
    5: (0, "self_pick", 2, "run-8", {RUTH: 180, DORA: -60}, {RUTH: 2, DORA: 3}),
}


def _stats(path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, Any]:
    assert main(["stats", "--db", str(path), *options, "--json"]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


@pytest.mark.slow
def test_the_hand_counted_figures_are_what_each_games_log_gives(recorded: Path) -> None:
    with sqlite3.connect(recorded) as conn:
        games = conn.execute("SELECT game_id, card_id, rules, seed, east, game_no FROM games "
                             "WHERE ended_at IS NOT NULL ORDER BY game_id").fetchall()
        logs = {g: [json.loads(a) for (a,) in conn.execute("SELECT action FROM actions WHERE game_id = ? "
                                                              "ORDER BY seq", (g,))] for g, *_ in games}
        seats = conn.execute("SELECT game_id, seat, player_id FROM game_seats WHERE player_id IS NOT NULL").fetchall()
    assert [g for g, *_ in games] == list(HAND_COUNTED)
    for game_id, card_id, rules, seed, east, game_no in games:
        game, _ = Game.new(load_card(card_id), rules_from_dict(json.loads(rules)), seed, east=east, game_no=game_no)
        for action in logs[game_id]:
            game.apply(action_from_json(action))
        result = game.state.result
        assert result is not None
        want_east, how, winner, line, chips, seated = HAND_COUNTED[game_id]
        assert (east, result.how, result.winner, result.line) == (want_east, how, winner, line)
        assert {p: s for g, s, p in seats if g == game_id} == seated
        net = Counter[int]()
        for pay in payouts(game.state):
            net[pay.payee] += pay.amount
            net[pay.payer] -= pay.amount
        assert {player: net[seat] for player, seat in seated.items()} == chips


@pytest.mark.slow
def test_stats_json_gives_the_hand_counted_figures(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _stats(recorded, capsys, "--guild", str(GUILD))
    assert report["totals"] == {"games": 5, "mahjong": 4, "wall_games": 1, "self_picks": 1, "jokerless": 0}
    players = {p["player_id"]: p for p in report["players"]}
    assert [p["player_id"] for p in report["players"]] == [RUTH, SADIE, DORA]  # most games first
    assert players[RUTH] == {
        "player_id": RUTH, "name": "Ruth", "games": 5, "mahjong": 2, "self_picks": 1, "jokerless": 0,
        "wall_games": 1, "chips": 245, "chips_per_game": 49.0, "east": {"games": 1, "mahjong": 1},
        "not_east": {"games": 4, "mahjong": 1},
        "lines": [{"card": "practice", "line": "run-3", "name": players[RUTH]["lines"][0]["name"], "wins": 1},
                  {"card": "practice", "line": "run-8", "name": players[RUTH]["lines"][1]["name"], "wins": 1}]}
    assert all(line["name"] and "run-" not in line["name"] for line in players[RUTH]["lines"])  # as players say it
    sadie = players[SADIE]
    assert (sadie["games"], sadie["mahjong"], sadie["wall_games"], sadie["chips"], sadie["chips_per_game"]) == \
        (4, 0, 1, -110, -27.5)
    assert (sadie["east"], sadie["not_east"], sadie["lines"]) == ({"games": 1, "mahjong": 0},
                                                                   {"games": 3, "mahjong": 0}, [])
    assert (players[DORA]["games"], players[DORA]["chips"]) == (1, -60)


@pytest.mark.slow
def test_stats_filter_by_league_and_player(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = _stats(recorded, capsys, "--league", "  tuesday ")  # names are matched as /standings matches them
    assert league["totals"] == {"games": 4, "mahjong": 3, "wall_games": 1, "self_picks": 0, "jokerless": 0}
    assert [(p["player_id"], p["games"], p["chips"]) for p in league["players"]] == [(RUTH, 4, 65), (SADIE, 4, -110)]
    dora = _stats(recorded, capsys, "--player", str(DORA))
    assert [p["player_id"] for p in dora["players"]] == [DORA]
    assert dora["totals"] == {"games": 1, "mahjong": 1, "wall_games": 0, "self_picks": 1, "jokerless": 0}
    assert _stats(recorded, capsys, "--guild", str(OTHER_GUILD)) == {
        "players": [], "totals": {"games": 0, "mahjong": 0, "wall_games": 0, "self_picks": 0, "jokerless": 0}}
    assert main(["stats", "--db", str(recorded), "--player", str(RUTH)]) == 0
    text = capsys.readouterr().out
    assert "Ruth (11): 5 games, 2 won (1 self-picked, 0 jokerless), 1 wall game, +245 chips (+49.0 a game)" in text
    assert "Totals: 5 games, 4 Mah Jongg, 1 wall game" in text


async def _empty(path: Path) -> None:
    await (await Database.open(path)).close()


def test_stats_names_a_league_it_does_not_know(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.db"
    asyncio.run(_empty(path))
    assert main(["stats", "--db", str(path), "--league", "Wednesday"]) == 2
    assert "has no league named 'Wednesday' in any guild" in capsys.readouterr().err
    assert main(["stats", "--db", str(path), "--player", "eleven"]) == 2
    assert "--player" in capsys.readouterr().err
