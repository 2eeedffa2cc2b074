"""The bot run as two processes ("clusters": shards 0-1 and 2-3 of 4) over one PostgreSQL database, on the offline
Discord sharding as Discord does. A game in a guild of each; both people play by their DMs' buttons, so every press
at the second process's table reaches the first process (Discord sends DMs to shard 0 only) and is handed over.
The second process is killed with SIGKILL mid-game: its presses are answered "restarting" meanwhile, the other game
goes on undisturbed; restarted, its game resumes (a button drawn before the kill still works) and ends. Both
started together, they IDENTIFY within Discord's limit; commands are synced once; the week's standings are posted
once; the ledger verifies."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.clusters import Person, kill, launch, until_up
from support.discord_double import Double
from support.league_bots import answer_to, create_league, past_the_week_end, standings_posts
from support.postgres import TestServer, session_server

from bot.service.cluster import RESTARTING
from bot.store.db import Database

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(290)]
COUNT = 4


@pytest.fixture
def pg_server() -> TestServer:
    return session_server()  # started here, outside the test's event loop


MOVES = "SELECT COUNT(*) FROM actions a JOIN games g ON g.game_id = a.game_id WHERE g.table_id = ?"
ENDED = "SELECT COUNT(*) FROM games WHERE ended_at IS NOT NULL"


async def count(db: Database, query: str, *params: object) -> int:
    """A COUNT(*) query's answer."""
    return int(await db.fetchval(query, params) or 0)


@contextlib.asynccontextmanager
async def watching(db: Database, query: str, *params: object) -> AsyncIterator[list[int]]:
    """A COUNT(*) query's answer, read again every 0.1 s while the block runs (``[value]``)."""
    box = [await count(db, query, *params)]

    async def poll() -> None:
        while True:
            await asyncio.sleep(0.1)
            box[0] = await count(db, query, *params)

    task = asyncio.create_task(poll())
    try:
        yield box
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def play(double: Double, people: list[Person], done: Callable[[], bool], what: str,
               timeout: float = 120) -> None:
    """Everyone answers what Discord asks of them until ``done()``: each waits for a move offered to her, never a
    fixed time."""
    loop = asyncio.get_running_loop()
    stop = loop.time() + timeout

    async def one(person: Person) -> None:
        while not done():
            assert loop.time() < stop, f"timed out: {what}"
            if not await person.step():
                await double.wait_for(lambda: done() or person.offered(), max(0.1, stop - loop.time()), what)

    await asyncio.gather(*(one(p) for p in people))


