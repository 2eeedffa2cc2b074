"""What the table answers for a player and what it never lets one tap throw away (bot/service/answers.py):
§11.2 windows that close as soon as nobody can use them (the table option auto_pass, on by default) and the
moment every seat has answered, P11 holding still possible, and a Mah Jongg never lost to a Pass or a discard
(M1: a player may always claim the Mah Jongg she holds)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.service import ALICE, human_table, move_people, no_auto_pass, play_until

from bot.engine.actions import PassCall
from bot.engine.state import Phase
from bot.engine.tiles import Tile
from bot.service.answers import can_call
from bot.service.clock import ManualClock
from bot.service.errors import ErrorKind, MahJonggAtStake, NeedsConfirmation
from bot.service.tables import TableService
from bot.service.updates import SeatUpdate, TableOptions
from bot.store.db import Database


@pytest.fixture
async def db(tmp_path: Path) -> Database:
    database = await Database.open(tmp_path / "answers.db")
    yield database
    await database.close()


async def _solo_game(service: TableService, clock: ManualClock, table_id: int) -> int:
    """Play Alice's solo game to its end, checking after every step that no call window waits while none of the
    seats it waits for could call. Returns how many windows were seen open after a step."""
    table = service.tables[table_id]
    opened = 0
    seen: set[str] = set()
    for _ in range(5000):
        if not table.playing:
            return opened
        game = table.game
        assert game is not None
        if game.state.phase == Phase.CALL_WINDOW:
            assert any(can_call(game, s) for s in table.awaiting()), "a window waits though nobody can call"
            token = table.table_update("show", [], change=False).token
            assert token is not None
            if token not in seen:
                seen.add(token)
                opened += 1
        if not await move_people(service, table_id):
            clock.advance(0.5)
            await service.tick()
    raise AssertionError("the game never ended")


async def test_11_2_auto_pass_no_window_waits_when_nobody_can_call(db: Database) -> None:
    """One person and three computers at default options: every window still open after a move is one some
    awaited seat could call; the others closed the moment their discard was made."""
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=1.5)
    discards: list[int] = []
    service.subscribe(lambda u: discards.extend(1 for e in u.events if e.type == "discard"))
    table_id = await human_table(service, [ALICE], seed=21, charleston=False)
    assert service.view(table_id).options.auto_pass
    await service.start(table_id)
    opened = await _solo_game(service, clock, table_id)
    await service.drain()
    assert len(discards) > 40 and opened < len(discards) / 2, (opened, len(discards))


async def test_11_2_with_auto_pass_off_a_window_waits_for_a_person_who_cannot_call(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=1.5)
    table_id = await human_table(service, [ALICE], seed=21, charleston=False, table_options=no_auto_pass(service))
    await service.start(table_id)

    def stuck(mine: SeatUpdate) -> bool:
        game = service.tables[table_id].game
        return (mine.table.phase == Phase.CALL_WINDOW.value and mine.awaited and game is not None
                and not can_call(game, 0))

    mine = await play_until(service, clock, table_id, stuck)
    clock.advance(3)
    await service.tick()
    assert service.seat_update(table_id, ALICE).table.token == mine.table.token  # still waiting for her


async def test_11_2_P11_a_person_who_can_call_is_waited_for_may_wait_and_closes_it_by_answering(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=1.5)
    table_id = await human_table(service, [ALICE], seed=41, level="easy", charleston=False, call_window_seconds=10)
    await service.start(table_id)
    table = service.tables[table_id]
    mine = await play_until(service, clock, table_id, lambda u: u.awaited and bool(u.choices.calls))
    assert mine.choices.hold is not None and mine.choices.pass_call is not None
    clock.advance(1.5)
    await service.tick()  # the computers have answered; only Alice is left
    assert table.awaiting() == (0,)
    deadline = table.deadline
    assert deadline is not None
    await service.act(table_id, ALICE, mine.choices.hold.key, token=mine.table.token)
    assert table.deadline is not None and (table.deadline - deadline).total_seconds() == table.rules.hold_seconds
    clock.advance(12)
    await service.tick()
    assert service.seat_update(table_id, ALICE).table.token == mine.table.token  # held past the window's length
    after = await service.act(table_id, ALICE, mine.choices.pass_call.key, token=mine.table.token)
    closed = [e for e in after.table.events if e.type == "window_closed"]
    assert closed and after.table.token != mine.table.token  # closed the moment the last seat answered


async def test_M1_a_pass_that_would_throw_away_a_mahjong_is_refused_until_confirmed(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=6, charleston=False)
    await service.start(table_id)
    table = service.tables[table_id]
    mine = await play_until(service, clock, table_id, lambda u: u.choices.call_mahjong is not None)
    assert mine.win_chance is not None and mine.win_chance == mine.table.claimable[0]  # type: ignore[index]
    version = table.version
    for move in ("p", PassCall(0)):
        with pytest.raises(MahJonggAtStake) as refused:
            await service.act(table_id, ALICE, move, token=mine.table.token)
        assert refused.value.kind == ErrorKind.MAHJONG_AT_STAKE and refused.value.win_key == "cm"
        assert refused.value.anyway == "Pass anyway" and "Mah Jongg" in str(refused.value)
    assert table.version == version  # nothing happened
    passed = await service.act(table_id, ALICE, "p", token=mine.table.token, confirm=True)
    assert any(e.type == "pass" and e.seat == 0 for e in passed.events)


async def test_M1_the_mahjong_key_of_the_refusal_wins(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=6, charleston=False)
    await service.start(table_id)
    mine = await play_until(service, clock, table_id, lambda u: u.choices.call_mahjong is not None)
    with pytest.raises(MahJonggAtStake) as refused:
        await service.act(table_id, ALICE, "p", token=mine.table.token)
    await service.act(table_id, ALICE, refused.value.win_key, token=mine.table.token)
    game = service.tables[table_id].game
    assert game is not None and game.state.result is not None and game.state.result.winner == 0


async def test_M1_a_discard_that_would_throw_away_a_mahjong_is_refused_until_confirmed(db: Database) -> None:
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=11, charleston=False)
    await service.start(table_id)
    mine = await play_until(service, clock, table_id, lambda u: u.choices.declare is not None)
    assert mine.win_chance == mine.table.token
    tile = mine.choices.discard[0].key
    with pytest.raises(MahJonggAtStake) as refused:
        await service.act(table_id, ALICE, tile, token=mine.table.token)
    assert refused.value.win_key == "m" and refused.value.anyway == "Discard anyway"
    done = await service.act(table_id, ALICE, tile, token=mine.table.token, confirm=True)
    assert any(e.type == "discard" and e.seat == 0 for e in done.events)


async def test_auto_pass_is_kept_with_the_table(tmp_path: Path) -> None:
    path = tmp_path / "options.db"
    first = await Database.open(path)
    try:
        service = TableService(first, clock=ManualClock())
        table_id = (await service.create_table(5, 50, options=TableOptions(1.0, auto_pass=False))).table_id
    finally:
        await first.close()
    again = await TableService.open(str(path), clock=ManualClock())
    try:
        assert service.tables[table_id].options == again.view(table_id).options == TableOptions(1.0, False)
    finally:
        await again.close()


@pytest.mark.parametrize(("players", "taken", "shown"), [
    (4, [], [0, 1, 2, 3]), (3, [], [0, 1, 2]), (3, [1], [0, 1, 2]), (2, [], [0, 2]), (2, [1], [1, 3]),
    (2, [0, 2], [0, 2]),
])
async def test_the_lobby_shows_as_many_chairs_as_the_table_has_players(db: Database, players: int, taken: list[int],
                                                                       shown: list[int]) -> None:
    service = TableService(db, clock=ManualClock())
    table_id = (await service.create_table(5, 50, rules=service.make_rules("nmjl", players=players))).table_id
    for seat in taken:
        await service.join(table_id, 7000 + seat, f"P{seat}", seat=seat)
    assert [s.seat for s in service.view(table_id).chairs()] == shown


async def test_discarding_a_joker_is_asked_about_until_confirmed(db: Database) -> None:
    """The misclick guard: a joker is discarded only once the player confirms it; the refusal offers no other move,
    and nothing moves meanwhile."""
    clock = ManualClock()
    service = TableService(db, clock=clock, computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=19)
    await service.start(table_id)
    mine = await play_until(service, clock, table_id,
                            lambda u: u.awaited and any(c.key == "d.J" for c in u.choices.discard))
    version = service.tables[table_id].version
    with pytest.raises(NeedsConfirmation) as asked:
        await service.act(table_id, ALICE, "d.J", token=mine.table.token)
    assert asked.value.kind == ErrorKind.CONFIRM and asked.value.instead is None
    assert asked.value.anyway == "Discard the joker" and "joker" in asked.value.message
    assert service.tables[table_id].version == version
    done = await service.act(table_id, ALICE, "d.J", token=mine.table.token, confirm=True)
    assert any(e.type == "discard" and e.seat == 0 and e.payload.tile == Tile.J for e in done.events)
