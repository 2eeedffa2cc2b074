"""How the Discord layer paces its own writes (docs/architecture.md, *Spending Discord's budget*): a throttle gathers
routine changes into one write per calm interval and lets what must be seen soon through within the short one, and
tries a failed write again; the door never writes more than 5 times in 5 s to one channel."""

from __future__ import annotations

import asyncio
import time

from cogs.door import CHANNEL_WINDOW, CHANNEL_WRITES, Door
from cogs.failures import Backoff, DiscordFailure, Failure
from cogs.show.throttle import Throttle


class Recorder:
    """A flush that notes when it ran (and fails the first ``failing`` times, as Discord's 5xx would)."""

    def __init__(self, failing: int = 0) -> None:
        self.runs: list[float] = []
        self.failing = failing

    async def __call__(self) -> float | None:
        self.runs.append(time.monotonic())
        if self.failing:
            self.failing -= 1
            raise DiscordFailure(Failure.TRANSIENT, "edit the table message", status=503)
        return None


async def test_routine_pokes_gather_into_one_write_per_calm_interval() -> None:
    flush = Recorder()
    throttle = Throttle(flush, 0.02, Backoff(0.01, 0.05), calm=0.3)
    throttle.poke()
    await throttle.settle()
    start = time.monotonic()
    for _ in range(20):  # the computers' moves
        throttle.poke()
        await asyncio.sleep(0.005)
    await throttle.settle()
    assert len(flush.runs) == 2, "the first at once, the other twenty in one"
    assert flush.runs[1] - flush.runs[0] >= 0.29 and flush.runs[1] > start


async def test_a_change_someone_must_see_goes_through_within_the_short_interval() -> None:
    flush = Recorder()
    throttle = Throttle(flush, 0.02, Backoff(0.01, 0.05), calm=5.0)
    throttle.poke()
    await throttle.settle()
    throttle.poke()  # routine: would wait 5 s
    await asyncio.sleep(0.05)
    assert len(flush.runs) == 1
    throttle.poke(soon=True)
    await throttle.settle()
    assert len(flush.runs) == 2 and flush.runs[1] - flush.runs[0] < 1.0


async def test_a_write_discord_fails_is_tried_again_until_it_lands() -> None:
    flush = Recorder(failing=3)
    throttle = Throttle(flush, 0.01, Backoff(0.01, 0.04))
    throttle.poke()
    for _ in range(100):
        if len(flush.runs) == 4:
            break
        await asyncio.sleep(0.02)
    assert len(flush.runs) == 4 and throttle.failures == 0


async def test_the_door_writes_at_most_5_times_in_5_seconds_to_one_channel() -> None:
    door = Door(None, timeout=1.0)  # type: ignore[arg-type]  # pacing needs no bot
    assert (CHANNEL_WRITES, CHANNEL_WINDOW) == (5, 5.0)
    start = time.monotonic()
    for _ in range(CHANNEL_WRITES):
        async with door.pace(1):
            pass
    async with door.pace(2):  # another channel is not held up
        pass
    assert time.monotonic() - start < 0.5
    for slot in door._writes[1]:  # as if the five were made 4.7 s ago
        slot[0] -= 4.7
    before = time.monotonic()
    async with door.pace(1):  # the 6th write to channel 1 waits until the first is 5 s old
        waited = time.monotonic() - before
    assert 0.2 <= waited <= 1.0
