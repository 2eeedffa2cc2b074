"""The process's share of Discord's global request budget (cogs/pacer.py): every request made with the bot's token
waits for it, a burst never starts more than the share in any second, a DM with a decision overtakes the table
edits waiting, and the shares of all processes add up to no more than the limit."""

from __future__ import annotations

import asyncio

import pytest
from support.discord_double import Double
from support.lone_parts import PressCatcher

from cogs.door import Door
from cogs.pacer import GLOBAL_LIMIT, Pacer, Urgency, share
from cogs.payload import Payload

# A shortened second, so that a burst of a few of them takes well under a second of the suite.
WINDOW = 0.3


@pytest.mark.parametrize(("processes", "shards"), [(1, 1), (2, 4), (3, 3), (3, 7), (7, 16), (16, 16)])
def test_the_shares_of_every_process_add_up_to_no_more_than_the_limit(processes: int, shards: int) -> None:
    per_process = [shards // processes + (1 if p < shards % processes else 0) for p in range(processes)]
    shares = [share(GLOBAL_LIMIT, mine, shards) for mine in per_process]
    assert sum(shares) <= GLOBAL_LIMIT and min(shares) >= 1
    assert share(1200, 1, 2) == 600, "a bot Discord granted more sets the limit"


async def test_a_burst_of_table_edits_never_exceeds_the_share_in_any_second(discord_double: Double,
                                                                            client: PressCatcher,
                                                                            door: Door) -> None:
    channels = [discord_double.channel(f"table-{n}").id for n in range(12)]
    messages = [await door.send(channel, Payload("the table"), "post the table message") for channel in channels]
    pacer = Pacer(3, window=WINDOW)
    pacer.install(client.http)
    before = len(discord_double.world.requests)
    tables = zip(channels, messages, strict=True)
    await asyncio.gather(*(door.edit(channel, message.id, Payload("the table, later"), "edit the table message",
                                     level=Urgency.DEFERRABLE) for channel, message in tables))
    arrived = sorted(r.at for r in discord_double.world.requests[before:] if not r.exempt)
    assert len(arrived) == 12 and pacer.waited == 9
    for first, fourth in zip(arrived, arrived[3:], strict=False):
        assert fourth - first >= WINDOW, "a fourth request arrived within the same second"


async def test_a_decision_dm_overtakes_the_table_edits_waiting(discord_double: Double, client: PressCatcher,
                                                               door: Door) -> None:
    channels = [discord_double.channel(f"table-{n}").id for n in range(6)]
    messages = [await door.send(channel, Payload("the table"), "post the table message") for channel in channels]
    ruth = discord_double.user("Ruth", dms_open=True)
    dm_channel = discord_double.world.dm_channel(ruth.user).id
    Pacer(1, window=WINDOW / 3).install(client.http)
    before = len(discord_double.world.requests)
    tables = zip(channels, messages, strict=True)
    edits = [asyncio.create_task(door.edit(channel, message.id, Payload("later"), "edit the table message",
                                           level=Urgency.DEFERRABLE)) for channel, message in tables]
    await asyncio.sleep(0.01)  # the first edit started, the others wait
    await door.send_dm(ruth.user.id, Payload("Your turn: discard."), "send a DM", channel_id=dm_channel,
                       level=Urgency.DECISION)
    await asyncio.gather(*edits)
    order = [r.write_channel for r in discord_double.world.requests[before:] if not r.exempt]
    assert order.index(dm_channel) == 1, "the DM went right after the edit already started"
    assert len(order) == 7


async def test_a_request_in_flight_holds_its_place_until_answered_and_one_given_up_frees_it() -> None:
    pacer = Pacer(1, window=0.05)
    first = await pacer.acquire()
    waiting = asyncio.create_task(pacer.acquire())
    await asyncio.sleep(0.1)  # a whole window later: still in flight, so the next waits
    assert not waiting.done()
    waiting.cancel()  # its caller gave up (the door's timeout)
    pacer.release(first)
    answered = asyncio.get_running_loop().time()
    await asyncio.wait_for(pacer.acquire(), 1.0)  # the place given up is not lost
    assert asyncio.get_running_loop().time() - answered >= 0.05 - 1e-3, "a window after the answer"
