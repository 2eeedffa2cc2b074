"""Delivering updates to listeners, each on its own queue and task.

Publishing only enqueues, so it never waits on a listener: the service publishes while it still holds a table's
lock, and delivery happens afterwards, outside it. A listener that raises is logged and keeps receiving; a slow
one delays only itself; a listener may call back into the service (its call waits for the table's lock like any
other). Each listener receives its updates in the order they happened.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .updates import SeatUpdate, TableUpdate

log = logging.getLogger("charleston.service")

TableListener = Callable[[TableUpdate], Awaitable[None] | None]
SeatListener = Callable[[SeatUpdate], Awaitable[None] | None]


@dataclass(eq=False)
class _Subscriber:
    listener: Callable[[Any], Awaitable[None] | None]
    table_id: int | None  # None: every table
    seat: int | None  # seat listeners: None means every seat a person holds
    for_seats: bool
    queue: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    pending: int = 0  # queued and not yet delivered
    queued: int = 0  # ever queued, and
    delivered: int = 0  # ever delivered (the listener returned or raised)
    progress: asyncio.Event = field(default_factory=asyncio.Event)  # set after each delivery

    def wants(self, table_id: int) -> bool:
        return self.table_id is None or self.table_id == table_id


class Hub:
    """Subscriptions and their delivery queues."""

    def __init__(self) -> None:
        self._subscribers: list[_Subscriber] = []

    def subscribe(self, listener: TableListener, table_id: int | None = None) -> Callable[[], None]:
        """Public updates of one table (or of every table); returns a function that unsubscribes."""
        return self._add(_Subscriber(listener, table_id, None, False))

    def subscribe_seat(self, listener: SeatListener, table_id: int | None = None,
                       seat: int | None = None) -> Callable[[], None]:
        """Private updates of one seat; with ``seat`` None, of every seat a person holds (at one table or all)."""
        return self._add(_Subscriber(listener, table_id, seat, True))

    def _add(self, sub: _Subscriber) -> Callable[[], None]:
        self._subscribers.append(sub)

        def unsubscribe() -> None:
            if sub in self._subscribers:
                self._subscribers.remove(sub)
            if sub.task is not None:
                sub.task.cancel()
            sub.progress.set()  # nobody waits for a listener that is gone

        return unsubscribe

    def seats_wanted(self, table_id: int, human_seats: set[int]) -> set[int]:
        """The seats of ``table_id`` some seat listener wants an update for."""
        wanted: set[int] = set()
        for sub in self._subscribers:
            if sub.for_seats and sub.wants(table_id):
                wanted |= human_seats if sub.seat is None else {sub.seat}
        return wanted

    def publish(self, update: TableUpdate, seat_updates: dict[int, SeatUpdate]) -> None:
        """Queue ``update`` for table listeners and each seat's update for that seat's listeners."""
        for sub in list(self._subscribers):
            if not sub.wants(update.table_id):
                continue
            if not sub.for_seats:
                self._put(sub, update)
            elif sub.seat is None:
                for seat in sorted(seat_updates):
                    if seat_updates[seat].player_id is not None:
                        self._put(sub, seat_updates[seat])
            elif sub.seat in seat_updates:
                self._put(sub, seat_updates[sub.seat])

    def _put(self, sub: _Subscriber, item: Any) -> None:
        sub.pending += 1
        sub.queued += 1
        sub.queue.put_nowait(item)
        if sub.task is None or sub.task.done():
            sub.task = asyncio.get_running_loop().create_task(self._deliver(sub))

    async def _deliver(self, sub: _Subscriber) -> None:
        while True:
            item = await sub.queue.get()
            try:
                outcome = sub.listener(item)
                if inspect.isawaitable(outcome):
                    await outcome
            except Exception:
                # The change is already saved; a failing listener must not undo or block it.
                log.exception("listener %r failed on an update of table %s", sub.listener,
                              getattr(item, "table_id", None) or item.table.table_id)
            finally:
                sub.pending -= 1
                sub.delivered += 1
                sub.queue.task_done()
                sub.progress.set()

    async def drain(self) -> None:
        """Wait until every queued update has been delivered (including updates listeners caused meanwhile)."""
        while any(sub.pending for sub in self._subscribers):
            for sub in list(self._subscribers):
                await sub.queue.join()

    async def catch_up(self) -> None:
        """Wait until every update queued before this call has been delivered. Unlike :meth:`drain`, updates
        queued later are not waited for: with many tables playing the queues are never empty for long, and a
        caller that needs only its own table's earlier updates delivered (a new table's lobby) must not wait
        for every other table to go quiet."""
        for sub, mark in [(sub, sub.queued) for sub in self._subscribers if sub.pending]:
            while sub.delivered < mark and sub in self._subscribers:
                sub.progress.clear()
                await sub.progress.wait()

    async def close(self) -> None:
        """Stop every delivery task."""
        for sub in self._subscribers:
            if sub.task is not None:
                sub.task.cancel()
        await asyncio.gather(*(s.task for s in self._subscribers if s.task is not None), return_exceptions=True)
        self._subscribers.clear()
