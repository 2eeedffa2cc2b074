"""The moving parts of a game at a table: applying and saving actions, the table's clock (deadlines and paced
computer moves), and players going away and coming back. Mixed into :class:`~bot.service.tables.TableService`.

Pacing: each decision has a deadline for the people it waits for (the call window's length in a call window,
else the turn or Charleston timeout) and, when computers owe a move, a moment ``auto_at`` for it: the table's
``computer_delay`` after the decision opened or after the computer's own previous move. Draws are made at once.
With a delay of 0 every computer move is made inside the call that made it due (simulations, tests).

The delay is there for people to follow the computers' discards and calls, so a computer's pass does not wait
for it: in a call window each computer decides the moment it is its turn to (in seat order, as ever); a pass is
made at once, a call (or Mah Jongg) is held until ``auto_at``, and the computers after it in seat order wait for
it. Each decision is made in the same position as when every answer waited for the delay, so a table of computers
plays the same game at any pacing, and a window nobody can or will use closes the moment it opens.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from bot.engine import payloads
from bot.engine.actions import TABLE, Action, CloseWindow, Draw, Hold, PassCall
from bot.engine.card import Card
from bot.engine.errors import EngineError
from bot.engine.events import Event, public
from bot.engine.game import Game, next_east
from bot.engine.payouts import payouts
from bot.engine.state import Phase
from bot.store import ledger, records
from bot.store.db import Database
from bot.store.records import StaleVersion

from .answers import passed_for
from .clock import Clock
from .decisions import current_token, gone_message, is_token, open_tokens
from .errors import ErrorKind, TableError
from .live import LiveTable
from .saved import checkpoint_due, snapshot
from .thinking import Thinking
from .timetable import Timetable
from .updates import Cause, TableStatus, TableUpdate

CHARLESTON_PHASES = (Phase.CHARLESTON, Phase.CHARLESTON_VOTE, Phase.COURTESY)
ALL_AT_ONCE = (*CHARLESTON_PHASES, Phase.CALL_WINDOW)  # decisions every awaited computer answers together
ACT_AT_ONCE = 16  # tables the clock serves at once: enough to keep thinking workers busy, near first-due-first-served


class GamePlay:
    """Applying actions and keeping time at the service's tables."""

    db: Database
    clock: Clock
    cards: Callable[[str], Card]
    turn_timeout: float
    charleston_timeout: float
    thinking: Thinking
    tables: dict[int, LiveTable]
    timetable: Timetable
    _wake: asyncio.Event

    def _publish(self, table: LiveTable, cause: Cause, events: list[Event]) -> TableUpdate:
        raise NotImplementedError

    async def _reload(self, table: LiveTable) -> None:
        raise NotImplementedError

    # -- checks ------------------------------------------------------------------------------------------------
    def _require_game(self, table: LiveTable) -> Game:
        if not table.playing or table.game is None:
            raise TableError(ErrorKind.NO_GAME, "No game is being played at this table. Start one with "
                             "/table start.")
        return table.game

    def _require_open(self, game: Game, token: str | None) -> None:
        if token is not None and (not is_token(token) or token not in open_tokens(game)):
            raise TableError(ErrorKind.GONE, gone_message(token, game.state.game_no))

    # -- applying and saving -------------------------------------------------------------------------------------
    async def _apply(self, table: LiveTable, action: Action, cause: Cause) -> tuple[TableUpdate, list[Event]]:
        """Apply, save, then publish. If saving fails the table is reloaded from the database."""
        game = table.game
        assert game is not None and table.game_id is not None
        before = current_token(game)
        try:
            events = game.apply(action)
        except EngineError as exc:
            raise TableError(ErrorKind.ILLEGAL, str(exc)) from None
        self._schedule(table, before, action.seat, held=isinstance(action, Hold))
        state = game.state
        finished = state.phase == Phase.FINISHED
        checkpoint = finished or checkpoint_due(table.version + 1, table.saved_state)
        # The action log may be written without waiting for the disk (see bot.store.postgres); a game's end, its
        # result and its settlement are one durable transaction.
        saving = self.db.transaction() if finished else self.db.single_statement(durable=False)
        try:
            async with saving as conn:
                await records.record_action(conn, table.game_id, table.version, action.to_json(),
                                            snapshot(state) if checkpoint else None, _iso(table.deadline))
                if finished:
                    # The last action, the game's result and its settlement land together.
                    await self._finish(conn, table, game)
        except StaleVersion:
            await self._reload(table)
            raise TableError(ErrorKind.CONFLICT, "This table was just changed by another copy of the bot; it has "
                             "been reloaded. Try again.") from None
        except BaseException:
            await self._reload(table)
            raise
        table.version += 1
        if checkpoint:
            table.saved_state = table.version
        self._wake.set()
        return self._publish(table, cause, events), events

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
        table.row.status = TableStatus.OPEN
        table.deadline = table.auto_at = None

    async def _checkpoint(self, table: LiveTable) -> None:
        """Store the game's full state if actions were applied since it was last stored (on a clean stop)."""
        if table.playing and table.game is not None and table.game_id is not None \
                and table.saved_state < table.version:
            async with self.db.single_statement() as conn:
                await records.save_state(conn, table.game_id, table.version, snapshot(table.game.state))
            table.saved_state = table.version

    async def _save_deadline(self, table: LiveTable) -> None:
        if table.game_id is None:
            return
        async with self.db.single_statement() as conn:
            await records.set_deadline(conn, table.game_id, _iso(table.deadline))
        self._wake.set()

    # -- the clock -----------------------------------------------------------------------------------------------
    def _schedule(self, table: LiveTable, before: str | None, mover: int | None, *, held: bool = False) -> None:
        """Set the table's deadline and next computer move after a change (``before``: the decision token before
        it; ``mover``: the seat that acted, if any)."""
        game = table.game
        if game is None or not table.playing:
            table.deadline = table.auto_at = None
            return
        now = self.clock.now()
        phase = game.state.phase
        fresh = current_token(game) != before
        people = table.people_awaited()
        computers = table.computers_awaited()
        if held:
            table.deadline = (table.deadline or now) + timedelta(seconds=table.rules.hold_seconds)
        elif phase == Phase.CALL_WINDOW:
            if fresh or table.deadline is None:
                table.deadline = now + timedelta(seconds=table.rules.call_window_seconds)
        elif not people:
            table.deadline = None
        elif fresh or table.deadline is None:
            timeout = self.charleston_timeout if phase in CHARLESTON_PHASES else self.turn_timeout
            table.deadline = now + timedelta(seconds=timeout)
        if _needs_draw(game):
            table.auto_at = now
        elif not computers:
            table.auto_at = None
        elif fresh or table.auto_at is None or mover in computers:
            table.auto_at = now + timedelta(seconds=table.options.computer_delay)

    async def _auto(self, table: LiveTable) -> int:
        """Make the draws, the call window's answers given at once and the computer moves that are due now;
        returns how many were made."""
        made = 0
        while table.playing and table.game is not None:
            game = table.game
            if _needs_draw(game):
                await self._apply(table, Draw(game.state.turn), Cause.AUTO)
                made += 1
                continue
            answer = await self._window_answer(table)
            if answer is not None:
                await self._apply(table, answer, Cause.AUTO)
                made += 1
                continue
            if table.auto_at is None or table.auto_at > self.clock.now():
                break
            movers = table.computers_awaited()
            if not movers:
                table.auto_at = None
                break
            token = current_token(game)
            for seat in movers if game.state.phase in ALL_AT_ONCE else movers[:1]:
                if current_token(game) != token or seat not in table.computers_awaited():
                    break  # the decision was settled by the moves before
                await self._computer_move(table, game, seat)
                made += 1
        return made

    async def _window_answer(self, table: LiveTable) -> Action | None:
        """The call window's next answer that is given at once, or None: a person the table passes for
        (``auto_pass``), or a computer's pass. Each computer decides when its turn in seat order comes; one that
        calls is held to its delay (``LiveTable.held``), and the computers after it wait for it."""
        game = table.game
        if game is None or game.state.phase != Phase.CALL_WINDOW:
            return None
        token = current_token(game)
        if table.held_for != token:
            table.held, table.held_for = {}, token
        computers_may_go = True
        for seat in table.awaiting():
            level = table.computer_level(seat)
            if level is None:
                if passed_for(table, seat):
                    return PassCall(seat)
                continue
            if not computers_may_go:
                continue
            if seat not in table.held:
                decision = await self.thinking.move(table.table_id, level, game, seat)
                if isinstance(decision, PassCall):
                    return decision
                table.held[seat] = decision
            computers_may_go = False
        return None

    async def _computer_move(self, table: LiveTable, game: Game, seat: int) -> None:
        """A computer's move, due now: the call it decided on when its window opened, else thought now (and
        thought again should its held call no longer be legal)."""
        held = table.held.pop(seat, None) if table.held_for == current_token(game) else None
        if held is not None:
            try:
                await self._apply(table, held, Cause.AUTO)
                return
            except TableError as refused:
                if refused.kind is not ErrorKind.ILLEGAL:
                    raise
        level = table.computer_level(seat)
        assert level is not None
        await self._apply(table, await self.thinking.move(table.table_id, level, game, seat), Cause.AUTO)

    async def tick(self) -> int:
        """Act on every deadline and computer move that is due, earliest first; returns how many were acted on.
        Up to :data:`ACT_AT_ONCE` tables are served at once (each under its own lock), so one waiting for its
        computers' thinking or for the database does not hold up the rest; finding the next table due costs
        O(log n) in the number of tables."""
        acted = 0
        running: set[asyncio.Task[int]] = set()
        failure: BaseException | None = None
        for _ in range(10_000):  # each pass acts on something due; a table cannot stay due forever
            while failure is None and len(running) < ACT_AT_ONCE \
                    and (table_id := self.timetable.pop_due(self.clock.now())) is not None:
                running.add(asyncio.create_task(self._on_time(table_id)))
            if not running:
                break
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task.exception() is None:
                    acted += task.result()
                else:
                    failure = failure or task.exception()
        if failure is not None:
            raise failure
        return acted

    async def _on_time(self, table_id: int) -> int:
        """Whatever is due at one table (the clock's tick serves the tables due at once)."""
        table = self.tables.get(table_id)
        if table is None:
            return 0
        async with table.lock:
            acted = await self._act_on_time(table)
            table.reschedule()  # due again later (or still, if nothing could be done)
        return acted

    async def _act_on_time(self, table: LiveTable) -> int:
        """Whatever is due at one table: its deadline (close the call window, or hand late players' seats to
        computers), then its computer moves."""
        if not table.playing or table.game is None:
            table.deadline = table.auto_at = None
            return 0
        acted = 0
        now = self.clock.now()
        deadline = table.deadline
        if deadline is not None and deadline <= now and (table.auto_at is None or deadline <= table.auto_at):
            if table.game.state.phase == Phase.CALL_WINDOW:
                await self._apply(table, CloseWindow(TABLE), Cause.DEADLINE)
            else:
                table.deadline = None
                late = table.people_awaited()
                if late:
                    await self._set_away(table, late, Cause.DEADLINE, at_once=True)
                else:
                    await self._save_deadline(table)
            acted += 1
        return acted + await self._auto(table)

    async def _play_out(self, table: LiveTable) -> None:
        """Finish a game that only computers play, without waiting for the clock."""
        while table.playing and table.game is not None:
            table.auto_at = self.clock.now()
            if await self._auto(table) == 0:
                if table.game.state.phase != Phase.CALL_WINDOW:
                    break
                await self._apply(table, CloseWindow(TABLE), Cause.DEADLINE)  # a window waiting only for its clock

    # -- away and back -------------------------------------------------------------------------------------------
    async def _set_away(self, table: LiveTable, seats: list[int], cause: Cause, *,
                        at_once: bool = False) -> TableUpdate:
        """Computers take these players' seats until they come back (saved, so a restart keeps it)."""
        async with self.db.transaction() as conn:
            await records.set_away(conn, table.table_id, {s: True for s in seats})
        for seat in seats:
            table.row.seats[seat].away = True
        game = table.game
        self._schedule(table, current_token(game) if game is not None else None, None)
        if at_once and table.auto_at is not None:
            table.auto_at = self.clock.now()  # they are late already
        await self._save_deadline(table)
        update = self._publish(table, cause, [public(payloads.Away(), s) for s in seats])
        await self._auto(table)
        return update

    async def _set_back(self, table: LiveTable, seat: int) -> TableUpdate:
        async with self.db.transaction() as conn:
            await records.set_away(conn, table.table_id, {seat: False})
        table.row.seats[seat].away = False
        game = table.game
        self._schedule(table, current_token(game) if game is not None else None, None)
        await self._save_deadline(table)
        return self._publish(table, Cause.BACK, [public(payloads.Back(), seat)])


def _needs_draw(game: Game) -> bool:
    return game.state.phase == Phase.PLAY and game.state.turn_state.needs_draw


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None
