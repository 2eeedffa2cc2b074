"""Bringing one message up to date at most once per interval, and never giving up on it.

A :class:`Throttle` runs its ``flush`` soon after :meth:`Throttle.poke`: at once when idle, else when the interval
is up; pokes meanwhile fold into that one run, which shows the latest state. A flush that Discord fails for a
while (a ``TRANSIENT`` :class:`~cogs.failures.DiscordFailure`: 5xx, a timeout, a connection error) runs again after the
door's backoff, 1 s doubling to a minute, as often as it takes: what it shows then is the newest state, never a
stale copy. A flush may also ask to run again after a delay of its own (a missing permission is asked about
again every few minutes, unless :meth:`Throttle.poke` with ``now`` says it is worth trying at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from ..failures import Backoff, DiscordFailure

log = logging.getLogger("charleston.discord")

Flush = Callable[[], Awaitable[float | None]]  # returns None when done, or seconds after which to run again


class Throttle:
    """Runs ``flush`` soon after :meth:`poke`, at most once per ``interval``, again after a failure. With ``calm``,
    a routine poke waits ``calm`` seconds after the last run (changes gather into one write) and only a poke that
    is ``soon`` waits no more than ``interval``."""

    def __init__(self, flush: Flush, interval: float, backoff: Backoff, calm: float | None = None) -> None:
        self._flush = flush
        self._interval = interval
        self._calm = max(interval, calm if calm is not None else interval)
        self._spacing = self._calm  # the wait after the last run that the pokes since ask for
        self._backoff = backoff
        self._last = -1e9
        self._not_before = 0.0  # a retry's earliest moment (time.monotonic)
        self._dirty = False
        self._waiting = False  # sleeping until a retry is due
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.failures = 0  # transient failures in a row

    def poke(self, *, now: bool = False, soon: bool = False) -> None:
        """Something changed: flush within the calm interval (``soon``: within the short one; ``now``: at once,
        without waiting for the interval or a retry's delay)."""
        self._dirty = True
        if soon and self._spacing > self._interval:
            self._spacing = self._interval
            self._wake.set()
        if now:
            self._last = -1e9
            self._not_before = 0.0
            self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while self._dirty:
            wait = max(self._last + self._spacing, self._not_before) - time.monotonic()
            if wait > 0:
                self._wake.clear()
                self._waiting = self._not_before > time.monotonic()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                self._waiting = False
                if max(self._last + self._spacing, self._not_before) > time.monotonic():
                    continue  # woken early by a poke that did not clear the wait
            self._dirty = False
            self._spacing = self._calm
            self._last = time.monotonic()
            again = await self._attempt()
            if again is not None:
                self._dirty = True
                self._not_before = time.monotonic() + again

    async def _attempt(self) -> float | None:
        try:
            again = await self._flush()
        except DiscordFailure as failure:
            if not failure.retry:
                return None  # logged by the door; nothing more to do for this state
            self.failures += 1
            return self._backoff.delay(self.failures)
        except Exception:
            log.exception("could not bring a message up to date")
            return None
        self.failures = 0
        return again

    @property
    def busy(self) -> bool:
        """Whether a flush is due or running (not merely waiting to try again after a failure)."""
        return self._task is not None and not self._task.done() and not self._waiting

    async def settle(self) -> None:
        """Wait for a pending flush to finish (not for a retry that waits on Discord)."""
        while self.busy and self._task is not None:
            await asyncio.wait({self._task}, timeout=0.05)

    def stop(self) -> None:
        """Give up what is pending (the bot is shutting down)."""
        if self._task is not None:
            self._task.cancel()
