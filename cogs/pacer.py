"""The process's share of the bot's global request budget, kept before Discord has to refuse anything.

Discord counts 50 requests a second for the whole bot, however many processes run it (interaction callbacks and
the writes through an interaction's token are exempt), and discord.py only reacts to a global 429 after it came,
within one process. So every request discord.py makes with the bot's token passes through one :class:`Pacer` per
process (installed on the client's HTTP client: nothing can go round it), which never starts more than its share
in any second: the limit times the process's shards over the bot's shards, so any number of processes together
stay under the limit without talking to each other. A request waiting for its turn waits in order of
:class:`Urgency`: a DM with a decision in it before anything else, table-message edits (which the presenter
coalesces anyway) last. discord.py's own 429 handling stays underneath, for what Discord counts differently.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import math
import time
from collections import deque
from collections.abc import Awaitable, Iterator
from contextvars import ContextVar
from enum import IntEnum
from typing import Protocol

import discord

GLOBAL_LIMIT = 50  # requests a second per bot token, unless Discord granted the bot more
WINDOW = 1.0  # seconds


class Urgency(IntEnum):
    """How soon a request should start when several wait for the budget (lower first)."""

    DECISION = 0  # a DM asking a player to decide: she is waiting for it
    NORMAL = 1
    DEFERRABLE = 2  # a table message brought up to date: a later edit shows the same, and edits coalesce


class _Request(Protocol):
    """discord.py's ``HTTPClient.request``, as the pacer calls it."""

    def __call__(self, route: discord.http.Route, **kwargs: object) -> Awaitable[object]: ...


_urgency: ContextVar[Urgency] = ContextVar("charleston_request_urgency", default=Urgency.NORMAL)


@contextlib.contextmanager
def urgency(level: Urgency) -> Iterator[None]:
    """The urgency of the requests made inside this block (tasks started in it inherit it)."""
    token = _urgency.set(level)
    try:
        yield
    finally:
        _urgency.reset(token)


def share(limit: int, process_shards: int, bot_shards: int) -> int:
    """This process's requests a second: its part of ``limit`` by its shards (at least one a second)."""
    if bot_shards <= 0 or process_shards >= bot_shards:
        return max(1, limit)
    return max(1, limit * process_shards // bot_shards)


def exempt(route: discord.http.Route) -> bool:
    """Whether Discord leaves the request out of the global limit: an interaction's callback and the writes
    through its token (discord.py sends those through its webhook adapter, not here: this is a safeguard)."""
    return route.path.startswith("/interactions/") or (route.path.startswith("/webhooks/")
                                                        and route.webhook_token is not None)


class Slot:
    """One request's place in the budget: when it started, and when Discord had answered it (``inf`` while in
    flight)."""

    __slots__ = ("done", "start")

    def __init__(self, start: float) -> None:
        self.start = start
        self.done = math.inf


class Pacer:
    """Starts at most ``per_second`` requests in any ``window`` seconds, the most urgent waiting first, in the
    order they came within one urgency.

    Discord counts a request when it arrives, somewhere between the moment it was started and the moment its answer
    came back, and a busy event loop can hold one back and send it with the next. So a request may start only once
    the one ``per_second`` places before it was *answered* a whole window ago (as :meth:`cogs.door.Door.pace` does
    for a channel): then no ``per_second + 1`` requests can arrive within one window, however they are delayed on
    the way. The cost is the round trip, a few milliseconds a window."""

    def __init__(self, per_second: int, *, window: float = WINDOW) -> None:
        if per_second < 1:
            raise ValueError("a pacer needs at least one request a second")
        self.per_second = per_second
        self.window = window
        self._slots: deque[Slot] = deque(maxlen=per_second)  # the latest requests' places
        self._waiting: list[tuple[int, int, asyncio.Future[Slot]]] = []
        self._order = itertools.count()
        self._answered = asyncio.Event()  # set when a request in flight is answered
        self._pump: asyncio.Task[None] | None = None
        self.started = 0  # requests started in all
        self.waited = 0  # ... of which waited for the budget

    def _free_in(self) -> float:
        """Seconds until another request may start (0: now; ``inf``: once a request in flight is answered)."""
        if len(self._slots) < self.per_second:
            return 0.0
        return max(0.0, self._slots[0].done + self.window - time.monotonic())

    def _start(self) -> Slot:
        slot = Slot(time.monotonic())
        self._slots.append(slot)
        self.started += 1
        return slot

    def release(self, slot: Slot) -> None:
        """The request of ``slot`` was answered (or failed, or was never sent)."""
        slot.done = min(slot.done, time.monotonic())
        self._answered.set()

    async def acquire(self, level: Urgency | None = None) -> Slot:
        """Wait until a request of this urgency (default: the block's, see :func:`urgency`) may start; its place,
        to :meth:`release` when Discord has answered it."""
        if not self._waiting and self._free_in() == 0.0:
            return self._start()
        future: asyncio.Future[Slot] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (int(_urgency.get() if level is None else level), next(self._order), future))
        self.waited += 1
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._run(), name="request pacer")
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release(future.result())  # given a place just as its caller gave up: not sent
            raise

    async def _run(self) -> None:
        """Let the waiting requests start, one free moment at a time, the most urgent first."""
        while self._waiting:
            wait = self._free_in()
            if wait == math.inf:
                self._answered.clear()
                await self._answered.wait()
                continue
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            _, _, future = heapq.heappop(self._waiting)
            if future.done():  # its caller gave up (cancelled): the moment goes to the next
                continue
            future.set_result(self._start())

    def install(self, http: discord.http.HTTPClient) -> None:
        """Pace every request the client's HTTP client makes that counts against the global limit."""
        original: _Request = getattr(http, "request")  # noqa: B009 (typed as the pacer calls it)

        async def paced(route: discord.http.Route, **kwargs: object) -> object:
            if exempt(route):
                return await original(route, **kwargs)
            slot = await self.acquire()
            try:
                return await original(route, **kwargs)
            finally:
                self.release(slot)

        setattr(http, "request", paced)  # noqa: B010 (a method replaced on this one instance)
