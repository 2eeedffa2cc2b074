"""The table message (cogs/show/presenter.py), without a bot: the real presenter over a real table service and the
real door on the offline Discord. The lobby is posted once, then edited in place; a table whose look has not
changed is not edited; a deleted table message is posted again; a finished game's results are posted once, even by
a presenter started afresh; a close shows the table closed, archives its thread and forgets it; and a write to the
thread that Discord refuses goes to ``on_failure`` with the thread it was for."""

from __future__ import annotations

import pytest
from support.discord_double import Double
from support.lone_parts import Parts, live_dms, requests_to, table_in_thread, thread_of

from bot.service.updates import TablePhase
from cogs.failures import Failure
from cogs.show.drawing import Drawing

POST, EDIT = "POST /channels/{channel_id}/messages", "PATCH /channels/{channel_id}/messages/{message_id}"
RESULTS = "Settled in the chip ledger"


async def _lobby(parts: Parts, double: Double) -> int:
    """A table in its thread with Alice seated, no one else yet, its lobby shown."""
    parts.listen()
    table_id = await table_in_thread(parts.service, double, [double.user("alice")], computers=None)
    await parts.settle()
    return table_id


async def test_the_lobby_is_posted_once_then_edited_in_place(discord_double: Double, parts: Parts) -> None:
    table_id = await _lobby(parts, discord_double)
    thread = thread_of(parts.service, discord_double, table_id)
    (lobby,) = thread.live_messages
    assert "1 of 4 seated" in lobby.content and f"ch:t:{table_id}:join" in lobby.custom_ids
    assert parts.service.display(table_id).message == lobby.id
    edits = lobby.edits
    await parts.service.add_computer(table_id, "easy")
    await parts.settle()
    assert thread.live_messages == [lobby] and lobby.edits > edits and "2 of 4 seated" in lobby.content
    assert set(requests_to(discord_double, thread)) == {POST, EDIT}
    assert requests_to(discord_double, thread).count(POST) == 1


async def test_a_table_whose_look_has_not_changed_is_not_edited(discord_double: Double, parts: Parts) -> None:
    table_id = await _lobby(parts, discord_double)
    thread = thread_of(parts.service, discord_double, table_id)
    before = len(discord_double.world.requests)
    parts.presenter.on_table(parts.service.snapshot(table_id))  # the same table, told again
    parts.presenter.poke(table_id, now=True)
    await parts.settle()
    assert requests_to(discord_double, thread, before) == []
    await parts.service.add_computer(table_id, "easy")  # a change it shows: edited
    await parts.settle()
    assert requests_to(discord_double, thread, before) == [EDIT]


async def test_a_deleted_table_message_is_posted_again(discord_double: Double, parts: Parts) -> None:
    table_id = await _lobby(parts, discord_double)
    thread = thread_of(parts.service, discord_double, table_id)
    (lobby,) = thread.live_messages
    discord_double.delete_message(lobby)
    before = len(discord_double.world.requests)
    await parts.service.add_computer(table_id, "easy")
    await parts.settle()
    tried = [(r.key, r.code) for r in discord_double.world.requests[before:] if f"/{thread.id}/" in r.path]
    assert tried == [(EDIT, 10008), (POST, None)]
    (again,) = thread.live_messages
    assert "2 of 4 seated" in again.content and parts.service.display(table_id).message == again.id
    assert parts.failures == []  # the presenter's own business: nothing for the keeper


async def test_a_finished_games_results_are_posted_once_even_by_a_presenter_started_afresh(
        discord_double: Double, parts: Parts) -> None:
    parts.listen()
    alice = discord_double.user("alice")
    table_id = await table_in_thread(parts.service, discord_double, [], opener=alice)  # four computers
    await parts.service.start(table_id)  # they play the whole game at once
    await parts.settle()
    assert parts.service.snapshot(table_id).phase is TablePhase.FINISHED
    thread = thread_of(parts.service, discord_double, table_id)

    def results() -> list[str]:
        return [m.content for m in thread.live_messages if RESULTS in m.content]

    assert len(results()) == 1 and parts.service.display(table_id).results == 1
    parts.presenter.on_table(parts.service.snapshot(table_id))
    await parts.settle()
    afresh = Parts(parts.service, parts.clock, parts.door, Drawing(0))  # a restart: nothing remembered but the record
    try:
        afresh.presenter.on_table(parts.service.snapshot(table_id))
        await afresh.settle()
    finally:
        afresh.close()
    assert len(results()) == 1
    assert thread.live_messages[-1].id == parts.service.display(table_id).message  # the table message below them


async def test_a_close_shows_the_table_closed_archives_its_thread_and_forgets_it(discord_double: Double,
                                                                                parts: Parts) -> None:
    parts.listen()
    alice = discord_double.user("alice")
    table_id = await table_in_thread(parts.service, discord_double, [alice])
    await parts.service.start(table_id)
    await parts.settle()
    thread = thread_of(parts.service, discord_double, table_id)
    assert not thread.archived and table_id in parts.presenter.tables
    await parts.service.close_table(table_id, by=alice.id)
    await parts.settle()
    table_message = thread.live_messages[-1]
    assert "closed" in table_message.content.lower() and table_message.custom_ids == []
    assert thread.archived
    assert table_id not in parts.presenter.tables
    assert not any(table == table_id for table, _ in parts.dms.seats)
    (dm,) = live_dms(alice)
    assert "closed" in dm.content.lower() and dm.custom_ids == []  # her DM says so too, with nothing to press


@pytest.mark.parametrize(("how", "kind", "code"), [
    ("forbidden", Failure.FORBIDDEN, 50013), ("archived", Failure.ARCHIVED, 50083), ("deleted", Failure.GONE, 10003)])
async def test_a_write_to_the_thread_that_discord_refuses_goes_to_on_failure_with_the_thread(
        discord_double: Double, parts: Parts, how: str, kind: Failure, code: int) -> None:
    parts.keeper_acts = False  # on_failure answers None: nothing to try again
    table_id = await _lobby(parts, discord_double)
    thread = thread_of(parts.service, discord_double, table_id)
    if how == "forbidden":
        discord_double.forbid(discord_double.general)
    elif how == "archived":
        discord_double.archive(thread)
    else:
        discord_double.delete_channel(thread)
    before = len(discord_double.world.requests)
    await parts.service.add_computer(table_id, "easy")
    await parts.settle()
    assert parts.failures == [(table_id, kind, thread.id)]
    assert [r.code for r in discord_double.world.requests[before:] if f"/{thread.id}/" in r.path] == [code]
