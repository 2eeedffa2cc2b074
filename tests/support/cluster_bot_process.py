"""The Charleston bot as one cluster of several (the settings name its shards: CHARLESTON_SHARD_COUNT and
CHARLESTON_SHARD_IDS, over a PostgreSQL CHARLESTON_DB), as ``charleston bot`` makes it, with a clock the test
sets (the ISO time in the file named by ``CHARLESTON_TEST_CLOCK``) and a weekly poster that looks every 0.1 s. A
test kills it with SIGKILL and starts it again."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

from league_bot_process import FileClock  # this script's folder, tests/support, is first on sys.path

from bot.settings import load_settings
from cogs.app import ShardedCharlestonBot


class ClusterTestBot(ShardedCharlestonBot):
    """The sharded bot, its weekly poster looking often (the file's time moves without waking it)."""

    async def setup_hook(self) -> None:
        """Start as the bot does, then make the poster look every 0.1 s."""
        await super().setup_hook()
        self.poster.check_seconds = 0.1
        self.poster.wake()


async def main() -> None:
    """Run until killed."""
    logging.basicConfig(level="INFO", stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = load_settings(dotenv=None)
    bot = ClusterTestBot(settings, clock=FileClock(Path(os.environ["CHARLESTON_TEST_CLOCK"])), computer_delay=0)
    async with bot:
        await bot.start(settings.token)


if __name__ == "__main__":
    asyncio.run(main())
