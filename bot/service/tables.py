"""The table service: tables in Discord places, seats, games, deadlines and computer players, with every applied
action persisted before anyone hears of it. No discord here: the cogs call these methods and subscribe to events.

Concurrency: one lock per table serialises everything that touches it; an action that the one before it made
illegal gets the engine's explanation. Durability: an action, its snapshot (version-checked) and, at the end, the
game's result and ledger settlement are written in one transaction before events are published.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.ai.players import LEVELS
from bot.cards import load_card
from bot.engine.actions import TABLE, Action, CloseWindow, Draw, Hold
from bot.engine.card import Card
from bot.engine.errors import EngineError
from bot.engine.events import Event, EventKind, public
from bot.engine.game import Game, next_east
from bot.engine.payouts import payouts
from bot.engine.rules import TableRules, rules_from_dict
from bot.engine.state import GameState, Phase
from bot.engine.views import seat_view, waiting_for
from bot.simulate import computer_move
from bot.store import ledger, records
from bot.store.db import Database
from bot.store.records import SeatRow, TableRow

from .clock import Clock, SystemClock
from .hub import Hub, Listener


class ServiceError(Exception):
    """A request the table cannot carry out; the message is for the person who asked."""


@dataclass
class LiveTable:
    row: TableRow
    rules: TableRules
    names: dict[int, str] = field(default_factory=dict)  # seat -> display name
    away: set[int] = field(default_factory=set)  # human seats a computer is playing for
    game: Game | None = None
    game_id: int | None = None
    version: int = 0
    deadline: datetime | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def table_id(self) -> int:
        return self.row.table_id

    def seat_of(self, player_id: int) -> int | None:
        return next((s.seat for s in self.row.seats if s.player_id == player_id), None)

    def computer_level(self, seat: int) -> str | None:
        """The level playing this seat if a computer is playing it now (a computer seat, or an absent human)."""
        row = self.row.seats[seat]
        if row.player_id is None:
            return row.computer_level
        return (row.computer_level or "normal") if seat in self.away else None


class TableService:
    def __init__(self, db: Database, *, clock: Clock | None = None, cards: Callable[[str], Card] = load_card,
                 turn_timeout: float = 90, charleston_timeout: float = 120) -> None:
        self.db = db
        self.clock = clock or SystemClock()
        self.cards = cards
        self.turn_timeout = turn_timeout
        self.charleston_timeout = charleston_timeout
        self.tables: dict[int, LiveTable] = {}
        self.hub = Hub()
        self._wake = asyncio.Event()

    # -- tables and seats ------------------------------------------------------------------------------
    async def create_table(self, guild_id: int, channel_id: int, *, created_by: int | None = None,
                           rules: TableRules | None = None, seed: int | None = None, east: int = 0) -> int:
        """A new table. Game n at it is dealt from ``seed + n``; ``east`` deals the first game."""
        rules = rules or TableRules()
        self.cards(rules.card)  # an unknown card fails here, before anything is written
        seed = random.SystemRandom().randrange(1 << 31) if seed is None else seed
        async with self.db.transaction() as conn:
            table_id = await records.insert_table(conn, guild_id, channel_id, rules.to_dict(), created_by, seed,
                                                  east)
        (row,) = await records.load_tables(self.db, "table_id = ?", (table_id,))
        self.tables[table_id] = LiveTable(row, rules)
        return table_id

    def table(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise ServiceError(f"There is no open table {table_id}.")
        return table

    def tables_at(self, guild_id: int, channel_id: int) -> list[LiveTable]:
        return [t for t in self.tables.values() if (t.row.guild_id, t.row.channel_id) == (guild_id, channel_id)]

    async def join(self, table_id: int, player_id: int, name: str, seat: int | None = None) -> int:
        table = self.table(table_id)
        async with table.lock:
            if table.seat_of(player_id) is not None:
                raise ServiceError("You already have a seat at this table.")
            self._require_seating(table)
            seat = self._free_seat(table, seat)
            async with self.db.transaction() as conn:
                await records.upsert_player(conn, player_id, name)
                await records.set_seat(conn, table_id, seat, player_id, None)
            table.row.seats[seat] = SeatRow(seat, player_id, None)
            table.names[seat] = name
            return seat

    async def add_computer(self, table_id: int, level: str = "normal", seat: int | None = None) -> int:
        if level not in LEVELS:
            raise ServiceError(f"Unknown computer level '{level}'. Choose one of: {', '.join(LEVELS)}.")
        table = self.table(table_id)
        async with table.lock:
            self._require_seating(table)
            seat = self._free_seat(table, seat)
            async with self.db.transaction() as conn:
                await records.set_seat(conn, table_id, seat, None, level)
            table.row.seats[seat] = SeatRow(seat, None, level)
            table.names[seat] = f"Computer ({level})"
            return seat

    async def leave(self, table_id: int, player_id: int) -> None:
        table = self.table(table_id)
        async with table.lock:
            seat = table.seat_of(player_id)
            if seat is None:
                raise ServiceError("You have no seat at this table.")
            if table.game is not None and table.game.state.phase != Phase.FINISHED:
                # Mid-game, a computer finishes the hand for her; the seat stays hers for the ledger.
                table.away.add(seat)
                await self._run_automatic(table)
                return
            async with self.db.transaction() as conn:
                await records.set_seat(conn, table_id, seat, None, None)
            table.row.seats[seat] = SeatRow(seat, None, None)
            table.names.pop(seat, None)

    async def come_back(self, table_id: int, player_id: int) -> None:
        """A player whose seat a computer took over plays it again."""
        table = self.table(table_id)
        async with table.lock:
            seat = table.seat_of(player_id)
            if seat is None or seat not in table.away:
                raise ServiceError("Nobody is playing for you at this table.")
            table.away.discard(seat)

    async def close_table(self, table_id: int) -> None:
        """Close a table between games; it is no longer loaded at start-up."""
        table = self.table(table_id)
        async with table.lock:
            self._require_seating(table)
            async with self.db.transaction() as conn:
                await records.set_table_status(conn, table_id, "closed")
            del self.tables[table_id]

    def _require_seating(self, table: LiveTable) -> None:
        if table.game is not None and table.game.state.phase != Phase.FINISHED:
            raise ServiceError("A game is in progress at this table; seats change between games.")

    def _free_seat(self, table: LiveTable, wanted: int | None) -> int:
        free = [s.seat for s in table.row.seats if s.player_id is None and s.computer_level is None]
        if wanted is not None:
            if wanted not in range(4):
                raise ServiceError("Seats are numbered 0 to 3.")
            if wanted not in free:
                raise ServiceError(f"Seat {wanted} is taken.")
            return wanted
        if not free:
            raise ServiceError("The table is full.")
        return free[0]

    # -- games ---------------------------------------------------------------------------------------------
    async def start(self, table_id: int, *, autoplay: bool = True) -> list[Event]:
        """Deal the next game. With ``autoplay`` off, computer moves wait for :meth:`step`."""
        table = self.table(table_id)
        async with table.lock:
            self._require_seating(table)
            filled = [s.seat for s in table.row.seats if s.player_id is not None or s.computer_level is not None]
            rules = table.rules
            if len(filled) != rules.players:
                raise ServiceError(f"This table needs {rules.players} players and has {len(filled)}: invite "
                                   "someone or add a computer player.")
            east = table.row.next_east
            if rules.players == 3:
                empty = next(s for s in range(4) if s not in filled)
                east = (empty + 1) % 4  # the empty chair is North's
            card = self.cards(rules.card)
            game_no = table.row.games_played + 1
            seed = table.row.seed + game_no
            game, events = Game.new(card, rules, seed, east=east, game_no=game_no)
            async with self.db.transaction() as conn:
                table.game_id = await records.insert_game(conn, table.row, game_no, card.id, seed, east,
                                                          _snapshot(game.state), table.row.seats)
            table.row.games_played = game_no
            table.row.status = "playing"
            table.away.clear()
            table.game = game
            table.version = 0
            await self._set_deadline(table)
            await self.hub.publish(table_id, events)
            if autoplay:
                events += await self._run_automatic(table)
            return events

    async def act(self, table_id: int, player_id: int, action: Action, *,
                  expected_version: int | None = None) -> list[Event]:
        """A player's action. ``expected_version`` (from the view the button was drawn for) turns a stale
        button into a clear refusal instead of acting on a table that has moved on."""
        table = self.table(table_id)
        async with table.lock:
            game = self._require_game(table)
            seat = table.seat_of(player_id)
            if seat is None:
                raise ServiceError("You are not seated at this table.")
            if action.seat != seat:
                raise ServiceError("That action is for another seat.")
            if expected_version is not None and expected_version != table.version:
                raise ServiceError("That button is out of date: the table has moved on. Use the newest message.")
            table.away.discard(seat)  # acting is proof of presence
            try:
                events = await self._apply(table, game, action)
            except EngineError as exc:
                raise ServiceError(str(exc)) from None
            events += await self._run_automatic(table)
            return events

    def _require_game(self, table: LiveTable) -> Game:
        if table.game is None or table.game.state.phase == Phase.FINISHED:
            raise ServiceError("No game is being played at this table.")
        return table.game

    async def _apply(self, table: LiveTable, game: Game, action: Action) -> list[Event]:
        """Apply, persist, then publish. If saving fails the table is reloaded from the database."""
        assert table.game_id is not None
        before = table.version
        events = game.apply(action)
        state = game.state
        if isinstance(action, Hold):
            self._extend_deadline(table)
        else:
            table.deadline = self._deadline_for(table)
        saving = self.db.transaction() if state.phase == Phase.FINISHED else self.db.single_statement()
        try:
            async with saving as conn:
                await records.record_action(conn, table.game_id, before, action.to_json(), _snapshot(state),
                                            _iso(table.deadline))
                if state.phase == Phase.FINISHED:
                    # The last action, the game's result and its settlement land together.
                    await self._finish(conn, table, game)
        except Exception:
            await self._reload(table)
            raise
        table.version = before + 1
        await self.hub.publish(table.table_id, events)
        return events

    async def _finish(self, conn: Any, table: LiveTable, game: Game) -> None:
        state = game.state
        assert state.result is not None and table.game_id is not None
        seats = table.row.seats
        transfers = [ledger.Transfer(p.payer, seats[p.payer].player_id, p.payee, seats[p.payee].player_id,
                                     p.amount, p.reason) for p in payouts(state)]
        east = next_east(state)
        await records.finish_game(conn, table.game_id, table.table_id, state.result.to_json(), east)
        await ledger.settle(conn, table.game_id, table.row.guild_id, transfers, memo=f"table {table.table_id}")
        table.row.next_east = east
        table.row.status = "open"
        table.deadline = None

    async def _run_automatic(self, table: LiveTable) -> list[Event]:
        """Draws happen by themselves; computer players (and computers standing in) act until a human is due."""
        events: list[Event] = []
        while (step := await self._automatic_step(table)) is not None:
            events += step
        if table.game is not None and not _over(table.game):
            await self._set_deadline(table)
        return events

    async def _automatic_step(self, table: LiveTable) -> list[Event] | None:
        """One draw or one computer move, or None when a human (or the clock) is due."""
        game = table.game
        if game is None or _over(game):
            return None
        state = game.state
        if state.phase == Phase.PLAY and state.turn_state.needs_draw:
            return await self._apply(table, game, Draw(state.turn))
        computer = next((s for s in waiting_for(game) if table.computer_level(s)), None)
        if computer is None:
            return None
        level = table.computer_level(computer)
        assert level is not None
        return await self._apply(table, game, computer_move(level, game, computer))

    async def step(self, table_id: int) -> bool:
        """Make one automatic move at a table, if one is due; lets a caller pace computer players."""
        table = self.table(table_id)
        async with table.lock:
            return await self._automatic_step(table) is not None

    # -- deadlines -----------------------------------------------------------------------------------------
    def _deadline_for(self, table: LiveTable) -> datetime | None:
        game = table.game
        if game is None or game.state.phase == Phase.FINISHED:
            return None
        now = self.clock.now()
        phase = game.state.phase
        if phase == Phase.CALL_WINDOW:
            return now + timedelta(seconds=table.rules.call_window_seconds)
        if phase in (Phase.CHARLESTON, Phase.CHARLESTON_VOTE, Phase.COURTESY):
            return now + timedelta(seconds=self.charleston_timeout)
        return now + timedelta(seconds=self.turn_timeout)

    def _extend_deadline(self, table: LiveTable) -> None:
        base = table.deadline or self.clock.now()
        table.deadline = base + timedelta(seconds=table.rules.hold_seconds)

    async def _set_deadline(self, table: LiveTable) -> None:
        if table.game_id is None:
            return
        async with self.db.single_statement() as conn:
            await records.set_deadline(conn, table.game_id, _iso(table.deadline))
        self._wake.set()

    async def tick(self) -> int:
        """Act on every deadline that has passed; returns how many tables were moved on."""
        moved = 0
        now = self.clock.now()
        for table in list(self.tables.values()):
            if table.deadline is None or table.deadline > now:
                continue
            async with table.lock:
                if table.deadline is None or table.deadline > self.clock.now() or table.game is None:
                    continue
                game = table.game
                if game.state.phase == Phase.FINISHED:
                    table.deadline = None
                    continue
                events: list[Event] = []
                if game.state.phase == Phase.CALL_WINDOW:
                    events += await self._apply(table, game, CloseWindow(TABLE))
                else:
                    late = [s for s in waiting_for(game) if not table.computer_level(s)]
                    table.away.update(late)
                    notices = [public(EventKind.AWAY, s) for s in late]
                    await self.hub.publish(table.table_id, notices)
                events += await self._run_automatic(table)
                moved += 1
        return moved

    def next_deadline(self) -> datetime | None:
        deadlines = [t.deadline for t in self.tables.values() if t.deadline is not None]
        return min(deadlines) if deadlines else None

    async def run(self, stop: asyncio.Event) -> None:
        """Keep every table's clock running until ``stop`` is set (the bot's background task)."""
        while not stop.is_set():
            await self.tick()
            self._wake.clear()
            deadline = self.next_deadline()
            wait = 5.0 if deadline is None else max(0.0, (deadline - self.clock.now()).total_seconds())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=min(wait, 5.0))

    # -- restoring -----------------------------------------------------------------------------------------
    async def restore(self) -> int:
        """Load every table that is not closed and pick its game up exactly where it was. Deadlines that passed
        while the service was down are acted on at the next :meth:`tick`, as if on time."""
        for row in await records.load_tables(self.db):
            table = LiveTable(row, rules_from_dict(row.rules))
            await self._load_game(table)
            table.names = await records.seat_names(self.db, table.row.seats)
            self.tables[row.table_id] = table
        return len(self.tables)

    async def _load_game(self, table: LiveTable) -> None:
        found = await records.unfinished_game(self.db, table.table_id)
        if found is None:
            table.game = table.game_id = table.deadline = None
            return
        game_id, version, state_json, deadline = found
        state = GameState.from_json(state_json)
        table.game = Game(state, self.cards(state.card_id))
        table.game_id = game_id
        table.version = version
        table.deadline = datetime.fromisoformat(deadline) if deadline else None
        table.row.seats = await records.game_seat_players(self.db, game_id)

    async def _reload(self, table: LiveTable) -> None:
        (row,) = await records.load_tables(self.db, "table_id = ?", (table.table_id,))
        table.row = row
        await self._load_game(table)

    async def finish_computer_tables(self) -> list[int]:
        """Play out every unfinished game whose seats are all computer players (``charleston tables resume``)."""
        finished: list[int] = []
        for table in list(self.tables.values()):
            game = table.game
            if game is None or _over(game) or any(s.player_id is not None for s in table.row.seats):
                continue
            async with table.lock:
                await self._run_automatic(table)
                while not _over(game):  # a call window left open, waiting only for its clock
                    await self._apply(table, game, CloseWindow(TABLE))
                    await self._run_automatic(table)
            finished.append(table.table_id)
        return finished

    # -- views and events ----------------------------------------------------------------------------------
    def subscribe(self, table_id: int, listener: Listener, seat: int | None = None) -> Callable[[], None]:
        return self.hub.subscribe(table_id, listener, seat)

    def view(self, table_id: int, player_id: int) -> Any:
        table = self.table(table_id)
        game = self._require_game(table)
        seat = table.seat_of(player_id)
        if seat is None:
            raise ServiceError("You are not seated at this table.")
        return seat_view(game, seat)


def _over(game: Game) -> bool:
    return game.state.phase == Phase.FINISHED


def _snapshot(state: GameState) -> dict[str, Any]:
    """The state as stored: without its action log, which lives row by row in the actions table."""
    data = state.to_json()
    data["log"] = []
    return data


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None
