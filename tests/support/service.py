"""Shared set-up for the table service tests: a table of people and computers, and people whose moves the
project's computer players choose, made through the service exactly as a button press would make them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.ai.selfplay import computer_move
from bot.engine.rules import table_rules
from bot.service.clock import ManualClock
from bot.service.keys import action_key
from bot.service.tables import TableService
from bot.service.updates import SeatUpdate, TableOptions
from bot.store.db import Database

ALICE, BOB, CAROL, DAN = 1001, 1002, 1003, 1004

PEOPLE = (ALICE, BOB, CAROL, DAN)


async def human_table(service: TableService, humans: list[int], seed: int = 7, level: str = "normal",
                      table_options: TableOptions | None = None, **options: object) -> int:
    """A table with ``humans`` in seats 0.. and computers of ``level`` in the rest (``options``: its rules)."""
    table_id = (await service.create_table(5, 50, seed=seed, rules=table_rules(**options),
                                           options=table_options)).table_id
    for n, player in enumerate(humans):
        await service.join(table_id, player, f"Player {n}", seat=n)
    for seat in range(len(humans), 4):
        await service.add_computer(table_id, level, seat)
    return table_id


async def move_people(service: TableService, table_id: int, mine: list[SeatUpdate] | None = None) -> int:
    """Each person the table waits for makes the move a normal computer player would, by action key and with
    the decision's token, as a button would carry them. Returns how many moves were made."""
    table = service.tables[table_id]
    made = 0
    for seat in table.people_awaited():
        game = table.game
        if game is None or seat not in table.people_awaited():
            continue
        player = table.row.seats[seat].player_id
        assert player is not None
        before = service.seat_update(table_id, player)
        action = computer_move("normal", game, seat)
        update = await service.act(table_id, player, action_key(action), token=before.table.token)
        if mine is not None:
            mine.append(update)
        made += 1
    return made


async def play_until(service: TableService, clock: ManualClock, table_id: int, want: Callable[[SeatUpdate], bool],
                     player: int = ALICE, steps: int = 2000) -> SeatUpdate:
    """Play on (people moving like computers, the clock moving half a second whenever only computers are awaited)
    until ``want`` holds for ``player``'s own update; that update is returned."""
    table = service.tables[table_id]
    for _ in range(steps):
        assert table.playing, "the game ended first: pick another seed"
        mine = service.seat_update(table_id, player)
        if want(mine):
            return mine
        if not await move_people(service, table_id):
            clock.advance(0.5)
            await service.tick()
    raise AssertionError("never happened")


def waiting(service: TableService) -> TableOptions:
    """Options under which every window waits for every person (the table option ``auto_pass`` off): for tests of
    what a window does while a person has not answered."""
    return TableOptions(service.computer_delay, auto_pass=False)


OpenDb = Callable[[Path], Coroutine[Any, Any, Database]]


@pytest.fixture
async def open_db() -> AsyncIterator[OpenDb]:
    """Open databases that are closed at the end of the test, even when it fails (an open aiosqlite connection
    would keep the test process alive)."""
    opened: list[Database] = []

    async def opener(path: Path) -> Database:
        db = await Database.open(path)
        opened.append(db)
        return db

    yield opener
    for db in opened:
        await db.close()
