"""What the slash commands share: where a command was used, who may use a manager command, which table a command
means, and the suggestions of league and card names."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.service.errors import ErrorKind, TableError
from bot.service.surface import LeagueCalls, TableCalls

from ..door import Interaction

Choices = list[app_commands.Choice[str]]


def guild_of(interaction: Interaction) -> int:
    """The server a command was used in; a TableError in DMs."""
    if interaction.guild_id is None:
        raise TableError(ErrorKind.BAD_INPUT, "Leagues live in a server: use this command in one of its channels.")
    return interaction.guild_id


def here(interaction: Interaction) -> list[int]:
    """The channel a command was used in, and its parent when that is a thread (a table's thread)."""
    ids = [interaction.channel_id or 0]
    parent = getattr(interaction.channel, "parent_id", None)
    if parent:
        ids.append(int(parent))
    return ids


def is_manager(interaction: Interaction) -> bool:
    """Whether Discord says the caller may manage the server (their permissions in this channel)."""
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


async def require_manager(leagues: LeagueCalls, interaction: Interaction) -> int:
    """The guild id, once the caller is known to be a server manager: the default permissions hide manager
    commands from others, and a server may change that, so every manager command checks again."""
    guild_id = guild_of(interaction)
    if not is_manager(interaction):
        raise TableError(ErrorKind.FORBIDDEN, "Only server managers (the Manage Server permission) may do that.")
    await leagues.saw_manager(guild_id, interaction.user.id)
    return guild_id


def table_for(service: TableCalls, interaction: Interaction) -> int:
    """The table a command means: the one in this channel or thread, else the caller's only table."""
    return service.table_for(interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id)


def matching(typed: str, options: list[str]) -> Choices:
    """Up to 25 suggestions among ``options`` containing what was typed (any case)."""
    typed = typed.strip().lower()
    return [app_commands.Choice(name=o[:100], value=o[:100]) for o in options if typed in o.lower()][:25]


class LeagueNames(commands.Cog):
    """Suggests the server's league names (a base of the command groups that have ``leagues``)."""

    leagues: LeagueCalls

    async def league_names(self, interaction: Interaction, typed: str) -> Choices:
        """Suggestions: the server's leagues."""
        if interaction.guild_id is None:
            return []
        return matching(typed, await self.leagues.names(interaction.guild_id))


class CardNames(commands.Cog):
    """Suggests the cards a server may play (a base of the command groups that have ``leagues``)."""

    leagues: LeagueCalls

    async def card_names(self, interaction: Interaction, typed: str) -> Choices:
        """Suggestions: shipped cards and this server's imported ones."""
        names = self.leagues.cards.names(interaction.guild_id) if interaction.guild_id else []
        typed = typed.strip().lower()
        return [app_commands.Choice(name=n, value=n) for n in names if typed in n][:25]
