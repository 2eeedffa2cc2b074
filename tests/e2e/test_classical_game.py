"""The classical game in Discord (docs/rules.md §9), on the offline Discord: /table new rules:classical, a person
and computers, every move through the person's DM (chows, pungs and kongs by their buttons) to the end; and a
two-player table, seated opposite (CH9)."""

from __future__ import annotations

from pathlib import Path

from support.discord_double import Double
from support.e2e_tables import finish, lobby, open_table, seat_everyone
from support.game_driver import Driver, Person, greedy, make_bot


async def test_CL_a_classical_table_plays_to_the_end(discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "classical.db", seeds=iter([5]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, rules="classical", computer_delay=0)
        rules = bot.service.view(table_id).rules
        assert rules.classical and rules.card == "classical"
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0, greedy)])
        await finish(driver, bot)
        message = driver.table_message()
        assert message is not None and "classical" in message.content
        assert driver.people[0].moves > 5
        game = driver.live.game
        assert game is not None
        calls = [a for a in game.state.log if a["type"] == "call" and a["seat"] == 0 and not a["mahjong"]]
        assert any(len(set(a["tiles"])) == 2 for a in calls), calls  # a chow, pressed on its DM button


async def test_CH9_a_two_player_classical_table(discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "two.db", seeds=iter([2]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, rules="classical", players=2, computer_delay=0)
        thread = discord_double.world.channels[bot.service.view(table_id).display.thread]
        message = lobby(discord_double, table_id)
        assert message is not None
        assert await (await alice.at(thread).click(message, f"ch:t:{table_id}:computer")).response() == 6
        await discord_double.wait_for(lambda: sum(not s.empty for s in bot.service.view(table_id).seats) == 2, 5,
                                      "the computer across the table")
        seated = sorted(s.seat for s in bot.service.view(table_id).seats if not s.empty)
        assert seated == [0, 2]  # the computer sits opposite
        message = lobby(discord_double, table_id)
        assert message is not None
        await (await alice.at(thread).click(message, f"ch:t:{table_id}:start")).response()
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)])
        await finish(driver, bot)
