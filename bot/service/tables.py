"""The table service: tables in Discord places, seats, games, deadlines and computer players, with every applied
action saved before anyone hears of it. No discord here: the cogs call these methods and listen for updates.

Every call that changes a table returns (and publishes) one :class:`~bot.service.updates.TableUpdate`; a
seat's private part is a :class:`~bot.service.updates.SeatUpdate`, made only for that seat. Everything a user
can cause is refused with a :class:`~bot.service.errors.TableError`.

Concurrency: one lock per table serialises everything that touches it. Updates are queued for listeners while
the lock is held (so they stay in order) and delivered outside it (:mod:`bot.service.hub`). Durability: an
action, its snapshot (version-checked) and, at the end, the game's result and ledger settlement are written in
one transaction before the update is published.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable, Iterator
from datetime import datetime

from bot.ai.players import LEVELS
from bot.engine import payloads
from bot.engine.actions import Action
from bot.engine.card import Card
from bot.engine.errors import CardError
from bot.engine.events import Event, public
from bot.engine.game import Game
from bot.engine.rules import RulesError, TableRules, rules_from_dict, table_rules
from bot.engine.views import seat_view
from bot.store import fairness as fairness_rows
from bot.store import records
from bot.store.db import Database
from bot.store.records import SeatRow

from .answers import passed_for, refuse_discarding_wild, refuse_throwing_away_mahjong
from .cards import UnknownCard, card_files, load_card
from .clock import Clock, SystemClock
from .decisions import open_tokens
from .display import Display
from .errors import ErrorKind, TableError
from .fairness import fresh_seed, seal_deal
from .guild_cards import GuildCards
from .hints import Hint, hints_for
from .hub import Hub, SeatListener, TableListener
from .keys import parse_action_key
from .live import LiveTable
from .lookup import TableLookup
from .play import GamePlay
from .saved import resume_game, snapshot
from .thinking import InLoop, Thinking, ThinkingPool, default_workers
from .timetable import Timetable
from .updates import Cause, SeatUpdate, TableOptions, TableStatus, TableUpdate

MAX_COMPUTER_DELAY = 5.0


class TableService(GamePlay, TableLookup):
    """Every open table of one bot process, and the clock that moves them on."""

    def __init__(self, db: Database, *, clock: Clock | None = None, cards: Callable[[str], Card] = load_card,
                 turn_timeout: float = 90, charleston_timeout: float = 120, computer_delay: float = 1.5,
                 seeds: Iterator[int] | None = None, thinkers: int | None = 0) -> None:
        self.db = db
        self.clock = clock or SystemClock()
        self.cards = cards
        self.turn_timeout = turn_timeout
        self.charleston_timeout = charleston_timeout
        self.computer_delay = computer_delay  # for new tables that name none
        self._seeds = seeds  # seeds for new tables that name none (tests); else a random one each
        self.tables: dict[int, LiveTable] = {}
        self.timetable = Timetable()  # each table's next moment, for the clock
        # Where computers think: in the loop (0), in worker processes, or one per spare core (None).
        workers = default_workers() if thinkers is None else thinkers
        self.thinking: Thinking = ThinkingPool(workers) if workers > 0 else InLoop()
        self.hub = Hub()
        self._wake = asyncio.Event()

    @classmethod
    async def open(cls, path: str, *, clock: Clock | None = None, computer_delay: float = 1.5,
                   seeds: Iterator[int] | None = None, thinkers: int | None = 0,
                   shards: tuple[int, tuple[int, ...]] | None = None,
                   before_restore: Callable[[Database], Awaitable[None]] | None = None) -> TableService:
        """Open (and migrate) the database at ``path`` and restore every open table from it (with ``shards``, only
        those of the guilds on these Discord shards: see :meth:`restore`); ``before_restore`` runs first (a
        cluster takes its shards there, so no other process restores the same tables)."""
        db = await Database.open(path)
        try:
            if before_restore is not None:
                await before_restore(db)
            service = cls(db, clock=clock, computer_delay=computer_delay, seeds=seeds, thinkers=thinkers)
            await service.restore(shards)
        except BaseException:
            await db.close()
            raise
        return service

    async def close(self) -> None:
        """Let in-flight actions finish, store each game's full state (so the next start replays nothing),
        deliver what was published, then close the database."""
        for table in list(self.tables.values()):
            async with table.lock:  # an action holding the lock has finished once we get it
                await self._checkpoint(table)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.hub.drain(), timeout=5)
        await self.hub.close()
        await self.thinking.close()
        await self.db.close()

    # -- listening -----------------------------------------------------------------------------------------
    def subscribe(self, listener: TableListener, table_id: int | None = None) -> Callable[[], None]:
        """Public updates of one table, or of every table; returns a function that unsubscribes."""
        return self.hub.subscribe(listener, table_id)

    def subscribe_seat(self, listener: SeatListener, table_id: int | None = None,
                       seat: int | None = None) -> Callable[[], None]:
        """One seat's private updates; with ``seat`` None, those of every seat a person holds."""
        return self.hub.subscribe_seat(listener, table_id, seat)

    async def drain(self) -> None:
        """Wait until every update has reached its listeners, those published meanwhile included (tests and
        closing settle everything this way)."""
        await self.hub.drain()

    async def catch_up(self) -> None:
        """Wait until every update published before this call has reached its listeners, and no longer: other
        tables' later updates never keep the caller waiting."""
        await self.hub.catch_up()

    def _publish(self, table: LiveTable, cause: Cause, events: list[Event]) -> TableUpdate:
        update = table.table_update(cause, events)
        humans = {s.seat for s in table.row.seats if s.player_id is not None}
        wanted = self.hub.seats_wanted(table.table_id, humans)
        self.hub.publish(update, {s: table.seat_update(update, s, events) for s in wanted})
        return update

    def card_ids(self) -> list[str]:
        """The cards a table may be opened with."""
        return sorted(card_files())

    def make_rules(self, preset: str, *, card: str | None = None, **options: int | float | str | bool) -> TableRules:
        """Table rules from a preset and options, checked (an unknown card or a bad value is a TableError)."""
        if card is None:
            card = {"nmjl-1946": "nmjl-1946", "classical": "classical"}.get(preset, "practice")
        elif preset == "nmjl" and card in ("nmjl-1946", "classical"):
            preset = card  # the 1946 card is played with the 1946 set; the classical game has its own rules
        try:
            rules = table_rules(preset, card=card, **options)
        except RulesError as exc:
            raise TableError(ErrorKind.BAD_INPUT, str(exc)) from None
        self._card(card)
        return rules

    def decision_open(self, table_id: int, token: str) -> bool:
        """Whether the decision ``token`` names is still open at the table."""
        game = self.table(table_id).game
        return game is not None and token in open_tokens(game)

    def hint(self, table_id: int, player_id: int, top: int = 3) -> list[Hint]:
        """The caller's closest card lines (their own rack only)."""
        table = self.table(table_id)
        seat = self._seat(table, player_id)
        game = self._require_game(table)
        return hints_for(seat_view(game, seat), top, base=game.state.rules.base)

    # -- tables and seats --------------------------------------------------------------------------------------
    async def create_table(self, guild_id: int, channel_id: int, *, created_by: int | None = None,
                           rules: TableRules | None = None, options: TableOptions | None = None,
                           seed: int | None = None, east: int = 0) -> TableUpdate:
        """A new table. Game n at it is dealt from ``seed + n``; ``east`` deals the first game."""
        rules = rules or TableRules()
        options = options or TableOptions(self.computer_delay)
        if not 0 <= options.computer_delay <= MAX_COMPUTER_DELAY:
            raise TableError(ErrorKind.BAD_INPUT, f"A computer's delay is 0 to {MAX_COMPUTER_DELAY:g} seconds.")
        self._card(rules.card)  # an unknown or broken card fails here, before anything is written
        # A table given a seed (tests, simulations, the demo) deals game n from seed + n, so its games can be played
        # again; any other deals each game from a fresh secret seed, since a game's seed is revealed at its end.
        deal_seeds = "table" if seed is not None or self._seeds is not None else "fresh"
        if seed is None:
            seed = next(self._seeds) if self._seeds is not None else random.SystemRandom().randrange(1 << 31)
        async with self.db.transaction() as conn:
            table_id = await records.insert_table(conn, guild_id, channel_id, rules.to_dict(), created_by, seed,
                                                  east, options.to_dict(), deal_seeds)
        (row,) = await records.load_tables(self.db, "table_id = ?", (table_id,))
        table = LiveTable(row, rules, options, timetable=self.timetable)
        self.tables[table_id] = table
        async with table.lock:
            return self._publish(table, Cause.CREATE, [public(payloads.TableOpened(table_id=table_id))])

    async def join(self, table_id: int, player_id: int, name: str, seat: int | None = None) -> TableUpdate:
        """Seat a player (in ``seat``, or the first free one)."""
        table = self.table(table_id)
        async with table.lock:
            if table.seat_of(player_id) is not None:
                raise TableError(ErrorKind.SEATING, "You already have a seat at this table.")
            self._require_seating(table)
            seat = self._free_seat(table, seat)
            async with self.db.transaction() as conn:
                await records.upsert_player(conn, player_id, name)
                await records.set_seat(conn, table_id, seat, player_id, None)
            table.row.seats[seat] = SeatRow(seat, player_id, None)
            table.names[seat] = name
            return self._publish(table, Cause.JOIN, [public(payloads.Joined(name=name), seat)])

    async def add_computer(self, table_id: int, level: str = "normal", seat: int | None = None) -> TableUpdate:
        """Seat a computer player of ``level``."""
        if level not in LEVELS:
            raise TableError(ErrorKind.BAD_INPUT, f"Unknown computer level '{level}'. Choose one of: "
                             f"{', '.join(LEVELS)}.")
        table = self.table(table_id)
        async with table.lock:
            self._require_seating(table)
            seat = self._free_seat(table, seat)
            async with self.db.transaction() as conn:
                await records.set_seat(conn, table_id, seat, None, level)
            table.row.seats[seat] = SeatRow(seat, None, level)
            table.names[seat] = f"Computer ({level})"
            return self._publish(table, Cause.COMPUTER, [public(payloads.ComputerAdded(level=level), seat)])

    async def leave(self, table_id: int, player_id: int) -> TableUpdate:
        """Give up a seat. Mid-game a computer finishes the hand and the seat stays the player's for the ledger."""
        table = self.table(table_id)
        async with table.lock:
            seat = self._seat(table, player_id)
            if table.playing:
                return await self._set_away(table, [seat], Cause.LEAVE, at_once=True)
            async with self.db.transaction() as conn:
                await records.set_seat(conn, table_id, seat, None, None)
            table.row.seats[seat] = SeatRow(seat, None, None)
            name = table.names.pop(seat, None)
            return self._publish(table, Cause.LEAVE, [public(payloads.Left(name=name), seat)])

    async def remove_computer(self, table_id: int, seat: int) -> TableUpdate:
        """Free a computer's seat between games."""
        table = self.table(table_id)
        async with table.lock:
            self._require_seating(table)
            if not 0 <= seat <= 3 or table.row.seats[seat].player_id is not None \
                    or table.row.seats[seat].computer_level is None:
                raise TableError(ErrorKind.SEATING, f"Seat {seat} has no computer player.")
            async with self.db.transaction() as conn:
                await records.set_seat(conn, table_id, seat, None, None)
            table.row.seats[seat] = SeatRow(seat, None, None)
            table.names.pop(seat, None)
            return self._publish(table, Cause.LEAVE, [public(payloads.Left(name=None), seat)])

    async def come_back(self, table_id: int, player_id: int) -> TableUpdate:
        """A player whose seat a computer took over plays it again."""
        table = self.table(table_id)
        async with table.lock:
            seat = self._seat(table, player_id)
            if seat not in table.away:
                raise TableError(ErrorKind.SEATING, "Nobody is playing for you at this table: it's your seat.")
            update = await self._set_back(table, seat)
            await self._auto(table)  # a window she cannot call may be passed for her now
            return update

    async def close_table(self, table_id: int, by: int | None = None, *, manager: bool = False) -> TableUpdate:
        """Close a table (only its creator or a server manager may; ``by`` None: the program itself, when its
        place in Discord is gone). It is no longer loaded. A game in progress is abandoned: recorded as such,
        with no chips changing hands (a finished game is settled already)."""
        table = self.table(table_id)
        async with table.lock:
            if by is not None and not manager and by != table.row.created_by:
                raise TableError(ErrorKind.FORBIDDEN, "Only the player who opened this table, or a server "
                                 "manager, may close it.")
            async with self.db.transaction() as conn:
                if table.playing and table.game_id is not None:
                    await records.abandon_game(conn, table.game_id)
                await records.set_table_status(conn, table_id, TableStatus.CLOSED.value)
            table.row.status = TableStatus.CLOSED
            table.deadline = table.auto_at = None
            del self.tables[table_id]
            return self._publish(table, Cause.CLOSE, [public(payloads.TableClosed())])

    async def relocate(self, table_id: int, channel_id: int) -> None:
        """Move a table to another channel of its guild (the thread opened for it)."""
        table = self.table(table_id)
        async with table.lock, self.db.transaction() as conn:
            await records.set_channel(conn, table_id, channel_id)
            table.row.channel_id = channel_id

    async def update_display(self, table_id: int, change: Callable[[Display], Display]) -> Display:
        """Change where the table is shown (``change`` is applied to the record as it is, under the table's lock,
        so two changes never undo each other); kept across restarts. Returns the new record."""
        table = self.table(table_id)
        async with table.lock:
            display = change(table.display)
            stored = display.to_json()
            async with self.db.transaction() as conn:
                await records.set_display(conn, table_id, stored)
            table.row.display = stored
            return display

    def _require_seating(self, table: LiveTable) -> None:
        if table.playing:
            raise TableError(ErrorKind.SEATING, "A game is in progress at this table; seats change between games.")

    def _free_seat(self, table: LiveTable, wanted: int | None) -> int:
        free = [s.seat for s in table.row.seats if s.player_id is None and s.computer_level is None]
        if wanted is not None:
            if wanted not in range(4):
                raise TableError(ErrorKind.SEATING, "Seats are numbered 0 to 3.")
            if wanted not in free:
                raise TableError(ErrorKind.SEATING, f"Seat {wanted} is taken.")
            return wanted
        if not free:
            raise TableError(ErrorKind.SEATING, "The table is full.")
        if table.rules.players == 2:
            # Two players sit opposite (CH9): the first free seat across from someone seated, else seat 0 or 2.
            taken = [s for s in range(4) if s not in free]
            across = [s for s in free if (s + 2) % 4 in taken] if taken else [s for s in free if s % 2 == 0]
            if len(taken) >= 2:
                raise TableError(ErrorKind.SEATING, "This table is for two players, and both seats are taken.")
            return (across or free)[0]
        return free[0]

    def _card(self, card_id: str) -> Card:
        try:
            return self.cards(card_id)
        except UnknownCard as exc:
            raise TableError(ErrorKind.BAD_INPUT, str(exc)) from None
        except CardError as exc:
            raise TableError(ErrorKind.BAD_INPUT, f"The card '{card_id}' can't be used: {exc.problems[0]}") from None

    # -- games -----------------------------------------------------------------------------------------------
    async def start(self, table_id: int, by: int | None = None) -> TableUpdate:
        """Deal the next game (East rotating from game to game); ``by``, when given, must be seated here or have
        opened the table."""
        table = self.table(table_id)
        async with table.lock:
            if by is not None and table.seat_of(by) is None and table.row.created_by != by:
                raise TableError(ErrorKind.NOT_SEATED, "Only a player at this table can start the game.")
            self._require_seating(table)
            filled = [s.seat for s in table.row.seats if s.player_id is not None or s.computer_level is not None]
            rules = table.rules
            if len(filled) != rules.players:
                raise TableError(ErrorKind.SEATING, f"This table needs {rules.players} players and has "
                                 f"{len(filled)}: invite someone or add a computer player.")
            east = table.row.next_east
            if rules.players == 3:
                empty = next(s for s in range(4) if s not in filled)
                east = (empty + 1) % 4  # the empty chair is North's
            elif rules.players == 2:
                if (filled[0] + 2) % 4 != filled[1]:
                    raise TableError(ErrorKind.SEATING, "Two players sit opposite each other (seats 0 and 2, or 1 "
                                     "and 3): one of you, please move.")
                east = east if east in filled else filled[0]
            card = self._card(rules.card)
            game_no = table.row.games_played + 1
            seed = table.row.seed + game_no if table.row.deal_seeds == "table" else fresh_seed()
            game, events = Game.new(card, rules, seed, east=east, game_no=game_no)
            seal = seal_deal(table.row.rules, card.id, seed, game_no=game_no, east=east)
            async with self.db.transaction() as conn:
                table.game_id = await records.insert_game(conn, table.row, game_no, card.id, seed, east,
                                                          snapshot(game.state), table.row.seats)
                await fairness_rows.insert_seal(conn, table.game_id, seal)
                await records.set_away(conn, table_id, {s.seat: False for s in table.row.seats})
            table.seal = seal
            for seat in table.row.seats:
                seat.away = False
            table.row.games_played = game_no
            table.row.status = TableStatus.PLAYING
            table.game = game
            table.version = table.saved_state = 0
            self._schedule(table, None, None)
            await self._save_deadline(table)
            update = self._publish(table, Cause.START, events)
            await self._auto(table)
            return update

    async def act(self, table_id: int, player_id: int, action: Action | str, *,
                  token: str | None = None, confirm: bool = False) -> SeatUpdate:
        """A player's move, given as an action or an action key. With ``token`` (the decision the button was drawn
        for), the move is refused once that decision is over, and accepted while it is open, whatever else
        happened meanwhile. A pass or discard that would throw away a Mah Jongg she can claim now is refused
        with :class:`~bot.service.errors.MahJonggAtStake` unless ``confirm``, and so is discarding a joker with
        :class:`~bot.service.errors.NeedsConfirmation`. Returns the mover's own update."""
        table = self.table(table_id)
        async with table.lock:
            game = self._require_game(table)
            seat = self._seat(table, player_id)
            if isinstance(action, str):
                action = parse_action_key(action, seat)
            elif action.seat != seat:
                raise TableError(ErrorKind.ILLEGAL, "That move is for another seat.")
            self._require_open(game, token)
            if not confirm:
                refuse_throwing_away_mahjong(game, seat, action)
                refuse_discarding_wild(game, seat, action)
            if seat in table.away:
                await self._set_back(table, seat)  # acting is proof of presence
            update, events = await self._apply(table, action, Cause.ACT)
            mine = table.seat_update(update, seat, events)
            await self._auto(table)
            return mine

    async def step(self, table_id: int) -> bool:
        """Make every automatic move that is due at a table now; False if none was."""
        table = self.table(table_id)
        async with table.lock:
            return await self._auto(table) > 0

    # -- the clock ---------------------------------------------------------------------------------------------
    def next_wakeup(self) -> datetime | None:
        """The earliest moment the clock must act at some table."""
        return self.timetable.earliest()

    async def run(self, stop: asyncio.Event) -> None:
        """Keep every table's clock running until ``stop`` is set (the bot's background task)."""
        stopping = asyncio.ensure_future(stop.wait())  # stopping wakes the clock: a shutdown need not wait 5 s
        try:
            while not stop.is_set():
                await self.tick()
                self._wake.clear()
                wakeup = self.next_wakeup()
                wait = 5.0 if wakeup is None else max(0.0, (wakeup - self.clock.now()).total_seconds())
                woken = asyncio.ensure_future(self._wake.wait())
                await asyncio.wait({woken, stopping}, timeout=min(wait, 5.0), return_when=asyncio.FIRST_COMPLETED)
                woken.cancel()
        finally:
            stopping.cancel()

    # -- restoring ---------------------------------------------------------------------------------------------
    async def restore(self, shards: tuple[int, tuple[int, ...]] | None = None) -> int:
        """Load every table that is not closed (with ``shards``, ``(count, ids)``: only those of the guilds on
        these Discord shards) and pick its game up exactly where it was, in a few queries however many tables.
        Computer moves due are made at the next :meth:`tick`, and deadlines that passed while the service was down
        are acted on then, earliest first, as if on time."""
        await GuildCards(self.db).load_all()  # the cards servers imported: games in progress may be played with them
        where, params = records.open_tables(shards)
        rows = await records.load_tables(self.db, where, params)
        names = await records.seat_names(self.db, rows)
        games = await records.unfinished_games(self.db, where, params)
        seals = await fairness_rows.seals(self.db, [game.game_id for game in games.values()])
        for row in rows:
            table = LiveTable(row, rules_from_dict(row.rules), TableOptions.from_dict(row.options),
                              timetable=self.timetable)
            table.names = names[row.table_id]
            self._load_game(table, games.get(row.table_id))
            table.seal = seals.get(table.game_id) if table.game_id is not None else None
            self.tables[row.table_id] = table
        return len(self.tables)

    def _load_game(self, table: LiveTable, saved: records.SavedGame | None) -> None:
        if saved is None:
            table.game = table.game_id = table.deadline = table.auto_at = None
            return
        table.game = resume_game(saved, self._card)
        table.game_id = saved.game_id
        table.version = saved.version
        table.saved_state = saved.state_version
        table.deadline = datetime.fromisoformat(saved.deadline) if saved.deadline else None
        # Computers owe their answers at once: a window open at the crash is answered, not lost.
        table.held, table.held_for = {}, None
        owed = table.computers_awaited() or any(passed_for(table, seat) for seat in table.awaiting())
        table.auto_at = self.clock.now() if owed else None

    async def _reload(self, table: LiveTable) -> None:
        self.thinking.forget(table.table_id)
        (row,) = await records.load_tables(self.db, "table_id = ?", (table.table_id,))
        table.row = row
        self._load_game(table, await records.unfinished_game(self.db, table.table_id))
        if table.game_id is not None:
            table.seal = (await fairness_rows.seals(self.db, [table.game_id])).get(table.game_id)

    async def finish_computer_tables(self) -> list[int]:
        """Play out every unfinished game whose seats are all computer players (``charleston tables resume``)."""
        finished: list[int] = []
        for table in list(self.tables.values()):
            if not table.playing or any(s.player_id is not None for s in table.row.seats):
                continue
            async with table.lock:
                await self._play_out(table)
            finished.append(table.table_id)
        return finished

