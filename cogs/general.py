"""Commands that are not about one table: ``/ping``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from .replies import reply

if TYPE_CHECKING:
    from .app import CharlestonBot

    Interaction = discord.Interaction[CharlestonBot]


class General(commands.Cog):
    """Is the bot there, and how is it."""

    def __init__(self, bot: CharlestonBot) -> None:
        self.bot = bot

    @app_commands.command(name="ping", description="Is Charleston awake? Shows its response time.")
    async def ping(self, interaction: Interaction) -> None:
        """Answer with the gateway latency and how many tables are open."""
        tables = len(self.bot.service.table_ids())
        latency = self.bot.latency * 1000
        shown = f"{latency:.0f} ms" if latency == latency else "unknown"  # NaN before the first heartbeat
        await reply(interaction, f"Pong! Gateway latency {shown}; {tables} table(s) open.")


async def setup(bot: CharlestonBot) -> None:
    """Load the cog."""
    await bot.add_cog(General(bot))
