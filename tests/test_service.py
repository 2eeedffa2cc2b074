"""The table service on real SQLite files, with a manual clock: persistence before publication, restore after a
restart, deadlines, computer takeover, races and stale buttons, many tables at once, private events."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.engine.actions import CharlestonPass, Discard, PassCall
from bot.engine.events import Event
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.views import waiting_for
from bot.service.clock import ManualClock
from bot.service.tables import ServiceError, TableService
from bot.store import ledger
from bot.store.db import Database

ALICE, BOB = 1001, 1002


@pytest.fixture
async def db(tmp_path: Path) -> Database:
    database = await Database.open(tmp_path / "service.db")
    yield database
    await database.close()


async def rows(db: Database, query: str, *params: object) -> list[tuple[object, ...]]:
    async with db.conn.execute(query, params) as cursor:
        return [tuple(r) for r in await cursor.fetchall()]


async def human_table(service: TableService, humans: list[int], seed: int = 7, **options: object) -> int:
    table_id = await service.create_table(5, 50, seed=seed, rules=table_rules(**options))
    for n, player in enumerate(humans):
        await service.join(table_id, player, f"Player {n}", seat=n)
    for seat in range(len(humans), 4):
        await service.add_computer(table_id, "normal", seat)
    return table_id


async def test_a_computer_table_plays_a_whole_game_and_settles_it(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = await service.create_table(5, 50, seed=3)
    for _ in range(4):
        await service.add_computer(table_id, "normal")
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None and table.game.state.phase == Phase.FINISHED
    (count,) = (await rows(db, "SELECT COUNT(*) FROM actions WHERE game_id = ?", table.game_id))[0]
    assert count == table.version == len(table.game.state.log)
    (ended, how) = (await rows(db, "SELECT ended_at, how FROM games WHERE game_id = ?", table.game_id))[0]
    assert ended is not None and how == table.game.state.result.how
    assert await ledger.verify(db) == []


async def test_every_event_is_published_after_its_action_is_saved(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = await service.create_table(5, 50, seed=4)
    for _ in range(4):
        await service.add_computer(table_id, "normal")
    checked: list[int] = []

    async def listener(_: int, events: list[Event]) -> None:
        table = service.tables[table_id]
        if table.game_id is None or table.version == 0:
            return
        (saved,) = (await rows(db, "SELECT version FROM snapshots WHERE game_id = ?", table.game_id))[0]
        assert saved == table.version  # the database already holds what the events describe
        checked.append(saved)

    service.subscribe(table_id, listener)
    await service.start(table_id)
    assert len(checked) > 50


async def test_a_restarted_service_picks_the_game_up_exactly_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "restart.db"
    clock = ManualClock()
    first_db = await Database.open(path)
    first = TableService(first_db, clock=clock)
    table_id = await human_table(first, [ALICE], seed=11, charleston=False)
    await first.start(table_id)
    before = first.tables[table_id]
    assert before.game is not None
    # Alice (East) discards; the computers answer; it is South's... whoever's turn comes next
    tile = before.game.state.seats[0].rack[0]
    await first.act(table_id, ALICE, Discard(0, tile))
    snapshot = before.game.state.to_json()
    version = before.version
    await first_db.close()  # the process "stops"

    second_db = await Database.open(path)
    second = TableService(second_db, clock=clock)
    assert await second.restore() == 1
    after = second.tables[table_id]
    assert after.game is not None and after.version == version
    assert after.game.state.to_json() == snapshot
    assert after.names[0] == "Player 0"
    # and play goes on from there
    clock.advance(10_000)
    while after.game.state.phase != Phase.FINISHED:
        clock.advance(10_000)
        await second.tick()
    assert await ledger.verify(second_db) == []
    await second_db.close()


async def test_a_call_window_that_expired_while_down_is_closed_as_if_on_time(tmp_path: Path) -> None:
    path = tmp_path / "window.db"
    clock = ManualClock()
    db1 = await Database.open(path)
    service = TableService(db1, clock=clock)
    # Alice sits South, after the computer East: East's first discard waits for Alice's answer.
    table_id = await service.create_table(5, 50, seed=12, rules=table_rules(charleston=False))
    await service.add_computer(table_id, "normal", 0)
    await service.join(table_id, ALICE, "Alice", seat=1)
    await service.add_computer(table_id, "normal", 2)
    await service.add_computer(table_id, "normal", 3)
    await service.start(table_id)
    game = service.tables[table_id].game
    assert game is not None and game.state.phase == Phase.CALL_WINDOW and waiting_for(game) == [1]
    window_version = service.tables[table_id].version
    await db1.close()

    clock.advance(3600)  # an hour later the bot comes back
    db2 = await Database.open(path)
    restarted = TableService(db2, clock=clock)
    await restarted.restore()
    await restarted.tick()
    table = restarted.tables[table_id]
    assert table.game is not None
    (action,) = (await rows(db2, "SELECT action FROM actions WHERE game_id = ? AND seq = ?", table.game_id,
                            window_version))[0]
    assert '"close_window"' in str(action)
    assert table.game.state.phase != Phase.CALL_WINDOW or table.game.state.window is not None
    await db2.close()


async def test_an_absent_player_is_played_by_a_computer_after_the_timeout_and_can_come_back(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, turn_timeout=60, charleston_timeout=60)
    table_id = await human_table(service, [ALICE], seed=13)
    events: list[Event] = []
    service.subscribe(table_id, lambda _, evs: events.extend(evs))
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None and waiting_for(table.game) == [0]  # the Charleston waits for Alice
    clock.advance(30)
    assert await service.tick() == 0  # not yet
    clock.advance(31)
    assert await service.tick() == 1
    assert 0 in table.away and any(e.type == "computer_takes_over" and e.seat == 0 for e in events)
    assert table.version > 0
    if table.game.state.phase != Phase.FINISHED:
        await service.come_back(table_id, ALICE)
        assert 0 not in table.away


async def test_two_actions_racing_on_one_table_are_serialised_and_the_loser_is_told_why(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = await human_table(service, [ALICE], seed=14, charleston=False)
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None
    tile = table.game.state.seats[0].rack[0]
    other = next(t for t in table.game.state.seats[0].rack if t != tile)
    results = await asyncio.gather(service.act(table_id, ALICE, Discard(0, tile)),
                                   service.act(table_id, ALICE, Discard(0, other)), return_exceptions=True)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], ServiceError)
    assert str(errors[0])  # a sentence for the player, not a traceback
    discards_by_alice = [t for s, t in table.game.state.discards if s == 0]
    assert len(discards_by_alice) in (1, 0)  # one discard went through (it may since have been called)


async def test_a_stale_button_is_refused_with_a_clear_message(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = await human_table(service, [ALICE], seed=15, charleston=False)
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None
    tile = table.game.state.seats[0].rack[0]
    with pytest.raises(ServiceError, match="out of date"):
        await service.act(table_id, ALICE, Discard(0, tile), expected_version=table.version - 1)
    await service.act(table_id, ALICE, Discard(0, tile), expected_version=table.version)


async def test_an_illegal_action_is_explained_and_changes_nothing(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = await human_table(service, [ALICE, BOB], seed=16, charleston=False)
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None
    before = (table.version, table.game.state.to_json())
    with pytest.raises(ServiceError, match="no discard to call"):
        await service.act(table_id, BOB, PassCall(1))
    with pytest.raises(ServiceError, match="another seat"):
        await service.act(table_id, BOB, Discard(0, table.game.state.seats[0].rack[0]))
    assert (table.version, table.game.state.to_json()) == before


async def test_a_hundred_tables_advance_concurrently(db: Database) -> None:
    """A hundred tables, each waiting for its human's Charleston pass; all hundred passes arrive at once."""
    service = TableService(db, clock=ManualClock())
    ids = []
    for n in range(100):
        table_id = await service.create_table(6, n, seed=1000 + n)
        await service.join(table_id, 5000 + n, f"Player {n}", seat=0)
        for seat in (1, 2, 3):
            await service.add_computer(table_id, "easy", seat)
        ids.append(table_id)
    await asyncio.gather(*(service.start(t) for t in ids))

    async def pass_three(n: int, table_id: int) -> None:
        game = service.tables[table_id].game
        assert game is not None
        passable = [t for t in game.state.seats[0].rack if t != 35][:3]  # never a joker
        await service.act(table_id, 5000 + n, CharlestonPass(0, tuple(passable)))

    await asyncio.gather(*(pass_three(n, t) for n, t in enumerate(ids)))
    for table_id in ids:
        table = service.tables[table_id]
        assert table.game is not None and table.game.state.charleston is not None
        assert table.game.state.charleston.stage == 1  # everyone's first right was resolved
        (saved,) = (await rows(db, "SELECT version FROM snapshots WHERE game_id = ?", table.game_id))[0]
        # four first-right passes, then the three computers' first-across passes: waiting for the human again
        assert saved == table.version == len(table.game.state.log) == 7
        assert waiting_for(table.game) == [0]
        assert sum(len(s.rack) for s in table.game.state.seats) + len(table.game.state.wall) == 152


