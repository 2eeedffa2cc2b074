"""No dead second at a table (issue 30): a solo game at the default options on the offline Discord, on the real
clock. A call window that the person cannot use and that every computer passes on closes the moment it opens (the
table passes for her, the computers pass at once); a computer's call still comes after its delay (1.5 s), so the
table reads naturally."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from support.discord_double import Double
from support.e2e_tables import open_table, seat_everyone
from support.game_driver import Driver, Person, make_bot

from bot.service.updates import SeatUpdate, TableUpdate

DELAY = 1.5  # the table's default computer_delay
AT_ONCE = 0.3  # "within a fraction of a second", with room for a loaded machine


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


async def test_windows_nobody_uses_close_at_once_and_a_computers_call_waits_its_delay(discord_double: Double,
                                                                                     tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    windows = Windows()
    bot = make_bot(discord_double, tmp_path / "pace.db", seeds=iter([22]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice)
        options = bot.service.view(table_id).options
        assert options.computer_delay == DELAY and options.auto_pass, "the default options"
        bot.service.subscribe(windows.table, table_id)
        bot.service.subscribe_seat(windows.mine, table_id, 0)
        await seat_everyone(discord_double, bot, table_id, [alice], 3, level="hard")
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)], patience=30)
        await driver.play(until=windows.computer_called, timeout=240)
        await bot.service.drain()
    closed = [w for w in windows.seen.values() if w.closed is not None]
    unused = [w.closed - w.opened for w in closed if not w.usable and not w.calls]  # type: ignore[operator]
    assert len(unused) >= 10, f"only {len(unused)} windows nobody used before the first computer's call"
    assert max(unused) < AT_ONCE, sorted(unused)[-5:]
    calls = [after for w in closed for seat, after in w.calls if seat != 0]
    assert calls and min(calls) >= DELAY - 0.05, calls
