"""A league night on the offline Discord (issue 31, item 1): ``/league-admin night`` posts a sign-up; nine people
press I'm in (one presses Can't come); registration closes and those signed up are reminded by DM; a latecomer
joins from round 2; at the start the bot opens two tables of four and one of a person and three computers, each in
its thread with its table message, and deals; between rounds everyone is reseated; the bot is stopped mid-round 2
and started again over the same database, and the night carries on; the results are posted with their chart."""

from __future__ import annotations

import asyncio
import os
import shutil
from datetime import timedelta
from pathlib import Path

from support.discord_double import Double, Player
from support.discord_double.models import Channel, Message
from support.league_bots import RunningClock, answer_to, create_league, make_league_bot
from support.screenshots import draw_message

from bot.service.updates import TableStatus
from cogs.app import CharlestonBot

PICTURES = "CHARLESTON_NIGHT_PICTURES"  # a folder (docs/images) to copy the README's pictures of a night into


def _picture(message: Message, folder: Path, name: str) -> None:
    """Draw a message as Discord shows it (tests/support/screenshots.py), into the test's folder and, when asked,
    the README's."""
    path = folder / name
    draw_message(message).save(path, optimize=True)
    assert path.stat().st_size > 0
    if os.environ.get(PICTURES):
        shutil.copy(path, Path(os.environ[PICTURES]) / name)


def _signup(channel: Channel) -> Message:
    return next(m for m in channel.messages if m.content.startswith("**Club** · league night"))


async def _step_away_and_finish(double: Double, bot: CharlestonBot, round_no: int) -> None:
    """Everyone at the round's tables steps away (a computer plays her seat), and the games finish."""
    view = await bot.nights.view(1)
    ids = [t.table_id for t in view.round_tables(round_no) if t.table_id is not None]
    await double.wait_for(lambda: all(bot.service.view(t).status == TableStatus.PLAYING for t in ids), 20,
                          f"round {round_no}'s deals")
    for table_id in ids:
        for seat in bot.service.view(table_id).seats:
            if seat.player_id is not None and not seat.away:
                await bot.service.leave(table_id, seat.player_id)

    def finished() -> bool:
        return all(not bot.service.is_open(t) or bot.service.view(t).status != TableStatus.PLAYING for t in ids)

    await double.wait_for(finished, 60, f"round {round_no}'s games to end")


