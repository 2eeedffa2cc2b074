"""A table outlives its thread: what the bot does when Discord takes the table's place away.

- **Deleted thread** (THREAD_DELETE, or 10003 on a write to it): a new thread in the channel the table was opened
  in, the table message posted there, and every seated player told by DM where the table is now. Play goes on.
- **Channel gone too, or no permission to open a thread there**: the table is closed (a game in progress is
  abandoned: recorded so, no chips change hands; finished games are settled already) and the players and the
  opener are told by DM what happened.
- **Archived thread** (50083 on a write): the thread is brought back (``archived: false``); where the bot may not
  do that, the table message is posted anew (a new message unarchives a thread that is not locked); a locked
  thread is left for a new one.
- **Permission taken away in the thread** (50013, 50001): the opener (else the server's recent managers) is told
  once, by DM, what the bot needs there; the table message is tried again every few minutes, and at once when a
  channel's or a role's permissions change, and catches up when it may post again. Play goes on by DM meanwhile.
- **Table message deleted** (MESSAGE_DELETE, or 10008 on an edit): posted again at once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable

import discord
from discord.ext import commands

from bot.service.display import Display
from bot.service.errors import TableError
from bot.service.surface import TableCalls
from bot.service.updates import TablePhase, TableStatus

from .door import Door
from .failures import THREAD_PERMISSIONS, DiscordFailure, Failure
from .show.dms import Dms
from .show.presenter import Presenter, ShownTable

log = logging.getLogger("charleston.discord")
FORBIDDEN_SLOWER = 5  # a missing permission is asked about again 5 times less often than a 5xx


class Keeper(commands.Cog):
    """Keeps every table somewhere in Discord (see the module docstring). The presenter hands it each failed write
    to a table's thread (:meth:`table_failed`); the keeper acts on the presenter's tables and the players' DMs."""

    def __init__(self, service: TableCalls, door: Door, presenter: Presenter, dms: Dms,
                 managers: Callable[[int], Awaitable[list[int]]]) -> None:
        self.service = service
        self.door = door
        self.presenter = presenter
        self.dms = dms
        self._managers = managers  # a guild's recent managers, to tell when the opener can't be told
        self._locks: dict[int, asyncio.Lock] = {}

    def _shown(self, *, thread: int | None = None, near: int | None = None) -> list[ShownTable]:
        """The tables shown in ``thread``, or in ``near`` or a thread of it."""
        found = []
        for shown in list(self.presenter.tables.values()):
            display = self.presenter.display(shown)
            if (thread is not None and display.thread == thread) or (near is not None and near in (display.thread,
                                                                                                  display.parent)):
                found.append(shown)
        return found

    # -- what Discord tells the bot ----------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Tables opened before their parent channel was recorded learn it from the cache (to move if deleted)."""
        for shown in list(self.presenter.tables.values()):
            display = self.presenter.display(shown)
            thread = self.door.cached_channel(display.thread) if display.thread is not None else None
            if display.parent is None and isinstance(thread, discord.Thread) and thread.parent_id is not None:
                await self.presenter.remember(shown, functools.partial(Display.with_parent, parent=thread.parent_id))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: a table in it moves to a new one."""
        for shown in self._shown(thread=payload.thread_id):
            await self.move(shown, payload.thread_id, payload.parent_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted (its threads with it): a table there closes."""
        for shown in self._shown(near=channel.id):
            await self.close(shown.table_id, f"its channel #{channel.name} was deleted")

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A message was deleted: a table message is posted again at once."""
        for shown in self._shown(thread=payload.channel_id):
            if shown.display.message == payload.message_id:
                log.warning("table %s: its table message was deleted; posting it again", shown.table_id)
                await self.presenter.remember(shown, lambda d: d.with_message(None))
                self.presenter.poke(shown.table_id, now=True)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        """A channel changed (its permissions, say): a table that may not post there tries again now."""
        self._try_again(self._shown(near=after.id))

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread changed: a table that may not post there tries again now."""
        self._try_again(self._shown(thread=payload.thread_id))

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role changed: the server's tables that may not post try again now."""
        self._try_again([s for s in list(self.presenter.tables.values())
                         if s.latest is not None and s.latest.view.guild_id == after.guild.id])

    def _try_again(self, tables: list[ShownTable]) -> None:
        for shown in tables:
            if shown.display.blocked:
                self.presenter.poke(shown.table_id, now=True)

    # -- a write to the table's thread failed --------------------------------------------------------------------
    async def table_failed(self, shown: ShownTable, failure: DiscordFailure, thread: int) -> float | None:
        """What to do about a failed write to a table's ``thread``; returns when to try again (None: not at all)."""
        if failure.retry:
            raise failure  # the throttle tries again with its backoff
        if shown.display.thread != thread:
            return 0.0  # the table moved meanwhile: show it in its new thread
        shown.trouble += 1
        if failure.kind is Failure.GONE:
            await self.move(shown, thread, None)
            return 0.0
        if failure.kind is Failure.ARCHIVED:
            return await self._archived(shown, thread)
        if failure.kind is Failure.FORBIDDEN:
            await self._blocked(shown, thread, failure)
            return self.door.backoff.slower(FORBIDDEN_SLOWER).delay(shown.trouble)
        return None  # logged by the door (a bug): nothing more to try

    async def _archived(self, shown: ShownTable, thread: int) -> float:
        if shown.trouble == 1:
            try:
                await self.door.set_archived(thread, False, "unarchive the table's thread", table=shown.table_id)
                log.warning("table %s: its thread was archived; unarchived it", shown.table_id)
                return 0.0
            except DiscordFailure:
                pass  # may not: a new message unarchives it
        if shown.trouble <= 2:
            log.warning("table %s: its thread is archived; posting the table message anew", shown.table_id)
            shown.below = True
            return 0.0
        await self.move(shown, thread, None, why="was locked")
        return 0.0

    async def _blocked(self, shown: ShownTable, thread: int, failure: DiscordFailure) -> None:
        """Tell the opener (else the server's managers) once what the bot may no longer do in the thread."""
        if shown.display.blocked or not self.service.is_open(shown.table_id):
            return
        await self.presenter.remember(shown, lambda d: d.with_blocked(True))
        table = self.service.view(shown.table_id)
        text = (f"I may no longer post in <#{thread}>, the thread of Mah Jongg table {shown.table_id}: Discord says "
                f"\"{failure.text or 'Missing Permissions'}\". I need {THREAD_PERMISSIONS} there (a server manager "
                "can give them back). The game goes on in the players' DMs, and the table message catches up as "
                "soon as I may post again.")
        told = await self.door.tell([table.created_by] if table.created_by else [], text,
                                    "tell the opener about a missing permission", table=shown.table_id)
        if not told:
            managers = await self._managers(table.guild_id)
            await self.door.tell(managers, text, "tell the managers about a missing permission",
                                 table=shown.table_id)

    # -- moving and closing ---------------------------------------------------------------------------------------
    async def move(self, shown: ShownTable, dead: int, parent: int | None, why: str = "was deleted") -> None:
        """The table's thread ``dead`` is gone: open a new thread in its channel and tell the players, or close."""
        table_id = shown.table_id
        async with self._locks.setdefault(table_id, asyncio.Lock()):
            if not self.service.is_open(table_id) or self.presenter.display(shown).thread != dead:
                return  # closed, or moved already (THREAD_DELETE and a 10003 both noticed it)
            parent = shown.display.parent or parent
            if parent is None:
                await self.close(table_id, "its channel was deleted")
                return
            try:
                thread = await self.door.create_thread(parent, f"Mah Jongg table {table_id}",
                                                       "open a new thread for the table", table=table_id)
            except DiscordFailure as failure:
                if failure.retry:
                    raise
                reason = ("its thread and its channel were deleted" if failure.kind is Failure.GONE else
                          f"its thread {why}, and I may not open a new one in <#{parent}> (Discord says: "
                          f"{failure.text or 'Missing Permissions'})")
                await self.close(table_id, reason)
                return
            await self.service.relocate(table_id, thread.id)
            await self.presenter.remember(shown, lambda d: d.moved(thread.id))
            shown.below, shown.trouble = False, 0
            log.warning("table %s: its thread %s %s; the table now plays in thread %s", table_id, dead, why, thread.id)
            await self._tell_moved(table_id, thread, why)
        self.presenter.poke(table_id, now=True)

    async def _tell_moved(self, table_id: int, thread: discord.Thread, why: str) -> None:
        note = f"Table {table_id}'s thread {why}: the table is now in {thread.mention}, and the game goes on."
        update = self.service.snapshot(table_id)
        playing = update.phase not in (TablePhase.LOBBY, TablePhase.FINISHED)
        others: list[int] = []
        for player in update.view.people:
            if playing:
                self.dms.renew(self.service.seat_update(table_id, player), note)  # a fresh DM, with the note
            else:
                others.append(player)
        await self.door.tell(others, note, "tell a player where the table is now", table=table_id)

    async def close(self, table_id: int, why: str) -> None:
        """Close a table whose place is gone, and tell its players and its opener what happened."""
        if not self.service.is_open(table_id):
            return
        table = self.service.view(table_id)
        abandoned = table.status is TableStatus.PLAYING
        try:
            await self.service.close_table(table_id)
        except TableError:
            return  # closed meanwhile
        log.warning("table %s: closed, %s%s", table_id, why, " (the game in progress was abandoned)" if abandoned
                    else "")
        text = (f"Mah Jongg table {table_id} is closed: {why}."
                + (" The game in progress was abandoned: no chips changed hands." if abandoned else "")
                + " Finished games stay in the chip ledger. `/table new` opens a new table.")
        people = [*table.people, *([table.created_by] if table.created_by else [])]
        await self.door.tell(people, text, "tell a player the table closed", table=table_id)
