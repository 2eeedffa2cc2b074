"""The table service on real SQLite files, with a manual clock: persistence before publication, restore after a
restart, deadlines, computer takeover, races, many tables at once, seating."""

from __future__ import annotations

import asyncio

import pytest
from support.service import ALICE, BOB, OpenDb, human_table, no_auto_pass, plain_tile

from bot.engine.actions import CharlestonPass, Discard, PassCall
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.views import waiting_for
from bot.service.clock import ManualClock
from bot.service.errors import ErrorKind, TableError
from bot.service.tables import TableService
from bot.service.updates import TableUpdate
from bot.store import ledger
from bot.store.db import Database


async def rows(db: Database, query: str, *params: object) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await db.fetchall(query, params)]


async def test_a_computer_table_plays_a_whole_game_and_settles_it(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = (await service.create_table(5, 50, seed=3)).table_id
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


async def test_every_update_is_published_after_its_action_is_saved(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = (await service.create_table(5, 50, seed=4)).table_id
    for _ in range(4):
        await service.add_computer(table_id, "normal")
    saved_at_publication: list[tuple[int, int]] = []
    table = service.tables[table_id]

    def listener(update: TableUpdate) -> None:
        # Delivered later, but built when published: the update's game view matches what was saved then.
        if update.cause in ("act", "auto") and update.view.game is not None:
            saved_at_publication.append((update.version, len(update.view.game.discards)))

    service.subscribe(listener, table_id)
    versions: list[int] = []
    original = service._publish

    def checking_publish(live, cause, events):  # type: ignore[no-untyped-def]
        if cause == "auto":
            versions.append(live.version)  # the version already saved when the update goes out
        return original(live, cause, events)

    service._publish = checking_publish  # type: ignore[method-assign]
    await service.start(table_id)
    await service.drain()
    assert len(saved_at_publication) > 50
    assert versions == list(range(1, table.version + 1))
    (saved,) = (await rows(db, "SELECT version FROM snapshots WHERE game_id = ?", table.game_id))[0]
    assert saved == table.version


async def test_a_restarted_service_picks_the_game_up_exactly_where_it_was(db_target: str, open_db: OpenDb) -> None:
    path = db_target
    clock = ManualClock()
    first_db = await open_db(path)
    first = TableService(first_db, clock=clock, computer_delay=0)
    table_id = await human_table(first, [ALICE], seed=11, charleston=False)
    await first.start(table_id)
    before = first.tables[table_id]
    assert before.game is not None
    tile = plain_tile(before.game.state.seats[0].rack)
    await first.act(table_id, ALICE, Discard(0, tile))
    snapshot = before.game.state.to_json()
    version = before.version
    await first_db.close()  # the process "stops"

    second_db = await open_db(path)
    second = TableService(second_db, clock=clock, computer_delay=0)
    assert await second.restore() == 1
    after = second.tables[table_id]
    assert after.game is not None and after.version == version
    assert after.game.state.to_json() == snapshot
    assert after.names[0] == "Player 0"
    while after.game.state.phase != Phase.FINISHED:  # and play goes on from there
        clock.advance(10_000)
        await second.tick()
    assert await ledger.verify(second_db) == []


async def test_a_call_window_that_expired_while_down_is_closed_as_if_on_time(db_target: str, open_db: OpenDb) -> None:
    path = db_target
    clock = ManualClock()
    db1 = await open_db(path)
    service = TableService(db1, clock=clock, computer_delay=0)
    # Alice sits South, after the computer East: East's first discard waits for Alice's answer.
    table_id = (await service.create_table(5, 50, seed=12, rules=table_rules(charleston=False),
                                          options=no_auto_pass(service))).table_id
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
    db2 = await open_db(path)
    restarted = TableService(db2, clock=clock, computer_delay=0)
    await restarted.restore()
    await restarted.tick()
    table = restarted.tables[table_id]
    assert table.game is not None
    (action,) = (await rows(db2, "SELECT action FROM actions WHERE game_id = ? AND seq = ?", table.game_id,
                            window_version))[0]
    assert '"close_window"' in str(action)


async def test_an_absent_player_is_played_by_a_computer_after_the_timeout_and_can_come_back(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, turn_timeout=60, charleston_timeout=60, computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=13)
    updates: list[TableUpdate] = []
    service.subscribe(updates.append, table_id)
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None and waiting_for(table.game) == [0]  # the Charleston waits for Alice
    clock.advance(30)
    assert await service.tick() == 0  # not yet
    clock.advance(31)
    assert await service.tick() >= 1
    await service.drain()
    assert 0 in table.away
    assert any(e.type == "computer_takes_over" and e.seat == 0 for u in updates for e in u.events)
    assert table.version > 0
    if table.playing:
        back = await service.come_back(table_id, ALICE)
        assert 0 not in table.away and back.cause == "back"


async def test_two_actions_racing_on_one_table_are_serialised_and_the_loser_is_told_why(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=14, charleston=False, table_options=no_auto_pass(service))
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None
    tile = plain_tile(table.game.state.seats[0].rack)
    other = next(t for t in table.game.state.seats[0].rack if t != tile)
    results = await asyncio.gather(service.act(table_id, ALICE, Discard(0, tile)),
                                   service.act(table_id, ALICE, Discard(0, other)), return_exceptions=True)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], TableError)
    assert errors[0].kind == ErrorKind.ILLEGAL and str(errors[0])  # a sentence for the player
    discards_by_alice = [t for s, t in table.game.state.discards if s == 0]
    assert len(discards_by_alice) in (1, 0)  # one discard went through (it may since have been called)


