"""The one dispatch of every press: a component interaction's custom_id is read by the registry of components
(:data:`cogs.show.components.COMPONENTS`), and the press goes to the handler its component names, whether or not
the component is still on its message (the table moves on while a finger is on the way: its decision token then
decides whether the press still counts). A custom_id that is none of ours gets a sentence saying what to do."""

from __future__ import annotations

import discord

from ..door import Interaction
from ..show.components import read_press
from .controls import Controls


class PressRouter:
    """Hands each press to :class:`~cogs.press.controls.Controls`."""

    def __init__(self, controls: Controls) -> None:
        self._controls = controls

    async def route(self, interaction: Interaction) -> None:
        """Handle a component interaction (anything else is left alone)."""
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        custom_id = str(interaction.data.get("custom_id") or "")
        raw = interaction.data.get("values")
        values = [str(v) for v in raw] if isinstance(raw, list) else []
        press = read_press(custom_id, values)
        if press is None:
            await self._controls.unknown(interaction)
            return
        await press.handle(self._controls, interaction)