async def test_a_seats_private_events_reach_only_that_seat(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = await human_table(service, [ALICE, BOB], seed=17)
    seen: dict[object, list[Event]] = {0: [], 1: [], None: []}
    service.subscribe(table_id, lambda _, evs: seen[0].extend(evs), seat=0)
    service.subscribe(table_id, lambda _, evs: seen[1].extend(evs), seat=1)
    service.subscribe(table_id, lambda _, evs: seen[None].extend(evs))
    await service.start(table_id)
    assert any(e.private for e in seen[0]) and any(e.private for e in seen[1])
    assert all(e.seat == 0 for e in seen[0] if e.private)
    assert all(e.seat == 1 for e in seen[1] if e.private)
    assert not any(e.private for e in seen[None])


async def test_seating_rules(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = await service.create_table(5, 50, seed=1)
    await service.join(table_id, ALICE, "Alice")
    with pytest.raises(ServiceError, match="already have a seat"):
        await service.join(table_id, ALICE, "Alice")
    with pytest.raises(ServiceError, match="needs 4 players"):
        await service.start(table_id)
    with pytest.raises(ServiceError, match="Unknown computer level"):
        await service.add_computer(table_id, "grandmaster")
    await service.leave(table_id, ALICE)
    with pytest.raises(ServiceError, match="no seat"):
        await service.leave(table_id, ALICE)
