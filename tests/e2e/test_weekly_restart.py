"""The bot killed outright (SIGKILL) and started again across a league's week boundary posts the finished week
once: not zero times (it was down when the week ended), not twice (killed again just after posting, and started
again). The bot runs as a separate process with a clock the test sets (tests/support/league_bot_process.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.clocked_bots import kill, set_clock, start_clocked_bot
from support.discord_double import Double
from support.league_bots import answer_to, create_league, past_the_week_end, standings_posts

from bot.store.db import Database


async def _until(reader: Database, query: str, wanted: int, what: str, timeout: float = 30) -> None:
    loop = asyncio.get_running_loop()
    stop = loop.time() + timeout
    while True:
        row = await reader.fetchone(query)
        if row is not None and row[0] == wanted:
            return
        assert loop.time() < stop, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_killed_and_restarted_across_the_week_end_the_bot_posts_the_week_once(discord_double: Double,
                                                                                      tmp_path: Path) -> None:
    double = discord_double
    db, clock = tmp_path / "restart.db", tmp_path / "clock.txt"
    start = datetime.now(UTC)
    set_clock(clock, start)
    ruth, room = double.user("ruth"), double.channel("standings")

    process = await start_clocked_bot(double, db, clock, run=1)
    try:
        await create_league(double, ruth, "Weekly")
        await answer_to(await ruth.slash("league-admin", "channel", channel=room))
        opened = await answer_to(await ruth.at(room).slash("table", "new", computer_delay=0))
        assert "counts for **Weekly**" in opened.content
        thread = ruth.at(await double.wait_for(lambda: next((t for t in double.threads() if t.parent_id == room.id),
                                                            None), 10, "the table's thread"))
        for _ in range(3):
            await answer_to(await thread.slash("table", "computer", level="normal"))
        await answer_to(await thread.slash("table", "start"))
        # Ruth lets her Charleston time run out: the bot's clock hands her seat to a computer, which plays on.
        set_clock(clock, start + timedelta(minutes=3))
        reader = await Database.open(db)
        try:
            await _until(reader, "SELECT COUNT(*) FROM ledger_transactions WHERE kind = 'settlement'", 1,
                         "the game to be settled")
            assert standings_posts(room) == []  # the week is not over
        finally:
            await reader.close()
    finally:
        await kill(process)

    # Down over the week's end: the restarted bot posts the finished week; killed again just after posting.
    set_clock(clock, start + past_the_week_end())
    process = await start_clocked_bot(double, db, clock, run=2)
    try:
        await double.wait_for(lambda: standings_posts(room), 30, "the week's standings after the restart")
    finally:
        await kill(process)
    (post,) = standings_posts(room)
    assert post.content.startswith("**Weekly** · standings for the week of ") and "Ruth" in post.content

    # Started again, a week later still: the next week (no games) is handled, the first is not posted again.
    set_clock(clock, start + past_the_week_end() + timedelta(days=7))
    process = await start_clocked_bot(double, db, clock, run=3)
    reader = await Database.open(db)
    try:
        # Both weeks settled: the next one recorded, and the first one's record finished (a kill just after the
        # post may have left it "sending": then the restarted bot finds the message and records it).
        await _until(reader, "SELECT COUNT(*) FROM league_posts WHERE status != 'sending'", 2,
                     "the next week to be handled")
        statuses = [tuple(r) for r in await reader.fetchall("SELECT status, message_id FROM league_posts "
                                                             "ORDER BY week")]
        assert statuses == [("posted", post.id), ("empty", None)]
        assert standings_posts(room) == [post]
    finally:
        await reader.close()
        await kill(process)
