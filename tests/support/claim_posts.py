"""One process of the weekly-post race (tests/store/test_concurrency.py): opens the database, waits for the
agreed moment, asks which posts are due (claiming them as the bot's poster does) and prints them as JSON.

    python -m support.claim_posts DB OWNER CLOCK_ISO START_EPOCH
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from datetime import datetime

from bot.service.clock import ManualClock
from bot.service.weekly import WeeklyPosts
from bot.store.db import Database


async def claim(target: str, owner: str, now: datetime, start: float) -> list[tuple[int, str]]:
    """The posts this owner got."""
    db = await Database.open(target)
    try:
        posts = WeeklyPosts(db, ManualClock(now), owner)
        await asyncio.sleep(max(0.0, start - time.time()))
        return [(job.league.league_id, job.week) for job in await posts.due()]
    finally:
        await db.close()


if __name__ == "__main__":
    target, owner, clock, start = sys.argv[1:5]
    print(json.dumps(asyncio.run(claim(target, owner, datetime.fromisoformat(clock), float(start)))))
