"""Event delivery: subscribers per table, each either a seat (its private events too) or a spectator."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.engine.events import Event

Listener = Callable[[int, list[Event]], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class Subscription:
    table_id: int
    seat: int | None  # None: public events only
    listener: Listener


class Hub:
    def __init__(self) -> None:
        self._subscriptions: list[Subscription] = []

    def subscribe(self, table_id: int, listener: Listener, seat: int | None = None) -> Callable[[], None]:
        sub = Subscription(table_id, seat, listener)
        self._subscriptions.append(sub)

        def unsubscribe() -> None:
            if sub in self._subscriptions:
                self._subscriptions.remove(sub)

        return unsubscribe

    async def publish(self, table_id: int, events: list[Event]) -> None:
        for sub in list(self._subscriptions):
            if sub.table_id != table_id:
                continue
            # A seat's private events never reach another seat's subscriber (or a spectator).
            shown = [e for e in events if e.visible_to(sub.seat)]
            if not shown:
                continue
            outcome = sub.listener(table_id, shown)
            if inspect.isawaitable(outcome):
                await outcome
