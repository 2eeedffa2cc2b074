"""``/league`` (join, leave, info) and ``/league-admin`` (create, channel, auto-join, scoring, season start|end,
game void|record: server managers). Thin: each command asks the league service
(:class:`bot.service.surface.LeagueCalls`).

Discord applies default permissions to top-level commands only, so the manager commands are a group of their
own (``/league-admin``, shown by default to members with Manage Server) and are checked again here.
"""

from __future__ import annotations

import contextlib
import zoneinfo
from collections.abc import Callable
from functools import cache

import discord
from discord import app_commands
from discord.ext import commands

from bot.service.corrections import PhysicalGame
from bot.service.errors import ErrorKind, TableError
from bot.service.leagues import DAYS, LeagueRow
from bot.service.scoring import PRESET_NAMES, RULE_NAMES
from bot.service.surface import LeagueCalls, NightCalls

from ..door import Door, Interaction
from ..failures import DiscordFailure
from ..show import league_look as looks
from ..show import night_look
from .common import CardNames, Choices, LeagueNames, guild_of, here, matching, require_manager

Person = discord.User | discord.Member


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
class LeagueAdmin(LeagueNames, CardNames, commands.GroupCog, group_name="league-admin",
                  group_description="Create and run leagues (server managers)"):
    """What server managers do with leagues."""

    season = app_commands.Group(name="season", description="Start or end a league's season")
    game = app_commands.Group(name="game", description="Void a game, or record one played at a physical table")

    def __init__(self, leagues: LeagueCalls, door: Door, wake_poster: Callable[[], None],
                 nights: NightCalls | None = None, wake_nights: Callable[[], None] = lambda: None) -> None:
        self.leagues = leagues
        self.door = door
        self._wake_poster = wake_poster  # the weekly poster looks for due posts now
        self.nights = nights
        self._wake_nights = wake_nights  # the night runner looks for due steps now
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

    @app_commands.command(name="scoring", description="How a league's standings count: chips or tournament points")
    @app_commands.describe(
        unit="chips (as the ledger settles each game) or tournament points",
        preset="a published tournament scoring (docs/rules.md names its source)",
        standings="total of every game, best N games a week, or a season average with a minimum",
        best="best N: how many games of each week count", minimum="average: games a player needs to be ranked",
        self_pick="points for a self-picked Mah Jongg", jokerless="points for a jokerless hand (not Singles & Pairs)",
        wall="points for each hand not dead in a wall game",
        thrower_penalty="points the thrower loses, winner with 0, 1, 2 and 3+ exposures: like 10 10 20 25",
        league="which league")
    @app_commands.choices(
        unit=[app_commands.Choice(name=unit, value=unit) for unit in ("chips", "tournament")],
        preset=[app_commands.Choice(name=name, value=name) for name in PRESET_NAMES],
        standings=[app_commands.Choice(name=shown, value=rule) for rule, shown in RULE_NAMES.items()])
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def scoring(self, interaction: Interaction, unit: str | None = None, preset: str | None = None,
                      standings: str | None = None, best: app_commands.Range[int, 1, 50] | None = None,
                      minimum: app_commands.Range[int, 1, 500] | None = None,
                      self_pick: app_commands.Range[int, 0, 1000] | None = None,
                      jokerless: app_commands.Range[int, 0, 1000] | None = None,
                      wall: app_commands.Range[int, 0, 1000] | None = None,
                      thrower_penalty: app_commands.Range[str, 1, 40] | None = None,
                      league: str | None = None) -> None:
        """Show or change the league's scoring (with no option: show it)."""
        found = await self._league(interaction, league)
        updated = await self.leagues.set_scoring(found, unit=unit, preset=preset, self_pick=self_pick,
                                                 jokerless=jokerless, wall=wall, throw_penalty=thrower_penalty,
                                                 rule=standings, best=best, minimum=minimum)
        changed = updated.scoring != found.scoring
        await self.door.reply(interaction, f"**{updated.name}**{' now' if changed else ''}: "
                              f"{updated.scoring.describe()}", ephemeral=not changed)

    @game.command(name="void", description="Void a finished game: its chips put back, out of the standings")
    @app_commands.describe(game="the game's number (suggested: the latest games)",
                           reason="why, for the record (shown in the standings and the ledger's export)")
    async def game_void(self, interaction: Interaction, game: app_commands.Range[int, 1, 2**53 - 1],
                        reason: app_commands.Range[str, 1, 200]) -> None:
        """Void a game."""
        guild_id = await require_manager(self.leagues, interaction)
        voided = await self.leagues.corrections.void(guild_id, game, reason, interaction.user.id,
                                                     interaction.user.display_name)
        await self.door.reply(interaction, f"Game {voided.game_id} (table {voided.table_id}) is voided: its chips "
                              "are put back by a correcting entry in the ledger, and it no longer counts in the "
                              f"standings. Reason: {looks.plain(reason)[:200]}", ephemeral=False)

    @game_void.autocomplete("game")
    async def _games(self, interaction: Interaction, typed: str) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        games = await self.leagues.corrections.recent(interaction.guild_id, None)
        shown = [(g.game_id, looks.game_choice(g)) for g in games if not g.voided]
        return [app_commands.Choice(name=name, value=number) for number, name in shown
                if typed.strip() in str(number) or typed.strip().lower() in name.lower()][:25]

    @game.command(name="record", description="Record a game played at a physical table")
    @app_commands.describe(
        east="the player in East's seat", south="South", west="West", north="North (leave out for three players)",
        winner="who made Mah Jongg (leave out for a wall game)", line="the winning line, as the card prints it",
        thrower="whose discard she took (leave out for a self-pick)", jokerless="True: her hand had no jokers",
        exposures="the winner's exposures (0 to 4; the thrower's penalty depends on them)",
        dead="a player whose hand was declared dead", card="the card played (default: the server's)",
        league="which league")
    @app_commands.autocomplete(league=LeagueNames.league_names, card=CardNames.card_names)
    async def game_record(self, interaction: Interaction, east: discord.User, south: discord.User,
                          west: discord.User, north: discord.User | None = None,
                          winner: discord.User | None = None, line: app_commands.Range[str, 1, 40] | None = None,
                          thrower: discord.User | None = None, jokerless: bool = False,
                          exposures: app_commands.Range[int, 0, 4] = 0, dead: discord.User | None = None,
                          card: str | None = None, league: str | None = None) -> None:
        """Record a physical game."""
        found = await self._league(interaction, league)
        seated: list[Person] = [east, south, west, *([north] if north else [])]
        game = PhysicalGame(tuple((p.id, p.display_name) for p in seated), winner.id if winner else None, line,
                            thrower.id if thrower else None, jokerless, exposures, dead.id if dead else None, card)
        number = await self.leagues.corrections.record(found, game, interaction.user.id,
                                                       interaction.user.display_name)
        await self.door.reply(interaction, looks.recorded_text(number, found, seated, game),
                              ephemeral=False, mentions=discord.AllowedMentions.none())

    @game_record.autocomplete("line")
    async def _lines(self, interaction: Interaction, typed: str) -> Choices:
        if interaction.guild_id is None:
            return []
        cards = self.leagues.cards
        try:
            chosen = cards.card(interaction.guild_id, interaction.namespace.card or
                                await cards.default_name(interaction.guild_id))
        except TableError:  # a card name still being typed: no suggestions yet
            return []
        typed = typed.strip().lower()
        return [app_commands.Choice(name=f"{line.id} · {line.value}", value=line.id) for line in chosen.lines
                if typed in line.id.lower()][:25]

    @app_commands.command(name="night", description="Schedule a league night: sign-ups, tables and rounds run by "
                                                    "the bot")
    @app_commands.describe(
        when="date and time in the league's time zone, like 2026-12-02 19:00 or 2 Dec 7pm",
        rounds="how many rounds (players are reseated between rounds)",
        games_per_round="games at each table per round (default 4)",
        minutes_per_round="or: minutes per round (the games under way then are finished)",
        remainder="players over a multiple of four: computers fill a table's seats, or tables of three",
        absent="an absent player's seat is played by a computer; her game then counts, or scores 0 points",
        close_minutes="sign-up closes this many minutes before the start (default 10)",
        computer_delay="seconds a computer player waits before each move (0 to 5)", league="which league")
    @app_commands.choices(
        remainder=[app_commands.Choice(name="computers fill the seats", value="computers"),
                   app_commands.Choice(name="tables of three", value="three")],
        absent=[app_commands.Choice(name="counts as played", value="counts"),
                app_commands.Choice(name="scores 0 points", value="zero")])
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def night(self, interaction: Interaction, when: app_commands.Range[str, 1, 40],
                    rounds: app_commands.Range[int, 1, 12] = 2,
                    games_per_round: app_commands.Range[int, 1, 16] | None = None,
                    minutes_per_round: app_commands.Range[int, 10, 300] | None = None,
                    remainder: str = "computers", absent: str = "counts",
                    close_minutes: app_commands.Range[int, 0, 1440] = 10,
                    computer_delay: app_commands.Range[float, 0, 5] = 1.5, league: str | None = None) -> None:
        """Schedule a night and post its sign-up in the league's channel."""
        found = await self._league(interaction, league)
        if self.nights is None:
            raise TableError(ErrorKind.BAD_INPUT, "League nights are not run by this bot.")
        if games_per_round is None and minutes_per_round is None:
            games_per_round = 4  # a tournament round: four games at a table (S4 1a)
        view = await self.nights.schedule(found, when=when, rounds=rounds, games=games_per_round,
                                          minutes=minutes_per_round, remainder=remainder, absent=absent,
                                          close_minutes=close_minutes, computer_delay=float(computer_delay),
                                          by=interaction.user.id)
        night = view.night
        try:
            message = await self.door.send(night.channel_id, night_look.signup_payload(view),
                                           f"post night {night.night_id}'s sign-up",
                                           mentions=discord.AllowedMentions.none())
        except DiscordFailure:
            await self.door.reply(interaction, f"The night is scheduled, but I could not post its sign-up in "
                                  f"<#{night.channel_id}>: I need View Channel, Send Messages and Create Public "
                                  "Threads there.")
            return
        await self.nights.signup_posted(night.night_id, message.id)
        self._wake_nights()
        await self.door.reply(interaction, f"{night_look.headline(view)} is scheduled: the sign-up is in "
                              f"<#{night.channel_id}>.", ephemeral=False, mentions=discord.AllowedMentions.none())

    @app_commands.command(name="night-cancel", description="Call off a league's next night (before it begins)")
    @app_commands.describe(league="which league")
    @app_commands.autocomplete(league=LeagueNames.league_names)
    async def night_cancel(self, interaction: Interaction, league: str | None = None) -> None:
        """Call off the next night: its sign-up says so, and those who were in are told by DM."""
        found = await self._league(interaction, league)
        if self.nights is None:
            raise TableError(ErrorKind.BAD_INPUT, "League nights are not run by this bot.")
        view = await self.nights.cancel(found)
        night = view.night
        await self.door.defer(interaction, ephemeral=False, thinking=True)
        if night.signup_message_id is not None:
            with contextlib.suppress(DiscordFailure):  # a sign-up deleted by hand: the night is off all the same
                await self.door.edit(night.channel_id, night.signup_message_id, night_look.signup_payload(view),
                                     f"call off night {night.night_id}")
        told = await self.door.tell([s.player_id for s in view.coming], night_look.cancelled_text(view),
                                    f"tell night {night.night_id}'s players it is off")
        await self.door.reply(interaction, f"{night_look.headline(view)} is called off; {len(told)} of "
                              f"{len(view.coming)} signed up told by DM.", ephemeral=False,
                              mentions=discord.AllowedMentions.none())
