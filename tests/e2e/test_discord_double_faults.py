"""The offline Discord's faults, as Discord sends them: an error's status, JSON body (or plain text) and headers;
a request left unanswered and dropped when the bot gives up; a first response arriving after 3 s; archived
threads, missing permissions and deleted channels; gateway close codes, op 7 and op 9 with RESUME or a new
IDENTIFY. Each is checked on the wire, and with the real discord.py (tests/support/doublebot.py) where it matters."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from support.discord_double import Double
from support.discord_double.double import OVERLOADED
from support.doublebot import DoubleTestBot

MESSAGES = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


@pytest.fixture
async def bot(discord_double: Double) -> AsyncIterator[DoubleTestBot]:
    """The test bot, connected to the double and ready."""
    async with discord_double.running(DoubleTestBot(discord_double.guild_id)) as running:
        yield running


async def rest(double: Double, method: str, path: str, body: dict[str, Any] | None = None,
               timeout: float = 5.0) -> tuple[int, dict[str, str], Any]:
    """One request to the double as the bot, on the wire: (status, headers, body: JSON or text)."""
    headers = {"Authorization": f"Bot {double.token}"}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as session, \
            session.request(method, double.api_base + path, json=body, headers=headers) as response:
        text = await response.text()
        parsed = json.loads(text) if response.content_type == "application/json" and text else text
        return response.status, dict(response.headers), parsed


async def test_an_error_comes_with_its_status_json_body_and_headers_then_the_route_works(
        discord_double: Double) -> None:
    channel = discord_double.general
    discord_double.fail(MESSAGES, 403, 50013, "Missing Permissions", channel=channel, headers={"X-Audit": "1"})
    status, headers, body = await rest(discord_double, "POST", f"/channels/{channel.id}/messages", {"content": "a"})
    assert (status, body, headers["X-Audit"]) == (403, {"message": "Missing Permissions", "code": 50013}, "1")
    assert headers["Content-Type"] == "application/json"
    discord_double.overloaded(MESSAGES)
    status, headers, body = await rest(discord_double, "POST", f"/channels/{channel.id}/messages", {"content": "b"})
    assert (status, body) == (503, OVERLOADED) and headers["Content-Type"].startswith("text/plain")
    status, _, body = await rest(discord_double, "POST", f"/channels/{channel.id}/messages", {"content": "c"})
    assert status == 200 and body["content"] == "c"
    assert [m.content for m in channel.live_messages] == ["c"]  # the refused ones left nothing
    assert [r.status for r in discord_double.world.faults_sent] == [403, 503]


async def test_a_stalled_request_the_client_gives_up_on_is_dropped_and_one_waited_out_is_served(
        discord_double: Double) -> None:
    channel = discord_double.general
    discord_double.stall(MESSAGES, 0.6, channel=channel)
    with pytest.raises(TimeoutError):
        await rest(discord_double, "POST", f"/channels/{channel.id}/messages", {"content": "lost"}, timeout=0.2)
    await discord_double.wait_for(lambda: discord_double.world.faults_sent[-1].code == -1, 3, "the drop")
    discord_double.stall(MESSAGES, 0.2, channel=channel)
    status, _, _ = await rest(discord_double, "POST", f"/channels/{channel.id}/messages", {"content": "slow"})
    assert status == 200 and [m.content for m in channel.live_messages] == ["slow"]


async def test_discord_py_raises_a_503_and_a_late_first_response_is_10062_with_a_dead_token(
        discord_double: Double, bot: DoubleTestBot) -> None:
    alice, carol = discord_double.user("alice"), discord_double.user("carol")
    discord_double.overloaded(MESSAGES, channel=carol.dm_channel)
    await (await alice.slash("dm", who=carol)).message()
    error = await asyncio.wait_for(bot.outcome("dm"), 5)
    assert isinstance(error, discord.DiscordServerError) and error.status == 503 and error.text == OVERLOADED
    assert carol.dms() == []  # discord.py gives up on a 503 at once: retrying is the bot's business

    discord_double.late_callbacks(1)
    sent = await alice.slash("slow", step="respond")
    await asyncio.wait_for(bot.slow_started.wait(), 5)
    bot.slow_release.set()
    late = await asyncio.wait_for(bot.outcome("slow"), 5)
    assert isinstance(late, discord.NotFound) and late.code == 10062
    assert sent.interaction.errors == [10062] and sent.interaction.expired and not sent.interaction.responded
    token = sent.interaction.token
    status, _, body = await rest(discord_double, "POST", f"/webhooks/{discord_double.world.application_id}/{token}",
                                 {"content": "after all"})
    assert (status, body["code"]) == (404, 10015)


async def test_archived_threads_refuse_edits_until_a_post_unarchives_them_and_forbidding_covers_threads(
        discord_double: Double, bot: DoubleTestBot) -> None:
    world, general = discord_double.world, discord_double.general
    thread = world.create_thread(general, "table")
    status, _, posted = await rest(discord_double, "POST", f"/channels/{thread.id}/messages", {"content": "v1"})
    discord_double.archive(thread)
    status, _, body = await rest(discord_double, "PATCH", f"/channels/{thread.id}/messages/{posted['id']}",
                                 {"content": "v2"})
    assert (status, body["code"]) == (400, 50083)
    status, _, _ = await rest(discord_double, "POST", f"/channels/{thread.id}/messages", {"content": "again"})
    assert status == 200 and not thread.archived  # a new message unarchives a thread that is not locked

    discord_double.forbid(general)  # the bot loses its permissions in the channel, and so in its threads
    for method, path, body in [("POST", f"/channels/{thread.id}/messages", {"content": "x"}),
                               ("PATCH", f"/channels/{thread.id}/messages/{posted['id']}", {"content": "x"}),
                               ("POST", f"/channels/{general.id}/threads", {"name": "t", "type": 11})]:
        status, _, answer = await rest(discord_double, method, path, body)
        assert (status, answer["code"]) == (403, 50013), path
    discord_double.forbid(general, False)  # and gets them back: CHANNEL_UPDATE tells the bot
    await discord_double.wait_for(lambda: general.id in bot.channel_updates, 5, "CHANNEL_UPDATE")

    discord_double.delete_channel(general)  # its threads go with it
    status, _, body = await rest(discord_double, "POST", f"/channels/{thread.id}/messages", {"content": "x"})
    assert (status, body["code"]) == (404, 10003)
    await discord_double.wait_for(lambda: general.id in bot.deleted_channels, 5, "CHANNEL_DELETE")


@pytest.mark.parametrize(("code", "resumable"), [(4000, True), (4009, False)])
async def test_a_closed_gateway_resumes_with_what_it_missed_or_identifies_anew(
        discord_double: Double, bot: DoubleTestBot, code: int, resumable: bool) -> None:
    gateway = discord_double.gateway
    await gateway.close(code, resumable=resumable)
    sent = await discord_double.user("alice").slash("table", "new", card="practice")  # dispatched while away
    await discord_double.wait_for(lambda: gateway.connected, 15, "the bot to come back")
    assert gateway.closed_with == [code]
    if resumable:
        assert (await sent.message()).content.startswith("New practice table")  # replayed on RESUME
        assert gateway.resumes == 1 and gateway.identifies == 1
    else:
        await discord_double.wait_for(lambda: gateway.identifies == 2, 5, "a new IDENTIFY")
        assert not sent.interaction.responded  # lost with the session, as on Discord
        await discord_double.wait_for(lambda: bot.readies == 2, 5, "READY again")
    again = await (await discord_double.user("alice").slash("table", "new", card="practice")).message()
    assert again.content.startswith("New practice table")


async def test_op_9_resumable_resumes_and_not_resumable_identifies(discord_double: Double, bot: DoubleTestBot) -> None:
    gateway = discord_double.gateway
    await discord_double.invalidate_session(True)
    assert gateway.resumes == 1 and gateway.identifies == 1
    await discord_double.invalidate_session(False)
    assert gateway.identifies == 2
    await discord_double.wait_for(lambda: bot.readies == 2, 5, "READY again")
    answer = await (await discord_double.user("alice").slash("table", "new", card="practice")).message()
    assert answer.content.startswith("New practice table")
