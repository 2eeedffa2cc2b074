"""Each person's DM (cogs/show/dms.py), without a bot: the real DMs part over a real table service and the real
door on the offline Discord, which answers as Discord does (a deleted message is 10008, closed DMs 50007, an
overloaded edge a 503). The first DM of a game goes through her DM channel; the same decision is edited in place;
a new decision is a new DM (her phone rings) and the old one goes; a DM she deleted is sent again; closed DMs are
recorded and tried once a game; three failures in a row make her unreachable, and the table is told each time
that changes. After a press in her DM, her DMs ride on the press's token (follow-ups, exempt from the global limit)
until Discord refuses it, then go through her DM channel again."""

from __future__ import annotations

from typing import Any

from support.discord_double import Double, Player
from support.lone_parts import (
    COMPUTERS_ON_THE_CLOCK,
    Parts,
    PressCatcher,
    live_dms,
    mine,
    plain_discard,
    requests_to,
    table_in_thread,
)
from support.service import move_people, play_until

from bot.service.display import DmShown
from bot.service.keys import HOLD
from bot.service.updates import SeatUpdate, TablePhase

WEBHOOK_ROUTES = ("/interactions/", "/webhooks/")
FOLLOW_UP, POST = "POST /webhooks/{webhook_id}/{webhook_token}", "POST /channels/{channel_id}/messages"
TOKEN_LIFETIME = 15 * 60  # Discord's: an interaction's token answers for 15 minutes


async def _dealt(parts: Parts, double: Double, alice: Player, **rules: Any) -> int:
    """A table of Alice and three computers in its thread, dealt; her DM brought up to date."""
    parts.listen_dms()
    table_id = await table_in_thread(parts.service, double, [alice], **rules)
    await parts.service.start(table_id)
    await parts.settle()
    return table_id


async def _her_next_turn(parts: Parts, table_id: int, alice: Player, after: str) -> SeatUpdate:
    """Play on (the computers on the manual clock, Alice as a computer would) until a discard is hers again under a
    decision other than ``after``; her DM brought up to date."""
    turn = await play_until(parts.service, parts.clock, table_id, lambda u: u.awaited and bool(u.choices.discard)
                            and u.table.token != after, player=alice.id)
    await parts.settle()
    return turn


async def _pressed_in_her_dm(parts: Parts, double: Double, alice: Player, client: PressCatcher) -> tuple[int, str]:
    """Alice, East at a table without a Charleston, discards by pressing a button of her DM; the press is handled as
    the controls handle it (acknowledged, the move made, the DM handed the press). Returns the table and the
    decision she pressed for."""
    table_id = await _dealt(parts, double, alice, charleston=False, table_options=COMPUTERS_ON_THE_CLOCK)
    turn = mine(parts.service, table_id, alice)
    token = turn.table.token
    assert token is not None and turn.awaited
    key = plain_discard(turn)
    (dm,) = live_dms(alice)
    sent = await alice.at(dm.channel).click(dm, f"ch:a:{table_id}:{token}:{key}")
    press = await client.heard(sent)
    assert await parts.door.defer(press)
    parts.dms.pressed(await parts.service.act(table_id, alice.id, key, token=token), press)
    await parts.settle()
    return table_id, token


async def _in_a_call_window(parts: Parts, double: Double, alice: Player) -> tuple[int, SeatUpdate]:
    """A discard Alice can call, her DM offering the call: the same decision stays open while she waits."""
    table_id = await _dealt(parts, double, alice, charleston=False)
    window = await play_until(parts.service, parts.clock, table_id, lambda u: u.table.phase is TablePhase.CALL_WINDOW
                              and u.awaited and bool(u.choices.calls), player=alice.id)
    await parts.settle()
    return table_id, window


