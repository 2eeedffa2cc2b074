"""A table outlives its thread (cogs/keeper.py), against the offline Discord failing as Discord does: a deleted
thread (the game finishes in a new one, the player told), a deleted channel or one the bot may no longer post in
(the table closes, the game recorded abandoned, the player told), an archived thread, a permission taken away
for a while (the opener told once, the table catching up), a deleted table message. Each test checks the ledger,
that every interaction was answered in time, and that the log has one line per failure and no traceback."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from support.discord_double import Double
from support.fault_tables import (
    answered_in_time,
    bot_for,
    ledger_is_whole,
    one_line_each,
    play_on,
    play_out,
    results_in,
    table_in_play,
)


@pytest.fixture(autouse=True)
def _log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "charleston")


async def test_a_deleted_thread_moves_the_table_and_the_game_finishes_in_the_new_one(
        discord_double: Double, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    bot = bot_for(discord_double, tmp_path, 5)
    async with discord_double.running(bot):
        driver = await table_in_play(discord_double, bot, alice, 10)
        old = driver.thread()
        discord_double.delete_channel(old)  # THREAD_DELETE
        moved = await discord_double.wait_for(lambda: bot.service.display(driver.table_id).thread != old.id, 10,
                                              "the table to move")
        new = driver.thread()
        assert moved and new.parent_id == old.parent_id and new.id in discord_double.world.channels
        await discord_double.wait_for(lambda: any(f"<#{new.id}>" in m.content for m in alice.dms()), 10,
                                      "Alice told where the table is now")
        await discord_double.wait_for(driver.table_message, 10, "the table message in the new thread")
        await play_on(driver, 6)  # play goes on there
        await play_out(driver, bot)
        assert results_in(new) is not None
    answered_in_time(discord_double)
    one_line_each(caplog, "was deleted; the table now plays in thread")


@pytest.mark.parametrize("how", ["channel deleted", "no permission for a new thread"])
async def test_a_table_whose_channel_is_gone_closes_and_its_players_are_told(
        discord_double: Double, tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str) -> None:
    room = discord_double.channel("mahjong")
    alice = discord_double.user("alice").at(room)
    bot = bot_for(discord_double, tmp_path, 6)
    async with discord_double.running(bot):
        driver = await table_in_play(discord_double, bot, alice, 8)
        table_id, game_id, thread = driver.table_id, driver.live.game_id, driver.thread()
        if how == "channel deleted":
            discord_double.delete_channel(room)  # CHANNEL_DELETE: its threads go with it
        else:
            discord_double.forbid(room)
            discord_double.delete_channel(thread)  # THREAD_DELETE, and no permission to open another
        await discord_double.wait_for(lambda: not bot.service.is_open(table_id), 10, "the table to close")
        told = await discord_double.wait_for(
            lambda: next((m for m in alice.dms() if "is closed" in m.content), None), 10, "Alice told")
        assert "abandoned: no chips changed hands" in told.content
        await bot.presenter.settle()
        assert table_id not in bot.presenter.tables
        await discord_double.wait_for(lambda: not any(t == table_id for t, _ in bot.dms.seats), 5, "DMs done")
        (ended,) = await bot.service.db.fetchall("SELECT how, ended_at FROM games WHERE game_id = ?", (game_id,))
        assert tuple(ended) == ("abandoned", None)
        await ledger_is_whole(bot)
        assert await bot.service.db.fetchall("SELECT * FROM ledger_transactions WHERE game_id = ?", (game_id,)) == []
    answered_in_time(discord_double)
    one_line_each(caplog, "closed, its")


async def test_an_archived_thread_is_brought_back_and_play_goes_on(discord_double: Double, tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    bot = bot_for(discord_double, tmp_path, 7)
    async with discord_double.running(bot):
        driver = await table_in_play(discord_double, bot, alice, 8)
        thread = driver.thread()
        discord_double.archive(thread)
        await play_on(driver, 6)
        await discord_double.wait_for(lambda: not thread.archived, 10, "the thread unarchived")
        world = discord_double.world
        assert any(r.code == 50083 for r in world.requests)
        assert any(r.key == "PATCH /channels/{channel_id}" and r.body == {"archived": False} for r in world.requests)
        await play_out(driver, bot)
    answered_in_time(discord_double)
    one_line_each(caplog, "Discord 50083", "unarchived it")


async def test_a_permission_taken_away_is_told_to_the_opener_once_and_the_table_catches_up(
        discord_double: Double, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    bot = bot_for(discord_double, tmp_path, 8)
    async with discord_double.running(bot):
        driver = await table_in_play(discord_double, bot, alice, 8)
        await bot.presenter.settle()
        discord_double.forbid(discord_double.general)  # the thread's channel: the bot may no longer post there
        await play_on(driver, 1)  # a move: the table message is refused
        told = await discord_double.wait_for(
            lambda: [m for m in alice.dms() if "I may no longer post in" in m.content], 10, "the opener told")
        assert "Send Messages in Threads" in told[0].content
        refused = driver.table_message()
        assert refused is not None
        stale = (refused.id, refused.edits, refused.content)
        discord_double.forbid(discord_double.general, False)  # CHANNEL_UPDATE: the table catches up at once
        await discord_double.wait_for(lambda: (m := driver.table_message()) is not None and (
            m.id, m.edits) != stale[:2], 10, "the table message to catch up")
        assert driver.table_message().content != stale[2]  # type: ignore[union-attr]
        await play_on(driver, 4)
        await play_out(driver, bot)
        assert len([m for m in alice.dms() if "I may no longer post in" in m.content]) == 1
    answered_in_time(discord_double)
    one_line_each(caplog, "Discord 50013", "may post in its thread again")


async def test_a_deleted_table_message_is_posted_again(discord_double: Double, tmp_path: Path,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    bot = bot_for(discord_double, tmp_path, 9)
    async with discord_double.running(bot):
        driver = await table_in_play(discord_double, bot, alice, 8)
        await bot.presenter.settle()
        old = driver.table_message()
        assert old is not None
        discord_double.delete_message(old)  # MESSAGE_DELETE
        await discord_double.wait_for(lambda: (m := driver.table_message()) is not None and m.id != old.id, 10,
                                      "the table message posted again")
        await play_on(driver, 4)
        await play_out(driver, bot)
    answered_in_time(discord_double)
    one_line_each(caplog, "its table message was deleted")
