"""Nothing the bot must deliver is dropped, and no press is lost or counted twice, against the offline Discord
failing as Discord does: a 503 and a timeout on a DM (the prompt arrives), a press whose first response Discord
refused as late (10062: the move counts, and the DM says so), the gateway's op 7, a close code and op 9 mid-game,
and ``/table close`` at each moment (nothing left behind). Each test checks the ledger, that every interaction
Discord let the bot answer was answered within 3 s, and that the log has one line per failure, no traceback."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from support.discord_double import Double, Player
from support.discord_double.models import Channel, Message
from support.e2e_tables import open_table, seat_everyone
from support.fault_tables import (
    answered_in_time,
    bot_for,
    ledger_is_whole,
    one_line_each,
    play_out,
    results_in,
    table_in_play,
)
from support.game_driver import Driver, Person

from bot.engine.actions import Discard
from bot.engine.state import Phase
from bot.engine.views import seat_view
from bot.service.keys import action_key
from cogs.app import CharlestonBot

MESSAGES = "POST /channels/{channel_id}/messages"


@pytest.fixture(autouse=True)
def _log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "charleston")


async def test_a_dm_prompt_survives_a_503_and_a_timeout(discord_double: Double, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    bot = bot_for(discord_double, tmp_path, 11, request_timeout=1.0)
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        dm = alice.dm_channel
        discord_double.overloaded(MESSAGES, channel=dm, times=3)  # 503s, which discord.py does not retry
        discord_double.stall(MESSAGES, 1.5, channel=dm)  # then no answer (the bot gives up after 1 s)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)])
        await driver.play(until=lambda: driver.live.version >= 8)  # her prompts came: she plays from her DMs
        faults = discord_double.world.faults_sent
        await discord_double.wait_for(lambda: len(faults) == 4 and faults[3].status, 5, "the stall to end")
        sent = [(r.status, r.code) for r in faults]
        assert sent == [(503, None)] * 3 + [(408, -1)]  # the stalled request was dropped unprocessed
        said = [r.body for r in discord_double.world.requests if isinstance(r.body, dict)
                and "isn't delivering your DMs" in str(r.body.get("content"))]
        assert said, "after three failures the table message told her to use My rack"
        await discord_double.wait_for(lambda: (m := driver.table_message()) is not None
                                      and "isn't delivering" not in m.content, 5, "the line gone once DMs came")
        def prompts() -> list[Message]:
            return [m for m in alice.dm_channel.live_messages if any(a.filename == "rack.png" for a in m.attachments)]

        await discord_double.wait_for(lambda: len(prompts()) == 1, 5, "one standing prompt (each old one deleted)")
        await play_out(driver, bot)
    answered_in_time(discord_double)
    one_line_each(caplog, "send a DM: Discord 503", "send a DM: Discord - (TimeoutError)")


async def test_a_press_discord_called_failed_counts_once_and_the_dm_says_so(
        discord_double: Double, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    bot = bot_for(discord_double, tmp_path, 12)
    async with discord_double.running(bot):
        driver = await table_in_play(discord_double, bot, alice, 1)
        live = driver.live
        await driver.play(until=lambda: 0 in live.people_awaited() and bool(_discards(driver)))
        token = bot.service.seat_update(driver.table_id, alice.id).table.token
        tile = _discards(driver)[0].tile
        custom_id = f"ch:a:{driver.table_id}:{token}:{action_key(Discard(0, tile))}"
        message = await discord_double.wait_for(
            lambda: next((m for m in reversed(alice.dms()) if custom_id in m.custom_ids), None), 10, "her DM")
        discord_double.late_callbacks(1)  # the bot's answer arrives after Discord's 3 s: "This interaction failed"
        version = live.version
        pressed = await alice.at(message.channel).click(message, custom_id)
        await discord_double.wait_for(lambda: live.version > version, 10, "the discard to count")
        assert pressed.interaction.errors == [10062] and not pressed.interaction.responded
        truth = await discord_double.wait_for(
            lambda: next((m for m in alice.dms() if "Your last press counted" in m.content), None), 10, "the DM")
        assert truth.id != message.id  # a fresh DM (her phone tells her), and the old one goes
        await discord_double.wait_for(lambda: message.deleted, 5, "the old DM deleted")
        assert [a for a in live.game.state.log if a == Discard(0, tile).to_json()] == [Discard(0, tile).to_json()]
        await play_out(driver, bot)
    answered_in_time(discord_double, late=1)
    one_line_each(caplog, "Discord 10062 on POST /interactions/")
    assert pressed.interaction.token not in caplog.text and "/{token}/callback" in caplog.text  # never logged


def _discards(driver: Driver) -> list[Discard]:
    """The discards open to seat 0 now."""
    game = driver.live.game
    return [a for a in seat_view(game, 0).legal if isinstance(a, Discard)] if game is not None else []


async def test_gateway_reconnects_mid_game_lose_no_move(discord_double: Double, tmp_path: Path,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    bot = bot_for(discord_double, tmp_path, 13)
    async with discord_double.running(bot):
        driver = await table_in_play(discord_double, bot, alice, 6)
        await discord_double.reconnect()  # op 7
        await driver.play(until=lambda: driver.live.version >= 12)
        await discord_double.close_gateway(4000)  # a close code the bot resumes after
        await driver.play(until=lambda: driver.live.version >= 18)
        await discord_double.invalidate_session(True)  # op 9, resumable
        await driver.play(until=lambda: driver.live.version >= 24)
        assert discord_double.gateway.resumes == 3 and discord_double.gateway.identifies == 1
        await play_out(driver, bot)
    answered_in_time(discord_double)
    one_line_each(caplog)


async def test_table_close_at_each_moment_leaves_nothing_behind(discord_double: Double, tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    bot = bot_for(discord_double, tmp_path, 14, 15, 16)
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        lobby = await open_table(discord_double, alice, computer_delay=0)
        await _close(discord_double, bot, alice, lobby, _thread(discord_double, bot, lobby))

        playing = await table_in_play(discord_double, bot, alice, 6)
        game_id = playing.live.game_id
        await _close(discord_double, bot, alice, playing.table_id, playing.thread())
        (how,) = await bot.service.db.fetchone("SELECT how FROM games WHERE game_id = ?", (game_id,))
        assert how == "abandoned"

        finished = await table_in_play(discord_double, bot, alice, 6)
        thread, game_id = finished.thread(), finished.live.game_id
        await bot.service.leave(finished.table_id, alice.id)  # a computer finishes her hand at once
        assert finished.live.game is not None and finished.live.game.state.phase == Phase.FINISHED
        await _close(discord_double, bot, alice, finished.table_id, thread)  # before the results are posted
        assert results_in(thread) is not None
        await ledger_is_whole(bot, settled=[game_id])
    answered_in_time(discord_double)
    one_line_each(caplog)


def _thread(double: Double, bot: CharlestonBot, table_id: int) -> Channel:
    thread = bot.service.display(table_id).thread
    assert thread is not None
    return double.world.channels[thread]


async def _close(double: Double, bot: CharlestonBot, alice: Player, table_id: int, thread: Channel) -> None:
    """``/table close`` in the table's thread: answered, and nothing of the table left behind."""
    answer = await (await alice.at(thread).slash("table", "close")).message()
    assert answer.content == f"Table {table_id} is closed."
    await double.wait_for(lambda: table_id not in bot.presenter.tables and thread.archived, 10, "the table closed")
    await double.wait_for(lambda: all(t != table_id for t, _ in bot.dms.seats), 10, "its DMs brought to a close")
    assert not bot.service.is_open(table_id)
    buttons = [m for m in thread.live_messages if m.custom_ids]
    assert buttons == [], buttons  # no message with live buttons left in the thread
    assert any("This table is closed" in m.content for m in thread.live_messages)
    for dm in [m for m in alice.dms() if not m.deleted]:  # her DMs keep no button of a closed table
        assert not any(f"ch:a:{table_id}:" in c or f"ch:p:{table_id}:" in c for c in dm.custom_ids), dm
