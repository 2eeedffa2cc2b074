"""When each table next needs the clock, kept in a heap: finding the earliest moment, or the next table due, costs
O(log n) however many tables a process holds (the clock used to sort every table's moments on each pass).

A table's moment is the earlier of its deadline and its next computer move; it is set here whenever either
changes (:class:`~bot.service.live.LiveTable` does it), and an entry left behind by a later change is skipped when
it comes to the top.
"""

from __future__ import annotations

import heapq
from datetime import datetime


class Timetable:
    """The next moment of every table that has one."""

    def __init__(self) -> None:
        self._heap: list[tuple[datetime, int]] = []
        self._at: dict[int, datetime] = {}  # each table's current moment: the one heap entry of it that counts

    def __len__(self) -> int:
        return len(self._at)

    def set(self, table_id: int, moment: datetime | None) -> None:
        """The table's next moment is now ``moment`` (None: it needs the clock for nothing)."""
        if moment is None:
            self._at.pop(table_id, None)
            return
        if self._at.get(table_id) == moment:
            return
        self._at[table_id] = moment
        heapq.heappush(self._heap, (moment, table_id))
        if len(self._heap) > 4 * len(self._at) + 64:  # many entries left behind: start again from the live ones
            self._heap = [(at, table) for table, at in self._at.items()]
            heapq.heapify(self._heap)

    def earliest(self) -> datetime | None:
        """The earliest moment of any table, or None."""
        heap = self._heap
        while heap and self._at.get(heap[0][1]) != heap[0][0]:
            heapq.heappop(heap)  # left behind by a later change
        return heap[0][0] if heap else None

    def pop_due(self, now: datetime) -> int | None:
        """The table whose moment is earliest, if it is at or before ``now``, taken out of the timetable (the
        caller sets its next moment after acting); else None."""
        moment = self.earliest()
        if moment is None or moment > now:
            return None
        _, table_id = heapq.heappop(self._heap)
        del self._at[table_id]
        return table_id
