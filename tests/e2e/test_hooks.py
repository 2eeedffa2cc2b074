"""A write through an interaction's token waits for the interaction's first answer: Discord refuses a follow-up or
an edit through the token before it (404, 10015), and the bot would then spend a rate-limited request on a plain
DM instead, or, for a player whose DMs are closed, tell her nothing."""

from __future__ import annotations

from pathlib import Path

from support.discord_double import Double
from support.e2e_tables import open_table, seat_everyone
from support.game_driver import Driver, Person, make_bot

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def test_a_write_through_a_press_waits_until_the_press_is_answered(discord_double: Double,
                                                                         tmp_path: Path) -> None:
    """Alice's DMs are open (her next DM is a follow-up of her latest DM press); Bea's are closed (what is hers to
    do comes as a private follow-up of her latest interaction in the thread)."""
    alice = discord_double.user("alice")
    bea = discord_double.user("bea", dms_open=False)
    bot = make_bot(discord_double, tmp_path / "slow.db", seeds=iter([3]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice, bea], 2, level="hard")
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0), Person(bea, 1)])
        await driver.play(until=lambda: driver.live.version > 20)
        # From now on every first answer takes Discord 0.4 s to take (well inside its 3 s): the bot's next DM,
        # due while her press is still being answered, is written through that press's token.
        discord_double.stall(CALLBACK, 0.4, times=10_000)
        start = len(discord_double.world.requests)
        await driver.play(until=lambda: driver.live.version > 90)
        later = discord_double.world.requests[start:]
    refused = [f"{r.key} {r.code}" for r in later if r.code == 10015]
    assert not refused, refused
    through_presses = [r for r in later if r.route.startswith("/webhooks/") and r.status < 300]
    assert through_presses, "her DMs and their edits went through her presses"
