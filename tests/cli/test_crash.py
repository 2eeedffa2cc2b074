"""Kill a recording simulation with SIGKILL at random moments; the ledger must stay sound, ``tables resume`` must
finish every interrupted game exactly once, and every game must end exactly as it does when nothing interrupts it."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.ai.selfplay import play_game
from bot.cli import main
from bot.cli.simulate import game_seed_for
from bot.engine.game import Game
from bot.engine.rules import table_rules
from bot.service.cards import load_card
from bot.store.db import Database

pytestmark = pytest.mark.slow

LEVELS = ["easy", "normal", "easy", "random"]
GAMES = 6


def uninterrupted(seed: int, n: int) -> tuple[str, int | None, str | None]:
    card = load_card("practice")
    game, _ = Game.new(card, table_rules("nmjl", card=card.id), game_seed_for(seed, n), east=n % 4)
    play_game(game, LEVELS)
    result = game.state.result
    assert result is not None
    return result.how, result.winner, result.line


async def recorded(path: Path) -> list[tuple[int, int, str, int | None, str | None, str | None]]:
    db = await Database.open(path)
    try:
        async with db.conn.execute(
                "SELECT t.channel_id, COUNT(g.game_id), g.how, g.winner_seat, g.line_id, g.ended_at FROM tables t "
                "JOIN games g USING (table_id) GROUP BY t.table_id ORDER BY t.channel_id") as cursor:
            return [tuple(r) for r in await cursor.fetchall()]  # type: ignore[misc]
    finally:
        await db.close()


@pytest.mark.parametrize("trial", range(4))
def test_sigkill_at_a_random_moment_loses_and_doubles_nothing(tmp_path: Path, trial: int,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(trial)
    path = tmp_path / "crash.db"
    seed = 40 + trial
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "simulate", "--games", str(GAMES), "--seed", str(seed),
         "--players", ",".join(LEVELS), "--db", str(path), "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONHASHSEED": "0"})
    deadline = time.monotonic() + 30
    while not path.exists() and time.monotonic() < deadline:  # wait for the database to appear
        time.sleep(0.02)
    time.sleep(rng.uniform(0.05, 1.5))
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert path.exists()

    assert main(["ledger", "verify", "--db", str(path)]) in (0, 1)
    verify_before = capsys.readouterr().out
    # An interrupted game has no settlement yet, which verify does not mind until the game has ended:
    assert "sum to" not in verify_before and "settled" not in verify_before

    assert main(["tables", "resume", "--db", str(path)]) == 0
    assert main(["ledger", "verify", "--db", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith("ok")
    # Resuming again finds nothing left to do.
    assert main(["tables", "resume", "--db", str(path)]) == 0
    assert "finished 0 tables" in capsys.readouterr().out

    games = asyncio.run(recorded(path))
    for channel, count, how, winner, line, ended in games:
        assert count == 1 and ended is not None  # every started game finished, exactly once
        assert (how, winner, line) == uninterrupted(seed, channel)
