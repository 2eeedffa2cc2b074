"""Leagues: several per guild, each with its channel (tables opened there count for it), members, seasons,
standings per week and per season, and the chip ledger seen through it. No discord here: the cogs call these
methods; everything a user can cause is refused with a :class:`~bot.service.errors.TableError`.

Every method takes the guild it acts for, and finds leagues only within it.
"""

from __future__ import annotations

import csv
import io
import logging
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.engine.tournament import PRESETS, LeagueScoring, ScoringError
from bot.store import leagues as store
from bot.store import ledger
from bot.store.db import Database
from bot.store.leagues import LeagueRow as LeagueRow  # re-exported: the cogs see the service, never the store
from bot.store.leagues import PostRow
from bot.store.leagues import SeasonRow as SeasonRow  # re-exported, as LeagueRow
from bot.store.standings import (
    League,
    check_timezone,
    current_week,
    get_league,
    standings,
    week_bounds,
    week_label,
    week_start_date,
)
from bot.store.standings import Standing as Standing

from .clock import Clock, SystemClock
from .corrections import CorrectionRow, Corrections
from .errors import ErrorKind, TableError
from .guild_cards import GuildCards
from .scoring import league_standings
from .updates import TableUpdate
from .weeks import read_week, week_name

if TYPE_CHECKING:
    from .tables import TableService

log = logging.getLogger("charleston.service")

MAX_NAME = 40
MAX_SEASON_WEEKS = 60  # a season chart shows at most this many weeks (the latest)
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True, slots=True)
class WeekStandings:
    """One league week: its label (the stored key, ``2026-W48``), its bounds (UTC) and the players' totals, best
    first; ``name`` is how people say it."""

    league: LeagueRow
    label: str
    start: datetime
    end: datetime
    rows: list[Standing]
    corrections: list[CorrectionRow] = field(default_factory=list)  # voids and recorded games made in the week

    @property
    def name(self) -> str:
        """The week as people say it: ``week of 23 Nov 2026``."""
        return week_name(self.label, self.league.week_start)


@dataclass(frozen=True, slots=True)
class ServerStandings:
    """A server's standings over all its tables, league or not, as ``charleston standings --guild`` gives them: one
    week (``label`` its key, ``name`` as people say it) or, with ``label`` None, every game so far."""

    guild_id: int
    label: str | None
    name: str  # "week of 23 Nov 2026", or "all games"
    rows: list[Standing]


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    """A season (or, with ``season`` None, every game so far): totals, and each week's rows for the chart."""

    league: LeagueRow
    season: SeasonRow | None
    weeks: list[tuple[str, list[Standing]]]
    totals: list[Standing]
    corrections: list[CorrectionRow] = field(default_factory=list)  # voids and recorded games made in the season

    @property
    def named_weeks(self) -> list[tuple[str, list[Standing]]]:
        """``weeks`` with each week named as people say it (``week of 23 Nov 2026``), for the season chart."""
        return [(week_name(label, self.league.week_start), rows) for label, rows in self.weeks]


@dataclass(frozen=True, slots=True)
class LeagueInfo:
    """What ``/league info`` shows."""

    league: LeagueRow
    members: int
    season: SeasonRow | None
    seasons: int
    problems: list[PostRow]  # weekly posts that failed and wait for their next try


@dataclass(frozen=True, slots=True)
class Statement:
    """A player's balance in a guild (or one league): how many transactions (games settled, corrections) make it,
    and the latest of them (the player's amount in each, and why)."""

    player_id: int
    league: LeagueRow | None
    balance: int
    transactions: int
    latest: list[dict[str, object]]


def clean_name(text: str, what: str) -> str:
    """A league or season name as typed: spacing tidied, 1-40 characters, no line breaks or mentions."""
    name = " ".join(text.split())
    if not 1 <= len(name) <= MAX_NAME or any(c in name for c in "@#`*_~|<>"):
        raise TableError(ErrorKind.BAD_INPUT, f"A {what} name has 1 to {MAX_NAME} characters, without @ # ` * _ ~ "
                         "| < or > (like Tuesday Night or Spring 2026).")
    return name


