"""The hub's delivery: ``catch_up`` waits for the updates queued before it and no longer, so one table's opening
is never held up by other tables that keep playing (``drain`` settles everything, later updates included)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from bot.service.hub import Hub


@dataclass(frozen=True)
class Update:
    """What the hub reads of an update: its table (the listener gets the whole object)."""

    table_id: int


def publish(hub: Hub, table_id: int) -> None:
    hub.publish(Update(table_id), {})  # type: ignore[arg-type]  # the hub reads only table_id


async def test_catch_up_returns_while_other_tables_keep_publishing() -> None:
    hub = Hub()
    got: list[int] = []

    async def busy_listener(update: Any) -> None:
        got.append(update.table_id)
        await asyncio.sleep(0.001)
        publish(hub, 2)  # another table that never goes quiet

    hub.subscribe(busy_listener)
    publish(hub, 1)
    await asyncio.wait_for(hub.catch_up(), timeout=5)
    assert got[0] == 1
    with pytest.raises(TimeoutError):  # drain waits for the later updates too, and they never stop
        await asyncio.wait_for(hub.drain(), timeout=0.3)
    await hub.close()


async def test_catch_up_waits_for_an_update_queued_before_it() -> None:
    hub = Hub()
    gate = asyncio.Event()
    got: list[int] = []

    async def slow_listener(update: Any) -> None:
        await gate.wait()
        got.append(update.table_id)

    hub.subscribe(slow_listener)
    publish(hub, 7)
    waiting = asyncio.create_task(hub.catch_up())
    for _ in range(20):
        await asyncio.sleep(0)
    assert not waiting.done() and got == []
    gate.set()
    await asyncio.wait_for(waiting, timeout=5)
    assert got == [7]
    await hub.close()


async def test_catch_up_does_not_wait_for_a_listener_that_unsubscribed() -> None:
    hub = Hub()

    async def stuck_listener(update: Any) -> None:
        await asyncio.Event().wait()

    unsubscribe = hub.subscribe(stuck_listener)
    publish(hub, 3)
    waiting = asyncio.create_task(hub.catch_up())
    await asyncio.sleep(0)
    unsubscribe()
    await asyncio.wait_for(waiting, timeout=5)
    await hub.close()


async def test_catch_up_with_nothing_queued_returns_at_once() -> None:
    hub = Hub()
    hub.subscribe(lambda update: None)
    await asyncio.wait_for(hub.catch_up(), timeout=1)
    await hub.close()
