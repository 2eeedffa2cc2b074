"""The offline Discord proven with the real discord.py: a small bot (tests/support/doublebot.py) against it."""

from __future__ import annotations

import asyncio
import hashlib
import io
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image
from support.discord_double import Double, PlayerError, SpecMissing, discord_pointed_at, load_validator
from support.discord_double.spec import SpecValidator
from support.doublebot import TILES, DoubleTestBot

MESSAGES = "POST /channels/{channel_id}/messages"


@pytest.fixture
async def bot(discord_double: Double) -> AsyncIterator[DoubleTestBot]:
    """The test bot, connected to the double and ready."""
    async with discord_double.running(DoubleTestBot(discord_double.guild_id)) as running:
        yield running


async def outcome(bot: DoubleTestBot, name: str) -> Any:
    """What a command of the bot saw, waited for with a timeout."""
    return await asyncio.wait_for(bot.outcome(name), 5)


async def test_bot_connects_identifies_and_is_ready(discord_double: Double, bot: DoubleTestBot) -> None:
    gateway = discord_double.gateway
    assert bot.readies == 1 and bot.is_ready()
    assert gateway.identifies == 1 and gateway.connected and gateway.heartbeats >= 1
    assert [g.id for g in bot.guilds] == [discord_double.guild_id]
    assert bot.get_channel(discord_double.general.id) is not None
    assert bot.user is not None and bot.user.id == discord_double.world.application_id


async def test_commands_sync_to_the_guild_and_globally(discord_double: Double, bot: DoubleTestBot) -> None:
    world = discord_double.world
    guild_names = {c.name for c in world.commands.values() if c.guild_id == discord_double.guild_id}
    global_names = {c.name for c in world.commands.values() if c.guild_id is None}
    assert {"table", "play", "dm", "bad", "feedback"} <= guild_names
    assert global_names == {"rack"}
    assert world.rest_calls["PUT /applications/{application_id}/guilds/{guild_id}/commands"] == 1
    assert world.rest_calls["PUT /applications/{application_id}/commands"] == 1
    assert not world.invalid  # every synced body matched the spec
    fetched = await bot.tree.fetch_commands(guild=discord.Object(discord_double.guild_id))
    assert {c.name for c in fetched} == guild_names


