"""A night's results are posted once across a crash between posting them and recording the post: the database
refuses the record once (a trigger on the real file, as a crash at that moment leaves it), the runner carries on
and the bot is stopped; started again over the same database it finds its own post in the channel and records it,
and the channel holds exactly one results message."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from pathlib import Path

from support.discord_double import Double
from support.discord_double.models import Channel, Message
from support.league_bots import RunningClock, answer_to, create_league, make_league_bot

from bot.service.updates import TableStatus
from cogs.app import CharlestonBot

REFUSE = ("CREATE TRIGGER refuse_results_record BEFORE UPDATE OF results_status ON nights "
          "WHEN NEW.results_status = 'posted' BEGIN SELECT RAISE(ABORT, 'crashed before the record'); END")


def _results(room: Channel) -> list[Message]:
    return [m for m in room.messages if "results of the league night" in m.content]


def _sql(db: Path, statement: str) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute(statement)


async def _finish_the_round(double: Double, bot: CharlestonBot) -> None:
    """Everyone at the night's table steps away (computers play the seats) and the game ends."""
    ids: list[int] = []
    for _ in range(400):
        ids = [t.table_id for t in (await bot.nights.view(1)).round_tables(1) if t.table_id is not None]
        if ids:
            break
        await asyncio.sleep(0.05)
    await double.wait_for(lambda: ids and all(bot.service.view(t).status == TableStatus.PLAYING for t in ids), 20,
                          "the deal")
    for table_id in ids:
        for seat in bot.service.view(table_id).seats:
            if seat.player_id is not None and not seat.away:
                await bot.service.leave(table_id, seat.player_id)
    await double.wait_for(lambda: all(not bot.service.is_open(t) or bot.service.view(t).status
                                      != TableStatus.PLAYING for t in ids), 60, "the game to end")


async def _passes(bot: CharlestonBot, more: int) -> None:
    """Wait for the night runner to complete ``more`` passes (woken each time, so nothing waits for its timer)."""
    runner = bot.night_runner
    assert runner is not None
    target = runner.passes + more
    for _ in range(400):
        if runner.passes >= target:
            return
        runner.wake()
        await asyncio.sleep(0.05)
    raise AssertionError("the night runner made no passes")


async def test_night_results_posted_once_when_the_record_after_the_post_is_lost(discord_double: Double,
                                                                                 tmp_path: Path) -> None:
    double = discord_double
    ruth, room = double.user("ruth"), double.channel("nights")
    people = [double.user(f"player{n}", manager=False) for n in range(1, 5)]
    clock, db = RunningClock(), tmp_path / "night.db"
    bot = make_league_bot(double, db, clock)
    async with double.running(bot):
        await double.wait_for_commands("league-admin")
        await create_league(double, ruth, "Club")
        await answer_to(await ruth.slash("league-admin", "channel", channel=room))
        starts = (clock.now() + timedelta(hours=1)).replace(second=0, microsecond=0)
        await answer_to(await ruth.slash("league-admin", "night", when=f"{starts:%Y-%m-%d %H:%M}", rounds=1,
                                         games_per_round=1, computer_delay=0))
        signup = await double.wait_for(lambda: next((m for m in room.messages if m.component("ch:n:1:in")), None),
                                       10, "the sign-up")
        for player in people:
            await (await player.at(room).click(signup, "ch:n:1:in")).followups(1)
        _sql(db, REFUSE)  # from here on, recording the results as posted fails, as a crash just after the post
        clock.advance(61 * 60)
        assert bot.night_runner is not None
        bot.night_runner.wake()
        await _finish_the_round(double, bot)
        await double.wait_for(lambda: _results(room), 30, "the night's results")
        await _passes(bot, 3)  # the runner looks again (and again) with the results still unrecorded
        assert (await bot.nights.view(1)).night.results_status == "due"
        assert len(_results(room)) == 1

    _sql(db, "DROP TRIGGER refuse_results_record")
    again = make_league_bot(double, db, clock)
    async with double.running(again):
        await double.wait_for_commands("league-admin")
        for _ in range(400):
            if (await again.nights.view(1)).night.results_status == "posted":
                break
            assert again.night_runner is not None
            again.night_runner.wake()
            await asyncio.sleep(0.05)
        night = (await again.nights.view(1)).night
        assert night.results_status == "posted"
        (results,) = _results(room)
        assert night.results_message_id == results.id
        await _passes(again, 2)
        assert len(_results(room)) == 1
