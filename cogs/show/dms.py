"""Each person's DM at a table: her rack, what she may do now and its buttons, kept up to date.

What to do with her DM at each change (edit it, send it anew, tell her in the thread, or nothing) is decided by
:func:`cogs.show.dm_plan.plan_dm`; this module carries the decision out. Discord's request budget
is spent with care (docs/architecture.md, *Spending Discord's budget*): a press in her DM is answered by editing
that message through the press itself, and while the press's token lives (15 minutes) her next DMs are its
follow-ups, edited and deleted through it too; all of that is exempt from the bot's global limit. Only a DM with
no live token behind it (the first of a game, or after a quiet quarter of an hour) goes through the channel, and
a rack picture that did not change is kept rather than uploaded again.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import discord

from bot.service.display import DmShown
from bot.service.errors import TableError
from bot.service.surface import TableCalls
from bot.service.updates import SeatUpdate, TablePhase

from ..door import Door, Hook, Interaction
from ..failures import DiscordFailure, Failure
from ..pacer import Urgency
from ..payload import Payload, Picture
from . import look
from .dm_plan import DmFacts, Step, plan_dm
from .drawing import Drawing
from .throttle import Throttle

log = logging.getLogger("charleston.discord")
UNREACHABLE_AFTER = 3  # DM failures in a row before the table message says the player can't be reached


@dataclass
class ShownSeat:
    """What one person's DM shows, and the ways there are to write to it."""

    latest: SeatUpdate | None = None
    notes: deque[str] = field(default_factory=lambda: deque(maxlen=4))
    shown: tuple[object, ...] | None = None  # what the DM shows now
    notified: str | None = None  # the decision the current DM message was sent for
    told_win: str | None = None  # the Mah Jongg chance she was last told of by a new DM
    renewals: int = 0  # times a new message was asked for even for the same decision (/rack, a moved table)
    renewed: int = 0  # ... of which the DM sent so far answers
    where: DmShown | None = None  # the standing DM as last sent (the display record has it after a restart)
    made_by: Hook | None = None  # the press whose token made the standing DM (a follow-up of it)
    hook: Hook | None = None  # her latest press in her DM: new DMs are its follow-ups while its token lives
    thread_hook: Hook | None = None  # her latest interaction in the table's thread (her DMs closed: told there)
    press: Hook | None = None  # a press on the standing DM, deferred: the DM is brought up to date through it
    picture: Picture | None = None  # the rack picture on the standing DM (kept on an edit if unchanged)
    failures: int = 0  # transient failures in a row
    tried: int | None = None  # the game in which a DM to her closed DMs was last tried (once a game, and on /rack)
    throttle: Throttle | None = None


def fingerprint(update: SeatUpdate) -> tuple[object, ...]:
    """What a player's message depends on: when it is unchanged, the message needs no edit."""
    rack = update.view
    table = update.table
    acting = look.actionable(update)
    return (_game_no(update), table.phase is TablePhase.FINISHED, acting,
            (table.token, table.claimable) if acting else None, rack.rack if rack else None,
            rack.drawn if rack else None,
            rack.exposures if rack else None, tuple(update.choices.keys()) if acting else (),
            table.view.seats[update.seat].away, table.deadline if acting else None, table.view.status,
            table.view.display.thread)


def _game_no(update: SeatUpdate) -> int | None:
    game = update.table.view.game
    return game.game_no if game is not None else None


