"""The bot killed outright in the middle of a game and started again: a button drawn before the kill still works
after it, and the game goes on to its end and its settlement. The bot runs as `charleston bot`, a separate
process; the person plays only by what Discord shows her."""

from __future__ import annotations

import asyncio
from pathlib import Path

from support.bot_runs import kill_bot, start_bot, stop_bot
from support.discord_double import Double, Player
from support.discord_double.models import Message

from bot.store import ledger
from bot.store.db import Database


def _decision(message: Message) -> str | None:
    """A custom_id on a player's own message that makes a move (the first one a simple player would use)."""
    ids = [cid for cid in message.custom_ids if not cid.endswith((":d.J", ":d.F"))]  # a joker asks to confirm
    for prefix in (":cm", ":m", ":v.0", ":co.", ":d.", ":p"):  # a Mah Jongg first (a Pass letting one go asks)
        found = next((cid for cid in ids if (cid.startswith("ch:a:") and cid.endswith(prefix))
                      or (prefix == ":d." and cid.startswith("ch:a:") and ":d." in cid)), None)
        if found:
            return found
    return next((cid for cid in ids if cid.startswith("ch:p:")), None)


async def _move(player: Player, message: Message, custom_id: str) -> str:
    """Press (or pick in) a component; returns what the bot said, if it said anything."""
    here = player.at(message.channel)
    if custom_id.startswith("ch:p:"):
        options = [o["value"] for o in message.component(custom_id)["options"]]  # type: ignore[index]
        sent = await here.select(message, custom_id, options[:3])
    else:
        sent = await here.click(message, custom_id)
    await sent.response()
    followups = sent.interaction.followups
    return " ".join(m.content for m in followups) if followups else ""


def _own_message(alice: Player) -> Message | None:
    dms = [m for m in alice.dms() if any(a.filename == "rack.png" for a in m.attachments)]
    return dms[-1] if dms and _decision(dms[-1]) else None


def _table_message(double: Double) -> Message | None:
    for thread in double.threads():
        for message in reversed(thread.messages):
            if not message.deleted and any(cid.startswith("ch:t:") for cid in message.custom_ids):
                return message
    return None


async def _play_until(double: Double, alice: Player, done, timeout: float = 60) -> None:  # type: ignore[no-untyped-def]
    """Alice answers whatever Discord asks of her (a simple player: first tiles, first discard, never calls)."""
    loop = asyncio.get_running_loop()
    stop = loop.time() + timeout
    while not done():
        assert loop.time() < stop, "the game did not get there in time"
        own = _own_message(alice)
        table = _table_message(double)
        passing = next((cid for cid in table.custom_ids if cid.endswith(":p")), None) if table else None
        if own is not None:
            await _move(alice, own, _decision(own) or "")
        elif table is not None and passing is not None:
            await _move(alice, table, passing)
        await double.wait_for(lambda: True, 0.05)
        await asyncio.sleep(0.05)


def _one_move():  # type: ignore[no-untyped-def]
    """A ``done`` for :func:`_play_until` that is true after one pass of its loop."""
    passes = iter((False,))
    return lambda: next(passes, True)


async def test_a_button_drawn_before_a_sigkill_works_after_the_restart(discord_double: Double,
                                                                        tmp_path: Path) -> None:
    db_path = tmp_path / "restart.db"
    alice = discord_double.user("alice")
    process = await start_bot(discord_double, db_path, run=1)
    try:
        opened = await (await alice.slash("table", "new", computer_delay=0)).message()
        assert "opened **table 1**" in opened.content
        lobby = await discord_double.wait_for(lambda: _table_message(discord_double), 10, "the lobby")
        thread = alice.at(lobby.channel)
        for _ in range(3):
            await (await thread.click(_table_message(discord_double), "ch:t:1:computer")).response()
        await discord_double.wait_for(lambda: "Seat 3: Computer" in (_table_message(discord_double) or lobby).content,
                                      10, "three computers seated")
        await (await thread.click(_table_message(discord_double), "ch:t:1:start")).response()
        # Play into the game, then stop at a discard of Alice's: her DM offers its buttons.
        await _play_until(discord_double, alice, lambda: (m := _own_message(alice)) is not None
                          and any(":d." in cid for cid in m.custom_ids))
        before_kill = _own_message(alice)
        assert before_kill is not None
    finally:
        await kill_bot(process)

    process = await start_bot(discord_double, db_path, run=2)
    try:
        reader = await Database.open(db_path)
        (moves,) = await reader.fetchone("SELECT COUNT(*) FROM actions")
        # The button drawn by the first process, pressed now: the restarted bot makes the discard.
        said = await _move(alice, before_kill, _decision(before_kill) or "")
        assert "went wrong" not in said and "is over" not in said, said
        for _ in range(100):
            (after,) = await reader.fetchone("SELECT COUNT(*) FROM actions")
            if after > moves:
                break
            await asyncio.sleep(0.05)
        assert after > moves, [m.content for m in alice.dms()[-3:]]
        # and the game goes on to its end, settled in the ledger
        ended = False
        for _ in range(1200):
            row = await reader.fetchone("SELECT COUNT(*) FROM games WHERE ended_at IS NOT NULL")
            if ended := bool(row and row[0]):
                break
            await _play_until(discord_double, alice, _one_move())
        own, table = _own_message(alice), _table_message(discord_double)
        assert ended, (own and (own.content, own.custom_ids), table and (table.content, table.custom_ids))
        assert await ledger.verify(reader) == []
        await reader.close()
    finally:
        await stop_bot(process)
