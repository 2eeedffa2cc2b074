"""A table outlives its thread (cogs/keeper.py), without a bot: the keeper gets the presenter's failed writes as the
bot wires it (``on_failure``). A deleted thread: a new thread in the channel, the service relocated, the players
told (a fresh DM mid-game, a notice between games). An archived thread: unarchived, and the edit lands; one that
stays archived is posted in anew, then replaced. A missing permission: the opener told once, by DM, and the
server's managers when the opener can't be told. The real door on the offline Discord where Discord's answers
decide; a recording door where the keeper's order of steps is the point."""

from __future__ import annotations

import pytest
from support.discord_double import Double
from support.lone_parts import Parts, live_dms, mine, table_in_thread, table_shown_in, thread_of
from support.recording_door import RecordingDoor
from support.service import ALICE, move_people

from bot.service.clock import ManualClock
from bot.service.tables import TableService
from cogs.failures import THREAD_PERMISSIONS, DiscordFailure, Failure
from cogs.show.drawing import Drawing

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
TOLD = "I may no longer post in"


async def _lobby(parts: Parts, double: Double) -> int:
    """A table in its thread with Alice seated (its opener), no one else yet, its lobby shown."""
    parts.listen()
    table_id = await table_in_thread(parts.service, double, [double.user("alice")], computers=None)
    await parts.settle()
    return table_id


@pytest.mark.parametrize("when", ["in the lobby", "mid-game"])
async def test_a_deleted_thread_moves_the_table_to_a_new_thread_and_its_players_are_told(
        discord_double: Double, parts: Parts, when: str) -> None:
    parts.listen()
    alice = discord_double.user("alice")
    playing = when == "mid-game"
    table_id = await table_in_thread(parts.service, discord_double, [alice], computers="hard" if playing else None)
    if playing:
        await parts.service.start(table_id)
    await parts.settle()
    old = thread_of(parts.service, discord_double, table_id)
    old_dms = live_dms(alice)
    discord_double.delete_channel(old)
    if playing:
        assert await move_people(parts.service, table_id) == 1  # her Charleston pass: the table message changes
    else:
        await parts.service.add_computer(table_id, "easy")
    await parts.settle()
    assert parts.failures == [(table_id, Failure.GONE, old.id)]
    new = thread_of(parts.service, discord_double, table_id)
    assert new.id != old.id and new.parent_id == discord_double.general.id
    assert parts.service.view(table_id).channel_id == new.id  # the service relocated: commands there find it
    assert [m.id for m in new.live_messages] == [parts.service.display(table_id).message]
    told = [m for m in live_dms(alice) if f"<#{new.id}>" in m.content]
    assert len(told) == 1
    if playing:  # a fresh DM of her rack, carrying the note, in place of the one she had
        assert told == live_dms(alice) and told[0] not in old_dms and told[0].custom_ids
        assert any(f":{mine(parts.service, table_id, alice).table.token}:" in c for c in told[0].custom_ids)
    else:  # a plain notice: there is no rack to send between games
        assert told[0].custom_ids == [] and told[0].attachments == []


async def test_a_deleted_thread_whose_channel_is_gone_too_closes_the_table_and_tells_its_people(
        discord_double: Double, parts: Parts) -> None:
    parts.listen()
    alice = discord_double.user("alice")
    table_id = await table_in_thread(parts.service, discord_double, [alice])
    await parts.service.start(table_id)
    await parts.settle()
    old = thread_of(parts.service, discord_double, table_id)
    discord_double.delete_channel(discord_double.general)  # its threads go with it
    before = len(discord_double.world.requests)
    assert await move_people(parts.service, table_id) == 1  # her Charleston pass: the table message changes
    await parts.settle()
    assert parts.failures == [(table_id, Failure.GONE, old.id)]
    assert not parts.service.is_open(table_id) and table_id not in parts.presenter.tables
    assert discord_double.threads() == []  # no thread anywhere to move to
    assert not any(r.key == "POST /channels/{channel_id}/threads" and r.status < 300
                   for r in discord_double.world.requests[before:])
    (told,) = [m for m in live_dms(alice) if f"table {table_id} is closed" in m.content]
    assert "its thread and its channel were deleted" in told.content and "abandoned" in told.content


