"""League nights, run by the bot (docs/rules.md, *League nights*; README, *Running a league*): an organiser schedules
one, players answer I'm in or Can't come until registration closes, those signed up are reminded, and at the start
the tables are made (:mod:`bot.service.seating`), opened and dealt; between rounds everyone is reseated, latecomers
joining the next round; at the end the night's results are due.

Everything runs on the service's clock and from the database: :meth:`Nights.tick` reads the nights not over,
takes every step that is due (each step once: a conditional update decides) and returns what the Discord layer must
do (:class:`NightJob`), so a restart carries on where the night was. No discord here.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.store import leagues as league_store
from bot.store import nights as store
from bot.store.db import Database
from bot.store.leagues import LeagueRow
from bot.store.nights import NightRow as NightRow  # re-exported: the cogs see the service's names
from bot.store.nights import NightTable as NightTable
from bot.store.nights import SignUp as SignUp
from bot.store.scores import game_facts
from bot.store.standings import Standing

from .clock import Clock
from .errors import ErrorKind, TableError
from .nightwhen import read_when
from .scoring import rank
from .seating import REMAINDERS, pair_key, seat_round
from .updates import TableOptions, TableStatus

if TYPE_CHECKING:
    from .leagues import LeagueService
    from .tables import TableService

log = logging.getLogger("charleston.nights")

ABSENT = ("counts", "zero")
MAX_ROUNDS = 12
PAUSE = 20.0  # seconds between the games of a round: time to read the last one's results
RETRY = (60, 300, 900, 3600)  # a results post that failed is tried again after these many seconds
COMPUTER = "hard"  # the level of a computer filling a seat (an absent player's seat is played at this level too)


@dataclass(frozen=True, slots=True)
class NightView:
    """A night as the Discord layer shows it: the night, its league's name, who is in (with the round she plays
    from), who can't come, and each round's tables (seats by name)."""

    night: NightRow
    league: LeagueRow
    signed: list[SignUp]
    tables: list[NightTable]
    names: dict[int, str]

    @property
    def coming(self) -> list[SignUp]:
        """Those who are in."""
        return [s for s in self.signed if s.status == "in"]

    @property
    def not_coming(self) -> list[SignUp]:
        """Those who can't come."""
        return [s for s in self.signed if s.status == "out"]

    def round_tables(self, round_no: int) -> list[NightTable]:
        """The tables of one round."""
        return [t for t in self.tables if t.round == round_no]


@dataclass(frozen=True, slots=True)
class NightResults:
    """The night's results: its scores (the league's scoring over the night's games) and each round's tables."""

    view: NightView
    rows: list[Standing]
    games: int


@dataclass(frozen=True, slots=True)
class NightJob:
    """What the Discord layer must do for a night: ``refresh`` its sign-up message, ``remind`` those signed up
    (``players``), ``open`` a round's tables (threads, table messages, then :meth:`Nights.deal`), or post its
    ``results``."""

    kind: str  # refresh, remind, open, results
    view: NightView
    players: list[int] = field(default_factory=list)
    tables: list[NightTable] = field(default_factory=list)
    results: NightResults | None = None


