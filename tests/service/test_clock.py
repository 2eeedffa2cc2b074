"""The table's clock and decisions: tokens that outlive unrelated moves, computer moves at their paced times,
deadlines, away players across restarts, races between players, and two processes on one database."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from support.service import ALICE, BOB, CAROL, DAN, PEOPLE, OpenDb, human_table, move_people, no_auto_pass, plain_tile

from bot.engine.state import Phase
from bot.engine.tiles import code
from bot.engine.views import waiting_for
from bot.service.clock import ManualClock
from bot.service.errors import ErrorKind, TableError
from bot.service.tables import TableService
from bot.service.updates import TableOptions, TableUpdate
from bot.store import ledger
from bot.store.db import Database


async def _to_a_window_alice_can_call(service: TableService, clock: ManualClock, table_id: int) -> None:
    """Play (Alice moving like a computer) until a computer's discard that Alice may call for an exposure."""
    table = service.tables[table_id]
    for _ in range(2000):
        assert table.playing, "no callable discard in this game: pick another seed"
        if table.people_awaited() == [0]:
            mine = service.seat_update(table_id, ALICE)
            game = table.game
            assert game is not None
            if game.state.phase == Phase.CALL_WINDOW and mine.choices.calls:
                return
            await move_people(service, table_id)
        else:
            clock.advance(0.5)
            await service.tick()
    raise AssertionError("the game never waited for Alice")


async def test_a_call_with_its_token_is_accepted_after_computer_moves_in_the_same_window(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=1.5)
    table_id = await human_table(service, [ALICE], seed=41, level="easy", charleston=False, call_window_seconds=10,
                                 table_options=no_auto_pass(service))
    await service.start(table_id)
    await _to_a_window_alice_can_call(service, clock, table_id)
    table = service.tables[table_id]
    drawn_for = service.seat_update(table_id, ALICE)
    token = drawn_for.table.token
    assert token is not None and "w" in token
    clock.advance(1.5)  # the two other computers have answered the window (a pass at once, a call after 1.5 s)
    await service.tick()
    if table.game is not None and table.game.state.phase == Phase.CALL_WINDOW:
        assert table.awaiting() == (0,), "both other computers answered inside the window"
        call = drawn_for.choices.calls[0]
        mine = await service.act(table_id, ALICE, call.key, token=token)
        assert any(e.type == "call" and e.seat == 0 for e in mine.events)


async def test_a_button_for_a_closed_window_is_refused_clearly(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=1.5)
    table_id = await human_table(service, [ALICE], seed=41, level="easy", charleston=False, call_window_seconds=10)
    await service.start(table_id)
    await _to_a_window_alice_can_call(service, clock, table_id)
    stale = service.seat_update(table_id, ALICE)
    clock.advance(10)  # the window runs out with Alice silent
    await service.tick()
    assert stale.table.token not in {service.seat_update(table_id, ALICE).table.token}
    with pytest.raises(TableError, match="can no longer be called") as refused:
        await service.act(table_id, ALICE, stale.choices.calls[0].key, token=stale.table.token)
    assert refused.value.kind == ErrorKind.GONE
    assert "an earlier discard" in str(refused.value)


@pytest.mark.slow
@pytest.mark.parametrize("auto_pass", [True, False])
async def test_computers_pass_at_once_and_call_and_discard_after_their_delay(db: Database, auto_pass: bool) -> None:
    """A whole game at computer_delay 1.5, Alice answering at once:
    a computer's pass comes the moment its window opens (or the moment a computer before it in seat order called),
    a computer's call 1.5 s after the window opened, and a computer's discard (or joker exchange) 1.5 s after its
    draw or exposure (the clock moved to each moment the table is due)."""
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=1.5)
    options = None if auto_pass else no_auto_pass(service)
    table_id = await human_table(service, [ALICE], seed=42, charleston=False, table_options=options)
    start = clock.now()
    moments: list[tuple[float, str, int]] = []

    def note(update: TableUpdate) -> None:
        for event in update.events:
            moments.append(((clock.now() - start).total_seconds(), event.type, event.seat or 0))

    service.subscribe(note, table_id)
    await service.start(table_id)
    table = service.tables[table_id]
    while table.playing:
        if not await move_people(service, table_id):
            wakeup = service.next_wakeup()
            assert wakeup is not None
            clock.advance(max(0.0, (wakeup - clock.now()).total_seconds()))
            await service.tick()
        await service.drain()
    opened = 0.0
    called = passes_at_once = calls = 0
    for at, kind, seat in moments:
        if kind == "call_window":
            opened, called = at, False
        elif kind in ("pass", "call") and seat != 0:
            waited = at - opened
            if kind == "call":
                assert waited == pytest.approx(1.5), "a computer's call comes after its delay"
                called, calls = True, calls + 1
            else:
                assert waited == pytest.approx(1.5 if called else 0.0), "a computer's pass comes at once"
                passes_at_once += not called
    ready: dict[int, float] = {}  # when each seat's latest move before a discard was made (a draw, an exposure...)
    for at, kind, seat in moments:
        if kind in ("discard", "joker_exchange") and seat != 0 and seat in ready:
            assert at - ready[seat] == pytest.approx(1.5), "a computer moves on its turn after its delay"
        if kind in ("draw", "exposure", "joker_exchange"):
            ready[seat] = at
        elif kind == "discard":
            ready.pop(seat, None)
    assert calls > 0 and passes_at_once > 20, (calls, passes_at_once)