async def test_two_clusters_over_one_database(discord_double: Double, pg_server: TestServer, pg_drops: list[str],
                                              tmp_path: Path) -> None:
    double = discord_double
    double.shard(COUNT, max_concurrency=2)  # IDENTIFYs of a bucket closer than 5 s are refused (op 9)
    url = await pg_server.new_database()
    pg_drops.append(url)
    home, away = double.add_guild("Home", shard=1), double.add_guild("Away", shard=3)
    clock = tmp_path / "clock.txt"
    start = datetime.now(UTC)
    clock.write_text(start.isoformat(), encoding="utf-8")
    low, high = await asyncio.gather(launch(double, url, (0, 1), COUNT, clock, tmp_path / "low.log"),
                                     launch(double, url, (2, 3), COUNT, clock, tmp_path / "high-1.log"))
    db = await Database.open(url)
    try:
        await until_up(double, low, high)
        await double.wait_for_commands("table", "rack", "league-admin", guild=False, timeout=30)
        alice, bob = double.user("alice", guild=home), double.user("bob", guild=away)
        ruth, ben = Person(double, alice, home), Person(double, bob, away)

        # A league in Home, with its standings channel; Alice's table counts for it. Bob's table is in Away.
        await create_league(double, alice, "Weekly")
        room = double.channel("standings", guild=home)
        await answer_to(await alice.slash("league-admin", "channel", channel=room))
        opened = await answer_to(await alice.at(room).slash("table", "new", computer_delay=0))
        assert "counts for **Weekly**" in opened.content, opened.content
        await answer_to(await bob.slash("table", "new", computer_delay=0))
        for person in (ruth, ben):
            thread = person.player.at(await double.wait_for(person.thread, 10, "a table's thread"))
            for _ in range(3):
                await answer_to(await thread.slash("table", "computer", level="normal"))
            await answer_to(await thread.slash("table", "start"))
        (alices,) = [r[0] for r in await db.fetchall("SELECT table_id FROM tables WHERE guild_id = ?", (home.id,))]
        (bobs,) = [r[0] for r in await db.fetchall("SELECT table_id FROM tables WHERE guild_id = ?", (away.id,))]

        # A DM command for Bob's table reaches its process through the first one.
        rack = await answer_to(await bob.at(bob.dm_channel).slash("rack"))
        assert rack.content == "Your rack is in your DMs.", rack.content

        # Both play by DM until Bob's DM offers a discard: that button is pressed again after the kill.
        def bob_may_discard() -> bool:
            own = ben.own()
            return own is not None and any(":d." in c for c in own.custom_ids)

        await play(double, [ruth, ben], bob_may_discard, "Bob's first discard")
        before_kill = ben.own()
        assert before_kill is not None
        # not a joker: throwing one asks first (docs/rules.md, asking before a move), and this press is to count
        discard = next(c for c in before_kill.custom_ids if ":d." in c and not c.endswith(".J"))
        bob_moves = await count(db, MOVES, bobs)

        await kill(high)
        answer = await ben.press(before_kill, discard)  # reaches the first process, which cannot hand it over
        assert answer is not None and answer.content == RESTARTING, answer and answer.content
        async with watching(db, MOVES, alices) as alice_moves, watching(db, ENDED) as ended:
            target = alice_moves[0] + 5  # the other game goes on undisturbed meanwhile
            await play(double, [ruth], lambda: alice_moves[0] >= target or ended[0] > 0, "Alice to play on")

        high = await launch(double, url, (2, 3), COUNT, clock, tmp_path / "high-2.log")
        await until_up(double, high)
        async with watching(db, MOVES, bobs) as bob_now:
            answer = await ben.press(before_kill, discard)  # the button drawn before the kill, pressed again
            assert answer is None or ("over" not in answer.content and "went wrong" not in answer.content), \
                answer.content
            await double.wait_for(lambda: bob_now[0] > bob_moves, 10, "Bob's discard to count")

        # Both games to their end, settled.
        async with watching(db, ENDED) as ended:
            await play(double, [ruth, ben], lambda: ended[0] >= 2, "both games to end", timeout=150)
        assert await count(db, "SELECT COUNT(*) FROM ledger_transactions WHERE kind = 'settlement'") == 2

        # The week ends with both processes up: its standings are posted once.
        clock.write_text((start + past_the_week_end()).isoformat(), encoding="utf-8")
        await double.wait_for(lambda: standings_posts(room), 30, "the week's standings")
        async with watching(db, "SELECT COUNT(*) FROM league_posts WHERE status = 'posted'") as posted:
            await double.wait_for(lambda: posted[0] == 1, 10, "the post to be recorded")
        verify = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "ledger", "verify", "--db", url,
                                                      stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(verify.communicate(), 60)
        assert verify.returncode == 0 and out.decode().strip() == "ok", out + err
        assert len(standings_posts(room)) == 1

        # The first process was never disturbed; the second came back as itself; commands were synced once.
        assert low.process.returncode is None
        identified = sorted(shard for _, shard in double.gateway.identified)
        assert identified == [0, 1, 2, 2, 3, 3], identified
        assert double.world.rest_calls["PUT /applications/{application_id}/commands"] == 1
        assert double.gateway.dispatched[(3, "INTERACTION_CREATE")] < double.gateway.dispatched[
            (0, "INTERACTION_CREATE")]  # Bob's presses by DM all came to shard 0
    finally:
        await db.close()
        await asyncio.gather(kill(low), kill(high))
