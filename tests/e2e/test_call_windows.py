"""No dead second at a table (issue 30): a solo game at the default options on the offline Discord, on the real
clock. A call window that the person cannot use and that every computer passes on closes the moment it opens (the
table passes for her, the computers pass at once); a computer's call still comes after its delay (1.5 s), so the
table reads naturally."""

from __future__ import annotations

from pathlib import Path

from support.call_windows import Windows
from support.discord_double import Double
from support.e2e_tables import open_table, seat_everyone
from support.game_driver import Driver, Person, make_bot

DELAY = 1.5  # the table's default computer_delay
AT_ONCE = 0.3  # "within a fraction of a second", with room for a loaded machine


async def test_windows_nobody_uses_close_at_once_and_a_computers_call_waits_its_delay(discord_double: Double,
                                                                                     tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    windows = Windows()
    bot = make_bot(discord_double, tmp_path / "pace.db", seeds=iter([22]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice)
        options = bot.service.view(table_id).options
        assert options.computer_delay == DELAY and options.auto_pass, "the default options"
        bot.service.subscribe(windows.table, table_id)
        bot.service.subscribe_seat(windows.mine, table_id, 0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3, level="hard")
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)], patience=30)
        await driver.play(until=windows.computer_called, timeout=240)
        await bot.service.drain()
    unused = windows.unused()
    assert len(unused) >= 10, f"only {len(unused)} windows nobody used before the first computer's call"
    assert max(unused) < AT_ONCE, sorted(unused)[-5:]
    calls = windows.computer_calls()
    assert calls and min(calls) >= DELAY - 0.05, calls
