"""``/league`` (join, leave, info), ``/league-admin`` (create, channel, auto-join, season start|end: server
managers), ``/standings`` and ``/ledger``. Thin: each command asks :class:`bot.service.leagues.LeagueService`.

Discord applies default permissions to top-level commands only, so the manager commands are a group of their
own (``/league-admin``, shown by default to members with Manage Server) and are checked again here.
"""

from __future__ import annotations

import io
import zoneinfo
from functools import cache
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.errors import ErrorKind, TableError
from bot.service.leagues import DAYS, LeagueRow, Standing

from . import league_look as looks
from .replies import defer, reply

if TYPE_CHECKING:
    from .app import CharlestonBot

    Interaction = discord.Interaction[CharlestonBot]

Choices = list[app_commands.Choice[str]]
ALL_GAMES = "*"  # the season option's value for every game so far


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


async def require_manager(bot: CharlestonBot, interaction: Interaction) -> int:
    """The guild id, once the caller is known to be a server manager: the default permissions hide manager
    commands from others, and a server may change that, so every manager command checks again."""
    guild_id = guild_of(interaction)
    if not is_manager(interaction):
        raise TableError(ErrorKind.FORBIDDEN, "Only server managers (the Manage Server permission) may do that.")
    await bot.leagues.saw_manager(guild_id, interaction.user.id)
    return guild_id


@cache
def _zones() -> list[str]:
    return sorted(zoneinfo.available_timezones())


def _matching(typed: str, options: list[str]) -> Choices:
    typed = typed.strip().lower()
    return [app_commands.Choice(name=o[:100], value=o[:100]) for o in options if typed in o.lower()][:25]


def the_bot(interaction: Interaction) -> CharlestonBot:
    """The bot an interaction came to."""
    return interaction.client


async def league_names(interaction: Interaction, typed: str) -> Choices:
    """Suggestions: the server's leagues."""
    if interaction.guild_id is None:
        return []
    return _matching(typed, await the_bot(interaction).leagues.names(interaction.guild_id))


