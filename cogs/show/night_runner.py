"""The night runner: a background task of the bot that carries out what the league nights need of Discord
(:meth:`bot.service.nights.Nights.tick`): the sign-up message brought up to date, the reminders by DM, each new
table's thread and table message (then the deal), a round's tables posted, the night's results posted.

It asks every ``check_seconds`` (and when woken). Every step is recorded by the service before or after it is
taken, so a restart carries on: a table opened but not shown gets its thread then, and results not recorded as
posted are posted. Results are posted once across crashes: before sending them the runner looks among the
channel's latest messages for its own post of that night's results (one a crash sent but never recorded), and
records that one instead of posting again, as the weekly poster does.
"""

from __future__ import annotations

import contextlib
import logging
from functools import partial

import discord

from bot.service.display import Display
from bot.service.nights import NightJob, NightTable, NightView
from bot.service.surface import NightCalls, TableCalls

from ..door import Door
from ..failures import DiscordFailure
from ..payload import Payload
from . import night_look as looks
from .background import Background
from .poster import HISTORY_LOOKBACK, describe
from .presenter import Presenter

log = logging.getLogger("charleston.discord")


class NightRunner(Background):
    """Runs the league nights of every guild this process holds."""

    name = "night runner"

    def __init__(self, nights: NightCalls, tables: TableCalls, door: Door, presenter: Presenter,
                 check_seconds: float = 2.0) -> None:
        super().__init__(check_seconds)
        self.nights = nights
        self.tables = tables
        self.door = door
        self.presenter = presenter

    async def one_pass(self) -> float | None:
        """Carry out the due jobs; the next look is ``check_seconds`` away (or sooner, when woken)."""
        await self.run_once()
        return None

    async def run_once(self) -> None:
        """Carry out every job that is due."""
        for job in await self.nights.tick():
            if self.stopping:
                return
            try:
                await self._do(job)
            except Exception:  # one job's trouble must not stop the others'
                log.exception("night %s: %s failed", job.view.night.night_id, job.kind)

    async def _do(self, job: NightJob) -> None:
        if job.kind == "refresh":
            await self.refresh(job.view)
        elif job.kind == "remind":
            told = await self.door.tell(job.players, looks.reminder_text(job.view),
                                        f"remind night {job.view.night.night_id}'s players")
            log.info("night %s: reminded %d of %d", job.view.night.night_id, len(told), len(job.players))
        elif job.kind == "open":
            await self._open(job.view, job.tables)
        elif job.kind == "results":
            await self._results(job)

    async def refresh(self, view: NightView) -> None:
        """Bring the sign-up message up to date (one gone is left: the night runs without it)."""
        night = view.night
        if night.signup_message_id is None:
            return
        with contextlib.suppress(DiscordFailure):  # logged by the door; the night goes on without it
            await self.door.edit(night.channel_id, night.signup_message_id, looks.signup_payload(view),
                                 f"update night {night.night_id}'s sign-up")

    async def _open(self, view: NightView, tables: list[NightTable]) -> None:
        """Each new table's thread and table message, then its deal; the round's tables posted once shown."""
        night = view.night
        threads: dict[int, int] = {}
        made = False
        for table in tables:
            table_id = table.table_id
            if table_id is None or not self.tables.is_open(table_id):
                continue
            display = self.tables.display(table_id)
            thread = display.thread
            if thread is None:
                thread = await self._thread(night.channel_id, f"Night {night.night_id} · round {table.round} · "
                                            f"table {table.table_no}", table_id)
                await self.tables.relocate(table_id, thread)
                parent = night.channel_id if thread != night.channel_id else None
                await self.tables.update_display(table_id, partial(Display.opened, thread=thread, parent=parent))
                made = True
            threads[table.table_no] = thread
            await self.tables.catch_up()
            await self.presenter.show_now(table_id)
            await self.nights.deal(night.night_id, table.round, table.table_no)
        if made:
            round_no = tables[0].round
            with contextlib.suppress(DiscordFailure):
                await self.door.send(night.channel_id, Payload(looks.round_text(view, round_no, threads)),
                                     f"post night {night.night_id}'s round {round_no}",
                                     mentions=discord.AllowedMentions.none())

    async def _thread(self, channel_id: int, name: str, table_id: int) -> int:
        """A thread for the table, or the channel itself where threads can't be made."""
        try:
            return (await self.door.create_thread(channel_id, name, "open a night table's thread", table=table_id)).id
        except DiscordFailure:
            return channel_id

    async def _results(self, job: NightJob) -> None:
        night = job.view.night
        assert job.results is not None
        found = await self.door.find_own_post(night.channel_id, night.guild_id, looks.results_headline(job.view),
                                              f"look for night {night.night_id}'s results a crash left unrecorded",
                                              lookback=HISTORY_LOOKBACK)
        if found is not None:
            log.info("night %s: its results were posted before a crash: found them", night.night_id)
            await self.nights.results_posted(night.night_id, found.id)
            await self.refresh(await self.nights.view(night.night_id))
            return
        shown = await looks.results_message(job.results)
        try:
            message = await self.door.send(night.channel_id, Payload(shown.content, [shown.file()]),
                                           f"post night {night.night_id}'s results",
                                           mentions=discord.AllowedMentions.none())
        except DiscordFailure as failure:
            await self.nights.results_failed(night.night_id, night.results_tries)
            if night.results_tries == 0 and night.created_by is not None:  # the organiser is told once
                await self.door.tell([night.created_by], looks.results_failed_text(
                    job.view, describe(failure, night.channel_id)), f"tell night {night.night_id}'s organiser")
            return
        await self.nights.results_posted(night.night_id, message.id)
        await self.refresh(await self.nights.view(night.night_id))
