"""What a press does (cogs/press/controls.py), without a bot: a scripted player presses a real button of a message
the parts sent on the offline Discord (her DM, the table message), a plain discord.py client hears the
interaction, and the test hands it to the controls as the press router would. A move is answered through the press
itself; a refused move with the service's own sentence, never a traceback; a move she must confirm with the
buttons to choose from; a press of a decision that is over with "over"; and ``/rack`` by DM, or privately where her
DMs are closed."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from support.discord_double import Double, Player
from support.discord_double.models import Message
from support.lone_parts import (
    COMPUTERS_ON_THE_CLOCK,
    Parts,
    PressCatcher,
    command,
    live_dms,
    mine,
    plain_discard,
    requests_to,
    table_in_thread,
    thread_of,
)
from support.service import play_until

from bot.engine.tiles import Tile
from bot.service.decisions import gone_message
from bot.service.errors import TableError
from bot.service.keys import discard_key
from bot.service.updates import SeatUpdate, TablePhase

DEFERRED_UPDATE = 6  # acknowledged without a word: the message pressed is brought up to date instead
EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


@pytest.fixture(autouse=True)
def _log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "charleston")


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


async def _her_turn(parts: Parts, double: Double, alice: Player) -> tuple[int, SeatUpdate, Message]:
    """Alice is East at a table without a Charleston: her first discard is due, her DM offers it, and the
    computers wait."""
    parts.listen()
    table_id = await table_in_thread(parts.service, double, [alice], charleston=False,
                                     table_options=COMPUTERS_ON_THE_CLOCK)
    await parts.service.start(table_id)
    await parts.settle()
    turn = mine(parts.service, table_id, alice)
    assert turn.awaited and turn.choices.discard
    (dm,) = live_dms(alice)
    return table_id, turn, dm


async def _played_until(parts: Parts, double: Double, alice: Player, want: Callable[[SeatUpdate], bool], *,
                        seed: int, **rules: Any) -> tuple[int, SeatUpdate]:
    """Alice and three computers play (she as a computer would, through the service) until ``want`` holds for
    her; then the parts come up as after a restart and bring her DM and the table message up to date."""
    table_id = await table_in_thread(parts.service, double, [alice], seed=seed, **rules)
    await parts.service.start(table_id)
    now = await play_until(parts.service, parts.clock, table_id, want, player=alice.id)
    parts.listen()
    await parts.presenter.refresh_all()
    await parts.settle()
    return table_id, now


async def test_a_move_pressed_in_her_dm_is_answered_through_the_press(discord_double: Double, parts: Parts,
                                                                      client: PressCatcher) -> None:
    alice = discord_double.user("alice")
    table_id, turn, dm = await _her_turn(parts, discord_double, alice)
    token, key = turn.table.token, plain_discard(turn)
    assert token is not None
    before = len(discord_double.world.requests)
    sent = await alice.at(dm.channel).click(dm, f"ch:a:{table_id}:{token}:{key}")
    await parts.controls.act(await client.heard(sent), table_id, token, key)
    await parts.settle()
    after = mine(parts.service, table_id, alice)
    assert after.view is not None and turn.view is not None and len(after.view.rack) == len(turn.view.rack) - 1
    assert sent.response_type == DEFERRED_UPDATE and sent.interaction.followups == []
    assert requests_to(discord_double, alice.dm_channel, before) == []  # not a write through her DM channel...
    assert EDIT_ORIGINAL in [r.key for r in discord_double.world.requests[before:]]  # ...but through the press
    assert live_dms(alice) == [dm] and not any(f":{token}:" in c for c in dm.custom_ids)  # it shows the move made


async def test_a_move_pressed_under_the_table_message_is_shown_through_the_press(
        discord_double: Double, parts: Parts, client: PressCatcher) -> None:
    alice = discord_double.user("alice")
    table_id, window = await _played_until(parts, discord_double, alice, lambda u: u.table.phase is
                                           TablePhase.CALL_WINDOW and bool(u.choices.calls)
                                           and u.choices.call_mahjong is None, seed=7, charleston=False)
    thread = thread_of(parts.service, discord_double, table_id)
    token = window.table.token
    assert token is not None and window.choices.pass_call is not None
    key = window.choices.pass_call.key
    table_message = discord_double.world.messages[parts.service.display(table_id).message or 0]
    before = len(discord_double.world.requests)
    sent = await alice.at(thread).click(table_message, f"ch:a:{table_id}:{token}:{key}")
    await parts.controls.act(await client.heard(sent), table_id, token, key)
    await parts.settle()
    assert sent.response_type == DEFERRED_UPDATE
    assert not parts.service.decision_open(table_id, token) or not mine(parts.service, table_id, alice).awaited
    table_writes = [r.key for r in discord_double.world.requests[before:]
                    if r.route.startswith("/webhooks/") or f"/channels/{thread.id}/" in r.path]
    assert table_writes[:1] == [EDIT_ORIGINAL]  # its first edit after the press: through the press


async def test_a_refused_move_is_answered_with_the_services_sentence(discord_double: Double, parts: Parts,
                                                                     client: PressCatcher,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    table_id, turn, dm = await _her_turn(parts, discord_double, alice)
    assert turn.view is not None and turn.table.token is not None
    token, version = turn.table.token, parts.service.snapshot(table_id).version
    missing = next(tile for tile in Tile if tile not in turn.view.rack and tile not in (Tile.J, Tile.BL))
    key = discard_key(missing)  # a tile she does not have: a button no message of ours offers
    sent = await alice.at(dm.channel).click_removed(dm, f"ch:a:{table_id}:{token}:{key}")
    await parts.controls.act(await client.heard(sent), table_id, token, key)
    (answer,) = await sent.followups(1)
    with pytest.raises(TableError) as refused:  # the same move again: the service's own sentence for it
        await parts.service.act(table_id, alice.id, key, token=token)
    assert answer.content == refused.value.message and answer.ephemeral
    assert "reference" not in answer.content
    assert parts.service.snapshot(table_id).version == version  # nothing moved
    _no_traceback(caplog)


@pytest.mark.parametrize(("case", "seed", "rules", "pressed", "offered"), [
    ("M1: a Pass that would let her Mah Jongg go", 6, {"charleston": False}, "p",
     [("ch:a:{t}:{token}:cm", "Mah Jongg!"), ("ch:y:{t}:{token}:p", "Pass anyway")]),
    ("the misclick guard: a joker discarded", 19, {}, "d.J", [("ch:y:{t}:{token}:d.J", "Discard the joker")]),
])
async def test_a_move_she_must_confirm_is_asked_about_with_the_buttons_to_choose_from(
        discord_double: Double, parts: Parts, client: PressCatcher, case: str, seed: int, rules: dict[str, Any],
        pressed: str, offered: list[tuple[str, str]]) -> None:
    alice = discord_double.user("alice")
    def due(u: SeatUpdate) -> bool:  # a Mah Jongg hers to claim on a discard, or a joker hers to discard
        return u.choices.call_mahjong is not None if pressed == "p" else pressed in [c.key for c in u.choices.discard]

    table_id, now = await _played_until(parts, discord_double, alice, lambda u: u.awaited and due(u), seed=seed,
                                        **rules)
    token = now.table.token
    assert token is not None
    (dm,) = live_dms(alice)
    version = parts.service.snapshot(table_id).version
    sent = await alice.at(dm.channel).click(dm, f"ch:a:{table_id}:{token}:{pressed}")
    await parts.controls.act(await client.heard(sent), table_id, token, pressed)
    (asked,) = await sent.followups(1)
    buttons = [(cid, (asked.component(cid) or {}).get("label")) for cid in asked.custom_ids]
    assert buttons == [(cid.format(t=table_id, token=token), label) for cid, label in offered]
    assert asked.ephemeral and asked.content.startswith("**")
    assert parts.service.snapshot(table_id).version == version  # nothing moves until she chooses
    confirm = next(cid for cid, _ in buttons if cid.startswith("ch:y:"))
    anyway = await alice.at(asked.channel).click(asked, confirm)
    await parts.controls.act(await client.heard(anyway), table_id, token, pressed, confirm=True)
    await parts.settle()
    assert parts.service.snapshot(table_id).version > version  # she chose the move anyway: made


async def test_a_press_of_a_decision_that_is_over_is_answered_gone(discord_double: Double, parts: Parts,
                                                                   client: PressCatcher,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    alice = discord_double.user("alice")
    table_id, turn, _ = await _her_turn(parts, discord_double, alice)
    token, key = turn.table.token, plain_discard(turn)
    assert token is not None
    await parts.service.act(table_id, alice.id, key, token=token)  # made by another way (a command, say)
    await parts.settle()
    version = parts.service.snapshot(table_id).version
    (current,) = live_dms(alice)
    late = await alice.at(current.channel).click_removed(current, f"ch:a:{table_id}:{token}:{key}")
    await parts.controls.act(await client.heard(late), table_id, token, key)
    (answer,) = await late.followups(1)
    assert answer.content == gone_message(token) and answer.ephemeral
    assert parts.service.snapshot(table_id).version == version
    _no_traceback(caplog)


@pytest.mark.parametrize("dms_open", [True, False])
async def test_rack_by_dm_sends_her_rack_anew_or_answers_privately_when_her_dms_are_closed(
        discord_double: Double, parts: Parts, client: PressCatcher, dms_open: bool) -> None:
    alice = discord_double.user("alice", dms_open=dms_open)
    parts.listen()
    table_id = await table_in_thread(parts.service, discord_double, [alice])
    await parts.service.start(table_id)
    await parts.settle()
    before = live_dms(alice)
    used = command(discord_double, alice, "rack", thread_of(parts.service, discord_double, table_id))
    await parts.controls.rack_by_dm(await client.heard(used), table_id)
    answer = await used.message()
    assert answer.ephemeral and answer.visible(alice.user) and not answer.visible(discord_double.user("bob").user)
    if dms_open:
        assert answer.content == "Your rack is in your DMs." and answer.attachments == []
        (anew,) = live_dms(alice)
        assert before and anew not in before and [a.filename for a in anew.attachments] == ["rack.png"]
    else:
        assert live_dms(alice) == [] and parts.service.display(table_id).dms_closed == {0}
        assert [a.filename for a in answer.attachments] == ["rack.png"]
        token = mine(parts.service, table_id, alice).table.token
        assert any(f":{token}:" in cid for cid in answer.custom_ids)  # what her DM would offer: here, privately
