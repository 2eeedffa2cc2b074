"""A table people enjoy on a phone (docs/architecture.md, *The Discord layer*), on the offline Discord: no Mah Jongg
lost to a tap, no waiting on a call window nobody can use, every tap answered, a player with closed DMs told of
her calls, every pass told, and a joker not thrown away by a misclick. Each game is checked against the ledger.

The seeds were found by playing the same policies through the table service (a person moving like a normal
computer player, three computers): each test first checks that the game still reaches its moment, and says so
plainly if a change to the engine or the players moved it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from support.discord_double import Double
from support.discord_double.models import Message
from support.discord_double.players import Sent
from support.e2e_tables import finish, most_channel_writes, open_table, seat_everyone
from support.game_driver import Driver, Person, greedy, make_bot

from bot.engine.tiles import Tile
from bot.service.updates import Cause, SeatUpdate, TablePhase, TableUpdate

ANSWER_SECONDS = 3.0  # Discord's limit for an interaction's first answer


def _answered_in_time(double: Double) -> None:
    """Every interaction Discord let the bot answer was answered, within Discord's 3 s."""
    late = [i for i in double.world.interactions.values() if not i.expired
            and (i.latency is None or i.latency > ANSWER_SECONDS)]
    assert not late, late


async def test_P10_a_person_who_can_win_on_a_discard_gets_a_new_dm_and_the_tables_pass_asks_her_first(
        discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "win.db", seeds=iter([2]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)])

        def chance() -> str | None:
            mine = bot.service.seat_update(table_id, alice.id)
            return mine.win_chance if mine.choices.call_mahjong is not None else None

        await driver.play(until=lambda: chance() is not None)
        window = chance()
        assert window == "1w26", f"seed 2 no longer gives seat 0 a Mah Jongg on discard 26 ({window}): find another"
        win_key = f"ch:a:{table_id}:{window}:cm"
        told = await discord_double.wait_for(
            lambda: next((m for m in reversed(alice.dms()) if win_key in m.custom_ids), None), 10,
            "a DM offering her Mah Jongg")
        assert "gives you Mah Jongg" in told.content
        assert told.edits == 0 or _posted_for(discord_double, told, "gives you Mah Jongg"), \
            "the chance came as a new message (her phone tells her), not as an edit"
        pass_id = f"ch:a:{table_id}:{window}:p"
        table = await discord_double.wait_for(lambda: (m := driver.table_message()) is not None
                                              and pass_id in m.custom_ids and m, 10, "the table's Pass button")
        here = alice.at(driver.thread())
        tapped = await here.click(table, pass_id)
        asked = await discord_double.wait_for(lambda: next(iter(tapped.interaction.followups), None), 5,
                                              "the question")
        assert asked.ephemeral and "Mah Jongg" in asked.content, asked.content
        assert win_key in asked.custom_ids and f"ch:y:{table_id}:{window}:p" in asked.custom_ids
        assert bot.service.decision_open(table_id, window), "her Pass was not taken: the window is still hers"
        assert (await (await here.at(asked.channel).click(asked, win_key)).response()) in (5, 6)
        await discord_double.wait_for(lambda: not driver.live.playing, 10, "the game to end")
        result = driver.live.game.state.result
        assert result is not None and result.winner == 0 and result.how == "discard"
        await finish(driver, bot)
    _answered_in_time(discord_double)


async def _private_answer(double: Double, sent: Sent) -> Message:
    """The message an interaction was answered with: its reply, or its first follow-up after a deferral."""
    def found() -> Message | None:
        inter = sent.interaction
        if inter.response_type == 4:
            return inter.original
        return next(iter(inter.followups), None)
    return await double.wait_for(found, 5, f"the answer to {sent.interaction}")


def _posted_for(double: Double, message: Message, text: str) -> bool:
    """Whether ``message`` was created (posted, or sent as a follow-up) with ``text`` in it."""
    return any(r.method == "POST" and isinstance(r.body, dict) and text in str(r.body.get("content"))
               for r in double.world.requests)


