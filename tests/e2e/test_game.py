"""Whole games in Discord, on the offline Discord: scripted people open a table with /table new, fill it with the
lobby's buttons and play every move through their DMs and the table message's buttons, to the end; then the
ledger is checked."""

from __future__ import annotations

from pathlib import Path

from discord_double import Double
from game_driver import Driver, Person, greedy, make_bot, normal

from bot.engine.state import Phase
from bot.store import ledger


async def open_table(double: Double, opener, **options: object) -> int:  # type: ignore[no-untyped-def]
    """``/table new`` in #general: returns the table's id once its lobby message is up."""
    sent = await opener.slash("table", "new", **options)
    answer = await sent.message()
    assert "opened **table" in answer.content, answer.content
    table_id = int(answer.content.split("**table ")[1].split("**")[0])
    await double.wait_for(lambda: any(f"ch:t:{table_id}:start" in m.custom_ids for t in double.threads()
                                      for m in t.messages), 10, "the lobby message")
    return table_id


def lobby(double: Double, table_id: int):  # type: ignore[no-untyped-def]
    """The lobby message of a table."""
    for thread in double.threads():
        for message in reversed(thread.messages):
            if f"ch:t:{table_id}:start" in message.custom_ids and not message.deleted:
                return message
    raise AssertionError("no lobby message")


async def test_one_person_and_three_computers_play_a_game_to_the_end(discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    async with discord_double.running(make_bot(discord_double, tmp_path / "game.db")) as bot:
        await discord_double.wait_for_commands("table", "play", "rack", "hint", "back")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        thread = discord_double.threads()[-1]
        here = alice.at(thread)
        for _ in range(3):
            pressed = await here.click(lobby(discord_double, table_id), f"ch:t:{table_id}:computer")
            assert await pressed.response() == 6
        await discord_double.wait_for(lambda: all(not s.empty for s in bot.service.view(table_id).seats), 5, "seats")
        await (await here.click(lobby(discord_double, table_id), f"ch:t:{table_id}:start")).response()
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0, greedy)])
        await driver.play()
        await bot.presenter.settle()
        live = bot.service.tables[table_id]
        assert live.game is not None and live.game.state.phase == Phase.FINISHED
        assert driver.people[0].moves > 5
        assert await ledger.verify(bot.service.db) == []
        # the results are in the thread, and the table message offers the next deal
        final = driver.table_message()
        assert final is not None and f"ch:t:{table_id}:start" in final.custom_ids
        texts = [m.content for m in thread.messages if not m.deleted]
        assert any("Settled in the chip ledger" in t for t in texts)
