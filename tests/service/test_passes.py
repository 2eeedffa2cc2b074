"""Every pass told (CH1-CH4, CH8): after each Charleston pass and the courtesy pass, every seat a person holds gets a
private note in her own update saying what she received ("First right: you receive ..."), and nobody else's."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from support.service import PEOPLE, move_people

from bot.engine.state import Phase
from bot.service.clock import ManualClock
from bot.service.narration import tiles_text
from bot.service.tables import TableService
from bot.service.updates import SeatUpdate
from bot.store.db import Database


@pytest.fixture
async def db(tmp_path: Path) -> Database:
    database = await Database.open(tmp_path / "passes.db")
    yield database
    await database.close()


async def _charleston(service: TableService, seats: tuple[int, ...], seed: int, **rules: object) -> tuple[
        dict[int, list[SeatUpdate]], list[str]]:
    """People in ``seats`` play the Charleston out; their updates by seat, and the steps the table made."""
    table_id = (await service.create_table(5, 50, seed=seed, rules=service.make_rules("nmjl", **rules))).table_id
    for seat in seats:
        await service.join(table_id, PEOPLE[seat], f"Player {seat}", seat=seat)
    mine: dict[int, list[SeatUpdate]] = defaultdict(list)
    steps: list[str] = []
    service.subscribe_seat(lambda u: mine[u.seat].append(u), table_id)
    service.subscribe(lambda u: steps.extend(str(e.payload.step) for e in u.events
                                             if e.type == "charleston_step_done"), table_id)
    await service.start(table_id)
    table = service.tables[table_id]
    while table.game is not None and table.game.state.phase in (Phase.CHARLESTON, Phase.CHARLESTON_VOTE,
                                                               Phase.COURTESY):
        assert await move_people(service, table_id)
    await service.drain()
    return mine, steps


async def test_CH1_CH4_every_pass_tells_every_seat_what_she_received(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    mine, steps = await _charleston(service, (0, 1, 2, 3), seed=8)
    assert steps[:3] == ["first right", "first across", "first left"]
    for seat, updates in mine.items():
        notes = [note for u in updates for note in u.notes]
        received = [e for u in updates for e in u.events if e.type in ("charleston_received", "courtesy_received")]
        assert all(e.private and e.seat == seat for e in received)  # her own, and nobody else's
        assert [getattr(e.payload, "step", "courtesy") for e in received] == [*steps, "courtesy"]
        for event in received:
            step = str(getattr(event.payload, "step", "courtesy pass")).capitalize()
            told = [n for n in notes if n.startswith(f"{step}: ")]
            assert len(told) == 1, (step, notes)
            assert told[0] == (f"{step}: you receive {tiles_text(event.payload.tiles)}." if event.payload.tiles
                               else told[0])
            assert "You receives" not in told[0]


async def test_CH4_nothing_across_is_explained(db: Database) -> None:
    """A pair swaps the smaller offer: a seat that receives nothing across is told why."""
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    for seed in range(8, 30):
        mine, _ = await _charleston(service, (0, 1, 2, 3), seed=seed)
        empty = [n for u in mine.values() for x in u for n in x.notes if n.startswith("Courtesy pass: nothing")]
        if empty:
            assert "offered no tiles" in empty[0] and "smaller offer" in empty[0]
            return
    raise AssertionError("no courtesy pass with nothing across in these games")


async def test_CH8_the_seat_across_from_bob_is_told_what_came_across(db: Database) -> None:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    mine, steps = await _charleston(service, (0, 1, 2), seed=9, players=3, three_player_charleston="bob")
    assert steps
    for updates in mine.values():
        assert sum(1 for u in updates for n in u.notes if n.startswith("Courtesy pass: ")) == 1
        assert sum(1 for u in updates for n in u.notes if n.startswith("First right: ")) == 1
