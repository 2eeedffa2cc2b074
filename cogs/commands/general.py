"""Commands that are not about one table: ``/ping``."""

from __future__ import annotations

from collections.abc import Callable

from discord import app_commands
from discord.ext import commands

from bot.engine.wording import plural
from bot.service.surface import TableCalls

from ..door import Door, Interaction


class General(commands.Cog):
    """Is the bot there, and how is it."""

    def __init__(self, service: TableCalls, door: Door, latency: Callable[[], float]) -> None:
        self.service = service
        self.door = door
        self._latency = latency  # the gateway's, in seconds (NaN before the first heartbeat)

    @app_commands.command(name="ping", description="Is Charleston awake? Shows its response time.")
    async def ping(self, interaction: Interaction) -> None:
        """Answer with the gateway latency and how many tables are open."""
        tables = len(self.service.table_ids())
        latency = self._latency() * 1000
        shown = f"{latency:.0f} ms" if latency == latency else "unknown"  # NaN before the first heartbeat
        await self.door.reply(interaction, f"Pong! Gateway latency {shown}; {plural(tables, 'table')} open.")
