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


class Pacer:
    """Starts at most ``per_second`` requests in any ``window`` seconds, the most urgent waiting first, in the
    order they came within one urgency."""

    def __init__(self, per_second: int, *, window: float = WINDOW) -> None:
        if per_second < 1:
            raise ValueError("a pacer needs at least one request a second")
        self.per_second = per_second
        self.window = window
        self._starts: deque[float] = deque(maxlen=per_second)  # the latest starts (time.monotonic)
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._pump: asyncio.Task[None] | None = None
        self.started = 0  # requests started in all
        self.waited = 0  # ... of which waited for the budget

    def _free_in(self) -> float:
        """Seconds until another request may start (0: now)."""
        if len(self._starts) < self.per_second:
            return 0.0
        return max(0.0, self._starts[0] + self.window - time.monotonic())

    def _start(self) -> None:
        self._starts.append(time.monotonic())
        self.started += 1

    async def acquire(self, level: Urgency | None = None) -> None:
        """Wait until a request of this urgency (default: the block's, see :func:`urgency`) may start."""
        if not self._waiting and self._free_in() == 0.0:
            self._start()
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (int(_urgency.get() if level is None else level), next(self._order), future))
        self.waited += 1
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._run(), name="request pacer")
        await future

    async def _run(self) -> None:
        """Let the waiting requests start, one free moment at a time, the most urgent first."""
        while self._waiting:
            wait = self._free_in()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            _, _, future = heapq.heappop(self._waiting)
            if future.done():  # its caller gave up (cancelled): the moment goes to the next
                continue
            self._start()
            future.set_result(None)

    def install(self, http: discord.http.HTTPClient) -> None:
        """Pace every request the client's HTTP client makes that counts against the global limit."""
        original: _Request = getattr(http, "request")  # noqa: B009 (typed as the pacer calls it)

        async def paced(route: discord.http.Route, **kwargs: object) -> object:
            if not exempt(route):
                await self.acquire()
            return await original(route, **kwargs)

        setattr(http, "request", paced)  # noqa: B010 (a method replaced on this one instance)
