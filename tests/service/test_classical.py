"""The table service and the ledger with classical tables (docs/rules.md §9) and two-player tables (CH9): the
service names the preset like any other, plays and settles the games, seats two players opposite, and gives a
classical player a hint made of sets."""

from __future__ import annotations

import pytest
from support.service import ALICE, BOB, human_table, move_people

from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.service.clock import ManualClock
from bot.service.errors import ErrorKind, TableError
from bot.service.tables import TableService
from bot.store import ledger
from bot.store.db import Database


async def test_CL_make_rules_names_the_classical_preset(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    rules = service.make_rules("classical", players=3, base=5)
    assert rules.classical and rules.card == "classical" and rules.players == 3 and rules.base == 5
    assert service.make_rules("nmjl", card="classical").classical  # the classical "card" brings its own rules
    with pytest.raises(TableError) as info:
        service.make_rules("classical", card="practice")
    assert info.value.kind == ErrorKind.BAD_INPUT and "without a card" in str(info.value)


@pytest.mark.parametrize("players", [4, 2])
async def test_CL_a_classical_table_of_computers_plays_and_settles_in_the_ledger(db: Database, players: int) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = (await service.create_table(5, 50, seed=3, rules=table_rules("classical", players=players))).table_id
    for _ in range(players):
        await service.add_computer(table_id, "normal")
    for _ in range(3):  # three games: East moves on, each one settled
        await service.start(table_id)
        table = service.tables[table_id]
        assert table.game is not None and table.game.state.phase == Phase.FINISHED
        assert table.game.state.rules.classical
    games = [tuple(r) for r in await db.fetchall("SELECT card_id, how FROM games", ())]
    assert len(games) == 3 and all(card == "classical" for card, _ in games)
    assert await ledger.verify(db) == []
    posted = await db.fetchall("SELECT COUNT(*) FROM ledger_postings", ())
    assert posted[0][0] > 0  # normal players go out: chips changed hands


async def test_CL_people_play_a_classical_game_by_action_keys(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await human_table(service, [ALICE, BOB], seed=11, preset="classical")
    await service.start(table_id)
    table = service.tables[table_id]
    hints_seen = 0
    while table.game is not None and table.game.state.phase != Phase.FINISHED:
        if table.game.state.phase == Phase.PLAY and 0 in table.people_awaited():
            (hint,) = service.hint(table_id, ALICE)
            assert hint.away is not None and hint.value == table.rules.base and hint.printed
            hints_seen += 1
        if await move_people(service, table_id) == 0:
            await service.tick()
            if table.game.state.phase == Phase.CALL_WINDOW:
                service.clock.advance(30)  # type: ignore[attr-defined]
                await service.tick()
    assert hints_seen > 0 and await ledger.verify(db) == []


async def test_CH9_two_players_are_seated_opposite(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = (await service.create_table(5, 50, seed=5, rules=table_rules(players=2))).table_id
    first = await service.join(table_id, ALICE, "Alice")
    second = await service.add_computer(table_id, "normal")
    seats = sorted(s.seat for s in second.view.seats if not s.empty)
    assert first.events[0].seat == 0 and seats == [0, 2]
    with pytest.raises(TableError, match="both seats are taken"):
        await service.add_computer(table_id, "normal")
    await service.leave(table_id, ALICE)
    await service.join(table_id, ALICE, "Alice", seat=1)  # a seat beside the computer, chosen by hand
    with pytest.raises(TableError, match="sit opposite"):
        await service.start(table_id)
