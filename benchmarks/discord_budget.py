"""What a table costs of Discord's request budget, read off the offline Discord's record of every request
(used by bench_discord.py).

Discord allows a bot token 50 requests a second in all, whatever the number of processes, leaving out an
interaction's callback and the routes through its token (follow-ups, editing the answer), and about 5 writes per
5 s in one channel (a DM included). These figures say how much of that a table spends.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

GLOBAL_LIMIT = 50  # requests a second per bot token
CHANNEL_WINDOW = 5.0  # seconds
CHANNEL_WRITES = 5  # writes per window in one channel


@dataclass(frozen=True)
class Budget:
    """The rate-limited requests of a run, per table."""

    requests: int  # rate-limited requests in all
    exempt: int  # interaction callbacks and token routes
    per_table_mean: float  # rate-limited requests a second per playing table, over the run
    per_table_busiest: float  # ... in the busiest second: its requests over the tables playing then
    busiest_second: int  # requests in that second
    steady_busiest: float  # ... in the busiest second while every table was playing (the openings over)
    most_channel_writes: int  # the most writes to one channel within any 5 s
    channel_over: int  # channels that went over 5 writes in some 5 s

    @property
    def tables_mean(self) -> float:
        """Tables one bot token holds under 50 a second, at the mean rate."""
        return GLOBAL_LIMIT / self.per_table_mean if self.per_table_mean else float("inf")

    @property
    def tables_busiest(self) -> float:
        """... at the busiest second's rate."""
        return GLOBAL_LIMIT / self.per_table_busiest if self.per_table_busiest else float("inf")


def budget(requests: Sequence[object], playing: Iterable[tuple[float, float]]) -> Budget:
    """The budget of ``requests`` (the double's records) while tables played over the ``playing`` intervals
    (each table's dealt and finished moments, monotonic seconds)."""
    spans = list(playing)
    limited = [r for r in requests if not r.exempt]  # type: ignore[attr-defined]
    per_second: Counter[int] = Counter(int(r.at) for r in limited)  # type: ignore[attr-defined]
    tables_at: Counter[int] = Counter()
    for start, end in spans:
        for second in range(int(start), int(end) + 1):
            tables_at[second] += 1
    busiest = max(per_second, key=lambda s: per_second[s], default=None)
    steady = [s for s in tables_at if tables_at[s] == len(spans)] if spans else []  # every table between deal and end
    steady_busiest = max((per_second[s] / len(spans) for s in steady), default=0.0)
    most, over = _most_writes(requests)
    mean = sum(per_second[s] for s in tables_at) / sum(tables_at.values()) if tables_at else 0.0
    at_busiest = per_second[busiest] / max(1, tables_at[busiest]) if busiest is not None else 0.0
    return Budget(requests=len(limited), exempt=len(requests) - len(limited), per_table_mean=mean,
                  per_table_busiest=at_busiest, busiest_second=per_second[busiest] if busiest is not None else 0,
                  steady_busiest=steady_busiest, most_channel_writes=most, channel_over=over)


def _most_writes(requests: Sequence[object]) -> tuple[int, int]:
    """The most writes to one channel within any 5 s, and how many channels went over the limit."""
    times: dict[int, list[float]] = defaultdict(list)
    for record in requests:
        channel = record.write_channel  # type: ignore[attr-defined]
        if channel is not None and record.status < 400:  # type: ignore[attr-defined]
            times[channel].append(record.at)  # type: ignore[attr-defined]
    most, over = 0, 0
    for stamps in times.values():
        stamps.sort()
        start, peak = 0, 0
        for end, at in enumerate(stamps):
            while at - stamps[start] >= CHANNEL_WINDOW:
                start += 1
            peak = max(peak, end - start + 1)
        most = max(most, peak)
        over += peak > CHANNEL_WRITES
    return most, over


def image_bytes(requests: Sequence[object]) -> int:
    """Bytes of images the bot uploaded (every file sent with a message, an edit or an answer)."""
    return sum(r.uploaded for r in requests)  # type: ignore[attr-defined]


def table_edits(requests: Sequence[object], threads: set[int]) -> int:
    """Edits of messages in the tables' threads (the table message, edited in place)."""
    return sum(1 for r in requests if r.method == "PATCH" and r.write_channel in threads)  # type: ignore[attr-defined]


def busiest_window(requests: Sequence[object], window: float = 1.0) -> tuple[int, float]:
    """The most rate-limited requests Discord received within any ``window`` seconds (a sliding window, so a burst
    split across two calendar seconds still counts whole), and when that window started (monotonic seconds)."""
    stamps = sorted(r.at for r in requests if not r.exempt)  # type: ignore[attr-defined]
    most, at, start = 0, 0.0, 0
    for end, moment in enumerate(stamps):
        while moment - stamps[start] >= window:
            start += 1
        if end - start + 1 > most:
            most, at = end - start + 1, stamps[start]
    return most, at
