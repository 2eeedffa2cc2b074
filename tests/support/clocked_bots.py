"""The bot as a separate process whose clock a test sets (tests/support/league_bot_process.py): started, its clock
moved through a file, and killed outright (SIGKILL), as a crash or the OOM killer would."""

from __future__ import annotations

import asyncio
import signal
import sys
from datetime import datetime
from pathlib import Path

from .bot_runs import bot_env
from .discord_double import Double

PROCESS = Path(__file__).resolve().parent / "league_bot_process.py"


async def start_clocked_bot(double: Double, db: Path, clock: Path, run: int) -> asyncio.subprocess.Process:
    """Start the bot over ``db`` with the clock in ``clock``; wait until it has identified (its ``run``-th time)
    and synced its commands. Its log goes to ``run-<run>.log`` beside the database."""
    log = (db.parent / f"run-{run}.log").open("wb")  # a file, not a pipe nobody reads while it runs
    process = await asyncio.create_subprocess_exec(
        # Computers think and images are drawn in the bot's own process: on a loaded machine, spawning worker
        # processes took longer than the 5 s the test gives /table start to answer.
        sys.executable, str(PROCESS), env=bot_env(double, db, CHARLESTON_TEST_CLOCK=str(clock),
                                                   CHARLESTON_THINK_WORKERS="0", CHARLESTON_RENDER_WORKERS="0"),
        cwd=str(db.parent), stdout=log, stderr=log)
    log.close()
    try:
        await double.wait_for(lambda: double.gateway.identifies == run and double.gateway.connected, 30,
                              f"bot run {run} to identify")
        await double.wait_for_commands("league-admin", "table")
    except BaseException:
        process.kill()
        await asyncio.wait_for(process.wait(), 20)
        raise AssertionError(f"bot run {run} did not come up:\n{(db.parent / f'run-{run}.log').read_text()[-3000:]}"
                             ) from None
    return process


def set_clock(path: Path, moment: datetime) -> None:
    """Move the bot's clock to ``moment``."""
    path.write_text(moment.isoformat(), encoding="utf-8")


async def kill(process: asyncio.subprocess.Process) -> None:
    """SIGKILL: nothing is saved on the way out."""
    process.send_signal(signal.SIGKILL)
    await asyncio.wait_for(process.wait(), 20)