async def test_a_table_of_people_who_never_act_does_not_stall(db: Database) -> None:
    """start() sets the first deadline itself: when it passes, the silent players' seats go to computers."""
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=0, charleston_timeout=60)
    table_id = await human_table(service, list(PEOPLE), seed=43)
    started = await service.start(table_id)
    assert started.deadline == clock.now() + timedelta(seconds=60)
    assert service.next_wakeup() == started.deadline
    clock.advance(61)
    await service.tick()
    table = service.tables[table_id]
    assert table.away == {0, 1, 2, 3}
    assert table.game is not None and table.game.state.phase == Phase.FINISHED  # the computers played it out
    assert await ledger.verify(db) == []


async def test_two_players_passing_the_same_window_at_the_same_moment_are_both_accepted(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=0)
    table_id = await human_table(service, list(PEOPLE), seed=44, charleston=False,
                                 table_options=no_auto_pass(service))
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None
    tile = plain_tile(table.game.state.seats[0].rack)
    await service.act(table_id, ALICE, f"d.{code(tile)}")
    window = service.seat_update(table_id, BOB).table.token
    assert table.game.state.phase == Phase.CALL_WINDOW and waiting_for(table.game) == [1, 2, 3]
    results = await asyncio.gather(service.act(table_id, BOB, "p", token=window),
                                   service.act(table_id, CAROL, "p", token=window), return_exceptions=True)
    assert not [r for r in results if isinstance(r, Exception)]
    assert waiting_for(table.game) == [3]
    await service.act(table_id, DAN, "p", token=window)
    assert table.game.state.phase == Phase.PLAY and table.game.state.turn == 1


async def test_a_restart_in_an_away_players_turn_keeps_her_away(db_target: str, open_db: OpenDb) -> None:
    path = db_target
    clock = ManualClock()
    db1 = await open_db(path)
    first = TableService(db1, clock=clock, computer_delay=5, turn_timeout=30)
    table_id = await human_table(first, [ALICE], seed=45, charleston=False)
    await first.start(table_id)
    clock.advance(31)  # Alice (East) does not discard: a computer takes her seat (and discards at once)
    await first.tick()
    live = first.tables[table_id]
    assert live.away == {0}
    for _ in range(200):  # play on until her turn comes round again, the computer due to move in 5 s
        game = live.game
        assert game is not None and live.playing
        if game.state.phase == Phase.PLAY and game.state.turn == 0 and not game.state.turn_state.needs_draw:
            break
        clock.advance(1)
        await first.tick()
    await db1.close()  # the bot stops in the middle of her turn

    db2 = await open_db(path)
    second = TableService(db2, clock=clock, computer_delay=5, turn_timeout=30)
    await second.restore()
    table = second.tables[table_id]
    assert table.away == {0} and table.view().seats[0].away
    assert table.computers_awaited() == [0]
    discards = table.game.state.turns if table.game is not None else 0
    await second.tick()  # and the computer standing in for her plays on at once
    assert table.game is not None and table.game.state.turns == discards + 1
    back = await second.come_back(table_id, ALICE)
    assert not back.view.seats[0].away
    (away,) = await db2.fetchone("SELECT away FROM table_seats WHERE table_id = ? AND seat = 0", (table_id,))
    assert away == 0


