"""``/league`` (join, leave, info) and ``/league-admin`` (create, channel, auto-join, season start|end: server
managers). Thin: each command asks the league service (:class:`bot.service.surface.LeagueCalls`).

Discord applies default permissions to top-level commands only, so the manager commands are a group of their
own (``/league-admin``, shown by default to members with Manage Server) and are checked again here.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import cache

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.leagues import DAYS, LeagueRow
from bot.service.surface import LeagueCalls

from ..door import Door, Interaction
from ..show import league_look as looks
from .common import Choices, LeagueNames, guild_of, here, matching, require_manager


@cache
def _zones() -> list[str]:
    return sorted(zoneinfo.available_timezones())


@app_commands.guild_only()
class League(LeagueNames, commands.GroupCog, group_name="league", group_description="Join a league, or see one"):
    """What every member may do with leagues."""

    def __init__(self, leagues: LeagueCalls, door: Door) -> None:
        self.leagues = leagues
        self.door = door
        super().__init__()

    @app_commands.command(name="join", description="Join a league of this server")
    @app_commands.describe(league="which league (default: this channel's, or the only one)")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def join(self, interaction: Interaction, league: str | None = None) -> None:
        """Join."""
        found = await self.leagues.find(guild_of(interaction), league, here(interaction))
        joined = await self.leagues.join(found, interaction.user.id)
        await self.door.reply(interaction, f"You're a member of **{found.name}**." if joined
                              else f"You were already a member of **{found.name}**.")

    @app_commands.command(name="leave", description="Leave a league (your games stay in its standings)")
    @app_commands.describe(league="which league (default: this channel's, or the only one)")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def leave(self, interaction: Interaction, league: str | None = None) -> None:
        """Leave."""
        found = await self.leagues.find(guild_of(interaction), league, here(interaction))
        await self.leagues.leave(found, interaction.user.id)
        await self.door.reply(interaction, f"You've left **{found.name}**. The games you played stay in its "
                              "standings and ledger.")

    @app_commands.command(name="info", description="A league's channel, week, members and season")
    @app_commands.describe(league="which league (default: this channel's, or the only one)")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def info(self, interaction: Interaction, league: str | None = None) -> None:
        """Show a league."""
        guild_id = guild_of(interaction)
        if league is None and len(every := await self.leagues.leagues(guild_id)) > 1:
            here_league = next((x for x in every if x.channel_id in here(interaction)), None)
            if here_league is None:
                await self.door.reply(interaction, "Leagues here: " + ", ".join(f"**{x.name}**" for x in every)
                                      + ". Name one to see it.")
                return
        found = await self.leagues.find(guild_id, league, here(interaction))
        await self.door.reply(interaction, looks.info_text(await self.leagues.info(found)))


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class LeagueAdmin(LeagueNames, commands.GroupCog, group_name="league-admin",
                  group_description="Create and run leagues (server managers)"):
    """What server managers do with leagues."""

    season = app_commands.Group(name="season", description="Start or end a league's season")

    def __init__(self, leagues: LeagueCalls, door: Door, wake_poster: Callable[[], None]) -> None:
        self.leagues = leagues
        self.door = door
        self._wake_poster = wake_poster  # the weekly poster looks for due posts now
        super().__init__()

    async def _league(self, interaction: Interaction, league: str | None) -> LeagueRow:
        guild_id = await require_manager(self.leagues, interaction)
        return await self.leagues.find(guild_id, league, here(interaction))

    @app_commands.command(name="create", description="Create a league in this server")
    @app_commands.describe(name="its name, unique in this server", timezone="its time zone, e.g. America/New_York "
                           "(default UTC)", week_starts="the day its weeks start (default Monday)")
    @app_commands.choices(week_starts=[app_commands.Choice(name=day, value=n) for n, day in enumerate(DAYS)])
    async def create(self, interaction: Interaction, name: app_commands.Range[str, 1, 40],
                     timezone: str = "UTC", week_starts: int = 0) -> None:
        """Create a league."""
        guild_id = await require_manager(self.leagues, interaction)
        league = await self.leagues.create(guild_id, name, timezone=timezone.strip(), week_start=week_starts,
                                           by=interaction.user.id)
        await self.door.reply(interaction, f"**{league.name}** is created: weeks start on {DAYS[league.week_start]} "
                              f"in {league.timezone}. Next: `/league-admin channel` picks where its tables count "
                              "and its weekly standings are posted; `/table new league:` opens a table for it "
                              "anywhere.")

    @create.autocomplete("timezone")
    async def _timezones(self, interaction: Interaction, typed: str) -> Choices:
        return matching(typed, _zones())

    @app_commands.command(name="channel", description="Where a league's tables count and its standings are posted")
    @app_commands.describe(channel="the channel", league="which league (default: the only one)")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def channel(self, interaction: Interaction, channel: discord.TextChannel,
                      league: str | None = None) -> None:
        """Set the league's channel."""
        found = await self._league(interaction, league)
        updated = await self.leagues.set_channel(found, channel.id)
        self._wake_poster()  # a post that failed is tried again at once, in the new channel
        await self.door.reply(interaction, f"Tables opened in {channel.mention} now count for **{updated.name}**, and "
                              "its standings are posted there at the end of each week.")

    @app_commands.command(name="auto-join", description="Whether players join a league with their first game")
    @app_commands.describe(on="True: a first game at its tables makes a player a member", league="which league")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def auto_join(self, interaction: Interaction, on: bool, league: str | None = None) -> None:
        """Set auto-join."""
        found = await self._league(interaction, league)
        await self.leagues.set_auto_join(found, on)
        await self.door.reply(interaction, f"Players {'now join' if on else 'no longer join'} **{found.name}** with "
                              "their first game at its tables.")

    @season.command(name="start", description="Start a season of a league now")
    @app_commands.describe(name="the season's name, e.g. Spring 2026", league="which league")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def season_start(self, interaction: Interaction, name: app_commands.Range[str, 1, 40],
                           league: str | None = None) -> None:
        """Start a season."""
        found = await self._league(interaction, league)
        season = await self.leagues.start_season(found, name)
        await self.door.reply(interaction, f"Season **{season.name}** of **{found.name}** has started.",
                              ephemeral=False)

    @season.command(name="end", description="End a league's running season")
    @app_commands.describe(league="which league")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def season_end(self, interaction: Interaction, league: str | None = None) -> None:
        """End the season."""
        found = await self._league(interaction, league)
        season = await self.leagues.end_season(found)
        await self.door.reply(interaction, f"Season **{season.name}** of **{found.name}** is over: `/standings season:"
                              f"{season.name}` shows it.", ephemeral=False)
