"""Time for the table service, injectable so tests run instantly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Where the service reads the time: the system clock, or a manual one in tests."""
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""


class SystemClock:
    """The real time."""
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 11, 2, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        """The time this clock was last set or advanced to."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``."""
        self._now += timedelta(seconds=seconds)
