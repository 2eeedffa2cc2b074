"""``charleston fairness verify`` on database files the program recorded (``simulate --db``, ``demo --db``): exit 0
naming how many games were checked; a seed altered in the file afterwards, exit 1 naming that game; a game asked
for by number shows its commitment and the seed and salt that open it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main


@pytest.mark.slow
def test_verify_passes_on_simulated_and_demo_games_and_names_the_game_whose_seed_was_altered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.db"
    assert main(["simulate", "--games", "2", "--seed", "4", "--db", str(path)]) == 0
    assert main(["demo", "--seed", "7", "--db", str(path), "--no-images"]) == 0
    demo = capsys.readouterr().out
    assert "Deal sealed: " in demo and "charleston fairness verify --db" in demo and "--game 3" in demo
    assert main(["fairness", "verify", "--db", str(path)]) == 0
    assert "ok: 3 games checked" in capsys.readouterr().out
    with sqlite3.connect(path) as conn:
        seed, commitment, salt = conn.execute("SELECT g.seed, d.commitment, d.salt FROM games g JOIN deal_seals d "
                                              "ON d.game_id = g.game_id WHERE g.game_id = 2").fetchone()
    assert main(["fairness", "verify", "--db", str(path), "--game", "2"]) == 0
    shown = capsys.readouterr().out
    assert f"commitment {commitment}" in shown and f"seed {seed}, salt {salt}" in shown and "1 game checked" in shown

    with sqlite3.connect(path) as conn:  # someone changes game 2's seed in the file after the fact
        conn.execute("UPDATE games SET seed = seed + 1 WHERE game_id = 2")
    assert main(["fairness", "verify", "--db", str(path)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH game 2 " in out and "does not match its published commitment" in out
    assert "MISMATCH game 1" not in out and "MISMATCH game 3" not in out and "1 of 3 games checked" in out


def test_verify_refuses_a_game_that_is_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.db"
    assert main(["simulate", "--games", "1", "--seed", "4", "--db", str(path)]) == 0
    capsys.readouterr()
    assert main(["fairness", "verify", "--db", str(path), "--game", "9"]) == 2
    assert "has no game 9 dealt by the bot" in capsys.readouterr().err
    assert main(["fairness", "verify", "--db", str(path), "--game", "0"]) == 2
    assert main(["fairness", "verify", "--db", str(tmp_path / "nope.db")]) == 2


def test_verify_names_a_game_whose_seed_was_replaced_by_text(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.db"
    assert main(["simulate", "--games", "1", "--seed", "4", "--db", str(path)]) == 0
    capsys.readouterr()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET seed = 'lucky' WHERE game_id = 1")
    assert main(["fairness", "verify", "--db", str(path)]) == 1
    assert "MISMATCH game 1 (table 1, its game 1): its stored seed is not a whole number" in capsys.readouterr().out
