"""A background loop of the bot that can be woken: one pass at start, then one whenever it is woken or its wait
runs out (``check_seconds``, or sooner when a pass says when the next thing is due). The night runner and the
weekly poster are such loops; a pass that fails is logged and the loop carries on."""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger("charleston.discord")


class Background:
    """The loop: :meth:`start`, :meth:`wake`, :meth:`stop`; a subclass does its work in :meth:`one_pass`."""

    name = "background loop"  # the task's name, and the log's

    def __init__(self, check_seconds: float) -> None:
        self.check_seconds = check_seconds
        self.started = 0  # passes begun, and
        self.passes = 0  # passes completed (a test that moved the clock waits for one begun after its wake)
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the background task (its first pass runs at once)."""
        self._task = asyncio.create_task(self._run(), name=self.name)

    def wake(self) -> None:
        """Make a pass now (something became due, or a test moved the clock)."""
        self._wake.set()

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` was called: a pass ends after the step in progress."""
        return self._stop.is_set()

    async def stop(self) -> None:
        """Stop after the step in progress."""
        self._stop.set()
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, timeout=10)

    async def one_pass(self) -> float | None:
        """Do what is due; returns the seconds until the next thing is due, if known (else ``check_seconds``)."""
        raise NotImplementedError

    async def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            self.started += 1
            try:
                due_in = await self.one_pass()
            except Exception:  # the loop must outlive one bad pass: the next may succeed
                log.exception("the %s's pass failed; trying again later", self.name)
                due_in = None
            self.passes += 1
            wait = self.check_seconds if due_in is None else min(self.check_seconds, max(0.0, due_in))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
