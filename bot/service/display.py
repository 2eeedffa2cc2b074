"""Where a table is shown: its thread, the table message, each player's DM, whose DMs are closed. The Discord layer's
record, kept by the service across restarts (the ``display`` column of ``tables``) and read back exactly.

The stored JSON keeps the shape it has always had (``{"thread": 1, "message": 2, "dms": {"0": [channel, message,
token]}, "dms_closed": [1]}``) plus ``parent`` (the channel a thread was opened in, where a new one goes when it is
deleted), ``blocked`` (the opener was told the bot may not post in the thread: told once per outage),
``results`` (the last game whose results were posted: posted once, even across a restart) and ``shown`` (a mark
of what the table message showed when last written: a restart leaves a table message alone while it is the same).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class DmShown:
    """One player's standing DM: where it is, and the decision it was sent for (None: none)."""

    channel: int
    message: int
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Display:
    """Where one table is shown in Discord (all None for a table made outside Discord)."""

    thread: int | None = None  # the thread (or the channel, where no thread could be made) of the table message
    message: int | None = None  # the table message
    parent: int | None = None  # the channel the thread was opened in
    dms: Mapping[int, DmShown] = field(default_factory=dict)  # seat -> its player's DM (changed by copying)
    dms_closed: frozenset[int] = frozenset()  # seats whose player's DMs are closed (50007)
    blocked: bool = False  # the bot may not post in the thread, and the opener has been told
    results: int = 0  # the last game whose results were posted in the thread (posted once, even across restarts)
    shown: str = ""  # a mark of what the table message showed when last written (none: unknown)

    def opened(self, thread: int, parent: int | None) -> Display:
        """Shown in ``thread`` (opened in channel ``parent``; None when the table plays in the channel itself)."""
        return replace(self, thread=thread, parent=parent, message=None, blocked=False)

    def with_parent(self, parent: int) -> Display:
        """The thread was opened in channel ``parent`` (learnt later, for a table opened before it was kept)."""
        return replace(self, parent=parent)

    def moved(self, thread: int) -> Display:
        """Shown in a new thread (the old one is gone): no table message there yet."""
        return replace(self, thread=thread, message=None, blocked=False)

    def with_message(self, message: int | None) -> Display:
        """The table message is now ``message`` (None: it must be posted again)."""
        return replace(self, message=message)

    def with_dm(self, seat: int, shown: DmShown | None) -> Display:
        """Seat ``seat``'s standing DM is now ``shown`` (None: it has none)."""
        dms = dict(self.dms)
        if shown is None:
            dms.pop(seat, None)
        else:
            dms[seat] = shown
        return replace(self, dms=dms)

    def with_dms_closed(self, seat: int, closed: bool = True) -> Display:
        """Seat ``seat``'s player has closed DMs (``closed=False``: they are open again)."""
        return replace(self, dms_closed=self.dms_closed | {seat} if closed else self.dms_closed - {seat})

    def with_results(self, game_no: int) -> Display:
        """The results of game ``game_no`` were posted."""
        return replace(self, results=game_no)

    def with_shown(self, mark: str) -> Display:
        """The table message now shows the state marked ``mark``."""
        return replace(self, shown=mark)

    def with_blocked(self, blocked: bool) -> Display:
        """The opener was told the bot may not post in the thread (True), or it may again (False)."""
        return replace(self, blocked=blocked)

    def to_json(self) -> dict[str, object]:
        """The stored form (see the module docstring)."""
        data: dict[str, object] = {}
        if self.thread is not None:
            data["thread"] = self.thread
        if self.message is not None:
            data["message"] = self.message
        if self.parent is not None:
            data["parent"] = self.parent
        if self.dms:
            data["dms"] = {str(seat): [d.channel, d.message, d.token] for seat, d in sorted(self.dms.items())}
        if self.dms_closed:
            data["dms_closed"] = sorted(self.dms_closed)
        if self.blocked:
            data["blocked"] = True
        if self.results:
            data["results"] = self.results
        if self.shown:
            data["shown"] = self.shown
        return data

    @staticmethod
    def from_json(data: Mapping[str, object]) -> Display:
        """Read the stored form; a missing key takes its default, a malformed one is a ValueError."""
        dms: dict[int, DmShown] = {}
        stored = data.get("dms") or {}
        if not isinstance(stored, Mapping):
            raise ValueError(f"display dms must be an object, not {stored!r}")
        for seat, where in stored.items():
            if not isinstance(where, list | tuple) or len(where) not in (2, 3):
                raise ValueError(f"display dm of seat {seat} must be [channel, message, token], not {where!r}")
            token = where[2] if len(where) == 3 else None
            dms[int(seat)] = DmShown(_id(where[0]), _id(where[1]), None if token is None else str(token))
        closed = data.get("dms_closed") or []
        if not isinstance(closed, list | tuple):
            raise ValueError(f"display dms_closed must be a list, not {closed!r}")
        shown = data.get("shown", "")
        if not isinstance(shown, str):
            raise ValueError(f"display shown must be a string, not {shown!r}")
        return Display(_optional_id(data.get("thread")), _optional_id(data.get("message")),
                       _optional_id(data.get("parent")), dms, frozenset(_id(s) for s in closed),
                       bool(data.get("blocked", False)), _id(data.get("results", 0)), shown)


def _id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"a Discord id must be a number, not {value!r}")
    return int(value)


def _optional_id(value: object) -> int | None:
    return None if value is None else _id(value)
