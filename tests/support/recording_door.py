"""A recording stand-in for :class:`cogs.door.Door`, for tests of the Discord layer's decisions: the same method
names (those the presenter, the DMs and the keeper call), each call recorded in order with where it went, each
answered as Discord would answer one that worked (a message with a fresh id, a new thread), unless the test said
that calls of that method there fail with a given :class:`~cogs.failures.DiscordFailure`. It proves what a part
asks of the door, and in which order; what Discord answers is the offline Discord's to show (tests/cogs use the
real door over it wherever that matters)."""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field

from cogs.failures import Backoff, DiscordFailure
from cogs.pacer import Urgency
from cogs.payload import Payload


@dataclass(frozen=True)
class DoorCall:
    """One call the door was asked to make: the method, where (a channel, a thread, or the people told), and the
    text it carried."""

    method: str
    where: int | tuple[int, ...] | None
    content: str = ""

    @property
    def step(self) -> tuple[str, int | tuple[int, ...] | None]:
        """The method and where, without the text."""
        return self.method, self.where


@dataclass
class PostedChannel:
    """The channel a recorded message went to."""

    id: int


@dataclass
class PostedMessage:
    """A message the recording door "sent": an id and a channel, no attachments."""

    id: int
    channel: PostedChannel
    attachments: list[object] = field(default_factory=list)


@dataclass
class OpenedThread:
    """A thread the recording door "opened"."""

    id: int
    parent_id: int

    @property
    def mention(self) -> str:
        """How a message names the thread."""
        return f"<#{self.id}>"


class RecordingDoor:
    """Records every call; answers like a Discord where everything works, but where :meth:`refuse` says otherwise."""

    def __init__(self, backoff: Backoff | None = None) -> None:
        self.backoff = backoff or Backoff(0.01, 0.08)
        self.calls: list[DoorCall] = []
        self.closed_dms: set[int] = set()  # people whose DMs are closed: send_dm answers None
        self._refused: dict[tuple[str, int | None], DiscordFailure] = {}
        self._ids = itertools.count(1_000_001)

    # -- what the test says -------------------------------------------------------------------------------
    def refuse(self, method: str, where: int | None, failure: DiscordFailure) -> None:
        """From now on, every call of ``method`` to ``where`` (a channel or thread id; None: anywhere) fails with
        ``failure`` (a fresh copy each time), until :meth:`allow`."""
        self._refused[(method, where)] = failure

    def allow(self, method: str, where: int | None) -> None:
        """Calls of ``method`` to ``where`` work again."""
        self._refused.pop((method, where), None)

    def steps(self, since: int = 0) -> list[tuple[str, int | tuple[int, ...] | None]]:
        """The calls made since the ``since``-th, as (method, where)."""
        return [call.step for call in self.calls[since:]]

    def _record(self, method: str, where: int | tuple[int, ...] | None, what: str, content: str = "") -> None:
        self.calls.append(DoorCall(method, where, content))
        key = where if isinstance(where, int) else None
        for place in (key, None):
            failure = self._refused.get((method, place))
            if failure is not None:
                raise dataclasses.replace(failure, what=what)

    def _message(self, channel_id: int) -> PostedMessage:
        return PostedMessage(next(self._ids), PostedChannel(channel_id))

    # -- the door's methods -------------------------------------------------------------------------------
    async def send(self, channel_id: int, payload: Payload, what: str, *, table: int | None = None,
                   mentions: object = None) -> PostedMessage:
        """Post a message."""
        self._record("send", channel_id, what, payload.content)
        return self._message(channel_id)

    async def edit(self, channel_id: int, message_id: int, payload: Payload, what: str, *,
                   table: int | None = None, level: Urgency = Urgency.NORMAL) -> PostedMessage:
        """Edit a message."""
        self._record("edit", channel_id, what, payload.content)
        return PostedMessage(message_id, PostedChannel(channel_id))

    async def delete(self, channel_id: int, message_id: int, what: str, *, table: int | None = None) -> bool:
        """Delete a message."""
        self._record("delete", channel_id, what)
        return True

    async def send_dm(self, user_id: int, payload: Payload, what: str, *, channel_id: int | None = None,
                      table: int | None = None, attempts: int = 1,
                      level: Urgency = Urgency.NORMAL) -> PostedMessage | None:
        """DM someone; None when their DMs are closed."""
        self._record("send_dm", user_id, what, payload.content)
        return None if user_id in self.closed_dms else self._message(channel_id or user_id)

    async def tell(self, user_ids: list[int], text: str, what: str, *, table: int | None = None) -> list[int]:
        """DM a notice to each of these people; those whose DMs are open got it."""
        self._record("tell", tuple(user_ids), what, text)
        return [user for user in dict.fromkeys(user_ids) if user not in self.closed_dms]

    async def create_thread(self, parent_id: int, name: str, what: str, *, table: int | None = None) -> OpenedThread:
        """Open a thread in a channel."""
        self._record("create_thread", parent_id, what, name)
        return OpenedThread(next(self._ids), parent_id)

    async def set_archived(self, thread_id: int, archived: bool, what: str, *, table: int | None = None) -> None:
        """Archive a thread, or bring it back."""
        self._record("archive" if archived else "unarchive", thread_id, what)

    def cached_channel(self, channel_id: int) -> object | None:
        """No channel is cached here."""
        return None