@app_commands.guild_only()
class League(commands.GroupCog, group_name="league", group_description="Join a league, or see one"):
    """What every member may do with leagues."""

    def __init__(self, bot: CharlestonBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="join", description="Join a league of this server")
    @app_commands.describe(league="which league (default: this channel's, or the only one)")
    @app_commands.autocomplete(league=league_names)
    async def join(self, interaction: Interaction, league: str | None = None) -> None:
        """Join."""
        found = await self.bot.leagues.find(guild_of(interaction), league, here(interaction))
        joined = await self.bot.leagues.join(found, interaction.user.id)
        await reply(interaction, f"You're a member of **{found.name}**." if joined
                    else f"You were already a member of **{found.name}**.")

    @app_commands.command(name="leave", description="Leave a league (your games stay in its standings)")
    @app_commands.describe(league="which league (default: this channel's, or the only one)")
    @app_commands.autocomplete(league=league_names)
    async def leave(self, interaction: Interaction, league: str | None = None) -> None:
        """Leave."""
        found = await self.bot.leagues.find(guild_of(interaction), league, here(interaction))
        await self.bot.leagues.leave(found, interaction.user.id)
        await reply(interaction, f"You've left **{found.name}**. The games you played stay in its standings and "
                    "ledger.")

    @app_commands.command(name="info", description="A league's channel, week, members and season")
    @app_commands.describe(league="which league (default: this channel's, or the only one)")
    @app_commands.autocomplete(league=league_names)
    async def info(self, interaction: Interaction, league: str | None = None) -> None:
        """Show a league."""
        guild_id = guild_of(interaction)
        if league is None and len(every := await self.bot.leagues.leagues(guild_id)) > 1:
            here_league = next((x for x in every if x.channel_id in here(interaction)), None)
            if here_league is None:
                await reply(interaction, "Leagues here: " + ", ".join(f"**{x.name}**" for x in every)
                            + ". Name one to see it.")
                return
        found = await self.bot.leagues.find(guild_id, league, here(interaction))
        await reply(interaction, looks.info_text(await self.bot.leagues.info(found)))


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class LeagueAdmin(commands.GroupCog, group_name="league-admin",
                  group_description="Create and run leagues (server managers)"):
    """What server managers do with leagues."""

    season = app_commands.Group(name="season", description="Start or end a league's season")

    def __init__(self, bot: CharlestonBot) -> None:
        self.bot = bot
        super().__init__()

    async def _league(self, interaction: Interaction, league: str | None) -> LeagueRow:
        guild_id = await require_manager(self.bot, interaction)
        return await self.bot.leagues.find(guild_id, league, here(interaction))

    @app_commands.command(name="create", description="Create a league in this server")
    @app_commands.describe(name="its name, unique in this server", timezone="its time zone, e.g. America/New_York "
                           "(default UTC)", week_starts="the day its weeks start (default Monday)")
    @app_commands.choices(week_starts=[app_commands.Choice(name=day, value=n) for n, day in enumerate(DAYS)])
    async def create(self, interaction: Interaction, name: app_commands.Range[str, 1, 40],
                     timezone: str = "UTC", week_starts: int = 0) -> None:
        """Create a league."""
        guild_id = await require_manager(self.bot, interaction)
        league = await self.bot.leagues.create(guild_id, name, timezone=timezone.strip(), week_start=week_starts,
                                               by=interaction.user.id)
        await reply(interaction, f"**{league.name}** is created: weeks start on {DAYS[league.week_start]} in "
                    f"{league.timezone}. Next: `/league-admin channel` picks where its tables count and its weekly "
                    "standings are posted; `/table new league:` opens a table for it anywhere.")

    @create.autocomplete("timezone")
    async def _timezones(self, interaction: Interaction, typed: str) -> Choices:
        return _matching(typed, _zones())

    @app_commands.command(name="channel", description="Where a league's tables count and its standings are posted")
    @app_commands.describe(channel="the channel", league="which league (default: the only one)")
    @app_commands.autocomplete(league=league_names)
    async def channel(self, interaction: Interaction, channel: discord.TextChannel,
                      league: str | None = None) -> None:
        """Set the league's channel."""
        found = await self._league(interaction, league)
        updated = await self.bot.leagues.set_channel(found, channel.id)
        self.bot.poster.wake()  # a post that failed is tried again at once, in the new channel
        await reply(interaction, f"Tables opened in {channel.mention} now count for **{updated.name}**, and its "
                    "standings are posted there at the end of each week.")

    @app_commands.command(name="auto-join", description="Whether players join a league with their first game")
    @app_commands.describe(on="True: a first game at its tables makes a player a member", league="which league")
    @app_commands.autocomplete(league=league_names)
    async def auto_join(self, interaction: Interaction, on: bool, league: str | None = None) -> None:
        """Set auto-join."""
        found = await self._league(interaction, league)
        await self.bot.leagues.set_auto_join(found, on)
        await reply(interaction, f"Players {'now join' if on else 'no longer join'} **{found.name}** with their "
                    "first game at its tables.")

    @season.command(name="start", description="Start a season of a league now")
    @app_commands.describe(name="the season's name, e.g. Spring 2026", league="which league")
    @app_commands.autocomplete(league=league_names)
    async def season_start(self, interaction: Interaction, name: app_commands.Range[str, 1, 40],
                           league: str | None = None) -> None:
        """Start a season."""
        found = await self._league(interaction, league)
        season = await self.bot.leagues.start_season(found, name)
        await reply(interaction, f"Season **{season.name}** of **{found.name}** has started.", ephemeral=False)

    @season.command(name="end", description="End a league's running season")
    @app_commands.describe(league="which league")
    @app_commands.autocomplete(league=league_names)
    async def season_end(self, interaction: Interaction, league: str | None = None) -> None:
        """End the season."""
        found = await self._league(interaction, league)
        season = await self.bot.leagues.end_season(found)
        await reply(interaction, f"Season **{season.name}** of **{found.name}** is over: `/standings season:"
                    f"{season.name}` shows it.", ephemeral=False)


