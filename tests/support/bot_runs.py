"""Running `charleston bot` as a separate process against the offline Discord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from support.discord_double import Double

ROOT = Path(__file__).resolve().parents[2]


def bot_env(double: Double, db: Path, **extra: str) -> dict[str, str]:
    """The environment `charleston bot` runs with: the double's token and addresses, our database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CHARLESTON_"))}
    env |= double.env() | {"CHARLESTON_DB": str(db), "CHARLESTON_GUILD": str(double.guild_id),
                           "CHARLESTON_LOG_LEVEL": "INFO", "CHARLESTON_REFRESH_SECONDS": "0.05"} | extra
    return env


async def start_bot(double: Double, db: Path, run: int = 1) -> asyncio.subprocess.Process:
    """Start `charleston bot` and wait until it has identified and synced /ping."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "bot", env=bot_env(double, db), cwd=str(db.parent),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True)
    gateway = double.gateway
    try:
        await double.wait_for(lambda: gateway.identifies == run and gateway.connected, 20, f"bot run {run} to identify")
        await double.wait_for_commands("ping")
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        _, err = await asyncio.wait_for(process.communicate(), 20)
        raise AssertionError(f"the bot did not come up:\n{err.decode()[-3000:]}") from None
    return process


async def kill_bot(process: asyncio.subprocess.Process) -> None:
    """SIGKILL the bot process alone (as the OOM killer would) and wait for it and everything it started to go.

    Its drawing workers must leave by themselves: one outliving the bot would keep the bot's output pipes open.
    """
    process.send_signal(signal.SIGKILL)
    try:
        await asyncio.wait_for(process.communicate(), 20)
    except TimeoutError:
        os.killpg(process.pid, signal.SIGKILL)
        raise AssertionError("a process the bot started outlived it by 20 s") from None


async def stop_bot(process: asyncio.subprocess.Process) -> bytes:
    """SIGTERM the bot and wait for it to stop; whatever it left running is killed. Returns its stderr."""
    process.send_signal(signal.SIGTERM)
    try:
        _, err = await asyncio.wait_for(process.communicate(), 20)
    except TimeoutError:
        os.killpg(process.pid, signal.SIGKILL)
        raise AssertionError("the bot did not stop within 20 s of SIGTERM") from None
    return err


