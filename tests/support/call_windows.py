"""Every call window of one table as its listeners see it, on the real clock: when it opened and closed, whether
the person in seat 0 could use it, and when each call came (tests/e2e/test_call_windows.py, bench_discord.py)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from bot.service.updates import SeatUpdate, TableUpdate


@dataclass
class Window:
    """One call window as the table's listeners saw it (monotonic seconds)."""

    opened: float
    usable: bool = False  # she could call its tile (or win on it)
    calls: list[tuple[int, float]] = field(default_factory=list)  # (seat, seconds after it opened)
    closed: float | None = None


@dataclass
class Windows:
    """Every call window of one table, from its public updates and the person's own."""

    seen: dict[str, Window] = field(default_factory=dict)

    def table(self, update: TableUpdate) -> None:
        """Follow the table's events."""
        now = time.monotonic()
        for event in update.events:
            if event.type == "call_window" and update.token is not None:
                self.seen.setdefault(update.token, Window(now))
            window = self.latest()
            if window is None:
                continue
            if event.type == "call":
                window.calls.append((event.seat if event.seat is not None else -1, now - window.opened))
            elif event.type == "window_closed":
                window.closed = now

    def mine(self, update: SeatUpdate) -> None:
        """What she could do in each window."""
        token = update.table.token
        if token in self.seen and (update.choices.calls or update.choices.call_mahjong is not None):
            self.seen[token].usable = True

    def latest(self) -> Window | None:
        """The window opened last."""
        return next(reversed(self.seen.values()), None)

    def computer_called(self) -> bool:
        """Whether a computer has called a discard (and its window closed) yet."""
        return any(seat != 0 and w.closed is not None for w in self.seen.values() for seat, _ in w.calls)

    def unused(self) -> list[float]:
        """How long each closed window stood open that she could not use and nobody called (seconds)."""
        return [w.closed - w.opened for w in self.seen.values()
                if w.closed is not None and not w.usable and not w.calls]

    def computer_calls(self) -> list[float]:
        """Each computer's call, seconds after its window opened."""
        return [after for w in self.seen.values() if w.closed is not None for seat, after in w.calls if seat != 0]
