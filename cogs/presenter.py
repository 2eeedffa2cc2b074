"""Keeps Discord in step with the tables: one table message per table in its thread, and one message per person
in their DMs, each updated at most once per ``interval`` (a second by default) however fast the game moves.

The table message carries the table image, whose turn, the countdown, the latest events and the buttons. It is
edited in place; it is posted afresh at the bottom of the thread when something else was posted under it (the
results, or players talking), so it stays where a phone shows it. A player's DM is edited in place while the
same decision is open, and sent as a new message (the old one deleted) when a new decision awaits them, so
their phone tells them it is their move. Where a player's DMs are closed, the table message says so and its "My
rack" button answers them privately instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.state import Phase
from bot.service.updates import SeatUpdate, TableUpdate

from . import look
from .replies import CANNOT_DM

if TYPE_CHECKING:
    from .app import CharlestonBot

log = logging.getLogger("charleston.discord")


class Throttle:
    """Runs ``flush`` soon after :meth:`poke`, at most once per ``interval``: at once when idle, else when the
    interval is up; pokes meanwhile are folded into that one run."""

    def __init__(self, flush: Callable[[], Awaitable[None]], interval: float) -> None:
        self._flush = flush
        self._interval = interval
        self._last = -1e9
        self._dirty = False
        self._task: asyncio.Task[None] | None = None

    def poke(self, *, now: bool = False) -> None:
        """Something changed: flush soon (with ``now``, without waiting for the interval)."""
        self._dirty = True
        if now:
            self._last = -1e9
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while self._dirty:
            wait = self._last + self._interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty = False
            self._last = time.monotonic()
            try:
                await self._flush()
            except Exception:
                log.exception("could not bring a message up to date")

    async def settle(self) -> None:
        """Wait for a pending flush to finish."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)


@dataclass
class ShownTable:
    """What the thread of one table shows."""

    table_id: int
    latest: TableUpdate | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=look.LOG_LINES))
    below: bool = False  # something was posted under the table message
    results_for: int = 0  # the game whose results were posted
    throttle: Throttle | None = None


