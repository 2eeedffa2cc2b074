"""``/standings`` and ``/ledger``. Thin: each command asks the league service
(:class:`bot.service.surface.LeagueCalls`) and shows its figures (:mod:`cogs.show.league_look`)."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.errors import ErrorKind, TableError
from bot.service.leagues import LeagueRow, Standing
from bot.service.surface import LeagueCalls

from ..door import Door, Interaction
from ..show import league_look as looks
from .common import Choices, LeagueNames, guild_of, here, matching, require_manager

ALL_GAMES = "*"  # the season option's value for every game so far


class Standings(LeagueNames, commands.Cog):
    """``/standings`` and ``/ledger``.

    ``/standings`` shows the league a command means (named, this channel's, or the server's only one); where none
    is meant (a server without a league, or several and none named here) it shows the whole server's standings,
    every table counted, as ``charleston standings --guild`` gives them. ``/ledger`` shows your own chips and
    latest games privately; another player's only as the standings show them (place and net chips) for the
    channel, with the game-by-game detail privately to the one who asked.
    """

    def __init__(self, leagues: LeagueCalls, door: Door) -> None:
        self.leagues = leagues
        self.door = door

    @app_commands.command(name="standings", description="Standings: this week, a week, a season or every game")
    @app_commands.describe(league="which league (default: this channel's, or the only one; none: the whole server)",
                           week="a week, like 23 Nov 2026 (default: this week)",
                           season="a season, or All games so far (instead of a week)")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    @app_commands.guild_only()
    async def standings(self, interaction: Interaction, league: str | None = None, week: str | None = None,
                        season: str | None = None) -> None:
        """Show standings."""
        guild_id = guild_of(interaction)
        if week and season:
            raise TableError(ErrorKind.BAD_INPUT, "Give a week or a season, not both.")
        found = await self._meant(interaction, league)
        # The figures first: a mistake (an unknown season) is answered privately, before the public "thinking".
        if found is None:
            shown = await self._server(interaction, guild_id, week, season)
        elif season:
            everything = season == ALL_GAMES
            figures = await self.leagues.season(found, None if everything else season, all_games=everything)
            await self.door.defer(interaction, ephemeral=False, thinking=True)
            shown = await looks.season_message(figures)
        else:
            weekly = await self.leagues.week(found, self.leagues.week_of(found, week))
            await self.door.defer(interaction, ephemeral=False, thinking=True)
            shown = await looks.week_message(weekly)
        if isinstance(shown, str):
            await self.door.reply(interaction, shown, ephemeral=False)
        else:
            await self.door.reply(interaction, shown.content, ephemeral=False, files=[shown.file()])

    async def _server(self, interaction: Interaction, guild_id: int, week: str | None,
                      season: str | None) -> looks.Shown | str:
        """The whole server's standings, every table counted: a week, or every game so far."""
        names = await self.leagues.names(guild_id)
        if season and season != ALL_GAMES:
            if not names:
                raise TableError(ErrorKind.BAD_INPUT, "Seasons belong to a league, and this server has none yet. "
                                 "Choose season: All games so far, or give a week.")
            raise TableError(ErrorKind.BAD_INPUT, f"Seasons belong to a league: add league: ({', '.join(names)}).")
        figures = await (self.leagues.server_totals(guild_id) if season
                         else self.leagues.server_week(guild_id, week))
        await self.door.defer(interaction, ephemeral=False, thinking=True)
        server = interaction.guild.name if interaction.guild else "This server"
        return await looks.server_message(figures, server, names)

    async def _meant(self, interaction: Interaction, league: str | None) -> LeagueRow | None:
        """The league a command means (named: it must exist), or None for the whole server: no league here, or
        several and none named or of this channel."""
        guild_id = guild_of(interaction)
        if league:
            return await self.leagues.find(guild_id, league)
        every = await self.leagues.leagues(guild_id)
        if len(every) == 1:
            return every[0]
        return await self.leagues.for_new_table(guild_id, None, here(interaction)) if every else None

    @standings.autocomplete("week")
    async def _weeks(self, interaction: Interaction, typed: str) -> Choices:
        if interaction.guild_id is None:
            return []
        try:
            league = await self._meant(interaction, interaction.namespace.league)
        except TableError:
            return []
        weeks = (self.leagues.week_choices(league) if league is not None
                 else await self.leagues.server_week_choices(interaction.guild_id))
        typed = typed.strip().lower()
        return [app_commands.Choice(name=name, value=label) for name, label in weeks
                if typed in name.lower() or typed in label.lower()][:25]

    @standings.autocomplete("season")
    async def _seasons(self, interaction: Interaction, typed: str) -> Choices:
        if interaction.guild_id is None:
            return []
        try:
            league = await self._meant(interaction, interaction.namespace.league)
        except TableError:
            return []
        names = [s.name for s in await self.leagues.season_list(league)] if league else []
        found = matching(typed, names)
        if typed.strip().lower() in "all games so far":
            found.append(app_commands.Choice(name="All games so far", value=ALL_GAMES))
        return found[:25]

    @app_commands.command(name="ledger", description="Your chips and latest games; another player's place "
                          "(managers: export as CSV)")
    @app_commands.describe(player="whose (default: yours; another's: their place for all, the games for you)",
                           league="one league only (default: the whole server)",
                           export="managers: the whole ledger as a CSV file")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    @app_commands.guild_only()
    async def ledger(self, interaction: Interaction, player: discord.User | None = None,
                     league: str | None = None, export: bool = False) -> None:
        """Show a ledger, or export it."""
        guild_id = guild_of(interaction)
        found = await self.leagues.find(guild_id, league) if league else None
        where = f"**{found.name}**" if found else "this server"
        if export:
            await require_manager(self.leagues, interaction)
            await self.door.defer(interaction, thinking=True)
            text, count = await self.leagues.ledger_csv(guild_id, found)
            data = text.encode()
            if len(data) > interaction.filesize_limit:
                raise TableError(ErrorKind.BAD_INPUT, f"The ledger of {where} is {len(data):,} bytes, more than "
                                 "Discord takes in one file: export one league at a time (league:), or copy the "
                                 "database with `charleston backup`.")
            name = f"ledger-{found.league_id if found else guild_id}.csv"
            postings = f"{count} posting{'s' if count != 1 else ''}"
            await self.door.reply(interaction, f"The chip ledger of {where}: {postings}, every game's settlement and "
                                  "correction.",
                                  files=[discord.File(io.BytesIO(data), filename=name)])
            return
        who = player or interaction.user
        quiet = discord.AllowedMentions.none()
        if who.id == interaction.user.id:  # one's own: the whole statement, privately
            statement = await self.leagues.statement(guild_id, who.id, found)
            await self.door.reply(interaction, looks.statement_text(statement, who.display_name, where), mentions=quiet)
            return
        # Another player's: for the channel, only what the standings show; the detail privately to the asker.
        await self.door.defer(interaction, ephemeral=False, thinking=True)
        periods = await self._periods(guild_id, found)
        await self.door.reply(interaction, looks.standing_text(who.display_name, where, periods, who.id),
                              ephemeral=False, mentions=quiet)
        statement = await self.leagues.statement(guild_id, who.id, found)
        await self.door.reply(interaction, looks.statement_text(statement, who.display_name, where), mentions=quiet)

    async def _periods(self, guild_id: int, league: LeagueRow | None) -> list[tuple[str, list[Standing]]]:
        """The standings a player's place is read from: this week, the running season (in a league) and every
        game so far, each as (what, rows)."""
        leagues = self.leagues
        if league is None:
            week = await leagues.server_week(guild_id)
            return [(week.name, week.rows), ("every game so far", (await leagues.server_totals(guild_id)).rows)]
        weekly = await leagues.week(league, leagues.week_of(league, None))
        periods = [(weekly.name, weekly.rows)]
        running = await leagues.season(league, None)
        if running.season is not None:
            periods.append((f"season {running.season.name}", running.totals))
        periods.append(("every game so far", (await leagues.season(league, None, all_games=True)).totals))
        return periods
