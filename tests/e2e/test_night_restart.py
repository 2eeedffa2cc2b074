"""A league night survives the bot killed outright (SIGKILL) mid-round: four people sign up, the round's table is
opened and dealt, nobody plays, and the bot is killed; started again with its clock past their time, it hands
their seats to computers (absent players, as at any table), the game ends, and the night's results are posted once.
The bot runs as a separate process with a clock the test sets (tests/support/league_bot_process.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.clocked_bots import kill, set_clock, start_clocked_bot
from support.discord_double import Double
from support.discord_double.models import Channel, Message
from support.league_bots import answer_to, create_league

from bot.store.db import Database


def _results(room: Channel) -> list[Message]:
    return [m for m in room.messages if "results of the league night" in m.content]


async def test_a_night_killed_mid_round_carries_on_after_the_restart(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    db, clock = tmp_path / "night.db", tmp_path / "clock.txt"
    start = datetime.now(UTC).replace(second=0, microsecond=0)
    set_clock(clock, start)
    ruth, room = double.user("ruth"), double.channel("nights")
    people = [double.user(f"player{n}", manager=False) for n in range(1, 5)]

    process = await start_clocked_bot(double, db, clock, run=1)
    try:
        await create_league(double, ruth, "Club")
        await answer_to(await ruth.slash("league-admin", "channel", channel=room))
        starts = start + timedelta(hours=1)
        scheduled = await answer_to(await ruth.slash("league-admin", "night", when=f"{starts:%Y-%m-%d %H:%M}",
                                                     rounds=1, games_per_round=1, computer_delay=0))
        assert "is scheduled" in scheduled.content, scheduled.content
        signup = await double.wait_for(lambda: next((m for m in room.messages if m.component("ch:n:1:in")), None),
                                       10, "the sign-up")
        for player in people:
            await (await player.at(room).click(signup, "ch:n:1:in")).followups(1)
        set_clock(clock, starts + timedelta(seconds=1))
        thread = await double.wait_for(lambda: next((t for t in double.threads() if t.parent_id == room.id), None),
                                       20, "the table's thread")
        await double.wait_for(lambda: any(m.attachments for m in thread.messages), 20, "the table message")
        reader = await Database.open(db)
        try:
            for _ in range(200):  # dealt: the game is in the database
                if await reader.fetchval("SELECT COUNT(*) FROM games"):
                    break
                await asyncio.sleep(0.05)
            assert await reader.fetchval("SELECT COUNT(*) FROM games WHERE ended_at IS NULL") == 1
        finally:
            await reader.close()
    finally:
        await kill(process)  # mid-round: the game under way, nobody has moved

    set_clock(clock, starts + timedelta(minutes=30))  # everyone's time has run out while the bot was down
    process = await start_clocked_bot(double, db, clock, run=2)
    try:
        results = await double.wait_for(lambda: _results(room), 60, "the night's results after the restart")
        assert "(1 game, net chips)" in results[0].content and results[0].attachments
        await asyncio.sleep(0.5)  # a few more passes of the runner: the results are not posted again
        assert len(_results(room)) == 1
        assert "This night is over" in next(m for m in room.messages if m.id == signup.id).content
    finally:
        await kill(process)
