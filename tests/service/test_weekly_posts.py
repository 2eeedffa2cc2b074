"""Which weekly standings posts are due, by the service's clock, and what is recorded of each: a week is due once
it has ended after the league got its channel; empty weeks are recorded, not posted; a long downtime posts at
most the latest weeks; failed posts come back at their retry time, interrupted ones at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from support.leagues import GUILD, game_at
from support.service import OpenDb

from bot.service.clock import ManualClock
from bot.service.leagues import LeagueService
from bot.service.weekly import FIRST_RETRY, LAST_RETRY, MAX_CATCH_UP, WeeklyPosts, retry_delay
from bot.store import leagues as store

WEDNESDAY = datetime(2026, 11, 18, 12, tzinfo=UTC)  # in 2026-W47 (Monday 16 to Sunday 22 November)


@pytest.fixture
async def setup(db_target: str, open_db: OpenDb) -> tuple[LeagueService, WeeklyPosts]:
    db = await open_db(db_target)
    clock = ManualClock(WEDNESDAY)
    return LeagueService(db, clock), WeeklyPosts(db, clock)


def test_retries_wait_longer_each_time_up_to_six_hours() -> None:
    assert [retry_delay(n) for n in (1, 2, 3)] == [FIRST_RETRY, 2 * FIRST_RETRY, 4 * FIRST_RETRY]
    assert retry_delay(7) < LAST_RETRY == retry_delay(8) and retry_delay(10_000) == LAST_RETRY


async def test_a_week_is_due_once_it_has_ended(setup: tuple[LeagueService, WeeklyPosts]) -> None:
    leagues, posts = setup
    clock = leagues.clock
    assert isinstance(clock, ManualClock)
    league = await leagues.create(GUILD, "Club", timezone="Europe/Paris")
    assert await posts.due() == []  # no channel: nothing is ever due
    league = await leagues.set_channel(league, 70)
    await game_at(leagues.db, league.league_id, clock.now())
    assert await posts.due() == []
    end = datetime(2026, 11, 22, 23, tzinfo=UTC)  # Monday 23 November, midnight in Paris
    assert await posts.next_wakeup() == end
    clock.advance((end - clock.now()).total_seconds() - 1)
    assert await posts.due() == []
    clock.advance(1)
    (job,) = await posts.due()
    assert (job.week, job.start, job.end, job.interrupted) == ("2026-W47", end - timedelta(days=7), end, False)
    assert [s.player_id for s in job.rows] == [1, 2]
    await posts.claim(job)
    (again,) = await posts.due()  # claimed and never finished: a crash; looked for, then sent
    assert again.interrupted
    await posts.posted(again, 70, 900)
    assert await posts.due() == []
    clock.advance(7 * 86400)
    assert await posts.due() == []  # W48 had no games: recorded, not posted
    assert [(p.week, p.status) for p in await store.posts_of(leagues.db, league.league_id)] == [
        ("2026-W47", "posted"), ("2026-W48", "empty")]


async def test_a_failed_post_comes_back_at_its_retry_time(setup: tuple[LeagueService, WeeklyPosts]) -> None:
    leagues, posts = setup
    clock = leagues.clock
    assert isinstance(clock, ManualClock)
    league = await leagues.set_channel(await leagues.create(GUILD, "Club"), 70)
    await game_at(leagues.db, league.league_id, clock.now())
    clock.advance(5 * 86400)
    (job,) = await posts.due()
    await posts.claim(job)
    failed = await posts.failed(job, "the channel is gone")
    assert (failed.status, failed.attempts, failed.reported) == ("failed", 1, False)
    await posts.reported(job)
    assert await posts.due() == []
    assert await posts.next_wakeup() == clock.now() + FIRST_RETRY
    clock.advance(FIRST_RETRY.total_seconds())
    (retry,) = await posts.due()
    await posts.claim(retry)
    second = await posts.failed(retry, "still gone")
    assert (second.attempts, second.reported, second.last_error) == (2, True, "still gone")
    await leagues.set_channel(league, 71)  # a new channel: tried again at once
    (moved,) = await posts.due()
    assert moved.league.channel_id == 71


async def test_a_long_downtime_posts_only_the_latest_weeks(setup: tuple[LeagueService, WeeklyPosts]) -> None:
    leagues, posts = setup
    clock = leagues.clock
    assert isinstance(clock, ManualClock)
    league = await leagues.set_channel(await leagues.create(GUILD, "Club"), 70)
    for week in range(30):
        await game_at(leagues.db, league.league_id, clock.now() + timedelta(days=7 * week))
    clock.advance(30 * 7 * 86400)
    due = await posts.due()
    assert len(due) == MAX_CATCH_UP
    assert due[-1].week == "2027-W23" and due[0].week == "2027-W12"
