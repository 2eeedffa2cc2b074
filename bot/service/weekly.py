"""The bookkeeping of the weekly standings posts: which finished weeks are due, and what became of each post. No
discord here: the poster (:mod:`cogs.show.poster`) sends the messages and reports back.

Each league week is posted once: a week is due when it has ended (in the league's time zone, by the service's
clock) after the league got its channel, and has no record yet. :meth:`WeeklyPosts.due` claims each post it
returns, in one statement (``sending``, under this process's ``owner``, for :data:`CLAIM_LEASE`), so of several
processes over one database exactly one makes each post. A record still ``sending`` under this owner when the
poster looks again was interrupted (a crash, or a stop between claiming and recording), and the poster looks for
the message in the channel before sending it again; one claimed by another owner is left alone until its claim
runs out (that process died), then treated the same way. A post that fails is ``failed`` and tried again later,
5 minutes after the first try, then twice as long each time up to 6 hours; the managers are told once. A week
without games is recorded as ``empty`` and not posted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.store import leagues as store
from bot.store.corrections import corrections
from bot.store.db import Database
from bot.store.leagues import LeagueRow, PostRow
from bot.store.standings import Standing, week_bounds, week_label

from .clock import Clock
from .corrections import CorrectionRow
from .leagues import next_week
from .scoring import league_standings
from .weeks import week_name

MAX_CATCH_UP = 12  # after a long downtime, at most this many missed weeks per league are posted (the latest)
FIRST_RETRY = timedelta(minutes=5)
LAST_RETRY = timedelta(hours=6)
CLAIM_LEASE = timedelta(minutes=10)  # how long another process's claim of a post is respected
DEFAULT_OWNER = "main"  # the one process of an unsharded bot: a restart finds its own interrupted posts


@dataclass(frozen=True, slots=True)
class PostJob:
    """One week's standings to post in a league's channel (``record``: a previous try, if any)."""

    league: LeagueRow
    week: str
    start: datetime
    end: datetime
    rows: list[Standing]
    record: PostRow | None
    corrections: list[CorrectionRow] = field(default_factory=list)  # the week's voids and recorded games

    @property
    def name(self) -> str:
        """The week as people say it: ``week of 23 Nov 2026``."""
        return week_name(self.week, self.league.week_start)

    @property
    def interrupted(self) -> bool:
        """A previous try was cut short between claiming and recording: the message may be in the channel."""
        return self.record is not None and self.record.status == "sending"


def retry_delay(attempts: int) -> timedelta:
    """How long after the ``attempts``-th failed try the next one is made."""
    return min(LAST_RETRY, FIRST_RETRY * float(2 ** min(10, max(0, attempts - 1))))


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


class WeeklyPosts:
    """Due weekly posts, and their records."""

    def __init__(self, db: Database, clock: Clock, owner: str = DEFAULT_OWNER) -> None:
        self.db = db
        self.clock = clock
        self.owner = owner  # the same for a process and its restarts: a cluster's name (its shards)

    def finished_weeks(self, league: LeagueRow, after: str | None) -> list[str]:
        """The weeks of the league that have ended by now and after ``league.posts_after``, later than the week
        ``after`` (the last one handled), at most :data:`MAX_CATCH_UP` of them (the latest)."""
        now = self.clock.now()
        posts_after = datetime.fromisoformat(league.posts_after)
        earliest = max(posts_after, now - timedelta(days=7 * (MAX_CATCH_UP + 1)))
        label = week_label(earliest.astimezone(league.weeks.zone).date(), league.week_start)
        if after is not None and after >= label:
            label = next_week(after, league.week_start)
        found: list[str] = []
        while True:
            _, end = week_bounds(league.weeks, label)
            if end > now:
                break
            if end > posts_after:
                found.append(label)
            label = next_week(label, league.week_start)
        return found[-MAX_CATCH_UP:]

    async def due(self) -> list[PostJob]:
        """Every post to make now, each claimed for this owner: interrupted ones, failed ones whose retry time
        has come, and weeks newly ended (a week without games is recorded as empty instead). A post another
        process holds is left to it."""
        now = self.clock.now()
        jobs: list[PostJob] = []
        for league in await store.leagues_with_channel(self.db):
            for record in await store.posts_of(self.db, league.league_id, ("sending", "failed")):
                retry_at = datetime.fromisoformat(record.next_try_at) if record.next_try_at else now
                if (record.status == "sending" or retry_at <= now) and await self._claim(league, record.week):
                    jobs.append(await self._job(league, record.week, record))
            for label in self.finished_weeks(league, await store.last_week_handled(self.db, league.league_id)):
                job = await self._job(league, label, None)
                if not job.rows:
                    await store.record_empty(self.db, league.league_id, label, _iso(now))
                elif await self._claim(league, label):
                    jobs.append(job)
        return jobs

    async def _claim(self, league: LeagueRow, week: str) -> bool:
        now = self.clock.now()
        claimed = await store.claim_post(self.db, league.league_id, week, self.owner, _iso(now),
                                         _iso(now + CLAIM_LEASE))
        return claimed is not None

    async def _job(self, league: LeagueRow, week: str, record: PostRow | None) -> PostJob:
        start, end = week_bounds(league.weeks, week)
        rows = await league_standings(self.db, league, start, end)
        fixes = await corrections(self.db, league.guild_id, league.league_id, _iso(start), _iso(end))
        return PostJob(league, week, start, end, rows, record, fixes)

    async def next_wakeup(self) -> datetime | None:
        """The next moment a post may fall due: the end of a league's current week, or a failed post's retry."""
        moments: list[datetime] = []
        now = self.clock.now()
        for league in await store.leagues_with_channel(self.db):
            label = week_label(now.astimezone(league.weeks.zone).date(), league.week_start)
            moments.append(week_bounds(league.weeks, label)[1])
            moments += [datetime.fromisoformat(r.next_try_at)
                        for r in await store.posts_of(self.db, league.league_id, ("failed",)) if r.next_try_at]
        return min(moments) if moments else None

    async def claim(self, job: PostJob) -> PostRow:
        """About to send: the record says so first (a crash before :meth:`posted` leaves it ``sending``), and
        the claim :meth:`due` made is renewed for the send."""
        now = self.clock.now()
        return await store.record_post(self.db, job.league.league_id, job.week, "sending", _iso(now),
                                       channel_id=job.league.channel_id, attempt=True,
                                       claimed_until=_iso(now + CLAIM_LEASE))

    async def posted(self, job: PostJob, channel_id: int, message_id: int) -> PostRow:
        """The message is in the channel."""
        return await store.record_post(self.db, job.league.league_id, job.week, "posted", _iso(self.clock.now()),
                                       channel_id=channel_id, message_id=message_id)

    async def failed(self, job: PostJob, reason: str) -> PostRow:
        """The post failed for ``reason``: it is tried again later (see :func:`retry_delay`)."""
        now = self.clock.now()
        row = await store.posts_of(self.db, job.league.league_id)
        attempts = next((r.attempts for r in row if r.week == job.week), 1)
        return await store.record_post(self.db, job.league.league_id, job.week, "failed", _iso(now), error=reason,
                                       next_try_at=_iso(now + retry_delay(attempts)))

    async def managers(self, job: PostJob) -> list[int]:
        """Who to tell about a failed post: the league's creator, then the guild's recent managers."""
        managers = await store.managers_of(self.db, job.league.guild_id)
        if job.league.created_by is not None and job.league.created_by not in managers:
            managers.insert(0, job.league.created_by)
        return managers

    async def reported(self, job: PostJob) -> None:
        """The managers were told about this failed post."""
        record = await store.posts_of(self.db, job.league.league_id, ("failed",))
        current = next((r for r in record if r.week == job.week), None)
        if current is not None:
            await store.record_post(self.db, job.league.league_id, job.week, "failed", _iso(self.clock.now()),
                                    error=current.last_error, next_try_at=current.next_try_at, reported=True)