async def test_the_first_dm_of_a_game_goes_through_her_dm_channel(discord_double: Double, parts: Parts) -> None:
    alice = discord_double.user("alice")
    table_id = await _dealt(parts, discord_double, alice)
    (dm,) = live_dms(alice)
    keys = [r.key for r in discord_double.world.requests]
    assert "POST /users/@me/channels" in keys
    assert requests_to(discord_double, alice.dm_channel) == ["POST /channels/{channel_id}/messages"]
    assert not any(r.route.startswith(WEBHOOK_ROUTES) for r in discord_double.world.requests)  # no press to ride on
    token = mine(parts.service, table_id, alice).table.token
    assert token is not None and any(f":{token}:" in cid for cid in dm.custom_ids)  # her Charleston pick
    assert [a.filename for a in dm.attachments] == ["rack.png"]
    assert parts.service.display(table_id).dms == {0: DmShown(alice.dm_channel.id, dm.id, token)}


async def test_11_2_a_hold_changes_the_same_decision_and_her_dm_is_edited_in_place(discord_double: Double,
                                                                                   parts: Parts) -> None:
    alice = discord_double.user("alice")
    table_id, window = await _in_a_call_window(parts, discord_double, alice)
    (dm,) = live_dms(alice)
    before, edits, recorded = len(discord_double.world.requests), dm.edits, parts.service.display(table_id).dms
    await parts.service.act(table_id, alice.id, HOLD, token=window.table.token)  # she waits: a later deadline
    await parts.settle()
    held = mine(parts.service, table_id, alice)
    assert held.table.token == window.table.token and held.table.deadline != window.table.deadline
    assert live_dms(alice) == [dm] and dm.edits == edits + 1
    edited = requests_to(discord_double, alice.dm_channel, before)
    assert edited == ["PATCH /channels/{channel_id}/messages/{message_id}"]
    assert held.table.deadline is not None and f"<t:{int(held.table.deadline.timestamp())}:R>" in dm.content
    assert parts.service.display(table_id).dms == recorded


async def test_a_new_decision_sends_a_new_dm_and_deletes_the_old(discord_double: Double, parts: Parts) -> None:
    alice = discord_double.user("alice")
    table_id = await _dealt(parts, discord_double, alice)
    (first,) = live_dms(alice)
    token = mine(parts.service, table_id, alice).table.token
    before = len(discord_double.world.requests)
    assert await move_people(parts.service, table_id) == 1  # she passes: the next Charleston pass is hers too
    await parts.settle()
    now = mine(parts.service, table_id, alice)
    assert now.awaited and now.table.token != token
    (second,) = live_dms(alice)
    assert second is not first and first.deleted
    assert requests_to(discord_double, alice.dm_channel, before) == [
        "POST /channels/{channel_id}/messages", "DELETE /channels/{channel_id}/messages/{message_id}"]
    assert any(f":{now.table.token}:" in cid for cid in second.custom_ids)
    assert parts.service.display(table_id).dms[0] == DmShown(alice.dm_channel.id, second.id, now.table.token)


async def test_a_dm_she_deleted_is_sent_again(discord_double: Double, parts: Parts) -> None:
    alice = discord_double.user("alice")
    table_id, window = await _in_a_call_window(parts, discord_double, alice)
    (dm,) = live_dms(alice)
    discord_double.delete_message(dm)
    before = len(discord_double.world.requests)
    await parts.service.act(table_id, alice.id, HOLD, token=window.table.token)
    await parts.settle()
    (again,) = live_dms(alice)
    assert again.id != dm.id and any(f":{window.table.token}:" in cid for cid in again.custom_ids)
    tried = [(r.key, r.code) for r in discord_double.world.requests[before:] if f"/{alice.dm_channel.id}/" in r.path]
    assert tried == [("PATCH /channels/{channel_id}/messages/{message_id}", 10008),
                     ("POST /channels/{channel_id}/messages", None)]
    assert parts.service.display(table_id).dms[0].message == again.id


async def test_closed_dms_are_recorded_the_table_told_and_not_knocked_on_again_this_game(
        discord_double: Double, parts: Parts) -> None:
    alice = discord_double.user("alice", dms_open=False)
    table_id = await _dealt(parts, discord_double, alice)
    assert live_dms(alice) == []
    assert [r.code for r in discord_double.world.requests if r.key == "POST /channels/{channel_id}/messages"] == [50007]
    assert parts.service.display(table_id).dms_closed == {0}
    assert parts.troubles == [(table_id, frozenset())]  # the table message says so (seat_trouble in the bot)
    assert await move_people(parts.service, table_id) == 1  # a new decision for her, the same game
    await parts.settle()
    assert mine(parts.service, table_id, alice).awaited
    assert requests_to(discord_double, alice.dm_channel) == ["POST /channels/{channel_id}/messages"]  # tried once
    assert parts.troubles == [(table_id, frozenset())]


