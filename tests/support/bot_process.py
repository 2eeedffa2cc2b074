"""A minimal bot run as a separate process against the offline Discord (the way the real bot will be run).

It reads DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL and CHARLESTON_GUILD from the environment and
patches the two base URLs into discord.py; nothing else differs from a bot talking to Discord.
"""

from __future__ import annotations

import os

import discord
import yarl
from discord import app_commands


def main() -> None:
    """Connect, sync /ping to the guild, answer it until killed."""
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    guild = discord.Object(int(os.environ["CHARLESTON_GUILD"]))
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    @tree.command(description="Is the bot there?", guild=guild)
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"pong from {os.getpid()}")

    async def setup_hook() -> None:
        await tree.sync(guild=guild)

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    client.run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