@dataclass
class ShownSeat:
    """What one person's DM shows."""

    latest: SeatUpdate | None = None
    notes: deque[str] = field(default_factory=lambda: deque(maxlen=4))
    shown: tuple[Any, ...] | None = None  # what the DM shows now
    notified: str | None = None  # the decision the current DM message was sent for
    force_new: bool = False  # send a new message even for the same decision (/rack)
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
    def service(self) -> Any:
        """The bot's table service."""
        return self.bot.service

    def start(self) -> None:
        """Listen to every table, and to every seat a person holds."""
        self._unsubscribe = [self.service.subscribe(self.on_table), self.service.subscribe_seat(self.on_seat)]

    def stop(self) -> None:
        """Stop listening."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()

    async def refresh_all(self) -> None:
        """After a start-up: bring every open table's message and every player's DM up to date."""
        for table_id in list(self.service.tables):
            if table_id not in self.service.tables:
                continue
            table = self.service.tables[table_id]
            self.on_table(self.service.snapshot(table_id))
            for seat in table.row.seats:
                if seat.player_id is not None and table.game is not None:
                    self.on_seat(self.service.seat_update(table_id, seat.player_id))

    async def settle(self) -> None:
        """Wait until every pending message update is done (tests, shutdown)."""
        for shown in list(self.tables.values()):
            if shown.throttle is not None:
                await shown.throttle.settle()
        for seat in list(self.seats.values()):
            if seat.throttle is not None:
                await seat.throttle.settle()

    # -- the table message -----------------------------------------------------------------------------------
    def on_table(self, update: TableUpdate) -> None:
        """A table changed."""
        shown = self.tables.get(update.table_id)
        if shown is None:
            shown = self.tables[update.table_id] = ShownTable(update.table_id)
            shown.throttle = Throttle(lambda: self._flush_table(shown), self.interval)
        if update.cause == "start":
            shown.log.clear()
        shown.log.extend(look.event_lines(update))
        shown.latest = update
        assert shown.throttle is not None
        shown.throttle.poke()

    async def show_now(self, table_id: int) -> None:
        """Bring a table's message up to date at once (a new table's lobby) and wait for it."""
        shown = self.tables.get(table_id)
        if shown is not None and shown.throttle is not None:
            shown.throttle.poke(now=True)
            await shown.throttle.settle()

    def something_posted(self, channel_id: int) -> None:
        """A message was posted in a channel: a table message there is no longer the last one."""
        for shown in self.tables.values():
            if shown.latest is not None and shown.latest.view.display.get("thread") == channel_id:
                shown.below = True

    async def _flush_table(self, shown: ShownTable) -> None:
        update = shown.latest
        if update is None:
            return
        display = self._display(update.table_id, update.view.display)
        thread_id, message_id = display.get("thread"), display.get("message")
        if thread_id is None:
            return  # not shown in Discord (made by another face of the program)
        channel = self.bot.get_partial_messageable(thread_id)
        payload = await look.table_payload(update, list(shown.log), self.bot.drawing)
        game = update.view.game
        if message_id is not None and not shown.below:
            try:
                await channel.get_partial_message(message_id).edit(content=payload.content,
                                                                    attachments=payload.files, view=payload.view)
            except discord.NotFound:
                message_id = None
        if message_id is None or shown.below:
            old = message_id
            sent = await channel.send(content=payload.content, files=payload.files,
                                      view=payload.view or discord.utils.MISSING)
            shown.below = False
            await self.service.set_display(update.table_id, message=sent.id)
            if old is not None:
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(old).delete()
        if game is not None and game.phase == Phase.FINISHED and shown.results_for != game.game_no:
            shown.results_for = game.game_no
            results = await look.result_payload(update)
            await channel.send(content=results.content, files=results.files)
            shown.below = True
        if update.view.status == "closed":
            self.tables.pop(update.table_id, None)
            self.bot.drawing.forget(update.table_id)
            with contextlib.suppress(discord.HTTPException):
                thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
                if isinstance(thread, discord.Thread):
                    await thread.edit(archived=True)

    # -- a player's DM -----------------------------------------------------------------------------------------
    def on_seat(self, update: SeatUpdate) -> None:
        """A seat a person holds changed."""
        key = (update.table.table_id, update.seat)
        shown = self.seats.get(key)
        if shown is None:
            shown = self.seats[key] = ShownSeat()
            shown.throttle = Throttle(lambda: self._flush_seat(key, shown), self.interval)
        shown.notes.extend(look.private_notes(update))
        shown.latest = update
        assert shown.throttle is not None
        shown.throttle.poke()

    async def resend(self, update: SeatUpdate) -> bool:
        """Send a player's message again as a new DM (``/rack``); False when their DMs are closed."""
        key = (update.table.table_id, update.seat)
        shown = self.seats.get(key)
        if shown is None:
            self.on_seat(update)
            shown = self.seats[key]
        shown.latest, shown.shown, shown.force_new = update, None, True
        assert shown.throttle is not None
        shown.throttle.poke(now=True)
        await shown.throttle.settle()
        table = self.service.tables.get(update.table.table_id)
        return table is None or update.seat not in table.row.display.get("dms_closed", [])

    async def refresh_seat(self, update: SeatUpdate) -> None:
        """The player just moved from their DM: bring it up to date now, not at the next interval."""
        key = (update.table.table_id, update.seat)
        if key not in self.seats:
            self.on_seat(update)
        shown = self.seats[key]
        assert shown.throttle is not None
        shown.throttle.poke(now=True)

    async def _flush_seat(self, key: tuple[int, int], shown: ShownSeat) -> None:
        started = time.perf_counter()
        update = shown.latest
        if update is None or update.player_id is None or update.view is None:
            return
        print_ = fingerprint(update)
        if print_ == shown.shown:
            return
        table_id, seat = key
        dms = self._display(table_id, update.table.view.display).get("dms", {})
        where = dms.get(str(seat))
        if shown.notified is None and where is not None and len(where) > 2:
            shown.notified = where[2]  # after a restart: the decision the standing DM was sent for
        fresh = shown.force_new or (look.actionable(update) and update.table.phase != Phase.CALL_WINDOW.value
                                    and update.table.token != shown.notified)
        shown.force_new = False
        payload = await look.seat_payload(update, list(shown.notes), self.bot.drawing)
        if where is not None and not fresh:
            try:
                await self.bot.get_partial_messageable(where[0]).get_partial_message(where[1]).edit(
                    content=payload.content, attachments=payload.files, view=payload.view)
                shown.shown = print_
                self._timed(started)
                return
            except discord.NotFound:
                where = None
        sent = await self._send_dm(update.player_id, payload, where[0] if where else None)
        self._timed(started)
        if sent is None:
            await self._dms_closed(table_id, seat)
            shown.shown = print_
            return
        if look.actionable(update):
            shown.notified = update.table.token
        shown.shown = print_
        shown.notes.clear()
        await self.service.set_display(table_id, dms={**dms, str(seat): [sent.channel.id, sent.id, shown.notified]})
        if where is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(where[0]).get_partial_message(where[1]).delete()

    def _timed(self, started: float) -> None:
        if self.dm_timings is not None:
            self.dm_timings.append(time.perf_counter() - started)

    def _display(self, table_id: int, fallback: dict[str, Any]) -> dict[str, Any]:
        """Where a table is shown, as stored now (an update's copy may predate the latest message)."""
        table = self.service.tables.get(table_id)
        return dict(table.row.display) if table is not None else fallback

    async def _send_dm(self, player_id: int, payload: look.Payload,
                       channel_id: int | None) -> discord.Message | None:
        """Send a DM (to the DM channel already known, else after looking the user up once)."""
        if channel_id is not None:
            channel: discord.abc.Messageable = self.bot.get_partial_messageable(channel_id,
                                                                                type=discord.ChannelType.private)
        else:
            channel = self.bot.get_user(player_id) or await self.bot.fetch_user(player_id)
        try:
            return await channel.send(content=payload.content, files=payload.files,
                                      view=payload.view or discord.utils.MISSING)
        except discord.Forbidden as exc:
            if exc.code == CANNOT_DM:
                return None
            raise

    async def _dms_closed(self, table_id: int, seat: int) -> None:
        table = self.service.tables.get(table_id)
        if table is None:
            return
        closed = set(table.row.display.get("dms_closed", []))
        if seat not in closed:
            await self.service.set_display(table_id, dms_closed=sorted(closed | {seat}))
            self.on_table(self.service.snapshot(table_id))


def fingerprint(update: SeatUpdate) -> tuple[Any, ...]:
    """What a player's message depends on: when it is unchanged, the message needs no edit."""
    view = update.view
    table = update.table
    acting = look.actionable(update)
    return (table.view.game.game_no if table.view.game else None, table.phase == Phase.FINISHED.value, acting,
            table.token if acting else None, view.rack if view else None, view.drawn if view else None,
            view.exposures if view else None, tuple(update.choices.keys()) if acting else (),
            table.view.seats[update.seat].away, table.deadline if acting else None)