async def test_a_night_of_nine_with_a_latecomer_reseating_and_a_restart(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    people: list[Player] = [double.user(f"player{n}", manager=False) for n in range(1, 10)]
    late, away = double.user("latecomer", manager=False), double.user("away", manager=False)
    room = double.channel("nights")
    clock = RunningClock()
    db = tmp_path / "night.db"
    bot = make_league_bot(double, db, clock)
    starts = (clock.now() + timedelta(hours=1)).replace(second=0, microsecond=0)
    async with double.running(bot):
        await double.wait_for_commands("league-admin")
        await create_league(double, ruth, "Club")
        await answer_to(await ruth.slash("league-admin", "channel", channel=room))
        refused = await answer_to(await people[0].slash("league-admin", "night", when="2026-12-02 19:00"))
        assert refused.ephemeral and "Only server managers" in refused.content
        past = await answer_to(await ruth.slash("league-admin", "night", when="2001-01-01 19:00"))
        assert past.ephemeral and "has passed" in past.content
        scheduled = await answer_to(await ruth.slash("league-admin", "night", when=f"{starts:%Y-%m-%d %H:%M}",
                                                     rounds=2, games_per_round=1, computer_delay=0))
        assert "is scheduled: the sign-up is in" in scheduled.content, scheduled.content
        signup = await double.wait_for(lambda: _signup(room), 5, "the sign-up message")
        assert "2 rounds of 1 game" in signup.content and "In (0):" in signup.content

        for player in people:
            (answer,) = await (await player.at(room).click(signup, "ch:n:1:in")).followups(1)
            assert answer.ephemeral and "You're in" in answer.content
        await (await away.at(room).click(signup, "ch:n:1:out")).followups(1)
        signup = _signup(room)
        assert "In (9):" in signup.content and "Can't come (1): Away" in signup.content
        _picture(signup, tmp_path, "night-signup.png")

        clock.advance(51 * 60)  # registration closes 10 minutes before the start
        bot.night_runner.wake()  # type: ignore[union-attr]
        await double.wait_for(lambda: all(any("Reminder:" in m.content for m in p.dms()) for p in people), 10,
                              "the reminders")
        assert not any("Reminder:" in m.content for m in away.dms())
        (latecomer,) = await (await late.at(room).click(_signup(room), "ch:n:1:in")).followups(1)
        assert "from round 2" in latecomer.content

        clock.advance(10 * 60)
        bot.night_runner.wake()  # type: ignore[union-attr]
        posted = await double.wait_for(lambda: next((m for m in room.messages if "round 1 of 2" in m.content), None),
                                       20, "round 1's tables")
        assert posted.content.count("Table ") == 3 and posted.content.count("computer") == 3
        threads = [t for t in double.threads() if t.parent_id == room.id]
        assert len(threads) == 3 and all(t.name.startswith("Night 1 · round 1") for t in threads)
        round_one = (await bot.nights.view(1)).round_tables(1)
        assert sorted(sum(p is not None for p in t.seats) for t in round_one) == [1, 4, 4]
        await _step_away_and_finish(double, bot, 1)
        bot.night_runner.wake()  # type: ignore[union-attr]
        await double.wait_for(lambda: next((m for m in room.messages if "round 2 of 2" in m.content), None), 20,
                              "round 2's tables")
        round_two = (await bot.nights.view(1)).round_tables(2)
        assert sorted(sum(p is not None for p in t.seats) for t in round_two) == [2, 4, 4]  # the latecomer is in
        assert late.id in [p for t in round_two for p in t.seats]

    # The bot stops mid-round 2 and starts again over the same database.
    again = make_league_bot(double, db, clock)
    async with double.running(again):
        await double.wait_for_commands("league-admin")
        # The first try at the results is refused (a permission taken away): they are tried again a minute later.
        double.fail("POST /channels/{channel_id}/messages", 403, 50013, "Missing Permissions", channel=room)
        await _step_away_and_finish(double, again, 2)
        again.night_runner.wake()  # type: ignore[union-attr]
        for _ in range(400):  # the runner's pass: the game's end noticed, the round closed, the results tried
            if (await again.nights.view(1)).night.results_status == "failed":
                break
            await asyncio.sleep(0.05)
        assert (await again.nights.view(1)).night.results_status == "failed"
        assert not any("results of the league night" in m.content for m in room.messages)
        await double.wait_for(lambda: any("could not be posted" in m.content for m in ruth.dms()), 5,
                              "the organiser told")
        clock.advance(61)
        again.night_runner.wake()  # type: ignore[union-attr]
        results = await double.wait_for(lambda: next((m for m in room.messages if "results of the league night"
                                                      in m.content), None), 30, "the night's results")
        assert "(6 games, net chips)" in results.content
        assert "Round 1:" in results.content and "Round 2:" in results.content
        assert results.content.split("```")[1].count("\n") == 10 + 2  # ten players, the heading, the last line
        (chart,) = results.attachments
        assert chart.description and "Club results" in chart.description
        _picture(results, tmp_path, "night-results.png")
        await double.wait_for(lambda: "This night is over" in _signup(room).content, 10, "the sign-up closed")
        assert not _signup(room).component("ch:n:1:in")


async def test_a_night_called_off_before_it_begins(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth, sadie = double.user("ruth"), double.user("sadie", manager=False)
    room = double.channel("nights")
    clock = RunningClock()
    bot = make_league_bot(double, tmp_path / "off.db", clock)
    async with double.running(bot):
        await double.wait_for_commands("league-admin")
        await create_league(double, ruth, "Club")
        await answer_to(await ruth.slash("league-admin", "channel", channel=room))
        starts = (clock.now() + timedelta(days=2)).replace(second=0, microsecond=0)
        await answer_to(await ruth.slash("league-admin", "night", when=f"{starts:%Y-%m-%d %H:%M}"))
        signup = await double.wait_for(lambda: _signup(room), 5, "the sign-up message")
        assert "2 rounds of 4 games" in signup.content  # the defaults: two rounds of a tournament's four games
        await (await sadie.at(room).click(signup, "ch:n:1:in")).followups(1)

        refused = await answer_to(await sadie.slash("league-admin", "night-cancel"))
        assert refused.ephemeral and "Only server managers" in refused.content
        off = await answer_to(await ruth.slash("league-admin", "night-cancel"))
        assert not off.ephemeral and "is called off; 1 of 1 signed up told by DM" in off.content
        await double.wait_for(lambda: "This night is called off." in _signup(room).content, 5, "the sign-up")
        assert not _signup(room).component("ch:n:1:in")
        assert any("is called off by the organiser" in m.content for m in sadie.dms())
        again = await answer_to(await ruth.slash("league-admin", "night-cancel"))
        assert again.ephemeral and "no night waiting to begin" in again.content
        late = await (await sadie.at(room).click_removed(signup, "ch:n:1:in")).followups(1)
        assert late[0].ephemeral and "This night is called off" in late[0].content