class Standings(commands.Cog):
    """``/standings`` and ``/ledger``.

    ``/standings`` shows the league a command means (named, this channel's, or the server's only one); where none
    is meant (a server without a league, or several and none named here) it shows the whole server's standings,
    every table counted, as ``charleston standings --guild`` gives them. ``/ledger`` shows your own chips and
    latest games privately; another player's only as the standings show them (place and net chips) for the
    channel, with the game-by-game detail privately to the one who asked.
    """

    def __init__(self, bot: CharlestonBot) -> None:
        self.bot = bot

    @app_commands.command(name="standings", description="Standings: this week, a week, a season or every game")
    @app_commands.describe(league="which league (default: this channel's, or the only one; none: the whole server)",
                           week="a week, like 23 Nov 2026 (default: this week)",
                           season="a season, or All games so far (instead of a week)")
    @app_commands.autocomplete(league=league_names)
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
            figures = await self.bot.leagues.season(found, None if everything else season, all_games=everything)
            await defer(interaction, ephemeral=False, thinking=True)
            shown = await looks.season_message(figures)
        else:
            weekly = await self.bot.leagues.week(found, self.bot.leagues.week_of(found, week))
            await defer(interaction, ephemeral=False, thinking=True)
            shown = await looks.week_message(weekly)
        if isinstance(shown, str):
            await reply(interaction, shown, ephemeral=False)
        else:
            await reply(interaction, shown.content, ephemeral=False, file=shown.file())

    async def _server(self, interaction: Interaction, guild_id: int, week: str | None,
                      season: str | None) -> looks.Shown | str:
        """The whole server's standings, every table counted: a week, or every game so far."""
        names = await self.bot.leagues.names(guild_id)
        if season and season != ALL_GAMES:
            if not names:
                raise TableError(ErrorKind.BAD_INPUT, "Seasons belong to a league, and this server has none yet. "
                                 "Choose season: All games so far, or give a week.")
            raise TableError(ErrorKind.BAD_INPUT, f"Seasons belong to a league: add league: ({', '.join(names)}).")
        figures = await (self.bot.leagues.server_totals(guild_id) if season
                         else self.bot.leagues.server_week(guild_id, week))
        await defer(interaction, ephemeral=False, thinking=True)
        server = interaction.guild.name if interaction.guild else "This server"
        return await looks.server_message(figures, server, names)

    async def _meant(self, interaction: Interaction, league: str | None) -> LeagueRow | None:
        """The league a command means (named: it must exist), or None for the whole server: no league here, or
        several and none named or of this channel."""
        guild_id = guild_of(interaction)
        if league:
            return await self.bot.leagues.find(guild_id, league)
        every = await self.bot.leagues.leagues(guild_id)
        if len(every) == 1:
            return every[0]
        return await self.bot.leagues.for_new_table(guild_id, None, here(interaction)) if every else None

    @standings.autocomplete("week")
    async def _weeks(self, interaction: Interaction, typed: str) -> Choices:
        if interaction.guild_id is None:
            return []
        try:
            league = await self._meant(interaction, interaction.namespace.league)
        except TableError:
            return []
        weeks = (self.bot.leagues.week_choices(league) if league is not None
                 else await self.bot.leagues.server_week_choices(interaction.guild_id))
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
        names = [s.name for s in await self.bot.leagues.season_list(league)] if league else []
        found = _matching(typed, names)
        if typed.strip().lower() in "all games so far":
            found.append(app_commands.Choice(name="All games so far", value=ALL_GAMES))
        return found[:25]

    @app_commands.command(name="ledger", description="Your chips and latest games; another player's place "
                          "(managers: export as CSV)")
    @app_commands.describe(player="whose (default: yours; another's: their place for all, the games for you)",
                           league="one league only (default: the whole server)",
                           export="managers: the whole ledger as a CSV file")
    @app_commands.autocomplete(league=league_names)
    @app_commands.guild_only()
    async def ledger(self, interaction: Interaction, player: discord.User | None = None,
                     league: str | None = None, export: bool = False) -> None:
        """Show a ledger, or export it."""
        guild_id = guild_of(interaction)
        found = await self.bot.leagues.find(guild_id, league) if league else None
        where = f"**{found.name}**" if found else "this server"
        if export:
            await require_manager(self.bot, interaction)
            await defer(interaction, thinking=True)
            text, count = await self.bot.leagues.ledger_csv(guild_id, found)
            data = text.encode()
            if len(data) > interaction.filesize_limit:
                raise TableError(ErrorKind.BAD_INPUT, f"The ledger of {where} is {len(data):,} bytes, more than "
                                 "Discord takes in one file: export one league at a time (league:), or copy the "
                                 "database with `charleston backup`.")
            name = f"ledger-{found.league_id if found else guild_id}.csv"
            await reply(interaction, f"The chip ledger of {where}: {count} posting{'s' if count != 1 else ''}, "
                        "every game's settlement and correction.",
                        file=discord.File(io.BytesIO(data), filename=name))
            return
        who = player or interaction.user
        quiet = discord.AllowedMentions.none()
        if who.id == interaction.user.id:  # one's own: the whole statement, privately
            statement = await self.bot.leagues.statement(guild_id, who.id, found)
            await reply(interaction, looks.statement_text(statement, who.display_name, where), allowed_mentions=quiet)
            return
        # Another player's: for the channel, only what the standings show; the detail privately to the asker.
        await defer(interaction, ephemeral=False, thinking=True)
        periods = await self._periods(guild_id, found)
        await reply(interaction, looks.standing_text(who.display_name, where, periods, who.id), ephemeral=False,
                    allowed_mentions=quiet)
        statement = await self.bot.leagues.statement(guild_id, who.id, found)
        await reply(interaction, looks.statement_text(statement, who.display_name, where), allowed_mentions=quiet)

    async def _periods(self, guild_id: int, league: LeagueRow | None) -> list[tuple[str, list[Standing]]]:
        """The standings a player's place is read from: this week, the running season (in a league) and every
        game so far, each as (what, rows)."""
        leagues = self.bot.leagues
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


async def setup(bot: CharlestonBot) -> None:
    """Load the cogs."""
    await bot.add_cog(League(bot))
    await bot.add_cog(LeagueAdmin(bot))
    await bot.add_cog(Standings(bot))