async def test_P10_a_solo_game_at_default_options_never_waits_on_a_call_window_she_cannot_use(
        discord_double: Double, tmp_path: Path) -> None:
    """Every table option at its default (auto_pass on, 8 s to call) but the computers' delay (0, for speed): a
    window waits for Alice exactly when she can call its tile, and she never taps Pass on one she can't."""
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "solo.db", seeds=iter([5]))
    updates: list[tuple[float, TableUpdate]] = []
    mine: list[SeatUpdate] = []
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        bot.service.subscribe(lambda u: updates.append((time.monotonic(), u)), table_id)
        bot.service.subscribe_seat(mine.append, table_id, 0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)])
        await finish(driver, bot)
        assert driver.live.options.auto_pass and driver.live.rules.call_window_seconds == 8
    could = {m.table.claimable[0] for m in mine if m.table.claimable and (m.choices.calls or m.choices.call_mahjong)}
    opened: dict[str, float] = {}
    answered: dict[str, tuple[float, Cause]] = {}  # when, and by what, her answer to each window came
    for at, update in updates:
        window = update.claimable[0] if update.phase is TablePhase.CALL_WINDOW and update.claimable else None
        if window is not None and update.claimable[2] != 0:  # not her own discard
            opened.setdefault(window, at)
            if 0 not in update.awaiting and window not in answered:
                answered[window] = (at, update.cause)
    unusable = set(opened) - could
    assert len(unusable) > 10, "the game had windows she could not use"
    for window in unusable:  # passed for her by the table the moment it opened, not after its 8 s
        at, cause = answered[window]
        assert cause is Cause.AUTO and at - opened[window] < 2.0, (window, cause, at - opened[window])
    assert could & set(opened), "and some she could: those waited for her"
    assert most_channel_writes(discord_double) <= 5, "never more than 5 writes in 5 s to one channel or DM"
    passes = [i for i in discord_double.world.interactions.values() if i.user is alice.user
              and str(i.data.get("custom_id", "")).endswith(":p")]
    assert all(str(i.data["custom_id"]).split(":")[3] in could for i in passes)
    _answered_in_time(discord_double)


async def test_every_press_of_a_removed_stale_or_foreign_button_is_answered_privately(
        discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "stale.db", seeds=iter([7]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0, greedy)])
        # The lobby's Start, edited away once the game is dealt.
        await driver.play(until=lambda: driver.live.version > 12)
        table = driver.table_message()
        assert table is not None and f"ch:t:{table_id}:start" not in table.custom_ids
        # Her DM with its discard buttons; she discards from it, and the DM is edited without them.
        offers: list[tuple[Message, str]] = []

        def a_discard_offered() -> bool:
            offers.extend((m, c) for m in alice.dms()[-1:] for c in m.custom_ids if ":d." in c)
            return bool(offers)

        await driver.play(until=a_discard_offered)
        dm, old_discard = offers[0]
        await driver.play(until=lambda: (m := discord_double.world.messages.get(dm.id)) is not None
                          and (m.deleted or old_discard not in m.custom_ids))
        thread = alice.at(driver.thread())
        presses = [await thread.click_removed(driver.table_message() or table, f"ch:t:{table_id}:start"),
                   await thread.click_removed(driver.table_message() or table, "ch:zz:9:whatever")]
        current = discord_double.world.messages[dm.id]
        if not current.deleted:
            presses.append(await alice.at(dm.channel).click_removed(current, old_discard))
        for sent in presses:
            await sent.response()
            answer = await _private_answer(discord_double, sent)
            assert answer.ephemeral, answer.content
            assert any(said in answer.content for said in ("over", "no longer works", "in progress")), answer.content
        await finish(driver, bot)
    _answered_in_time(discord_double)


