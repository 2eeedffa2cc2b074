"""One process of the start-up race (tests/store/test_postgres.py): waits for the agreed moment, opens (and so
migrates) the database, prints its schema version.

    python -m support.open_database DB START_EPOCH
"""

from __future__ import annotations

import asyncio
import sys
import time

from bot.store.db import Database


async def open_at(target: str, start: float) -> int:
    """The schema version once open."""
    await asyncio.sleep(max(0.0, start - time.time()))
    db = await Database.open(target)
    try:
        return await db.schema_version()
    finally:
        await db.close()


if __name__ == "__main__":
    print(asyncio.run(open_at(sys.argv[1], float(sys.argv[2]))))
