"""Keeps Discord in step with the tables: one table message per table in its thread, and one message per person
in their DMs, each updated at most once per ``interval`` (a second by default) however fast the game moves.

The table message carries the table image, whose turn, the countdown, the latest events and the buttons. It is
edited in place; it is posted afresh at the bottom of the thread when something else was posted under it (the
results, or players talking), so it stays where a phone shows it. A player's DM is edited in place while the
same decision is open, and sent as a new message (the old one deleted) when a new decision awaits them, so
their phone tells them it is their move. Where a player's DMs are closed, the table message says so and its "My
rack" button answers them privately instead.

Every write goes through the door (:mod:`cogs.door`) and each message has its throttle (:mod:`cogs.throttle`),
which tries a failed write again until Discord takes it. What a failure in the table's thread means (deleted,
archived, a permission taken away) is the keeper's business (:mod:`cogs.keeper`). Where each message is, is the
table's display record (:class:`bot.service.display.Display`), kept by the service across restarts.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.engine.state import Phase
from bot.service.display import Display, DmShown
from bot.service.errors import TableError
from bot.service.tables import TableService
from bot.service.updates import Cause, SeatUpdate, TablePhase, TableUpdate

from . import look
from .door import DiscordFailure, Failure, Payload
from .throttle import Throttle

if TYPE_CHECKING:
    from .app import CharlestonBot

log = logging.getLogger("charleston.discord")
UNREACHABLE_AFTER = 3  # DM failures in a row before the table message says the player can't be reached


@dataclass
class ShownTable:
    """What the thread of one table shows."""

    table_id: int
    display: Display  # where it is shown, as last known (a closed table is no longer the service's)
    latest: TableUpdate | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=look.LOG_LINES))
    below: bool = False  # something was posted under the table message
    trouble: int = 0  # failures in a row that are not transient (archived, forbidden): reset once a write works
    throttle: Throttle | None = None


@dataclass
class ShownSeat:
    """What one person's DM shows."""

    latest: SeatUpdate | None = None
    notes: deque[str] = field(default_factory=lambda: deque(maxlen=4))
    shown: tuple[object, ...] | None = None  # what the DM shows now
    notified: str | None = None  # the decision the current DM message was sent for
    renewals: int = 0  # times a new message was asked for even for the same decision (/rack, a moved table)
    renewed: int = 0  # ... of which the DM sent so far answers
    where: DmShown | None = None  # the standing DM as last sent (the display record has it after a restart)
    failures: int = 0  # transient failures in a row
    throttle: Throttle | None = None


