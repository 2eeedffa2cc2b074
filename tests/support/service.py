"""Shared set-up for the table service tests: a table of people and computers, and people whose moves the
project's computer players choose, made through the service exactly as a button press would make them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.ai.selfplay import computer_move
from bot.engine.actions import Discard
from bot.engine.rules import table_rules
from bot.engine.tiles import Tile
from bot.service.clock import ManualClock
from bot.service.keys import action_key
from bot.service.tables import TableService
from bot.service.updates import SeatUpdate, TableOptions
from bot.store.db import Database

from .postgres import session_server

ALICE, BOB, CAROL, DAN = 1001, 1002, 1003, 1004

PEOPLE = (ALICE, BOB, CAROL, DAN)


async def human_table(service: TableService, humans: list[int], seed: int = 7, level: str = "hard",
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
        action = computer_move("hard", game, seat)
        joker = isinstance(action, Discard) and action.tile == Tile.J  # she confirms she means to discard a joker
        update = await service.act(table_id, player, action_key(action), token=before.table.token, confirm=joker)
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


def no_auto_pass(service: TableService) -> TableOptions:
    """Options under which every window waits for every person (the table option ``auto_pass`` off): for tests of
    what a window does while a person has not answered."""
    return TableOptions(service.computer_delay, auto_pass=False)


OpenDb = Callable[[Path | str], Coroutine[Any, Any, Database]]


@pytest.fixture
async def open_db(pg_drops: list[str]) -> AsyncIterator[OpenDb]:
    """Open databases (an SQLite path or a PostgreSQL URL) that are closed at the end of the test, even when it
    fails (an open aiosqlite connection would keep the test process alive), before its PostgreSQL databases are
    dropped."""
    opened: list[Database] = []

    async def opener(target: Path | str) -> Database:
        db = await Database.open(target)
        opened.append(db)
        return db

    yield opener
    for db in opened:
        await db.close()


@pytest.fixture
async def pg_drops() -> AsyncIterator[list[str]]:
    """The PostgreSQL databases this test made, dropped when it ends (after the fixtures that use them)."""
    made: list[str] = []
    yield made
    if made:
        server = session_server()
        for url in made:
            await server.drop(url)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    """Each test that uses a database runs on both backends."""
    return str(request.param)


@pytest.fixture
def new_target(backend: str, tmp_path: Path, pg_drops: list[str]) -> Callable[[], Coroutine[Any, Any, str]]:
    """Make a new, empty (migrated, on PostgreSQL) database of the test's backend; returns its path or URL."""
    names = iter(range(1, 1000))
    server = session_server() if backend == "postgresql" else None  # started here, outside the test's event loop

    async def make() -> str:
        if server is None:
            return str(tmp_path / f"charleston-{next(names)}.db")
        url = await server.new_database()
        pg_drops.append(url)
        return url

    return make


@pytest.fixture
async def db_target(new_target: Callable[[], Coroutine[Any, Any, str]]) -> str:
    """A new database of the test's backend (an SQLite path, or the URL of a PostgreSQL database of its own)."""
    return await new_target()


@pytest.fixture
async def db(db_target: str, open_db: OpenDb) -> Database:
    """The test's database, open."""
    return await open_db(db_target)


def plain_tile(rack: Sequence[int]) -> int:
    """A tile of ``rack`` that is neither a joker nor a flower: a test's "any tile to discard" (discarding the wild
    tile, a joker or under the 1946 rules a flower, asks the player to confirm)."""
    return next(tile for tile in rack if tile not in (Tile.J, Tile.F))