async def test_an_illegal_action_is_explained_and_changes_nothing(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await human_table(service, [ALICE, BOB], seed=16, charleston=False)
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None
    before = (table.version, table.game.state.to_json())
    with pytest.raises(TableError, match="no discard to call") as refused:
        await service.act(table_id, BOB, PassCall(1))
    assert refused.value.kind == ErrorKind.ILLEGAL
    with pytest.raises(TableError, match="another seat"):
        await service.act(table_id, BOB, Discard(0, plain_tile(table.game.state.seats[0].rack)))
    with pytest.raises(TableError, match="not a move") as malformed:
        await service.act(table_id, ALICE, "d.ZZ")
    assert malformed.value.kind == ErrorKind.BAD_INPUT
    assert (table.version, table.game.state.to_json()) == before


@pytest.mark.slow
async def test_a_hundred_tables_advance_concurrently(db: Database) -> None:
    """A hundred tables, each waiting for its human's Charleston pass; all hundred passes arrive at once."""
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    ids = []
    for n in range(100):
        table_id = (await service.create_table(6, n, seed=1000 + n)).table_id
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


async def test_seating_rules(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = (await service.create_table(5, 50, seed=1, created_by=ALICE)).table_id
    joined = await service.join(table_id, ALICE, "Alice")
    assert joined.cause == "join" and joined.view.seats[0].name == "Alice" and joined.phase == "lobby"
    with pytest.raises(TableError, match="already have a seat") as twice:
        await service.join(table_id, ALICE, "Alice")
    assert twice.value.kind == ErrorKind.SEATING
    with pytest.raises(TableError, match="needs 4 players"):
        await service.start(table_id)
    with pytest.raises(TableError, match="Unknown computer level") as level:
        await service.add_computer(table_id, "grandmaster")
    assert level.value.kind == ErrorKind.BAD_INPUT
    with pytest.raises(TableError, match="Unknown card") as card:
        await service.create_table(5, 51, rules=table_rules(card="no-such-card"))
    assert card.value.kind == ErrorKind.BAD_INPUT
    await service.leave(table_id, ALICE)
    with pytest.raises(TableError, match="no seat") as seatless:
        await service.leave(table_id, ALICE)
    assert seatless.value.kind == ErrorKind.NOT_SEATED
    with pytest.raises(TableError) as missing:
        await service.join(999, BOB, "Bob")
    assert missing.value.kind == ErrorKind.NO_TABLE


async def test_only_the_creator_or_a_manager_closes_a_table(db: Database) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = (await service.create_table(5, 50, seed=1, created_by=ALICE)).table_id
    with pytest.raises(TableError, match="Only the player who opened") as refused:
        await service.close_table(table_id, by=BOB)
    assert refused.value.kind == ErrorKind.FORBIDDEN
    closed = await service.close_table(table_id, by=BOB, manager=True)
    assert closed.cause == "close" and closed.view.status == "closed" and table_id not in service.tables
    (status,) = (await rows(db, "SELECT status FROM tables WHERE table_id = ?", table_id))[0]
    assert status == "closed"


async def test_a_process_restores_only_the_tables_of_its_shards(db_target: str, open_db: OpenDb) -> None:
    db = await open_db(db_target)
    first = TableService(db, clock=ManualClock(), computer_delay=0)
    guilds = [(n << 22) + 17 for n in range(8)]  # guild n is on shard n % 4 of 4
    for guild in guilds:
        table_id = (await first.create_table(guild, 1, seed=guild % 1000)).table_id
        await first.join(table_id, ALICE, "Alice", seat=0)
        for seat in (1, 2, 3):
            await first.add_computer(table_id, "normal", seat)
        await first.start(table_id)  # a game in progress, waiting for Alice
    second = TableService(db, clock=ManualClock(), computer_delay=0)
    assert await second.restore((4, (1, 3))) == 4
    assert sorted(t.row.guild_id for t in second.tables.values()) == [guilds[n] for n in (1, 3, 5, 7)]
    for table in second.tables.values():
        assert table.game is not None and table.version == first.tables[table.table_id].version


async def test_a_command_typed_in_a_dm_means_the_callers_only_table_anywhere(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    first = (await service.create_table(111 << 22, 5)).table_id
    await service.join(first, ALICE, "Alice")
    assert service.table_for(0, 77, ALICE) == first  # a DM: guild 0, the DM channel
    second = (await service.create_table(222 << 22, 6)).table_id
    await service.join(second, ALICE, "Alice")
    with pytest.raises(TableError) as several:
        service.table_for(0, 77, ALICE)
    assert several.value.kind is ErrorKind.NO_TABLE
    assert service.table_for(222 << 22, 9, ALICE) == second  # in a guild, that guild's one