class Nights:
    """The league nights of every guild."""

    def __init__(self, db: Database, clock: Clock, tables: TableService, leagues: LeagueService,
                 owns: Callable[[int], bool] = lambda guild: True) -> None:
        self.db = db
        self.clock = clock
        self.tables = tables
        self.leagues = leagues
        self.owns = owns  # the guilds whose tables this process runs (a cluster's shards): it runs their nights

    def _now(self) -> datetime:
        return self.clock.now().astimezone(UTC)

    def _iso(self, moment: datetime | None = None) -> str:
        return (moment or self._now()).astimezone(UTC).isoformat(timespec="milliseconds")

    # -- the organiser ---------------------------------------------------------------------------------------------

    async def schedule(self, league: LeagueRow, *, when: str, rounds: int, games: int | None, minutes: int | None,
                       remainder: str, absent: str, close_minutes: int, computer_delay: float,
                       by: int) -> NightView:
        """Schedule a night (the time in the league's time zone); nothing is stored unless everything is right."""
        starts = read_when(when, league.weeks.zone, self._now())
        if starts <= self._now():
            raise TableError(ErrorKind.BAD_INPUT, f"{when.strip()[:40]} has passed in {league.timezone}: give a time "
                             "still to come, like 2026-12-02 19:00.")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise TableError(ErrorKind.BAD_INPUT, f"A night has 1 to {MAX_ROUNDS} rounds, not {rounds}.")
        if (games is None) == (minutes is None):
            raise TableError(ErrorKind.BAD_INPUT, "Give a round as games (games_per_round) or as minutes "
                             "(minutes_per_round), one of the two.")
        if games is not None and not 1 <= games <= 16:
            raise TableError(ErrorKind.BAD_INPUT, f"A round has 1 to 16 games, not {games}.")
        if minutes is not None and not 10 <= minutes <= 300:
            raise TableError(ErrorKind.BAD_INPUT, f"A round lasts 10 to 300 minutes, not {minutes}.")
        if remainder not in REMAINDERS or absent not in ABSENT:
            raise TableError(ErrorKind.BAD_INPUT, "A remainder is computers or three; absent is counts or zero.")
        if not 0 <= close_minutes <= 24 * 60:
            raise TableError(ErrorKind.BAD_INPUT, "Registration closes 0 to 1440 minutes before the start.")
        if not 0 <= computer_delay <= 5:
            raise TableError(ErrorKind.BAD_INPUT, "A computer waits 0 to 5 seconds before each move.")
        if league.channel_id is None:
            raise TableError(ErrorKind.BAD_INPUT, f"{league.name} has no channel yet: set one with "
                             "`/league-admin channel` first; the sign-up and the tables go there.")
        card, preset = await self.leagues.cards.for_table(league.guild_id, None, None)
        closes = max(self._now(), starts - timedelta(minutes=close_minutes))
        draft = NightRow(0, league.league_id, league.guild_id, league.channel_id, self._iso(starts), self._iso(closes),
                         rounds, games, minutes, remainder, absent,
                         {"card": card, "preset": preset, "computer_delay": computer_delay},
                         random.SystemRandom().randrange(2**31), "signup", 0, None, None, False, None, None, 0, None,
                         by, self._iso())
        return await self.view((await store.create(self.db, draft)).night_id)

    async def cancel(self, league: LeagueRow) -> NightView:
        """Call off the league's next night that has not begun (its sign-up open or closed)."""
        waiting = [n for n in await store.of_league(self.db, league.league_id) if n.status in ("signup", "closed")]
        if not waiting:
            raise TableError(ErrorKind.BAD_INPUT, f"{league.name} has no night waiting to begin: a night already "
                             "under way ends with its last round.")
        night = min(waiting, key=lambda n: n.starts_at)
        if not await store.advance(self.db, night.night_id, "cancelled", night.status):
            raise TableError(ErrorKind.CONFLICT, "That night has just begun: it ends with its last round.")
        return await self.view(night.night_id)

    async def signup_posted(self, night_id: int, message_id: int) -> None:
        """Where the sign-up message is."""
        await store.update(self.db, night_id, signup_message_id=message_id)

    async def view(self, night_id: int, guild_id: int | None = None) -> NightView:
        """A night as shown (of this guild, when given)."""
        night = await store.get(self.db, night_id)
        if night is None or (guild_id is not None and night.guild_id != guild_id):
            raise TableError(ErrorKind.GONE, "That night is no longer here.")
        league = await league_store.league_by_id(self.db, night.guild_id, night.league_id)
        if league is None:
            raise TableError(ErrorKind.GONE, "That night's league is gone.")
        signed = await store.sign_ups(self.db, night_id)
        tables = await store.tables(self.db, night_id)
        names = {s.player_id: s.name for s in signed}
        return NightView(night, league, signed, tables, names)

    # -- the players ----------------------------------------------------------------------------------------------

    async def answer(self, guild_id: int, night_id: int, player_id: int, name: str, coming: bool) -> NightView:
        """I'm in / Can't come. Before registration closes, for round 1; after, a latecomer plays from the next
        round; once the last round has begun, the night is full. Pressing I'm in again changes nothing."""
        view = await self.view(night_id, guild_id)
        night = view.night
        if night.status == "cancelled":
            raise TableError(ErrorKind.GONE, "This night is called off: watch the channel for the next one.")
        if night.status == "finished":
            raise TableError(ErrorKind.GONE, "This night is over: see its results in the channel.")
        if coming and any(s.player_id == player_id for s in view.coming):
            return view  # in already: her first round stays as it was
        from_round = 1 if night.status == "signup" else max(night.round, 1) + 1
        if coming and from_round > night.rounds:
            raise TableError(ErrorKind.CONFLICT, "The last round has begun, so there is no table left to join "
                             "tonight: see you next time!")
        await store.sign_up(self.db, night_id, player_id, name[:80], "in" if coming else "out", from_round,
                            self._iso())
        return await self.view(night_id)

    # -- the schedule ---------------------------------------------------------------------------------------------

    async def tick(self) -> list[NightJob]:
        """Take every step that is due; what the Discord layer must do."""
        jobs: list[NightJob] = []
        for night in await store.running(self.db):
            if not self.owns(night.guild_id):
                continue
            try:
                jobs += await self._step(night)
            except Exception:  # one night's trouble must not stop the others'
                log.exception("night %s: a step failed", night.night_id)
        return jobs

    async def _step(self, night: NightRow) -> list[NightJob]:
        now = self._now()
        jobs: list[NightJob] = []
        if (night.status == "signup" and now >= datetime.fromisoformat(night.closes_at)
                and await store.advance(self.db, night.night_id, "closed", "signup", reminded=1)):
            closed = await self.view(night.night_id)
            jobs += [NightJob("refresh", closed), NightJob("remind", closed, [s.player_id for s in closed.coming])]
            night = closed.night
        if night.status == "closed" and now >= datetime.fromisoformat(night.starts_at):
            await self._seat(night, 1)
            night = (await self.view(night.night_id)).night
            jobs.append(NightJob("refresh", await self.view(night.night_id)))
        if night.status == "playing":
            jobs += await self._play(night)
        if night.results_status == "due" or (night.results_status == "failed" and night.results_next_try
                                              and now >= datetime.fromisoformat(night.results_next_try)):
            jobs.append(NightJob("results", await self.view(night.night_id), results=await self.results(night)))
        return jobs

    async def _seat(self, night: NightRow, round_no: int) -> None:
        """Seat a round: everyone in who plays from this round, apart from those who have met where possible."""
        view = await self.view(night.night_id)
        players = [s.player_id for s in view.coming if s.from_round <= round_no]
        met: dict[tuple[int, int], int] = {}
        for table in view.tables:
            people = [p for p in table.seats if p is not None]
            for n, a in enumerate(people):
                for b in people[n + 1:]:
                    met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
        seating = seat_round(players, night.remainder, night.seed, round_no, met)
        if not seating:
            if round_no == 1:  # nobody came
                await store.advance(self.db, night.night_id, "cancelled", night.status)
            else:
                await store.advance(self.db, night.night_id, "finished", "playing", results_status="due")
            return
        await store.seat(self.db, night.night_id, round_no, [(s.seats, s.east) for s in seating], self._iso())

    async def _play(self, night: NightRow) -> list[NightJob]:
        view = await self.view(night.night_id)
        tables = view.round_tables(night.round)
        opened = []
        for table in tables:
            if table.status == "seated":
                table = await self._open(view, table)
            if table.status == "opened":
                opened.append(table)
            elif table.status == "playing":
                await self._between_games(night, table)
        if opened:
            return [NightJob("open", await self.view(night.night_id), tables=opened)]
        fresh = await store.tables(self.db, night.night_id, night.round)
        if fresh and all(t.status == "done" for t in fresh):
            for table in fresh:
                if table.table_id is not None and self.tables.is_open(table.table_id):
                    await self.tables.close_table(table.table_id)
            if night.round < night.rounds:
                await self._seat(night, night.round + 1)
                seated = await self.view(night.night_id)
                # the sign-up says which round is on (and loses its buttons once the last has begun)
                return [NightJob("refresh", seated), *await self._play(seated.night)]
            await store.advance(self.db, night.night_id, "finished", "playing", results_status="due")
            return [NightJob("refresh", await self.view(night.night_id))]
        return []

    async def _open(self, view: NightView, table: NightTable) -> NightTable:
        """Open a seated table: the table, its players and computers in their seats, counting for the league."""
        night = view.night
        card = night.rules.get("card")
        rules = self.tables.make_rules(str(night.rules["preset"]), card=str(card) if card else None,
                                       players=len(table.seats))
        options = TableOptions(float(night.rules.get("computer_delay", 1.5)))
        created = await self.tables.create_table(night.guild_id, night.channel_id, created_by=night.created_by,
                                                 rules=rules, options=options,
                                                 seed=random.Random(f"{night.seed}:{table.round}:{table.table_no}")
                                                 .randrange(2**31), east=table.east)
        table_id = created.table_id
        await self.leagues.attach_table(table_id, view.league)
        await store.update_table(self.db, night.night_id, table.round, table.table_no, table_id=table_id,
                                 status="opened")
        await self._fill(table_id, table, view.names)
        return (await store.tables(self.db, night.night_id, table.round))[table.table_no - 1]

    async def _fill(self, table_id: int, table: NightTable, names: dict[int, str]) -> None:
        """Every seat taken as the seating says (a seat taken already is left: a restart mid-way fills the rest)."""
        seats = self.tables.view(table_id).seats
        for seat, player in enumerate(table.seats):
            if seats[seat].player_id is not None or seats[seat].computer_level is not None:
                continue
            if player is None:
                await self.tables.add_computer(table_id, COMPUTER, seat)
            else:
                await self.tables.join(table_id, player, names.get(player, str(player)), seat)

    async def deal(self, night_id: int, round_no: int, table_no: int) -> None:
        """Deal a table's first game, once the Discord layer has shown it."""
        table = (await store.tables(self.db, night_id, round_no))[table_no - 1]
        if table.status != "opened" or table.table_id is None:
            return
        if self.tables.view(table.table_id).status != TableStatus.PLAYING:
            await self._fill(table.table_id, table, (await self.view(night_id)).names)
            await self.tables.start(table.table_id)
        await store.update_table(self.db, night_id, round_no, table_no, status="playing")

    async def _between_games(self, night: NightRow, table: NightTable) -> None:
        """A playing table between games: note who was away, then deal again or finish its round."""
        table_id = table.table_id
        if table_id is None:
            return
        if not self.tables.is_open(table_id):
            await store.update_table(self.db, night.night_id, table.round, table.table_no, status="done")
            return
        seen = self.tables.view(table_id)
        if seen.status == TableStatus.PLAYING:
            return
        if night.absent == "zero":
            await store.note_away(self.db, table_id, [s.player_id for s in seen.seats
                                                      if s.away and s.player_id is not None])
        played = await store.games_played(self.db, table_id)
        now = self._now()
        if night.round_games is not None:
            more = played < night.round_games
        else:
            ends = datetime.fromisoformat(night.round_started_at or night.starts_at) + timedelta(
                minutes=night.round_minutes or 0)
            more = now < ends
        if not more:
            await store.update_table(self.db, night.night_id, table.round, table.table_no, status="done",
                                     next_deal_at=None)
            return
        if table.next_deal_at is None:
            await store.update_table(self.db, night.night_id, table.round, table.table_no,
                                     next_deal_at=self._iso(now + timedelta(seconds=PAUSE)))
        elif now >= datetime.fromisoformat(table.next_deal_at):
            await self.tables.start(table_id)
            await store.update_table(self.db, night.night_id, table.round, table.table_no, next_deal_at=None)

    # -- the results ----------------------------------------------------------------------------------------------

    async def results(self, night: NightRow) -> NightResults:
        """The night's scores: its games, scored and ranked as its league's scoring says (totals over the night)."""
        view = await self.view(night.night_id)
        ids = [t.table_id for t in view.tables if t.table_id is not None]
        games = await game_facts(self.db, night.guild_id, table_ids=ids, outcomes=view.league.scoring.points)
        scoring = replace(view.league.scoring, rule="total")  # a night is scored by its totals
        rows = rank(games, scoring, view.league.weeks, season=False)
        return NightResults(view, rows, len(games))

    async def results_posted(self, night_id: int, message_id: int) -> None:
        """The results are in the channel."""
        await store.update(self.db, night_id, results_status="posted", results_message_id=message_id)

    async def results_failed(self, night_id: int, tries: int) -> None:
        """The results could not be posted: try again later."""
        wait = RETRY[min(tries, len(RETRY) - 1)]
        await store.update(self.db, night_id, results_status="failed", results_tries=tries + 1,
                           results_next_try=self._iso(self._now() + timedelta(seconds=wait)))