async def test_slash_command_with_subcommand_and_options(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    sent = await alice.slash("table", "new", card="practice", seats=3)
    message = await sent.message()
    assert sent.response_type == 4
    assert message.content == "New practice table for 3"
    assert message.custom_ids == ["table:join", "table:leave", "table:seat"]
    assert discord_double.last_message() is message
    stats = discord_double.world.latency_percentiles()
    assert stats["n"] == 1 and 0 < stats["p50"] < 5


async def test_players_cannot_send_what_the_client_would_not(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    with pytest.raises(PlayerError, match="must be one of"):
        await alice.slash("table", "new", card="nmjl")
    with pytest.raises(PlayerError, match=r"within \[3, 4\]"):
        await alice.slash("table", "new", card="practice", seats=9)
    with pytest.raises(PlayerError, match="not synced"):
        await alice.slash("nosuch")


async def test_button_click_updates_the_message_then_a_followup(discord_double: Double, bot: DoubleTestBot) -> None:
    alice, bob = discord_double.user("alice"), discord_double.user("bob")
    table = await (await alice.slash("table", "new", card="practice")).message()
    click = await bob.click(table, "table:join")
    assert await click.response() == 7
    welcome = (await click.followups(1))[0]
    assert table.content == "bob joined" and table.edits == 1
    assert welcome.content == "Welcome to the table" and welcome.ephemeral
    assert welcome in bob.sees() and welcome not in alice.sees()
    assert discord_double.last_message() is table  # the ephemeral followup is not public


async def test_deferred_update_then_edit_through_the_token(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    table = await (await alice.slash("table", "new", card="practice")).message()
    left = await alice.click(table, "table:leave")
    assert await left.response() == 6
    await discord_double.wait_for(lambda: table.content == "alice left", what="the table message edit")
    assert left.interaction.original is table and left.interaction.messages == []


async def test_select_answers_privately(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    table = await (await alice.slash("table", "new", card="practice")).message()
    chosen = await alice.select(table, "table:seat", ["south"])
    reply = await chosen.message()
    assert reply.content == "seat south" and reply.visible_to == alice.id
    with pytest.raises(PlayerError, match="no option"):
        await alice.select(table, "table:seat", ["north"])


async def test_autocomplete_returns_the_bots_choices(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    choices = await alice.autocomplete("play", "discard", tile="5")
    assert [c["value"] for c in choices] == [t for t in TILES if "5" in t]
    played = await (await alice.slash("play", "discard", tile="5D")).message()
    assert played.content == "discarded 5D"


async def test_modal_opens_and_its_submission_is_answered(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    opened = await alice.slash("feedback")
    assert await opened.response() == 9 and opened.modal is not None and opened.modal["title"] == "Feedback"
    submitted = await alice.submit_modal(opened, {"feedback:text": "the wall ran out"})
    thanks = await submitted.message()
    assert thanks.content == "Thanks: the wall ran out" and thanks.ephemeral


async def test_dm_is_delivered_and_closed_dms_raise_50007(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    open_dms, closed = discord_double.user("carol"), discord_double.user("dave", dms_open=False)
    await (await alice.slash("dm", who=open_dms)).message()
    assert await outcome(bot, "dm") == "sent"
    assert [m.content for m in open_dms.dms()] == ["Your rack is ready"]
    bot.outcomes.pop("dm")
    await (await alice.slash("dm", who=closed)).message()
    error = await outcome(bot, "dm")
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert closed.dms() == []


async def test_late_first_response_gets_10062(discord_double: Double, bot: DoubleTestBot) -> None:
    sent = await discord_double.user("alice").slash("slow", step="respond")
    await asyncio.wait_for(bot.slow_started.wait(), 5)
    discord_double.advance(3.5)  # Discord's clock passes the 3 s deadline while the bot works
    bot.slow_release.set()
    error = await outcome(bot, "slow")
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert sent.interaction.errors == [10062] and not sent.interaction.responded


async def test_followup_after_15_minutes_gets_50027(discord_double: Double, bot: DoubleTestBot) -> None:
    sent = await discord_double.user("alice").slash("slow", step="followup")
    await asyncio.wait_for(bot.slow_started.wait(), 5)
    discord_double.advance(15 * 60 + 1)
    bot.slow_release.set()
    error = await outcome(bot, "slow")
    assert isinstance(error, discord.HTTPException) and error.status == 401 and error.code == 50027
    assert sent.response_type == 5 and sent.interaction.followups == []


async def test_second_initial_response_gets_40060(discord_double: Double, bot: DoubleTestBot) -> None:
    sent = await discord_double.user("alice").slash("twice")
    error = await outcome(bot, "twice")
    assert isinstance(error, discord.HTTPException) and error.code == 40060
    assert [m.content for m in sent.interaction.messages] == ["one"]


async def test_rate_limit_is_waited_out_and_nothing_is_lost(discord_double: Double, bot: DoubleTestBot) -> None:
    discord_double.rate_limit(MESSAGES, times=1, retry_after=0.05)
    sent = await discord_double.user("alice").slash("announce")
    await sent.message()
    world = discord_double.world
    assert world.rate_limited[MESSAGES] == 1 and world.rest_calls[MESSAGES] == 2
    assert [m.content for m in discord_double.general.live_messages if m.visible_to is None] == ["news"]


async def test_reconnect_resumes_and_replays_missed_dispatches(discord_double: Double, bot: DoubleTestBot) -> None:
    gateway = discord_double.gateway
    await gateway.reconnect()
    assert not gateway.connected
    sent = await discord_double.user("alice").slash("table", "new", card="practice")  # dispatched while away
    message = await sent.message()
    assert message.content.startswith("New practice table")
    assert gateway.resumes == 1 and gateway.identifies == 1 and gateway.connections == 2
    await discord_double.wait_for(lambda: bot.resumes == 1, what="on_resumed")
    await discord_double.reconnect()  # and again, waiting for the RESUME this time
    assert gateway.resumes == 2 and bot.readies == 1


@pytest.mark.parametrize("what", ["select", "custom_id"])
async def test_invalid_body_is_refused_with_50035(discord_double: Double, bot: DoubleTestBot, what: str) -> None:
    discord_double.expect_invalid(1)
    sent = await discord_double.user("alice").slash("bad", what=what)
    error = await outcome(bot, "bad")
    assert isinstance(error, discord.HTTPException) and error.status == 400 and error.code == 50035
    (invalid,) = discord_double.world.invalid
    row = invalid.errors["data"]["components"]["0"]["components"]["0"]
    assert ("options" if what == "select" else "custom_id") in row
    assert not sent.interaction.responded


async def test_ephemeral_deferral_then_file_with_alt_text(discord_double: Double, bot: DoubleTestBot) -> None:
    alice, bob = discord_double.user("alice"), discord_double.user("bob")
    sent = await alice.slash("rack")
    assert await sent.response() == 5
    message = await sent.message()
    assert message.content == "Your rack" and message.ephemeral
    (picture,) = message.attachments
    assert picture.filename == "rack.png" and picture.description == "Your rack: 13 tiles"
    assert Image.open(io.BytesIO(picture.data)).size == (64, 32)
    assert message in alice.sees() and message not in bob.sees()


async def test_global_command_in_a_dm(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    message = await (await alice.at(alice.dm_channel).slash("rack")).message()
    assert message.channel is alice.dm_channel and message.attachments[0].filename == "rack.png"


async def test_edit_replaces_attachments(discord_double: Double, bot: DoubleTestBot) -> None:
    sent = await discord_double.user("alice").slash("card")
    message = await sent.message()
    await discord_double.wait_for(lambda: message.edits == 1, what="the edit of the original")
    assert message.content == "card v2"
    assert [(a.filename, a.description) for a in message.attachments] == [("second.png", "second picture")]
    assert Image.open(io.BytesIO(message.attachments[0].data)).size == (20, 10)


async def test_attachment_option_is_downloadable(discord_double: Double, bot: DoubleTestBot) -> None:
    alice, bob = discord_double.user("alice"), discord_double.user("bob")
    data = b"card text\n" * 50
    upload = alice.upload("card.toml", data, "text/plain")
    lobby = discord_double.channel("lobby")
    reply = await (await alice.slash("inspect", file=upload, about=bob, where=lobby)).message()
    assert reply.content == f"card.toml {len(data)} {hashlib.sha256(data).hexdigest()} bob lobby"


async def test_deferred_answer_and_followups_edited_and_deleted(discord_double: Double, bot: DoubleTestBot) -> None:
    sent = await discord_double.user("alice").slash("ask")
    more_id, temporary_id = await outcome(bot, "ask")
    answer, more = sent.interaction.messages
    assert (answer.content, more.content) == ("answer", "and one more thing, edited")
    assert more.id == more_id and discord_double.world.messages[temporary_id].deleted
    assert not answer.loading and not answer.ephemeral


async def test_channel_messages_edit_keeps_and_adds_files_delete_history(discord_double: Double,
                                                                          bot: DoubleTestBot) -> None:
    await discord_double.user("alice").slash("cycle")
    first_id, fetched_id, history = await outcome(bot, "cycle")
    first = discord_double.world.messages[first_id]
    assert first.content == "cycle v2"
    assert [(a.filename, a.description) for a in first.attachments] == [("a.png", "A"), ("b.png", "B")]
    assert fetched_id == discord_double.general.id and history == ["cycle v2"]
    calls = discord_double.world.rest_calls
    assert calls["PATCH /channels/{channel_id}/messages/{message_id}"] == 1
    assert calls["DELETE /channels/{channel_id}/messages/{message_id}"] == 1


async def test_message_content_needs_the_intent_or_a_mention(discord_double: Double, bot: DoubleTestBot) -> None:
    alice = discord_double.user("alice")
    await alice.say("hello")
    await alice.say(f"{discord_double.world.bot.mention} hello")
    await discord_double.wait_for(lambda: len(bot.heard) == 2, what="the bot to hear both messages")
    assert bot.heard == [("alice", ""), ("alice", f"<@{bot.user.id if bot.user else 0}> hello")]


async def test_threads_from_a_message_and_without_one(discord_double: Double, bot: DoubleTestBot) -> None:
    alice, bob = discord_double.user("alice"), discord_double.user("bob")
    sent = await alice.slash("thread")
    on_message, loose, private = await outcome(bot, "thread")
    origin = await sent.message()
    threads = {t.id: t for t in discord_double.threads()}
    assert on_message == origin.id and set(threads) == {on_message, loose, private}
    assert threads[on_message].messages[0].content == "Welcome to table 1"
    assert threads[loose].name == "Lobby" and [m.content for m in bob.sees(threads[loose])] == ["Lobby open"]
    assert threads[private].type == 12 and alice.id in threads[private].member_ids
    assert [m.content for m in alice.sees(threads[private])] == ["only for you"] and bob.sees(threads[private]) == []


async def test_unknown_route_is_answered_404_and_recorded(discord_double: Double, bot: DoubleTestBot) -> None:
    discord_double.expect_unknown_routes()
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert discord_double.world.unknown_routes == ["GET /api/v10/voice/regions"]


async def test_wrong_token_fails_login(discord_double: Double) -> None:
    bot = DoubleTestBot(discord_double.guild_id)
    with discord_pointed_at(discord_double.api_base, discord_double.gateway_url), pytest.raises(discord.LoginFailure):
        await bot.login("MTIz.not.the-token")
    await bot.close()
    assert [(r.key, r.status) for r in discord_double.world.requests] == [("GET /users/@me", 401)]


def test_limits_the_schema_cannot_say_are_checked(discord_spec: SpecValidator) -> None:
    route = "/channels/{channel_id}/messages"
    button = {"type": 2, "style": 1, "label": "go", "custom_id": "same"}
    twice = {"content": "x", "components": [{"type": 1, "components": [button, button]}]}
    errors = discord_spec.errors("POST", route, twice)
    assert errors is not None and "custom_id" in errors["components"]["0"]["components"]["1"]
    long_content = discord_spec.errors("POST", route, {"content": "x" * 2001})  # bots get 2,000, not 4,000
    assert long_content is not None and "content" in long_content
    embeds = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    assert discord_spec.errors("POST", route, {"embeds": embeds}) is not None
    assert discord_spec.errors("POST", route, {"content": "x" * 2000, "embeds": embeds[:1]}) is None


def test_missing_spec_is_reported_clearly(tmp_path: Path) -> None:
    with pytest.raises(SpecMissing, match="CHARLESTON_DISCORD_SPEC"):
        load_validator(str(tmp_path / "nowhere.json"))


async def test_bot_in_a_subprocess_survives_sigkill_and_restart(discord_double: Double) -> None:
    script = Path(__file__).parents[1] / "support" / "bot_process.py"
    env = {**os.environ, **discord_double.env(), "CHARLESTON_GUILD": str(discord_double.guild_id)}
    gateway, alice = discord_double.gateway, discord_double.user("alice")
    for run in (1, 2):
        process = await asyncio.create_subprocess_exec(sys.executable, str(script), env=env)
        try:
            await discord_double.wait_for(lambda: gateway.identifies == run and gateway.connected, 15,  # noqa: B023
                                          f"bot process {run} to identify")
            await discord_double.wait_for_commands("ping")
            reply = await (await alice.slash("ping")).message()
            assert reply.content == f"pong from {process.pid}"
        finally:
            process.send_signal(signal.SIGKILL)
            await process.wait()
        await discord_double.wait_for(lambda: not gateway.connected, what="the killed bot's connection to drop")
    assert gateway.identifies == 2 and gateway.resumes == 0
    assert gateway.close_codes == [1006, 1006]  # killed: the socket dropped without a close frame