async def test_a_player_with_closed_dms_is_told_privately_in_the_thread_when_a_discard_is_hers_to_call(
        discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bea = discord_double.user("bea", dms_open=False)
    bot = make_bot(discord_double, tmp_path / "closed.db", seeds=iter([8]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        beas: list[SeatUpdate] = []
        bot.service.subscribe_seat(beas.append, table_id, 1)
        await seat_everyone(discord_double, bot, table_id, [alice, bea], 2)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0), Person(bea, 1, greedy)])

        # Each private message to Bea in the thread as it was sent: she may act on it (and the table move on, the
        # message with it) before the driver looks again, on a busy machine.
        sent: list[tuple[Message, str, list[str]]] = []
        post = discord_double.world.post

        def noting_post(*args: Any, **kwargs: Any) -> Message:
            message = post(*args, **kwargs)
            if message.ephemeral and message.visible(bea.user) and message.channel.id == driver.thread().id:
                sent.append((message, message.content, list(message.custom_ids)))
            return message

        discord_double.world.post = noting_post  # type: ignore[method-assign]

        def told_of_a_call() -> tuple[Message, str, list[str]] | None:
            return next(((m, text, ids) for m, text, ids in sent
                         if any(c.startswith(f"ch:a:{table_id}:1w") and ":c" in c for c in ids)), None)

        await driver.play(until=lambda: told_of_a_call() is not None)
        found = told_of_a_call()
        assert found is not None
        told, content, custom_ids = found
        assert not told.visible(alice.user)
        assert "Call it?" in content or "gives you Mah Jongg" in content, content
        window = next(c.split(":")[3] for c in custom_ids if c.startswith("ch:a:"))
        offered = {c.split(":")[4] for c in custom_ids if c.startswith("ch:a:")}
        choices = next(u.choices for u in beas if u.table.claimable and u.table.claimable[0] == window)
        assert offered == {c.key for c in (*choices.calls, choices.call_mahjong, choices.pass_call, choices.hold)
                           if c is not None}, "exactly what she may do with that discard"
        await finish(driver, bot)
        assert not bea.dms()
    _answered_in_time(discord_double)


async def test_CH_every_charleston_pass_and_the_courtesy_pass_tell_her_what_she_received(
        discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "passes.db", seeds=iter([5]))
    notes: list[str] = []
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        bot.service.subscribe_seat(lambda u: notes.extend(n for n in u.notes if "eceive" in n or "comes across" in n),
                                   table_id, 0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)])
        await finish(driver, bot)
    assert len(notes) >= 3, notes  # the first Charleston's three passes at least
    dm_channel = alice.dm_channel.id
    written = [str(r.body.get("content")) for r in discord_double.world.requests if isinstance(r.body, dict)
               and (str(dm_channel) in r.path or _through_dm(discord_double, r.path, dm_channel))]
    for note in notes:
        assert any(note in text for text in written), f"never shown in her DM: {note}"


def _through_dm(double: Double, path: str, dm_channel: int) -> bool:
    """Whether a request went through the token of an interaction made in this DM channel."""
    if "/webhooks/" not in path:
        return False
    token = path.split("/")[5]
    return any(i.token == token and i.channel.id == dm_channel for i in double.world.interactions.values())


async def test_discarding_a_joker_asks_her_to_confirm_and_nothing_moves_until_she_does(
        discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "joker.db", seeds=iter([19]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)])
        joker = f"ch:a:{table_id}:1t0:d.J"
        await driver.play(until=lambda: 0 in driver.live.people_awaited()
                          and bot.service.seat_update(table_id, alice.id).table.token == "1t0")
        dm = await discord_double.wait_for(lambda: next((m for m in alice.dms() if joker in m.custom_ids), None), 10,
                                           "her first turn's DM, with a joker to discard")
        version = driver.live.version
        tapped = await alice.at(dm.channel).click(dm, joker)
        asked = await discord_double.wait_for(lambda: next(iter(tapped.interaction.followups), None), 5,
                                              "the question")
        assert "Discard a joker?" in asked.content and asked.ephemeral
        assert driver.live.version == version, "nothing was discarded yet"
        confirm = f"ch:y:{table_id}:1t0:d.J"
        assert confirm in asked.custom_ids
        confirmed = await alice.at(asked.channel).click(asked, confirm)
        await confirmed.response()
        assert "You discarded Joker" in (await discord_double.wait_for(
            lambda: discord_double.world.messages[asked.id].content if discord_double.world.messages[asked.id].edits
            else None, 5, "the question answered")), "the question shows what became of it"
        assert driver.live.game.state.discards[0] == (0, Tile.J)
        await finish(driver, bot)
    _answered_in_time(discord_double)