class Dms:
    """Every person's DM at every table."""

    def __init__(self, service: TableCalls, door: Door, drawing: Drawing, on_trouble: Callable[[int], None], *,
                 interval: float = 1.0) -> None:
        self.service = service
        self.door = door
        self.drawing = drawing
        self.interval = interval
        self.seats: dict[tuple[int, int], ShownSeat] = {}
        self._table_changed = on_trouble  # the table message shows who can't be reached, and who is again
        self.timings: list[float] | None = None  # seconds from a DM falling due to Discord having it (benchmarks)

    def throttles(self) -> list[Throttle]:
        """Every DM's throttle."""
        return [s.throttle for s in self.seats.values() if s.throttle is not None]

    def unreachable(self, table_id: int) -> frozenset[int]:
        """Seats whose DMs Discord has failed to deliver several times in a row."""
        return frozenset(seat for (table, seat), shown in self.seats.items()
                         if table == table_id and shown.failures >= UNREACHABLE_AFTER)

    def on_seat(self, update: SeatUpdate) -> None:
        """A seat a person holds changed."""
        shown = self._seat(update)
        shown.notes.extend(update.notes)
        shown.latest = update
        assert shown.throttle is not None
        shown.throttle.poke()

    def notes(self, table_id: int, seat: int) -> list[str]:
        """The private notes a seat has been told lately (for "My rack" where DMs are closed)."""
        shown = self.seats.get((table_id, seat))
        return list(shown.notes) if shown is not None else []

    def _seat(self, update: SeatUpdate) -> ShownSeat:
        key = (update.table.table_id, update.seat)
        shown = self.seats.get(key)
        if shown is None:
            shown = self.seats[key] = ShownSeat(latest=update)
            shown.throttle = Throttle(lambda: self._flush(key, shown), self.interval, self.door.backoff)
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
        """Send a player's message again as a new DM now (``/rack``); False when her DMs are closed."""
        shown = self.renew(update)
        assert shown.throttle is not None
        await shown.throttle.settle()
        table_id = update.table.table_id
        return not self.service.is_open(table_id) or update.seat not in self.service.display(table_id).dms_closed

    def saw(self, table_id: int, seat: int, interaction: Interaction) -> None:
        """Her latest interaction in the table's thread: while her DMs are closed, what a DM would show her comes
        as a private follow-up of it there (only she sees it), so she is told when a discard is hers to call."""
        shown = self.seats.get((table_id, seat))
        if shown is not None:
            shown.thread_hook = Hook.of(interaction)

    def pressed(self, update: SeatUpdate, interaction: Interaction) -> None:
        """She just moved with a button of her DM (the press deferred): show her the result through the press."""
        shown = self._seat(update)
        hook = Hook.of(interaction)
        shown.press = shown.hook = hook
        if update.table.version >= (shown.latest.table.version if shown.latest else -1):
            shown.latest = update
        assert shown.throttle is not None
        shown.throttle.poke(now=True)

    async def _flush(self, key: tuple[int, int], shown: ShownSeat) -> float | None:
        update = shown.latest
        if update is None:
            return None
        if update.player_id is not None and update.view is not None:  # between games nobody has a DM to keep
            try:
                await self._write(key, shown, update)
            except DiscordFailure as failure:
                if failure.retry:
                    shown.failures += 1
                    if shown.failures == UNREACHABLE_AFTER:
                        self._table_changed(key[0])  # the table message says so
                raise
            if shown.failures >= UNREACHABLE_AFTER:
                self._table_changed(key[0])
            shown.failures = 0
        if update.table.view.closed:
            self.seats.pop(key, None)  # its last edit is made: nothing of the table is kept
        return None

    def _facts(self, key: tuple[int, int], shown: ShownSeat, update: SeatUpdate) -> tuple[DmFacts, Hook | None]:
        """The facts the plan is made from, and her live interaction in the table's thread (if her DMs are
        closed). After a restart the standing DM, and the decision it was sent for, come from the display record."""
        table_id, seat = key
        closed = update.table.view.closed
        display = self.service.display(table_id) if self.service.is_open(table_id) else update.table.view.display
        if shown.where is None:
            shown.where = display.dms.get(seat)
            shown.notified = shown.where.token if shown.where is not None else None
        dms_closed = seat in display.dms_closed and not closed
        thread = shown.thread_hook if dms_closed and shown.thread_hook is not None and shown.thread_hook.live \
            else None
        win = update.win_chance
        facts = DmFacts(
            unchanged=fingerprint(update) == shown.shown and shown.renewals == shown.renewed and shown.press is None,
            table_closed=closed, dms_closed=dms_closed, thread_hook=thread is not None,
            tried_this_game=shown.tried == _game_no(update), renewal_due=shown.renewals > shown.renewed,
            standing=shown.where is not None, new_win=win is not None and win != shown.told_win,
            new_decision=update.awaited and look.actionable(update) and update.table.token != shown.notified,
            call_window=update.table.phase is TablePhase.CALL_WINDOW)
        return facts, thread

    async def _write(self, key: tuple[int, int], shown: ShownSeat, update: SeatUpdate) -> None:
        """Carry out the plan for her DM (:func:`cogs.show.dm_plan.plan_dm`)."""
        started = time.perf_counter()
        facts, thread = self._facts(key, shown, update)
        plan = plan_dm(facts)
        if plan.try_closed:
            shown.tried = _game_no(update)
        if plan.mark_shown:
            shown.shown = fingerprint(update)
        renewals, notes = shown.renewals, list(shown.notes)  # notes and renewals coming meanwhile wait their turn
        if plan.step is Step.EDIT and shown.where is not None:
            try:
                await self._edit(shown, shown.where, await self._payload(shown, update, notes, shown.where.message),
                                 key[0])
                shown.shown, shown.renewed = fingerprint(update), renewals
                self._timed(started)
                return
            except DiscordFailure as failure:
                if failure.kind is not Failure.MESSAGE_GONE:
                    raise
            shown.where = None  # she deleted it: send it again
            plan = plan_dm(replace(facts, standing=False))
        if plan.step in (Step.SEND, Step.TELL_IN_THREAD):
            await self._send_new(key, shown, update, notes, renewals, started, reopens=plan.try_closed,
                                 thread=thread if plan.step is Step.TELL_IN_THREAD else None)

    async def _send_new(self, key: tuple[int, int], shown: ShownSeat, update: SeatUpdate, notes: list[str],
                        renewals: int, started: float, *, reopens: bool, thread: Hook | None) -> None:
        """A new message for her (the standing one deleted once it is sent), and what it was sent for recorded
        (``reopens``: her DMs were known closed, so a DM that arrives says they are open again)."""
        table_id, seat = key
        old = shown.where
        old_route = self._route(shown, old.message) if old is not None else None
        payload = await self._payload(shown, update, notes, None)
        sent = await self._send(shown, update, payload, old, thread)
        shown.picture = Picture.of(sent, payload) if sent is not None else None
        self._timed(started)
        shown.shown, shown.renewed = fingerprint(update), renewals
        if sent is None:
            if thread is None:
                shown.tried = _game_no(update)  # her DMs were tried this game and found closed: once a game
            await self._dms_closed(table_id, seat, True)
            return
        if reopens:
            await self._dms_closed(table_id, seat, False)  # open again
        if update.awaited and look.actionable(update):
            shown.notified = update.table.token
        if update.win_chance is not None:
            shown.told_win = update.win_chance
        for note in notes:  # shown now: the next new message starts without them
            with contextlib.suppress(ValueError):
                shown.notes.remove(note)
        shown.where = DmShown(sent.channel.id, sent.id, shown.notified)
        await self._remember(table_id, seat, shown.where)
        if old is not None:
            await self._delete(old_route, old, table_id)

    async def _payload(self, shown: ShownSeat, update: SeatUpdate, notes: list[str], message: int | None) -> Payload:
        """The DM's payload; for an edit, the rack picture already on the message is kept if it did not change."""
        payload = await look.seat_payload(update, notes, self.drawing)
        return payload.keep(shown.picture, message) if message is not None else payload

    def _route(self, shown: ShownSeat, message_id: int) -> Hook | None:
        """A live interaction token that may edit or delete this DM: the press it answers, or the press whose
        follow-up it is."""
        press, made = shown.press, shown.made_by
        if press is not None and press.live and press.original == message_id:
            return press
        if made is not None and made.live and shown.where is not None and shown.where.message == message_id:
            return made
        return None

    async def _edit(self, shown: ShownSeat, where: DmShown, payload: Payload, table: int) -> None:
        route = self._route(shown, where.message)
        shown.press = None
        if route is not None:
            try:
                message = await self.door.edit_hook(route, where.message, payload, "edit a DM", table=table)
                shown.picture = Picture.of(message, payload)
                return
            except DiscordFailure as failure:
                if failure.kind is not Failure.EXPIRED:
                    raise
        message = await self.door.edit(where.channel, where.message, payload, "edit a DM", table=table,
                                       level=Urgency.DECISION)
        shown.picture = Picture.of(message, payload)

    async def _send(self, shown: ShownSeat, update: SeatUpdate, payload: Payload, where: DmShown | None,
                    thread: Hook | None) -> discord.Message | None:
        """A new DM: a follow-up of her latest press while its token lives, else through her DM channel; None when
        her DMs are closed. With ``thread`` (her DMs closed), a private follow-up of her latest interaction in the
        table's thread instead."""
        hook = thread or shown.hook
        shown.press = None
        table_id = update.table.table_id
        if hook is not None and hook.live:
            try:
                sent: discord.Message = await self.door.send_hook(hook, payload, "send a DM", table=table_id,
                                                                  ephemeral=thread is not None)
                shown.made_by = hook
                return sent
            except DiscordFailure as failure:
                if failure.kind is not Failure.EXPIRED:
                    raise
                if thread is not None:
                    shown.thread_hook = None
                    return None  # told nowhere now: the table message says to press My rack
                shown.hook = None
                for file in payload.files:
                    file.reset()
        assert update.player_id is not None
        dm = await self.door.send_dm(update.player_id, payload, "send a DM",
                                     channel_id=where.channel if where else None, table=table_id,
                                     level=Urgency.DECISION)
        shown.made_by = None
        return dm

    async def _delete(self, route: Hook | None, where: DmShown, table: int) -> None:
        if route is not None:
            try:
                await self.door.delete_hook(route, where.message, "delete the old DM", table=table)
                return
            except DiscordFailure as failure:
                if failure.kind is Failure.MESSAGE_GONE:
                    return
                if failure.kind is not Failure.EXPIRED:
                    return  # logged; an old DM left behind shows a stale button, which is answered
        await self.door.delete(where.channel, where.message, "delete the old DM", table=table)

    async def _remember(self, table_id: int, seat: int, dm: DmShown) -> None:
        with contextlib.suppress(TableError):  # closed meanwhile
            await self.service.update_display(table_id, lambda d: d.with_dm(seat, dm))

    def _timed(self, started: float) -> None:
        if self.timings is not None:
            self.timings.append(time.perf_counter() - started)

    async def _dms_closed(self, table_id: int, seat: int, closed: bool) -> None:
        """Her DMs turned out closed (or open again): the display record and the table message say so."""
        if not self.service.is_open(table_id) or (seat in self.service.display(table_id).dms_closed) == closed:
            return
        await self.service.update_display(table_id, lambda d: d.with_dms_closed(seat, closed))
        self._table_changed(table_id)
