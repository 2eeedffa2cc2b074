"""The Discord layer's parts built without a bot, for their own tests (tests/cogs): the DMs, the presenter, the
keeper and the controls, each handed its collaborators in its constructor as ``CharlestonBot._wire`` hands them
(cogs/app.py), around a real table service on an SQLite file (a manual clock, computers moving at once), a real
:class:`~cogs.show.drawing.Drawing` (a thread) and a door: the real :class:`~cogs.door.Door` over a plain
discord.py client logged into the offline Discord (:class:`PressCatcher`), or the recording fake of
:mod:`support.recording_door`. The two callbacks between parts (``on_trouble``, ``on_failure``) are recorded on the
way through, so a test can say what a part handed on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.engine.rules import table_rules
from bot.engine.tiles import Tile
from bot.service.clock import ManualClock
from bot.service.keys import discard_key
from bot.service.tables import TableService
from bot.service.updates import SeatUpdate, TableOptions
from cogs.door import Interaction
from cogs.failures import DiscordFailure, Failure
from cogs.keeper import Keeper
from cogs.press.controls import Controls
from cogs.show.dms import Dms
from cogs.show.drawing import Drawing
from cogs.show.presenter import Presenter, ShownTable

from .discord_double import Double, Player, Sent, interactions
from .discord_double.models import Channel, Message

# Table options under which the computers wait for the (manual) clock: nothing moves but the people, until a test
# moves the clock on.
COMPUTERS_ON_THE_CLOCK = TableOptions(computer_delay=1.0)
SETTLE_SECONDS = 20.0  # the longest a test waits for the parts to finish writing (a busy machine takes a few)


class PressCatcher(discord.Client):
    """A plain discord.py client (no bot, no cogs, no command tree) that keeps every interaction the offline Discord
    sends it, for a test to hand to a part as the bot's router would."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self._presses: dict[int, asyncio.Future[Interaction]] = {}

    def _future(self, interaction_id: int) -> asyncio.Future[Interaction]:
        if interaction_id not in self._presses:
            self._presses[interaction_id] = asyncio.get_running_loop().create_future()
        return self._presses[interaction_id]

    async def on_interaction(self, interaction: Interaction) -> None:
        """Keep the interaction (discord.py parsed it from the INTERACTION_CREATE the offline Discord sent)."""
        future = self._future(interaction.id)
        if not future.done():
            future.set_result(interaction)

    async def heard(self, sent: Sent, timeout: float = 5.0) -> Interaction:
        """The discord.py interaction of something a scripted player did (a press, a command)."""
        return await asyncio.wait_for(asyncio.shield(self._future(sent.interaction.id)), timeout)


@dataclass
class Parts:
    """The four parts of one test, wired to one another, and what passed between them."""

    service: TableService
    clock: ManualClock
    door: Any  # a cogs.door.Door, or a support.recording_door.RecordingDoor
    drawing: Drawing
    dms: Dms = field(init=False)
    presenter: Presenter = field(init=False)
    keeper: Keeper = field(init=False)
    controls: Controls = field(init=False)
    troubles: list[tuple[int, frozenset[int]]] = field(default_factory=list)  # on_trouble: table, seats unreachable
    failures: list[tuple[int, Failure, int]] = field(default_factory=list)  # on_failure: table, failure, thread
    managers: dict[int, list[int]] = field(default_factory=dict)  # a guild's recent managers, for the keeper
    keeper_acts: bool = True  # on_failure goes on to the keeper (as wired in the bot), else stops at the record
    listening: str = ""  # "all" (as the bot listens), "dms" (the seats' updates alone), "" (not yet)
    _unsubscribe_dms: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        interval = 0.01
        self.dms = Dms(self.service, self.door, self.drawing, self._trouble, interval=interval)
        self.presenter = Presenter(self.service, self.door, self.drawing, self.dms, self._failed, interval=interval)
        self.keeper = Keeper(self.service, self.door, self.presenter, self.dms, self._managers)
        self.controls = Controls(self.service, self.door, self.presenter, self.dms, self.drawing)

    def _trouble(self, table_id: int) -> None:
        self.troubles.append((table_id, self.dms.unreachable(table_id)))
        if self.listening == "all":
            self.presenter.seat_trouble(table_id)  # as wired in the bot: the table message says so

    async def _failed(self, shown: ShownTable, failure: DiscordFailure, thread: int) -> float | None:
        self.failures.append((shown.table_id, failure.kind, thread))
        return await self.keeper.table_failed(shown, failure, thread) if self.keeper_acts else None

    async def _managers(self, guild_id: int) -> list[int]:
        return list(self.managers.get(guild_id, []))

    def listen(self) -> None:
        """Listen to the service as the bot does: the presenter for every table message, the DMs for every seat."""
        self.presenter.start()
        self.listening = "all"

    def listen_dms(self) -> None:
        """Listen for the seats' updates only (a test of the DMs alone: no table message is written)."""
        self._unsubscribe_dms = self.service.subscribe_seat(self.dms.on_seat)
        self.listening = "dms"

    async def settle(self, timeout: float = SETTLE_SECONDS) -> None:
        """Wait until every update published so far has been delivered and every message brought up to date
        (retries waiting on Discord's backoff aside); a part still writing after ``timeout`` seconds (a flush that
        asks to run again at once, forever) fails the test."""
        try:
            async with asyncio.timeout(timeout):
                for _ in range(20):
                    await self.service.drain()
                    await self.presenter.settle()
                    throttles = [s.throttle for s in self.presenter.tables.values() if s.throttle is not None]
                    if not any(t.busy for t in [*throttles, *self.dms.throttles()]):
                        return
        except TimeoutError:
            raise AssertionError(f"the parts were still writing after {timeout} s") from None
        raise AssertionError("the parts never settled")

    def close(self) -> None:
        """Stop listening and give up pending writes (the presenter's and the DMs')."""
        if self._unsubscribe_dms is not None:
            self._unsubscribe_dms()
        self.presenter.stop()
        self.drawing.close()