async def test_an_archived_thread_is_unarchived_and_the_edit_lands(discord_double: Double, parts: Parts) -> None:
    table_id = await _lobby(parts, discord_double)
    thread = thread_of(parts.service, discord_double, table_id)
    (lobby,) = thread.live_messages
    discord_double.archive(thread)
    before = len(discord_double.world.requests)
    await parts.service.add_computer(table_id, "easy")
    await parts.settle()
    assert parts.failures == [(table_id, Failure.ARCHIVED, thread.id)]
    steps = [(r.key, r.code, r.body if r.key == "PATCH /channels/{channel_id}" else None)
             for r in discord_double.world.requests[before:] if f"/channels/{thread.id}" in r.path
             and r.method != "GET"]  # discord.py forgets an archived thread: the door looks it up again
    unarchive = ("PATCH /channels/{channel_id}", None, {"archived": False})
    assert steps == [(EDIT, 50083, None), unarchive, (EDIT, None, None)]
    assert not thread.archived and thread.live_messages == [lobby] and "2 of 4 seated" in lobby.content


async def test_an_archived_thread_that_stays_archived_is_posted_in_anew_then_replaced(service: TableService) -> None:
    """Unarchiving did not help (the next edit is refused too), nor did a new message (a locked thread): the table
    moves to a new thread of its channel, and the player is told where."""
    door = RecordingDoor()
    assert isinstance(service.clock, ManualClock)
    parts = Parts(service, service.clock, door, Drawing(0))
    try:
        parts.listen()
        guild, parent, thread = 71, 72, 73
        table_id = await table_shown_in(service, guild, parent, thread, [(ALICE, "alice")], opener=ALICE,
                                        computers=None)
        await parts.settle()
        assert door.steps() == [("send", thread)]  # the lobby
        archived = DiscordFailure(Failure.ARCHIVED, "", code=50083, text="Thread is archived")
        door.refuse("edit", thread, archived)
        door.refuse("send", thread, archived)
        before = len(door.calls)
        await service.add_computer(table_id, "easy")
        await parts.settle()
        new = service.display(table_id).thread
        assert new is not None and new != thread
        assert door.steps(before) == [("edit", thread), ("unarchive", thread), ("edit", thread), ("send", thread),
                                      ("create_thread", parent), ("tell", (ALICE,)), ("send", new)]
        assert parts.failures == [(table_id, Failure.ARCHIVED, thread)] * 3
        assert service.view(table_id).channel_id == new
        assert f"<#{new}>" in door.calls[-2].content and "was locked" in door.calls[-2].content
    finally:
        parts.close()


async def test_a_missing_permission_is_told_to_the_opener_once(discord_double: Double, parts: Parts) -> None:
    carol = discord_double.user("carol")  # manages the server: not told while the opener can be
    parts.managers[discord_double.guild_id] = [carol.id]
    table_id = await _lobby(parts, discord_double)
    alice = discord_double.user("alice")
    thread = thread_of(parts.service, discord_double, table_id)
    (lobby,) = thread.live_messages
    discord_double.forbid(discord_double.general)
    await parts.service.add_computer(table_id, "easy")
    await discord_double.wait_for(lambda: len(parts.failures) >= 3, 5, "the table message tried three times")
    told = [m for m in live_dms(alice) if TOLD in m.content]
    assert len(told) == 1 and f"<#{thread.id}>" in told[0].content and THREAD_PERMISSIONS in told[0].content
    assert set(parts.failures) == {(table_id, Failure.FORBIDDEN, thread.id)}
    assert parts.service.display(table_id).blocked
    discord_double.forbid(discord_double.general, False)
    await discord_double.wait_for(lambda: "2 of 4 seated" in lobby.content, 5, "the table message to catch up")
    await parts.settle()
    assert not parts.service.display(table_id).blocked
    assert len([m for m in live_dms(alice) if TOLD in m.content]) == 1
    assert live_dms(carol) == []


async def test_the_managers_are_told_of_a_missing_permission_when_the_opener_cannot_be(discord_double: Double,
                                                                                      parts: Parts) -> None:
    bob = discord_double.user("bob", dms_open=False)  # opened the table, but his DMs are closed
    carol = discord_double.user("carol")  # manages the server
    parts.managers[discord_double.guild_id] = [carol.id]
    parts.listen()
    table_id = await table_in_thread(parts.service, discord_double, [], opener=bob, computers=None)
    await parts.settle()
    discord_double.forbid(discord_double.general)
    await parts.service.add_computer(table_id, "easy")
    await discord_double.wait_for(lambda: len(parts.failures) >= 2, 5, "the table message tried twice")
    assert live_dms(bob) == []
    told = [m for m in live_dms(carol) if TOLD in m.content]
    assert len(told) == 1 and f"table {table_id}" in told[0].content
    discord_double.forbid(discord_double.general, False)
    await discord_double.wait_for(lambda: not parts.service.display(table_id).blocked, 5, "the table to catch up")