class Presenter:
    """Listens to the table service and keeps every table message and DM up to date."""

    def __init__(self, bot: CharlestonBot, interval: float = 1.0) -> None:
        self.bot = bot
        self.interval = interval
        self.tables: dict[int, ShownTable] = {}
        self.seats: dict[tuple[int, int], ShownSeat] = {}
        self._unsubscribe: list[Callable[[], None]] = []
        self.dm_timings: list[float] | None = None  # seconds from a DM falling due to Discord having it (benchmarks)

    @property
    def service(self) -> TableService:
        """The bot's table service."""
        return self.bot.service

    def start(self) -> None:
        """Listen to every table, and to every seat a person holds."""
        self._unsubscribe = [self.service.subscribe(self.on_table), self.service.subscribe_seat(self.on_seat)]

    def stop(self) -> None:
        """Stop listening, and give up pending writes (shutting down)."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        for throttle in self._throttles():
            throttle.stop()

    async def refresh_all(self) -> None:
        """After a start-up: bring every open table's message and every player's DM up to date."""
        for table_id in self.service.table_ids():
            update = self.service.snapshot(table_id)
            self.on_table(update)
            if update.view.game is None:
                continue
            for player in update.view.people:
                self.on_seat(self.service.seat_update(table_id, player))

    async def settle(self) -> None:
        """Wait until every pending message update is done (tests, shutdown); retries waiting on Discord aside."""
        for throttle in self._throttles():
            await throttle.settle()

    def _throttles(self) -> list[Throttle]:
        shown = [t.throttle for t in self.tables.values()] + [s.throttle for s in self.seats.values()]
        return [throttle for throttle in shown if throttle is not None]

    # -- the table message -----------------------------------------------------------------------------------
    def on_table(self, update: TableUpdate) -> None:
        """A table changed."""
        shown = self.tables.get(update.table_id)
        if shown is None:
            shown = self.tables[update.table_id] = ShownTable(update.table_id, update.view.display)
            shown.throttle = Throttle(lambda: self._flush_table(shown), self.interval, self.bot.door.backoff)
        if update.cause is Cause.START:
            shown.log.clear()
        shown.log.extend(look.event_lines(update))
        shown.latest = update
        self.poke(update.table_id)

    def poke(self, table_id: int, *, now: bool = False) -> None:
        """Bring a table's message up to date soon (``now``: without waiting for the interval or a retry)."""
        shown = self.tables.get(table_id)
        if shown is not None and shown.throttle is not None:
            shown.throttle.poke(now=now)

    async def show_now(self, table_id: int) -> None:
        """Bring a table's message up to date at once (a new table's lobby) and wait for it."""
        shown = self.tables.get(table_id)
        if shown is not None and shown.throttle is not None:
            shown.throttle.poke(now=True)
            await shown.throttle.settle()

    def something_posted(self, channel_id: int) -> None:
        """A message was posted in a channel: a table message there is no longer the last one."""
        for shown in self.tables.values():
            if shown.display.thread == channel_id:
                shown.below = True

    def display(self, shown: ShownTable) -> Display:
        """Where a table is shown now: the service's record while it is open, else the last one known."""
        if self.service.is_open(shown.table_id):
            shown.display = self.service.display(shown.table_id)
        return shown.display

    async def remember(self, shown: ShownTable, change: Callable[[Display], Display]) -> None:
        """Change where a table is shown (in the service's record too, while the table is open)."""
        shown.display = change(shown.display)
        with contextlib.suppress(TableError):  # closed meanwhile: its closing flush uses what is remembered here
            shown.display = await self.service.update_display(shown.table_id, change)

    async def _flush_table(self, shown: ShownTable) -> float | None:
        update = shown.latest
        display = self.display(shown)
        if update is None or display.thread is None:
            return None  # not shown in Discord (made by another face of the program)
        try:
            if update.view.closed:
                await self._close(shown, update)
                return None
            await self._results(shown, update)
            await self._table_message(shown, update)
        except DiscordFailure as failure:
            return await self.bot.keeper.table_failed(shown, failure, display.thread)
        shown.trouble = 0
        if shown.display.blocked:
            log.info("table %s: the bot may post in its thread again", shown.table_id)
            await self.remember(shown, lambda d: d.with_blocked(False))
        return None

    async def _payload(self, shown: ShownTable, update: TableUpdate) -> Payload:
        return await look.table_payload(update, list(shown.log), self.bot.drawing, self.unreachable(shown.table_id))

    async def _table_message(self, shown: ShownTable, update: TableUpdate) -> None:
        door, table_id = self.bot.door, shown.table_id
        thread, old = shown.display.thread, shown.display.message
        assert thread is not None
        if old is not None and not shown.below:
            try:
                await door.edit(thread, old, await self._payload(shown, update), "edit the table message",
                                table=table_id)
                return
            except DiscordFailure as failure:
                if failure.kind is not Failure.MESSAGE_GONE:
                    raise
                old = None  # deleted: post it again
        sent = await door.send(thread, await self._payload(shown, update), "post the table message", table=table_id)
        shown.below = False
        await self.remember(shown, lambda d: d.with_message(sent.id))
        if old is not None:
            await door.delete(thread, old, "delete the old table message", table=table_id)

    async def _results(self, shown: ShownTable, update: TableUpdate) -> None:
        """The results of a game just finished, posted once (before a close, too: a finished game's chips show)."""
        game = update.view.game
        thread = shown.display.thread
        if game is None or game.phase != Phase.FINISHED or shown.display.results >= game.game_no or thread is None:
            return
        results = await look.result_payload(update)
        await self.bot.door.send(thread, results, "post the results", table=shown.table_id)
        await self.remember(shown, lambda d: d.with_results(game.game_no))
        shown.below = True

    async def _close(self, shown: ShownTable, update: TableUpdate) -> None:
        """The table closed: its results if they are due, its message shown closed (no buttons), its thread
        archived, and nothing of it kept. A place Discord has taken away is given up on (logged)."""
        door, table_id, display = self.bot.door, shown.table_id, shown.display
        for step in (self._results, self._closed_message):
            try:
                await step(shown, update)
            except DiscordFailure as failure:
                if failure.retry:
                    raise  # tried again: the results and the closed message are not dropped
        if display.thread is not None:  # a table playing in a channel itself: nothing to archive
            with contextlib.suppress(DiscordFailure):  # logged: a thread gone, or not to be archived, stays so
                await door.set_archived(display.thread, True, "archive the closed table's thread", table=table_id)
        self.forget(table_id)

    async def _closed_message(self, shown: ShownTable, update: TableUpdate) -> None:
        thread, message = shown.display.thread, shown.display.message
        if thread is None or message is None:
            return
        payload = await self._payload(shown, update)
        await self.bot.door.edit(thread, message, payload, "show the table closed", table=shown.table_id)

    def forget(self, table_id: int) -> None:
        """Drop everything kept for a closed table (its DMs go once their last edit is made)."""
        self.tables.pop(table_id, None)
        self.bot.drawing.forget(table_id)

    def unreachable(self, table_id: int) -> frozenset[int]:
        """Seats whose DMs Discord has failed to deliver several times in a row."""
        return frozenset(seat for (table, seat), shown in self.seats.items()
                         if table == table_id and shown.failures >= UNREACHABLE_AFTER)

    # -- a player's DM -----------------------------------------------------------------------------------------
    def on_seat(self, update: SeatUpdate) -> None:
        """A seat a person holds changed."""
        shown = self._seat(update)
        shown.notes.extend(look.private_notes(update))
        shown.latest = update
        assert shown.throttle is not None
        shown.throttle.poke()

    def _seat(self, update: SeatUpdate) -> ShownSeat:
        key = (update.table.table_id, update.seat)
        shown = self.seats.get(key)
        if shown is None:
            shown = self.seats[key] = ShownSeat(latest=update)
            shown.throttle = Throttle(lambda: self._flush_seat(key, shown), self.interval, self.bot.door.backoff)
        return shown

    def renew(self, update: SeatUpdate, note: str | None = None) -> ShownSeat:
        """Send a player's message again as a new DM soon (a moved table; with ``note`` added)."""
        shown = self._seat(update)
        if note is not None:
            shown.notes.append(note)
        shown.latest, shown.shown = update, None
        shown.renewals += 1
        assert shown.throttle is not None
        shown.throttle.poke(now=True)
        return shown

    async def resend(self, update: SeatUpdate) -> bool:
        """Send a player's message again as a new DM now (``/rack``); False when their DMs are closed."""
        shown = self.renew(update)
        assert shown.throttle is not None
        await shown.throttle.settle()
        table_id = update.table.table_id
        return not self.service.is_open(table_id) or update.seat not in self.service.display(table_id).dms_closed

    async def refresh_seat(self, update: SeatUpdate, note: str | None = None) -> None:
        """The player just moved from their DM: bring it up to date now, not at the next interval (with
        ``note`` added: what became of a press Discord said failed)."""
        shown = self._seat(update)
        if note is not None:
            shown.notes.append(note)
            shown.latest, shown.shown = update, None
        assert shown.throttle is not None
        shown.throttle.poke(now=True)

    async def _flush_seat(self, key: tuple[int, int], shown: ShownSeat) -> float | None:
        update = shown.latest
        if update is None:
            return None
        if update.player_id is not None and update.view is not None:  # between games nobody has a DM to keep
            try:
                await self._write_dm(key, shown, update)
            except DiscordFailure as failure:
                if failure.retry:
                    shown.failures += 1
                    if shown.failures == UNREACHABLE_AFTER:
                        self.poke(key[0])  # the table message says so
                raise
            if shown.failures >= UNREACHABLE_AFTER:
                self.poke(key[0])
            shown.failures = 0
        if update.table.view.closed:
            self.seats.pop(key, None)  # its last edit is made: nothing of the table is kept
        return None

    async def _write_dm(self, key: tuple[int, int], shown: ShownSeat, update: SeatUpdate) -> None:
        started = time.perf_counter()
        print_ = fingerprint(update)
        if print_ == shown.shown and shown.renewals == shown.renewed:
            return
        table_id, seat = key
        assert update.player_id is not None
        closed = update.table.view.closed
        where = shown.where
        if where is None:  # after a restart: the standing DM, and the decision it was sent for
            display = self.service.display(table_id) if self.service.is_open(table_id) else update.table.view.display
            where = shown.where = display.dms.get(seat)
            shown.notified = where.token if where is not None else None
        fresh = not closed and (
            shown.renewals > shown.renewed or (update.awaited and look.actionable(update)
                                and update.table.phase is not TablePhase.CALL_WINDOW
                                and update.table.token != shown.notified))
        door = self.bot.door
        renewals, notes = shown.renewals, list(shown.notes)  # notes and renewals coming meanwhile wait their turn
        if where is not None and not fresh:
            try:
                payload = await look.seat_payload(update, notes, self.bot.drawing)
                await door.edit(where.channel, where.message, payload, "edit a DM", table=table_id)
                shown.shown, shown.renewed = print_, renewals
                self._timed(started)
                return
            except DiscordFailure as failure:
                if failure.kind is not Failure.MESSAGE_GONE:
                    raise
                where = shown.where = None  # the player deleted it: send it again
        if closed:
            return  # no DM to bring to a close
        payload = await look.seat_payload(update, notes, self.bot.drawing)
        sent = await door.send_dm(update.player_id, payload, "send a DM", channel_id=where.channel if where else None,
                                  table=table_id)
        self._timed(started)
        shown.shown, shown.renewed = print_, renewals
        if sent is None:
            await self._dms_closed(table_id, seat)
            return
        if update.awaited and look.actionable(update):
            shown.notified = update.table.token
        for note in notes:  # shown now: the next new message starts without them
            with contextlib.suppress(ValueError):
                shown.notes.remove(note)
        shown.where = DmShown(sent.channel.id, sent.id, shown.notified)
        await self._remember_dm(table_id, seat, shown.where)
        if where is not None:
            await door.delete(where.channel, where.message, "delete the old DM", table=table_id)

    async def _remember_dm(self, table_id: int, seat: int, dm: DmShown) -> None:
        with contextlib.suppress(TableError):  # closed meanwhile
            await self.service.update_display(table_id, lambda d: d.with_dm(seat, dm))

    def _timed(self, started: float) -> None:
        if self.dm_timings is not None:
            self.dm_timings.append(time.perf_counter() - started)

    async def _dms_closed(self, table_id: int, seat: int) -> None:
        if not self.service.is_open(table_id) or seat in self.service.display(table_id).dms_closed:
            return
        await self.service.update_display(table_id, lambda d: d.with_dms_closed(seat))
        self.on_table(self.service.snapshot(table_id))


def fingerprint(update: SeatUpdate) -> tuple[object, ...]:
    """What a player's message depends on: when it is unchanged, the message needs no edit."""
    view = update.view
    table = update.table
    acting = look.actionable(update)
    return (table.view.game.game_no if table.view.game else None, table.phase is TablePhase.FINISHED, acting,
            (table.token, table.claimable) if acting else None, view.rack if view else None,
            view.drawn if view else None,
            view.exposures if view else None, tuple(update.choices.keys()) if acting else (),
            table.view.seats[update.seat].away, table.deadline if acting else None, table.view.status,
            table.view.display.thread)