def read_penalty(text: str) -> tuple[int, int, int, int]:
    """The thrower's penalty as typed: four whole numbers (for 0, 1, 2, and 3 or more exposures)."""
    parts = text.replace(",", " ").replace("/", " ").split()
    if len(parts) != 4 or not all(re.fullmatch(r"-?[0-9]{1,5}", p) for p in parts):
        raise ScoringError("The thrower's penalty is four whole numbers, for a winner with 0, 1, 2, and 3 or more "
                           "exposures (like 10 10 20 25).")
    a, b, c, d = (int(p) for p in parts)
    return a, b, c, d


def next_week(label: str, week_start: int) -> str:
    """The label of the week after ``label``."""
    return week_label(week_start_date(label, week_start) + timedelta(days=7), week_start)


class LeagueService:
    """The leagues of every guild, over the store; the tables' own service is :class:`TableService`."""

    def __init__(self, db: Database, clock: Clock | None = None) -> None:
        self.db = db
        self.clock = clock or SystemClock()
        self.cards = GuildCards(db)
        self.corrections = Corrections(db, self.clock, self.cards)
        self._table_leagues: dict[int, int | None] = {}

    def now(self) -> datetime:
        """The service clock's time."""
        return self.clock.now()

    def now_iso(self) -> str:
        """The service clock's time as stored (ISO, UTC, milliseconds)."""
        return self.now().astimezone(UTC).isoformat(timespec="milliseconds")

    def watch(self, tables: TableService) -> None:
        """Follow the tables: players at a league table join the league with their first game there."""
        tables.subscribe(self._on_table_update)

    async def _on_table_update(self, update: TableUpdate) -> None:
        if update.cause != "start":
            return
        league = await store.table_league(self.db, update.table_id)
        if league is None or not league.auto_join:
            return
        for seat in update.view.seats:
            if seat.player_id is not None:
                await store.add_member(self.db, league.league_id, seat.player_id, "played", self.now_iso())

    # -- finding leagues ---------------------------------------------------------------------------------------

    async def find(self, guild_id: int, name: str | None, channel_ids: list[int] | None = None) -> LeagueRow:
        """The league a command means: the one named, else the league of this channel, else the guild's only
        league. A TableError (NO_LEAGUE) says which exist when that is not enough."""
        if name:
            found = await store.league_by_name(self.db, guild_id, name)
            if found is None:
                raise TableError(ErrorKind.NO_LEAGUE, f"There is no league named '{name[:MAX_NAME]}' in this server. "
                                 f"{await self._which(guild_id)}")
            return found
        if channel_ids:
            here = await store.league_by_channel(self.db, guild_id, channel_ids)
            if here is not None:
                return here
        every = await store.leagues_of(self.db, guild_id)
        if len(every) == 1:
            return every[0]
        raise TableError(ErrorKind.NO_LEAGUE, await self._which(guild_id))

    async def _which(self, guild_id: int) -> str:
        every = await store.leagues_of(self.db, guild_id)
        if not every:
            return "This server has no league yet: a server manager creates one with /league-admin create."
        return "Choose a league with the league option: " + ", ".join(league.name for league in every) + "."

    async def names(self, guild_id: int) -> list[str]:
        """The guild's league names, oldest first (for suggestions)."""
        return [league.name for league in await store.leagues_of(self.db, guild_id)]

    async def leagues(self, guild_id: int) -> list[LeagueRow]:
        """The guild's leagues, oldest first."""
        return await store.leagues_of(self.db, guild_id)

    async def for_new_table(self, guild_id: int, name: str | None, channel_ids: list[int]) -> LeagueRow | None:
        """The league a table opened here counts for: the one named, else the league of this channel, if any."""
        if name:
            return await self.find(guild_id, name)
        return await store.league_by_channel(self.db, guild_id, channel_ids)

    async def attach_table(self, table_id: int, league: LeagueRow) -> None:
        """The table's games count for the league."""
        await store.attach_table(self.db, table_id, league.league_id)

    # -- managing leagues --------------------------------------------------------------------------------------

    async def saw_manager(self, guild_id: int, user_id: int) -> None:
        """Remember a manager of the guild, to tell them when a weekly post fails."""
        await store.saw_manager(self.db, guild_id, user_id, self.now_iso())

    async def managers(self, guild_id: int) -> list[int]:
        """The guild's managers seen most recently (the bot sees no member list), to tell what needs a manager."""
        return await store.managers_of(self.db, guild_id)

    async def create(self, guild_id: int, name: str, *, timezone: str = "UTC", week_start: int = 0,
                     by: int | None = None) -> LeagueRow:
        """A new league in the guild (names are unique per guild, whatever their case)."""
        name = clean_name(name, "league")
        try:
            check_timezone(timezone)
        except ValueError as exc:
            raise TableError(ErrorKind.BAD_INPUT, str(exc)) from None
        if not 0 <= week_start <= 6:
            raise TableError(ErrorKind.BAD_INPUT, "The week starts on a day from Monday to Sunday.")
        created = await store.insert_league(self.db, guild_id, name, timezone, week_start, by, self.now_iso())
        if created is None:
            raise TableError(ErrorKind.EXISTS, f"This server already has a league named '{name}': choose another "
                             "name.")
        return created

    async def set_channel(self, league: LeagueRow, channel_id: int) -> LeagueRow:
        """Make a channel the league's: tables opened there count for it and its weekly standings go there."""
        if not await store.set_channel(self.db, league, channel_id, self.now_iso()):
            other = await store.league_by_channel(self.db, league.guild_id, [channel_id])
            raise TableError(ErrorKind.EXISTS, f"That channel already belongs to the league "
                             f"'{other.name if other else '?'}': give each league its own channel.")
        found = await store.league_by_id(self.db, league.guild_id, league.league_id)
        assert found is not None
        return found

    async def set_auto_join(self, league: LeagueRow, auto_join: bool) -> None:
        """Whether players join on their first game at the league's tables."""
        await store.set_auto_join(self.db, league.league_id, auto_join)

    async def start_season(self, league: LeagueRow, name: str) -> SeasonRow:
        """Start a season now (one runs at a time; season names are unique in a league)."""
        name = clean_name(name, "season")
        running = await store.open_season(self.db, league.league_id)
        if running is not None:
            raise TableError(ErrorKind.EXISTS, f"The season '{running.name}' is still running: end it first with "
                             "/league-admin season end.")
        if (same := await store.season_by_name(self.db, league.league_id, name)) is not None:
            raise TableError(ErrorKind.EXISTS, f"{league.name} already had a season named '{same.name}': choose "
                             "another name.")
        started = await store.insert_season(self.db, league.league_id, name, self.now_iso())
        if started is None:  # another start of a season won the race
            raise TableError(ErrorKind.EXISTS, f"{league.name} already has a season running or named '{name}'.")
        return started

    async def end_season(self, league: LeagueRow) -> SeasonRow:
        """End the season running now."""
        running = await store.open_season(self.db, league.league_id)
        if running is None:
            raise TableError(ErrorKind.BAD_INPUT, f"{league.name} has no season running: start one with "
                             "/league-admin season start.")
        await store.end_season(self.db, running.season_id, self.now_iso())
        return running

    async def set_scoring(self, league: LeagueRow, *, unit: str | None = None, preset: str | None = None,
                          self_pick: int | None = None, jokerless: int | None = None, wall: int | None = None,
                          throw_penalty: str | None = None, rule: str | None = None, best: int | None = None,
                          minimum: int | None = None) -> LeagueRow:
        """Change what the league's standings count and how they rank (None: as it is): chips or tournament points,
        a published preset's numbers, any one number, the standings rule. Nothing is stored unless all is right."""
        current = league.scoring
        try:
            tournament = PRESETS[preset].scoring if preset in PRESETS else current.tournament
            if preset is not None and preset not in PRESETS:
                raise ScoringError(f"Unknown preset '{preset[:20]}': choose {' or '.join(PRESETS)}.")
            penalty = read_penalty(throw_penalty) if throw_penalty is not None else None
            tournament = tournament.changed(self_pick=self_pick, jokerless=jokerless, wall=wall,
                                            throw_penalty=penalty)
            if unit is None and (preset is not None or tournament != current.tournament):
                unit = "tournament"  # numbers for tournament points mean the league scores them
            scoring = LeagueScoring(unit or current.unit, tournament, rule or current.rule,
                                    current.best if best is None else best,
                                    current.minimum if minimum is None else minimum)
        except ScoringError as exc:
            raise TableError(ErrorKind.BAD_INPUT, str(exc)) from None
        await store.set_scoring(self.db, league.league_id, scoring)
        found = await store.league_by_id(self.db, league.guild_id, league.league_id)
        assert found is not None
        return found

    # -- members -----------------------------------------------------------------------------------------------

    async def join(self, league: LeagueRow, player_id: int) -> bool:
        """Join a league; False if already a member."""
        return await store.add_member(self.db, league.league_id, player_id, "joined", self.now_iso())

    async def leave(self, league: LeagueRow, player_id: int) -> None:
        """Leave a league (the games played stay in its standings and ledger)."""
        if not await store.remove_member(self.db, league.league_id, player_id):
            raise TableError(ErrorKind.NOT_SEATED, f"You are not a member of {league.name}.")

    async def season_list(self, league: LeagueRow) -> list[SeasonRow]:
        """The league's seasons, newest first."""
        return await store.seasons_of(self.db, league.league_id)

    async def info(self, league: LeagueRow) -> LeagueInfo:
        """The league's settings, members, seasons and any weekly post waiting to be retried."""
        members = await store.member_ids(self.db, league.league_id)
        seasons = await store.seasons_of(self.db, league.league_id)
        running = next((s for s in seasons if s.ended_at is None), None)
        problems = await store.posts_of(self.db, league.league_id, ("failed",))
        return LeagueInfo(league, len(members), running, len(seasons), problems)

    # -- standings ---------------------------------------------------------------------------------------------

    def week_of(self, league: LeagueRow, text: str | None) -> str:
        """A week's label from what was typed: a day in it ("23 Nov 2026", "week of 23 Nov 2026") or its ISO label
        ("2026-W48"); default the current week in the league's time zone."""
        if not text:
            return current_week(league.weeks, self.now())
        try:
            return read_week(text, league.week_start)
        except ValueError as exc:
            raise TableError(ErrorKind.BAD_INPUT, str(exc)) from None

    def week_choices(self, league: LeagueRow, count: int = 12) -> list[tuple[str, str]]:
        """This week and the ones before it, newest first, as (name, label): ("week of 23 Nov 2026",
        "2026-W48"), for suggestions that show the name and carry a value :meth:`week_of` reads back."""
        return [(week_name(label, league.week_start), label) for label in self.recent_weeks(league, count)]

    def recent_weeks(self, league: LeagueRow, count: int = 12) -> list[str]:
        """This week and the ones before it, newest first (for suggestions)."""
        return self._recent(league.weeks, count)

    def _recent(self, weeks: League, count: int) -> list[str]:
        label = current_week(weeks, self.now())
        labels = [label]
        day = week_start_date(label, weeks.week_start)
        for _ in range(count - 1):
            day -= timedelta(days=7)
            labels.append(week_label(day, weeks.week_start))
        return labels

    async def week(self, league: LeagueRow, label: str) -> WeekStandings:
        """One week's standings of the league."""
        start, end = week_bounds(league.weeks, label)
        rows = await league_standings(self.db, league, start, end)
        return WeekStandings(league, label, start, end, rows, await self.corrections.made(league, start, end))

    async def season(self, league: LeagueRow, name: str | None, *, all_games: bool = False) -> SeasonStandings:
        """A season's standings (``name``, else the running season, else every game so far; with ``all_games``,
        every game so far) and its weeks."""
        if all_games:
            season = None
        elif name:
            season = await store.season_by_name(self.db, league.league_id, name)
        else:
            season = await store.open_season(self.db, league.league_id)
        if name and season is None:
            known = [s.name for s in await store.seasons_of(self.db, league.league_id)]
            raise TableError(ErrorKind.BAD_INPUT, f"{league.name} has no season named '{name[:MAX_NAME]}'. "
                             f"Seasons: {', '.join(known) or 'none yet'}.")
        start = datetime.fromisoformat(season.started_at if season else league.created_at)
        end = datetime.fromisoformat(season.ended_at) if season and season.ended_at else None
        totals = await league_standings(self.db, league, start if season else None, end, season=True)
        last = min(end, self.now()) if end else self.now()
        label = week_label(start.astimezone(league.weeks.zone).date(), league.week_start)
        final = week_label(last.astimezone(league.weeks.zone).date(), league.week_start)
        labels = [label]
        while label != final and len(labels) < 10 * MAX_SEASON_WEEKS:
            label = next_week(label, league.week_start)
            labels.append(label)
        weeks = []
        for label in labels[-MAX_SEASON_WEEKS:]:
            week_start, week_end = week_bounds(league.weeks, label)
            rows = await league_standings(self.db, league, max(week_start, start),
                                          week_end if end is None else min(week_end, end))
            weeks.append((label, rows))
        made = await self.corrections.made(league, start if season else None, end)
        return SeasonStandings(league, season, weeks, totals, made)

    async def server_week(self, guild_id: int, text: str | None = None) -> ServerStandings:
        """A server's standings for one week over all its tables, with or without a league (the command line's
        ``standings --guild``): weeks as the server's first league counts them, else Monday to Sunday in UTC."""
        settings = await get_league(self.db, guild_id)
        try:
            label = read_week(text, settings.week_start) if text else current_week(settings, self.now())
        except ValueError as exc:
            raise TableError(ErrorKind.BAD_INPUT, str(exc)) from None
        start, end = week_bounds(settings, label)
        rows = await standings(self.db, guild_id, start, end)
        return ServerStandings(guild_id, label, week_name(label, settings.week_start), rows)

    async def server_week_choices(self, guild_id: int, count: int = 12) -> list[tuple[str, str]]:
        """The server's weeks (as :meth:`server_week` counts them), this one and those before it, newest first, as
        (name, label) pairs for suggestions, like :meth:`week_choices`."""
        settings = await get_league(self.db, guild_id)
        return [(week_name(label, settings.week_start), label) for label in self._recent(settings, count)]

    async def server_totals(self, guild_id: int) -> ServerStandings:
        """A server's standings over every game so far, league or not."""
        return ServerStandings(guild_id, None, "all games", await standings(self.db, guild_id))

    # -- the ledger --------------------------------------------------------------------------------------------

    async def statement(self, guild_id: int, player_id: int, league: LeagueRow | None,
                        limit: int = 10) -> Statement:
        """A player's balance and latest transactions in this guild (or one of its leagues)."""
        total, count, latest = await ledger.player_statement(
            self.db, guild_id, player_id, league_id=league.league_id if league else None, limit=limit)
        return Statement(player_id, league, total, count, latest)

    async def ledger_csv(self, guild_id: int, league: LeagueRow | None) -> tuple[str, int]:
        """Every posting of the guild's (or league's) ledger as CSV, and how many there are."""
        rows = await ledger.guild_postings(self.db, guild_id, league_id=league.league_id if league else None)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(ledger.LEDGER_CSV_COLUMNS)
        for row in rows:
            writer.writerow(["" if value is None else value for value in row])
        return out.getvalue(), len(rows)