async def test_she_is_unreachable_after_three_transient_failures_in_a_row(discord_double: Double, parts: Parts) -> None:
    alice = discord_double.user("alice")
    discord_double.overloaded("POST /channels/{channel_id}/messages", times=3, channel=alice.dm_channel)
    table_id = await _dealt(parts, discord_double, alice)
    await discord_double.wait_for(lambda: live_dms(alice), 5, "the DM to get through at the fourth try")
    await parts.settle()
    assert [r.status for r in discord_double.world.requests if r.key == "POST /channels/{channel_id}/messages"] == [
        503, 503, 503, 200]
    # Told once at the third failure (she can't be reached), once when a DM got through (she can again).
    assert parts.troubles == [(table_id, frozenset({0})), (table_id, frozenset({0}))]
    assert parts.dms.unreachable(table_id) == frozenset()
    assert parts.service.display(table_id).dms_closed == frozenset()  # failing is not closed


async def test_two_transient_failures_do_not_make_her_unreachable(discord_double: Double, parts: Parts) -> None:
    alice = discord_double.user("alice")
    discord_double.overloaded("POST /channels/{channel_id}/messages", times=2, channel=alice.dm_channel)
    table_id = await _dealt(parts, discord_double, alice)
    await discord_double.wait_for(lambda: live_dms(alice), 5, "the DM to get through at the third try")
    await parts.settle()
    assert len(discord_double.world.faults_sent) == 2
    assert parts.troubles == [] and parts.dms.unreachable(table_id) == frozenset()


async def test_after_a_press_in_her_dm_her_next_new_dm_is_a_follow_up_of_the_press(
        discord_double: Double, parts: Parts, client: PressCatcher) -> None:
    alice = discord_double.user("alice")
    table_id, pressed = await _pressed_in_her_dm(parts, discord_double, alice, client)
    (first,) = live_dms(alice)
    before = len(discord_double.world.requests)
    turn = await _her_next_turn(parts, table_id, alice, pressed)
    (second,) = live_dms(alice)
    assert second is not first and first.deleted and not second.ephemeral
    assert second.interaction is not None and second.interaction.token  # sent through the press's token...
    assert [r.key for r in discord_double.world.requests[before:] if r.method == "POST"] == [FOLLOW_UP]  # ...alone
    assert any(f":{turn.table.token}:" in cid for cid in second.custom_ids)
    assert parts.service.display(table_id).dms[0] == DmShown(alice.dm_channel.id, second.id, turn.table.token)


async def test_once_discord_refuses_the_press_token_her_new_dm_goes_through_her_dm_channel(
        discord_double: Double, parts: Parts, client: PressCatcher) -> None:
    alice = discord_double.user("alice")
    table_id, pressed = await _pressed_in_her_dm(parts, discord_double, alice, client)
    riding = await _her_next_turn(parts, table_id, alice, pressed)
    assert riding.table.token is not None
    (follow_up,) = live_dms(alice)
    discord_double.advance(TOKEN_LIFETIME + 1)  # Discord's clock: the press's token is dead (401, 50027)
    before = len(discord_double.world.requests)
    turn = await _her_next_turn(parts, table_id, alice, riding.table.token)
    (anew,) = live_dms(alice)
    assert anew is not follow_up and follow_up.deleted and anew.interaction is None
    new_dms = [(r.key, r.code) for r in discord_double.world.requests[before:] if r.method == "POST"]
    assert new_dms == [(FOLLOW_UP, 50027), (POST, None)]  # tried through the token, then through her channel
    assert any(f":{turn.table.token}:" in cid for cid in anew.custom_ids)
    assert parts.service.display(table_id).dms[0] == DmShown(alice.dm_channel.id, anew.id, turn.table.token)
