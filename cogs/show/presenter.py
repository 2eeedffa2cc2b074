"""Keeps Discord in step with the tables: one table message per table in its thread (a player's DM is kept by
:mod:`cogs.show.dms`), brought up to date with the newest state however fast the game moves.

The table message carries the table image, whose turn, the countdown, the latest events and the buttons. It is
edited in place; it is posted afresh at the bottom of the thread when something else was posted under it (the
results, or players talking), so it stays where a phone shows it. Discord's requests are a budget (docs/
architecture.md, *Spending Discord's budget*): the table message is edited only when what it shows changed,
computers' moves gather into one edit every few seconds (eight times ``interval``), and what someone at the table
must see is shown within ``interval``: the lobby, the deal, the end, and a decision awaiting a person who plays
from the thread (her DMs closed or failing). A press under the table message is answered by editing it through
the press itself, and a picture that did not change is kept rather than uploaded again.

Every write goes through the door (:mod:`cogs.door`) and each message has its throttle (:mod:`cogs.show.throttle`),
which tries a failed write again until Discord takes it. What a failure in the table's thread means (deleted,
archived, a permission taken away) is decided by the ``on_failure`` the presenter is handed (the keeper's,
:mod:`cogs.keeper`). Where each message is, is the table's display record (:class:`bot.service.display.Display`),
kept by the service across restarts.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.service.display import Display
from bot.service.errors import TableError
from bot.service.surface import TableCalls
from bot.service.updates import Cause, TablePhase, TableUpdate

from ..door import Door, Hook, Interaction
from ..failures import DiscordFailure, Failure
from ..pacer import Urgency
from ..payload import Payload, Picture
from . import look
from .dms import Dms
from .drawing import Drawing
from .throttle import Throttle

log = logging.getLogger("charleston.discord")
CALM = 8  # computers' moves gather into one table-message edit per this many intervals
# What the table message must show at once: the lobby, the deal, someone back, the table closed.
AT_ONCE = frozenset({Cause.CREATE, Cause.JOIN, Cause.LEAVE, Cause.COMPUTER, Cause.START, Cause.BACK, Cause.CLOSE,
                     Cause.SHOW})


@dataclass
class ShownTable:
    """What the thread of one table shows."""

    table_id: int
    display: Display  # where it is shown, as last known (a closed table is no longer the service's)
    latest: TableUpdate | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=look.LOG_LINES))
    below: bool = False  # something was posted under the table message
    trouble: int = 0  # failures in a row that are not transient (archived, forbidden): reset once a write works
    shown: tuple[object, ...] | None = None  # what the table message shows now (an unchanged one is not edited)
    picture: Picture | None = None  # the table image on it (kept on an edit if unchanged)
    press: Hook | None = None  # a press under the table message, deferred: the message is brought up to date through it
    throttle: Throttle | None = None


# What to do when a write to a table's thread failed (the keeper's decision): returns when to try again, or None.
TableFailed = Callable[["ShownTable", DiscordFailure, int], Awaitable[float | None]]


class Presenter:
    """Listens to the table service and keeps every table message up to date (and, through ``dms``, every DM)."""

    def __init__(self, service: TableCalls, door: Door, drawing: Drawing, dms: Dms, on_failure: TableFailed, *,
                 interval: float = 1.0) -> None:
        self.service = service
        self.door = door
        self.drawing = drawing
        self.dms = dms
        self.interval = interval
        self.tables: dict[int, ShownTable] = {}
        self._on_failure = on_failure
        self._unsubscribe: list[Callable[[], None]] = []

    def start(self) -> None:
        """Listen to every table, and to every seat a person holds."""
        self._unsubscribe = [self.service.subscribe(self.on_table), self.service.subscribe_seat(self.dms.on_seat)]

    def stop(self) -> None:
        """Stop listening, and give up pending writes (shutting down)."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        for throttle in self._throttles():
            throttle.stop()

    async def refresh_all(self) -> None:
        """After a start-up, bring up to date only what changed while the bot was down (a big bot's start-up must
        not spend its request budget redrawing a thousand tables): a table message whose mark differs from the one
        it was last written with, and the DM of a player whose decision's DM was never sent. Everything else is
        brought up to date by the next change at its table; its buttons work meanwhile."""
        for table_id in self.service.table_ids():
            update = self.service.snapshot(table_id)
            if update.view.display.shown != mark(update):
                self.on_table(update)
            if update.view.game is None:
                continue
            for player in update.view.people:
                mine = self.service.seat_update(table_id, player)
                sent = update.view.display.dms.get(mine.seat)
                if mine.awaited and look.actionable(mine) and (sent is None or sent.token != mine.table.token):
                    self.dms.on_seat(mine)

    async def settle(self) -> None:
        """Wait until every pending message update is done (tests, shutdown); retries waiting on Discord aside."""
        for throttle in self._throttles():
            await throttle.settle()

    def _throttles(self) -> list[Throttle]:
        return [t.throttle for t in self.tables.values() if t.throttle is not None] + self.dms.throttles()

    # -- the table message -----------------------------------------------------------------------------------
    def on_table(self, update: TableUpdate) -> None:
        """A table changed."""
        shown = self.tables.get(update.table_id)
        if shown is None:
            shown = self.tables[update.table_id] = ShownTable(update.table_id, update.view.display)
            shown.throttle = Throttle(lambda: self._flush_table(shown), self.interval, self.door.backoff,
                                      calm=self.interval * CALM)
        if update.cause is Cause.START:
            shown.log.clear()
        shown.log.extend(look.event_lines(update))
        shown.latest = update
        self.poke(update.table_id, soon=self._pressing(update))

    def seat_trouble(self, table_id: int) -> None:
        """A person's DMs turned out closed, or failing, or working again: the table message says so soon."""
        if self.service.is_open(table_id):
            self.on_table(self.service.snapshot(table_id))

    def _pressing(self, update: TableUpdate) -> bool:
        """Whether someone at the table must see this change soon, not with the computers' next moves: the lobby,
        the deal, the end, or a decision awaiting a person who plays from the thread (her DMs closed or failing).
        A person playing from her DM is told of her decisions there (a decision put to her does not hurry the
        table message: measured, that doubled its edits)."""
        table = update.view
        if update.cause in AT_ONCE or table.game is None or update.phase in (TablePhase.FINISHED, TablePhase.LOBBY):
            return True
        from_thread = table.display.dms_closed | self.dms.unreachable(update.table_id)
        return any(seat in from_thread and table.seats[seat].human and not table.seats[seat].away
                   for seat in update.awaiting)

    def poke(self, table_id: int, *, now: bool = False, soon: bool = False) -> None:
        """Bring a table's message up to date within the calm interval (``soon``: within the short one; ``now``:
        without waiting for the interval or a retry)."""
        shown = self.tables.get(table_id)
        if shown is not None and shown.throttle is not None:
            shown.throttle.poke(now=now, soon=soon)

    def saw(self, interaction: Interaction) -> None:
        """Someone used a command or pressed a button in a channel: if it is a table's thread and she is seated
        there, her interaction's token may tell her of her moves privately there (her DMs being closed)."""
        channel = interaction.channel_id
        for shown in self.tables.values():
            if shown.display.thread == channel and self.service.is_open(shown.table_id):
                seat = self.service.view(shown.table_id).seat_of(interaction.user.id)
                if seat is not None:
                    self.dms.saw(shown.table_id, seat, interaction)

    def pressed(self, update: TableUpdate, interaction: Interaction) -> None:
        """A person moved with a button under the table message (the press deferred): the table message is brought
        up to date through the press, at once."""
        shown = self.tables.get(update.table_id)
        if shown is None:
            return
        shown.press = Hook.of(interaction)
        self.poke(update.table_id, soon=True)

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
            return await self._on_failure(shown, failure, display.thread)
        shown.trouble = 0
        if shown.display.blocked:
            log.info("table %s: the bot may post in its thread again", shown.table_id)
            await self.remember(shown, lambda d: d.with_blocked(False))
        return None

    async def _payload(self, shown: ShownTable, update: TableUpdate) -> Payload:
        return await look.table_payload(update, list(shown.log), self.drawing, self.dms.unreachable(shown.table_id))

    async def _table_message(self, shown: ShownTable, update: TableUpdate) -> None:
        door, table_id = self.door, shown.table_id
        thread, old = shown.display.thread, shown.display.message
        assert thread is not None
        payload = await self._payload(shown, update)
        look_now = _looks(payload)
        press, shown.press = shown.press, None
        marked = mark(update)
        if old is not None and not shown.below:
            if look_now == shown.shown:
                return  # it shows this already
            try:
                await self._edit_table(shown, thread, old, payload.keep(shown.picture, old), press)
                shown.shown = look_now
                await self.remember(shown, lambda d: d.with_shown(marked))
                return
            except DiscordFailure as failure:
                if failure.kind is not Failure.MESSAGE_GONE:
                    raise
                old = None  # deleted: post it again
                payload = await self._payload(shown, update)
        sent = await door.send(thread, payload, "post the table message", table=table_id)
        shown.below, shown.shown, shown.picture = False, look_now, Picture.of(sent, payload)
        await self.remember(shown, lambda d: d.with_message(sent.id).with_shown(marked))
        if old is not None:
            await door.delete(thread, old, "delete the old table message", table=table_id)

    async def _edit_table(self, shown: ShownTable, thread: int, message: int, payload: Payload,
                          press: Hook | None) -> None:
        """Edit the table message: through the press made under it while its token lives (exempt from the global
        limit), else through the channel."""
        what, door = "edit the table message", self.door
        if press is not None and press.live and press.original == message:
            try:
                shown.picture = Picture.of(await door.edit_hook(press, message, payload, what, table=shown.table_id),
                                           payload)
                return
            except DiscordFailure as failure:
                if failure.kind is not Failure.EXPIRED:
                    raise
                for file in payload.files:
                    file.reset()
        shown.picture = Picture.of(await door.edit(thread, message, payload, what, table=shown.table_id,
                                                   level=Urgency.DEFERRABLE), payload)

    async def _results(self, shown: ShownTable, update: TableUpdate) -> None:
        """The results of a game just finished, posted once (before a close, too: a finished game's chips show)."""
        game = update.view.game
        thread = shown.display.thread
        if game is None or update.phase is not TablePhase.FINISHED or shown.display.results >= game.game_no \
                or thread is None:
            return
        results = await look.result_payload(update)
        await self.door.send(thread, results, "post the results", table=shown.table_id)
        await self.remember(shown, lambda d: d.with_results(game.game_no))
        shown.below = True

    async def _close(self, shown: ShownTable, update: TableUpdate) -> None:
        """The table closed: its results if they are due, its message shown closed (no buttons), its thread
        archived, and nothing of it kept. A place Discord has taken away is given up on (logged)."""
        door, table_id, display = self.door, shown.table_id, shown.display
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
        await self.door.edit(thread, message, payload, "show the table closed", table=shown.table_id)

    def forget(self, table_id: int) -> None:
        """Drop everything kept for a closed table (its DMs go once their last edit is made)."""
        self.tables.pop(table_id, None)
        self.drawing.forget(table_id)


def mark(update: TableUpdate) -> str:
    """A short mark of the table's state as its message shows it (kept in its display record, so that a restart
    redraws only a table that changed while the bot was down)."""
    table = update.view
    seats = tuple((s.player_id, s.name, s.computer_level, s.away) for s in table.seats)
    state = (update.phase, update.token, update.awaiting, update.deadline, table.status,
             table.game.to_json() if table.game is not None else None, seats, sorted(table.display.dms_closed))
    return hashlib.blake2b(repr(state).encode(), digest_size=8).hexdigest()


def _looks(payload: Payload) -> tuple[object, ...]:
    """What a message shows: its text, its picture and its components (an unchanged one needs no edit)."""
    components = tuple((getattr(item, "custom_id", None), getattr(item, "label", None))
                       for item in (payload.components.children if payload.components is not None else ()))
    return payload.content, payload.picture, components
