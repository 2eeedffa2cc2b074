"""The weekly standings post on the offline Discord, under the bot's injected clock: the finished week is posted
once in the league's channel when its end passes, never again; a post that fails (the channel deleted, or no
permission to post there) is reported to the managers by DM, shown by ``/league info``, tried again later and
posted once it can be; a post a crash interrupted is found in the channel, or sent, on restart, once."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
from support.discord_double import Double, Player
from support.discord_double.models import Channel
from support.league_bots import (
    RunningClock,
    answer_to,
    create_league,
    league_game,
    make_league_bot,
    past_the_week_end,
    standings_posts,
)

from bot.service.weekly import FIRST_RETRY
from cogs.app import CharlestonBot


async def poster_pass(double: Double, bot: CharlestonBot) -> None:
    """Wake the weekly poster and wait for a whole pass begun after the wake."""
    begun = bot.poster.started
    bot.poster.wake()
    await double.wait_for(lambda: bot.poster.passes > begun, 10, "a pass of the weekly poster")


async def _league_with_a_game(double: Double, bot: CharlestonBot, manager: Player, room: Channel) -> None:
    await create_league(double, manager, "Weekly", timezone="Europe/Paris")
    await answer_to(await manager.slash("league-admin", "channel", channel=room))
    await league_game(double, bot, manager.at(room))


async def test_the_finished_week_is_posted_once_when_its_end_passes(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    room = double.channel("standings")
    clock = RunningClock()
    bot = make_league_bot(double, tmp_path / "weekly.db", clock)
    async with double.running(bot):
        await double.wait_for_commands("league-admin", "table")
        await _league_with_a_game(double, bot, ruth, room)
        await poster_pass(double, bot)
        assert standings_posts(room) == []  # the week is not over
        ((name, label),) = bot.leagues.week_choices((await bot.leagues.leagues(double.guild_id))[0], 1)

        clock.advance(past_the_week_end().total_seconds())
        await poster_pass(double, bot)
        (post,) = standings_posts(room)
        assert post.content.startswith(f"**Weekly** · standings for the {name} (")  # named as people say it
        assert "Europe/Paris" in post.content and "Ruth" in post.content.split("```")[1]
        (chart,) = post.attachments
        assert chart.description and chart.description.startswith(f"Weekly standings, {name}")
        for _ in range(3):
            await poster_pass(double, bot)
        assert standings_posts(room) == [post]  # once, however often the poster looks
        (row,) = await bot.service.db.fetchall("SELECT week, status, message_id, attempts FROM league_posts")
        assert tuple(row) == (label, "posted", post.id, 1)


async def test_a_failed_post_is_reported_retried_and_posted_once(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    room = double.channel("standings")
    clock = RunningClock()
    bot = make_league_bot(double, tmp_path / "failing.db", clock)
    async with double.running(bot):
        await double.wait_for_commands("league-admin", "league", "table")
        await _league_with_a_game(double, bot, ruth, room)
        double.forbid(room)  # someone took the bot's permission to post there
        clock.advance(past_the_week_end().total_seconds())
        await poster_pass(double, bot)
        assert standings_posts(room) == []
        (told,) = [m for m in ruth.dms() if "could not be posted" in m.content]
        assert "Weekly" in told.content and "I may not post in" in told.content
        assert "Missing Permissions" in told.content
        info = await answer_to(await ruth.slash("league", "info"))
        assert "could not be posted (1 try)" in info.content

        clock.advance(FIRST_RETRY.total_seconds() - 10)
        await poster_pass(double, bot)  # not yet time to try again
        (row,) = await bot.service.db.fetchall("SELECT status, attempts FROM league_posts")
        assert tuple(row) == ("failed", 1)
        double.delete_channel(room)  # and now the channel is gone altogether
        clock.advance(20)
        await poster_pass(double, bot)
        (row,) = await bot.service.db.fetchall("SELECT status, attempts, last_error FROM league_posts")
        assert tuple(row)[:2] == ("failed", 2) and "no longer exists" in row[2]
        assert len([m for m in ruth.dms() if "could not be posted" in m.content]) == 1  # told once, not each try

        new_room = double.channel("standings-2")
        await answer_to(await ruth.slash("league-admin", "channel", channel=new_room))  # tried again at once, there
        await double.wait_for(lambda: standings_posts(new_room), 10, "the post in the new channel")
        for _ in range(2):
            await poster_pass(double, bot)
        assert len(standings_posts(new_room)) == 1
        (row,) = await bot.service.db.fetchall("SELECT status, attempts FROM league_posts")
        assert tuple(row) == ("posted", 3)
        assert "could not be posted" not in (await answer_to(await ruth.slash("league", "info"))).content


async def test_a_post_interrupted_by_a_crash_is_made_once_on_restart(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    room = double.channel("standings")
    db_path = tmp_path / "crash.db"
    clock = RunningClock()
    bot = make_league_bot(double, db_path, clock)
    async with double.running(bot):
        await double.wait_for_commands("league-admin", "table")
        await _league_with_a_game(double, bot, ruth, room)
        clock.advance(past_the_week_end().total_seconds())
        await poster_pass(double, bot)
        (post,) = standings_posts(room)
    # A crash after the message was sent but before it was recorded leaves the record saying "sending".
    await _set_sending(db_path)
    bot = make_league_bot(double, db_path, clock)
    async with double.running(bot):
        await poster_pass(double, bot)
        assert standings_posts(room) == [post]  # found in the channel, not sent again
        (row,) = await bot.service.db.fetchall("SELECT status, message_id FROM league_posts")
        assert tuple(row) == ("posted", post.id)
    # A crash before the message went out: the same record, and no message in the channel.
    await _set_sending(db_path)
    double.world.delete(post)
    bot = make_league_bot(double, db_path, clock)
    async with double.running(bot):
        await double.wait_for(lambda: standings_posts(room), 10, "the post, sent after the restart")
        await poster_pass(double, bot)
        (again,) = standings_posts(room)
        (row,) = await bot.service.db.fetchall("SELECT status, message_id FROM league_posts")
        assert tuple(row) == ("posted", again.id)


async def _set_sending(db_path: Path) -> None:
    """Leave the post's record as a crash between claiming and recording would."""
    async with aiosqlite.connect(db_path) as conn:
        await conn.execute("UPDATE league_posts SET status = 'sending'")
        await conn.commit()
