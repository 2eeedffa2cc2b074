"""A throwaway button and command, added by following docs/architecture.md's recipes (removed in the next commit)."""

from __future__ import annotations

from pathlib import Path

from support.discord_double import Double
from support.e2e_tables import lobby, open_table
from support.game_driver import make_bot


async def test_the_seats_button_and_command_answer_the_same(discord_double: Double, tmp_path: Path) -> None:
    bot = make_bot(discord_double, tmp_path / "recipe.db")
    alice = discord_double.user("alice")
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice)
        thread = discord_double.world.channels[bot.service.view(table_id).display.thread]
        message = lobby(discord_double, table_id)
        assert message is not None
        pressed = await (await alice.at(thread).click(message, f"ch:t:{table_id}:seats")).message()
        typed = await (await alice.at(thread).slash("table", "seats")).message()
        assert pressed.content == typed.content and "alice" in typed.content.lower() and typed.ephemeral
