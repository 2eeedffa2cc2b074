"""``/stats``. Thin: one call on the statistics service (:class:`bot.service.surface.StatsCalls`), its figures shown
by :mod:`cogs.show.stats_look`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.surface import LeagueCalls, StatsCalls

from ..door import Door, Interaction
from ..show import stats_look as looks
from .common import LeagueNames, guild_of


class Stats(LeagueNames, commands.Cog):
    """``/stats [player] [league]``: a player's figures over the games the standings count (the whole server, or
    one league). One's own come privately; another player's as ``/ledger`` gives them: what the standings show
    for the channel, the whole detail privately to the one who asked."""

    def __init__(self, leagues: LeagueCalls, stats: StatsCalls, door: Door) -> None:
        self.leagues = leagues
        self.stats_calls = stats
        self.door = door

    @app_commands.command(name="stats", description="Games, wins, self-picks, chips a game, lines won: yours or "
                          "another player's")
    @app_commands.describe(player="whose (default: yours; another's: a summary for all, the detail for you)",
                           league="one league only (default: the whole server)")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, player: discord.User | None = None,
                    league: str | None = None) -> None:
        """Show a player's statistics."""
        guild_id = guild_of(interaction)
        found = await self.leagues.find(guild_id, league) if league else None
        where = f"**{found.name}**" if found else "this server"
        who = player or interaction.user
        report = await self.stats_calls.stats(guild_id, found.league_id if found else None, who.id)
        figures = report.of(who.id)
        quiet = discord.AllowedMentions.none()
        if figures is None:
            await self.door.reply(interaction, looks.no_games_text(who.display_name, where), mentions=quiet)
            return
        detail = looks.detail_text(figures, who.display_name, where)
        if who.id == interaction.user.id:
            await self.door.reply(interaction, detail, mentions=quiet)
            return
        await self.door.reply(interaction, looks.summary_text(figures, who.display_name, where), ephemeral=False,
                              mentions=quiet)
        await self.door.reply(interaction, detail, mentions=quiet)