async def table_in_thread(service: TableService, double: Double, people: Sequence[Player], *,
                          opener: Player | None = None, computers: str | None = "hard", seed: int = 7,
                          table_options: TableOptions | None = None, **rules: Any) -> int:
    """A table opened in #general of the offline Discord with a thread of its own there (as ``/table new`` opens
    one), the people in seats 0.. and, unless ``computers`` is None, computers of that level in the other seats; not
    dealt. The opener is the first person (or ``opener``)."""
    thread = double.world.create_thread(double.general, "Mah Jongg table")
    return await table_shown_in(service, double.guild_id, double.general.id, thread.id,
                                [(p.id, p.user.name) for p in people], opener=(opener or people[0]).id,
                                computers=computers, seed=seed, table_options=table_options, **rules)


async def table_shown_in(service: TableService, guild_id: int, parent_id: int, thread_id: int,
                         people: Sequence[tuple[int, str]], *, opener: int, computers: str | None = "hard",
                         seed: int = 7, table_options: TableOptions | None = None, **rules: Any) -> int:
    """A table of guild ``guild_id`` opened in channel ``parent_id`` and shown in thread ``thread_id``, the people
    (id, name) in seats 0.. and, unless ``computers`` is None, computers of that level in the other seats."""
    opened = await service.create_table(guild_id, parent_id, created_by=opener, seed=seed,
                                        rules=table_rules(**rules), options=table_options)
    table_id = opened.table_id
    await service.relocate(table_id, thread_id)
    await service.update_display(table_id, lambda d: d.opened(thread_id, parent_id))
    for seat, (player_id, name) in enumerate(people):
        await service.join(table_id, player_id, name, seat)
    if computers is not None:
        for seat in range(len(people), 4):
            await service.add_computer(table_id, computers, seat)
    return table_id


def thread_of(service: TableService, double: Double, table_id: int) -> Channel:
    """The table's thread in the offline Discord, as its display record names it."""
    thread = service.display(table_id).thread
    assert thread is not None
    return double.world.channels[thread]


def live_dms(player: Player) -> list[Message]:
    """The messages of a player's DM with the bot that are still there, oldest first."""
    return [m for m in player.dm_channel.messages if not m.deleted]


def requests_to(double: Double, channel: Channel, since: int = 0) -> list[str]:
    """``METHOD /route`` of each request the bot made to a channel's own routes since the ``since``-th request."""
    return [r.key for r in double.world.requests[since:] if f"/channels/{channel.id}/" in f"{r.path}/"]


def plain_discard(turn: SeatUpdate) -> str:
    """The key of a discard she may make without being asked about it (not a joker)."""
    return next(choice.key for choice in turn.choices.discard if choice.key != discard_key(Tile.J))


def mine(service: TableService, table_id: int, player: Player) -> SeatUpdate:
    """A player's own seat as it is now."""
    return service.seat_update(table_id, player.id)


def command(double: Double, player: Player, name: str, channel: Channel) -> Sent:
    """A player uses ``/name`` in ``channel``: the INTERACTION_CREATE Discord sends for it, built from its payload
    (the plain client syncs no commands, so the scripted player's own ``slash`` has none to check against)."""
    data = {"id": str(double.world.ids.next()), "name": name, "type": 1}
    return Sent(double.world, interactions.start(double.world, interactions.COMMAND, player.user, channel, data,
                                                 name=name))
