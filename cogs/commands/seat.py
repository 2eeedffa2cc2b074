"""A player's own view by command: ``/rack``, ``/hint``, ``/back``. Each calls the handler of the button that does
the same (:class:`cogs.press.controls.Controls`), so the two never part ways."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.service.surface import TableCalls

from ..door import Interaction
from ..press.controls import Controls
from .common import table_for


class Seat(commands.Cog):
    """A player's own view: /rack, /hint, /back."""

    def __init__(self, service: TableCalls, controls: Controls) -> None:
        self.service = service
        self.controls = controls

    @app_commands.command(name="rack", description="My rack again, by DM (or here, just for me, if DMs are closed)")
    async def rack(self, interaction: Interaction) -> None:
        """Send the rack again (the My rack button shows it here instead)."""
        await self.controls.rack_by_dm(interaction, table_for(self.service, interaction))

    @app_commands.command(name="hint", description="My closest card lines: what they need and what's left")
    async def hint(self, interaction: Interaction) -> None:
        """Hint, as the Hint button gives it."""
        await self.controls.hint(interaction, table_for(self.service, interaction))

    @app_commands.command(name="back", description="Take my seat back from the computer playing for me")
    async def back(self, interaction: Interaction) -> None:
        """Come back, as the I'm back button does."""
        await self.controls.back(interaction, table_for(self.service, interaction))
