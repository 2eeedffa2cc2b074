"""The weekly poster: a background task of the bot that posts each league's finished week in its channel, once.

It wakes at the next week boundary (by the service's clock) or retry, at least every ``check_seconds``, and
when told (a league got a channel). It runs a first pass at start-up, so weeks that ended while the bot was down
are posted when it comes back. What is due and what became of each post is kept by
:class:`bot.service.weekly.WeeklyPosts`; a failed post is tried again later and the managers are told by DM.
"""

from __future__ import annotations

import logging
from datetime import datetime

import discord

from bot.service.leagues import WeekStandings
from bot.service.weekly import PostJob, WeeklyPosts
from bot.service.weeks import week_name

from ..door import Door
from ..failures import DiscordFailure, Failure
from ..payload import Payload
from .background import Background
from .league_look import week_headline, week_message

log = logging.getLogger("charleston.discord")

HISTORY_LOOKBACK = 50  # messages searched for a post a crash may have sent without recording it
POST_PERMISSIONS = "View Channel, Send Messages and Attach Files"


def describe(failure: DiscordFailure, channel_id: int) -> str:
    """Why a post failed, for the managers."""
    if failure.kind is Failure.GONE:
        return f"the channel <#{channel_id}> no longer exists"
    if failure.kind is Failure.FORBIDDEN:
        return (f"I may not post in <#{channel_id}> (Discord says: {failure.text or 'missing permissions'}); I need "
                f"{POST_PERMISSIONS} there")
    if failure.status is not None:
        return f"Discord refused the post ({failure.status}, {failure.text or 'no reason given'})"
    return f"Discord could not be reached ({failure.text})"


class WeeklyPoster(Background):
    """Posts due weekly standings, one at a time, for every league of every guild."""

    name = "weekly poster"

    def __init__(self, door: Door, posts: WeeklyPosts, check_seconds: float = 300) -> None:
        super().__init__(check_seconds)
        self.door = door
        self.posts = posts

    async def one_pass(self) -> float | None:
        """Make the due posts; the next week boundary or retry is the next thing due."""
        await self.run_once()
        wakeup = await self.posts.next_wakeup()
        return None if wakeup is None else (wakeup - self.posts.clock.now()).total_seconds()

    async def run_once(self) -> int:
        """Make every post that is due; returns how many were posted."""
        posted = 0
        for job in await self.posts.due():
            if self.stopping:
                break
            posted += await self._post(job)
        return posted

    async def _post(self, job: PostJob) -> int:
        channel_id = job.league.channel_id
        assert channel_id is not None
        week = WeekStandings(job.league, job.week, job.start, job.end, job.rows, job.corrections)
        if job.interrupted:
            found = await self.door.find_own_post(channel_id, job.league.guild_id, week_headline(week),
                                                  "look for a standings post a crash interrupted",
                                                  lookback=HISTORY_LOOKBACK)
            if found is not None:
                await self.posts.posted(job, channel_id, found.id)
                log.info("weekly post of league %s week %s was sent before a crash: found it", job.league.league_id,
                         job.week)
                return 0
        await self.posts.claim(job)
        shown = await week_message(week)
        try:
            message = await self.door.send(channel_id, Payload(shown.content, [shown.file()]),
                                           f"post the standings of league {job.league.league_id} week {job.week}",
                                           mentions=discord.AllowedMentions.none())
        except DiscordFailure as failure:
            record = await self.posts.failed(job, describe(failure, channel_id))
            log.info("weekly post of league %s week %s failed (try %d), tried again later", job.league.league_id,
                     job.week, record.attempts)
            if not record.reported:
                await self._tell_managers(job, record.last_error or "", record.next_try_at)
                await self.posts.reported(job)
            return 0
        await self.posts.posted(job, channel_id, message.id)
        log.info("posted the standings of league %s week %s", job.league.league_id, job.week)
        return 1

    async def _tell_managers(self, job: PostJob, reason: str, next_try: str | None) -> None:
        """DM the league's creator and the guild's recent managers (the bot sees no member list)."""
        managers = await self.posts.managers(job)
        when = ""
        if next_try:
            when = f" I will try again <t:{int(datetime.fromisoformat(next_try).timestamp())}:R>, and at once"
        week = week_name(job.week, job.league.week_start)
        text = (f"The weekly standings of **{job.league.name}** for the {week} could not be posted: {reason}."
                f"{when or ' I will try again'} when a manager sets a channel with `/league-admin channel`. "
                "`/league info` shows what is waiting.")
        await self.door.tell(managers, text, f"tell a manager about league {job.league.league_id} week {job.week}")
