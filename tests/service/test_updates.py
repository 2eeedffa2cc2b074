"""The service's API for the Discord layer: one update per change, private parts only for their seat, listeners
isolated from the table and from each other."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from support.service import ALICE, PEOPLE, human_table, move_people, plain_tile

from bot.engine.events import Event
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.tiles import Tile, code
from bot.service.clock import ManualClock
from bot.service.tables import TableService
from bot.service.updates import SeatUpdate, TableUpdate
from bot.store.db import Database


def _private_events_of_others(events: tuple[Event, ...], seat: int | None) -> list[Event]:
    return [e for e in events if e.private and e.seat != seat]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [21, 22, 23])
async def test_no_update_hands_a_seat_anothers_private_events(db: Database, seed: int) -> None:
    """Four people play a whole game through the service (their moves chosen by computer players, made by action
    key with the decision's token); every update any listener or method gets is checked for others' secrets."""
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await human_table(service, list(PEOPLE), seed=seed)
    public: list[TableUpdate] = []
    per_seat: dict[int, list[SeatUpdate]] = {s: [] for s in range(4)}
    everyone: list[SeatUpdate] = []
    service.subscribe(public.append)  # a spectator of every table
    for seat in range(4):
        service.subscribe_seat(per_seat[seat].append, table_id, seat)
    service.subscribe_seat(everyone.append)  # every seat a person holds, as a DM sender would
    returned: list[TableUpdate] = [await service.start(table_id)]
    mine: list[SeatUpdate] = []
    table = service.tables[table_id]
    while table.playing:
        assert await move_people(service, table_id, mine) > 0
        for seat, player in enumerate(PEOPLE):
            asked = service.seat_update(table_id, player)
            assert asked.seat == seat and not _private_events_of_others(asked.events, seat)
    await service.drain()
    assert table.game is not None and table.game.state.phase == Phase.FINISHED

    for update in public + returned:
        assert not any(e.private for e in update.events)
        if update.view.game is not None:
            assert not hasattr(update.view.game, "rack")
    kinds_seen: set[str] = set()
    for seat, updates in per_seat.items():
        assert updates, f"seat {seat} heard nothing"
        for update in updates:
            assert update.seat == seat and not _private_events_of_others(update.events, seat)
            assert not any(e.private for e in update.table.events)
            kinds_seen |= {e.type for e in update.events}
    for update in mine + everyone:
        assert not _private_events_of_others(update.events, update.seat)
        assert update.player_id == PEOPLE[update.seat]
    # every private kind a game has was seen, each by its own seat only
    assert {"rack", "drew", "charleston_received"} <= kinds_seen
    assert len(everyone) == sum(len(u) for u in per_seat.values())


async def test_one_update_per_change_with_the_awaited_seats_and_deadline(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=0, charleston_timeout=120)
    updates: list[TableUpdate] = []
    service.subscribe(updates.append)
    created = await service.create_table(5, 50, seed=31, rules=table_rules("nmjl-1946", card="nmjl-1946"))
    table_id = created.table_id
    assert created.cause == "create" and created.phase == "lobby" and created.view.wild == Tile.F
    await service.join(table_id, ALICE, "Alice", seat=0)
    for seat in (1, 2, 3):
        await service.add_computer(table_id, "normal", seat)
    started = await service.start(table_id)
    await service.drain()
    assert [u.cause for u in updates[:6]] == ["create", "join", "computer", "computer", "computer", "start"]
    versions = [u.version for u in updates]
    assert versions == list(range(1, len(updates) + 1))
    assert started.phase == "charleston" and started.awaiting == (0, 1, 2, 3)
    assert started.deadline == clock.now() + timedelta(seconds=120)
    assert started.token == "1c0"
    # the computers' passes came after the deal, one update each, and now only Alice is awaited
    last = updates[-1]
    assert last.cause == "auto" and last.awaiting == (0,) and last.deadline == started.deadline


async def test_a_raising_listener_and_a_slow_one_leave_the_action_committed_and_others_served(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=32, charleston=False)
    served: list[int] = []
    slow_started = asyncio.Event()
    release = asyncio.Event()

    def raising(update: TableUpdate) -> None:
        raise RuntimeError("a broken listener")

    async def slow(update: TableUpdate) -> None:
        slow_started.set()
        await release.wait()

    service.subscribe(raising, table_id)
    service.subscribe(slow, table_id)
    service.subscribe(lambda u: served.append(u.version), table_id)
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None
    tile = plain_tile(table.game.state.seats[0].rack)
    mine = await service.act(table_id, ALICE, f"d.{code(tile)}")
    assert mine.seat == 0 and any(e.type == "discard" for e in mine.events)  # the action went through
    await slow_started.wait()
    for _ in range(50):
        if served and served[-1] == table.updates:
            break
        await asyncio.sleep(0)
    assert served and served[-1] == table.updates  # the fast listener got everything while the slow one waits
    (saved,) = await db.fetchone("SELECT version FROM snapshots WHERE game_id = ?", (table.game_id,))
    assert saved == table.version and 0 not in table.away
    release.set()
    await service.drain()


async def test_a_listener_may_call_back_into_the_service(db: Database) -> None:
    """A listener that answers for a player (as a button press would) does not deadlock the table."""
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=33, charleston=False)
    answered: list[int] = []

    async def autopilot(update: SeatUpdate) -> None:
        if update.awaited and update.choices.discard and service.tables[table_id].playing:
            try:
                plain = next(c for c in update.choices.discard if c.key != "d.J")  # a joker would ask first
                await service.act(table_id, ALICE, plain.key, token=update.table.token)
                answered.append(update.table.version)
            except Exception:
                pass  # the decision moved on: a later update will answer

    service.subscribe_seat(autopilot, table_id, 0)
    await service.start(table_id)
    await asyncio.wait_for(service.drain(), timeout=30)
    assert answered