async def test_a_computers_call_held_when_the_bot_stopped_is_made_on_restart(db_target: str,
                                                                             open_db: OpenDb) -> None:
    """A computer that decided to call waits its delay; the bot stopped meanwhile: after the restart it answers
    at once, with the same call (the same position gives the same decision), so the window is not lost."""
    path = db_target
    clock = ManualClock()
    db1 = await open_db(path)
    first = TableService(db1, clock=clock, computer_delay=1.5)
    table_id = await human_table(first, [ALICE], seed=46, charleston=False, call_window_seconds=30,
                                 table_options=no_auto_pass(first))
    await first.start(table_id)
    table = first.tables[table_id]
    for _ in range(2000):
        game = table.game
        assert game is not None and table.playing, "no computer called in this game: pick another seed"
        if game.state.phase == Phase.CALL_WINDOW and table.held:
            break
        if not await move_people(first, table_id):
            clock.advance(0.5)
            await first.tick()
    (caller, call), = table.held.items()
    assert call.type == "call" and caller in table.computers_awaited()
    await db1.close()  # stopped before the computer's 1.5 s were up

    db2 = await open_db(path)
    second = TableService(db2, clock=clock, computer_delay=1.5)
    await second.restore()
    await second.tick()  # clock not moved: well inside the 30 s window
    again = second.tables[table_id]
    assert again.game is not None
    made = [a for a in again.game.state.log if a["type"] == "call" and a["seat"] == caller]
    assert made and made[-1] == call.to_json()  # the computer's call was not lost


async def test_a_second_process_on_the_same_database_gets_a_clear_conflict(db_target: str, open_db: OpenDb) -> None:
    path = db_target
    clock = ManualClock()
    db1 = await open_db(path)
    one = TableService(db1, clock=clock, computer_delay=0)
    table_id = await human_table(one, [ALICE, BOB], seed=47, charleston=False)
    await one.start(table_id)
    db2 = await open_db(path)
    two = TableService(db2, clock=clock, computer_delay=0)
    await two.restore()
    game = one.tables[table_id].game
    assert game is not None
    tile = code(plain_tile(game.state.seats[0].rack))
    await one.act(table_id, ALICE, f"d.{tile}")
    with pytest.raises(TableError, match="another copy of the bot") as conflict:
        await two.act(table_id, ALICE, f"d.{tile}")
    assert conflict.value.kind == ErrorKind.CONFLICT
    reloaded = two.tables[table_id]
    assert reloaded.version == one.tables[table_id].version  # reloaded: it now sees the first one's move


async def test_a_hold_extends_the_deadline_in_an_update(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=0)
    table_id = await human_table(service, [ALICE, BOB], seed=48, charleston=False, call_window_seconds=8)
    await service.start(table_id)
    table = service.tables[table_id]
    assert table.game is not None
    await service.act(table_id, ALICE, f"d.{code(plain_tile(table.game.state.seats[0].rack))}")
    opened = table.deadline
    assert opened == clock.now() + timedelta(seconds=8)
    held = await service.act(table_id, BOB, "h", token=service.seat_update(table_id, BOB).table.token)
    assert held.table.deadline == opened + timedelta(seconds=table.rules.hold_seconds)
    assert held.table.cause == "act" and any(e.type == "hold" for e in held.table.events)


async def _computer_game(db: Database, seed: int, levels: list[str], delay: float,
                         auto_pass: bool) -> list[dict[str, object]]:
    """A table of four computers played to its end, the clock moved to each moment it is due; its action log."""
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=delay)
    table_id = (await service.create_table(5, 50, seed=seed, options=TableOptions(delay, auto_pass=auto_pass))).table_id
    for level in levels:
        await service.add_computer(table_id, level)
    await service.start(table_id)
    table = service.tables[table_id]
    while table.playing:
        wakeup = service.next_wakeup()
        assert wakeup is not None
        clock.advance(max(0.0, (wakeup - clock.now()).total_seconds()))
        await service.tick()
    assert table.game is not None
    return list(table.game.state.log)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5, 6, 7])
async def test_a_table_of_computers_plays_the_same_game_at_any_pacing(db: Database, seed: int) -> None:
    """Passes made at once and calls after the delay: the same moves in the same order as at no delay at all, with
    and without auto_pass."""
    levels = ["hard", "random", "easy", "normal"]
    at_once = await _computer_game(db, seed, levels, 0.0, True)
    assert await _computer_game(db, seed, levels, 1.5, True) == at_once
    assert await _computer_game(db, seed, levels, 0.7, False) == at_once
