"""The Charleston bot as a separate process whose clock a test sets: the bot of ``charleston bot`` (settings from
the environment), given a clock that reads the time from the file named by ``CHARLESTON_TEST_CLOCK`` (an ISO
time, written by the test), and a weekly poster that looks every 0.1 s. A test kills it with SIGKILL and starts it
again, moving the time in the file in between."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from datetime import datetime
from pathlib import Path

from bot.settings import load_settings
from cogs.app import CharlestonBot


class FileClock:
    """The time written in a file (the test moves it)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def now(self) -> datetime:
        """The time in the file now."""
        return datetime.fromisoformat(self.path.read_text(encoding="utf-8").strip())


class TestBot(CharlestonBot):
    """The real bot, its weekly poster and night runner looking often (the file's time moves without waking them)."""

    async def setup_hook(self) -> None:
        """Start as the bot does, then make the poster look every 0.1 s."""
        await super().setup_hook()
        self.poster.check_seconds = 0.1
        self.poster.wake()
        if self.night_runner is not None:  # the league nights' steps too
            self.night_runner.check_seconds = 0.1
            self.night_runner.wake()


async def main() -> None:
    """Run until killed."""
    logging.basicConfig(level="INFO", stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    settings = load_settings(dotenv=None)
    bot = TestBot(settings, clock=FileClock(Path(os.environ["CHARLESTON_TEST_CLOCK"])), computer_delay=0)
    async with bot:
        await bot.start(settings.token)


if __name__ == "__main__":
    asyncio.run(main())
