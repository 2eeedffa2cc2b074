"""Computer players thinking in worker processes (bot/service/thinking.py) make exactly the moves they make in the
event loop, whole games long, and a worker that dies costs nothing but the loop thinking a move itself. The clock's
timetable gives the same earliest moments as sorting every table's, whatever the order of changes."""

from __future__ import annotations

import os
import signal
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.service import OpenDb

from bot.engine.state import Phase
from bot.service.clock import ManualClock
from bot.service.tables import TableService
from bot.service.thinking import ThinkingPool
from bot.service.timetable import Timetable

LEVELS = [("normal", "normal", "normal", "normal"), ("hard", "easy", "normal", "random"), ("easy",) * 4]


async def play(service: TableService, seed: int, levels: tuple[str, ...]) -> list[dict[str, object]]:
    table_id = (await service.create_table(5, seed, seed=seed)).table_id
    for seat, level in enumerate(levels):
        await service.add_computer(table_id, level, seat)
    await service.start(table_id)  # no delay: the whole game is played here
    game = service.tables[table_id].game
    assert game is not None and game.state.phase == Phase.FINISHED
    return list(game.state.log)


async def both_ways(folder: object, open_db: OpenDb, workers: int) -> tuple[TableService, TableService, ThinkingPool]:
    """A service thinking in the loop and one thinking in ``workers`` processes."""
    here = TableService(await open_db(f"{folder}/loop.db"), clock=ManualClock(), computer_delay=0)
    there = TableService(await open_db(f"{folder}/pool.db"), clock=ManualClock(), computer_delay=0,
                         thinkers=workers)
    assert isinstance(there.thinking, ThinkingPool)
    return here, there, there.thinking


@pytest.mark.slow
async def test_workers_make_the_moves_the_loop_makes(tmp_path: object, open_db: OpenDb) -> None:
    here, there, pool = await both_ways(tmp_path, open_db, 2)
    try:
        for seed, levels in enumerate(LEVELS, start=21):
            assert await play(there, seed, levels) == await play(here, seed, levels)
        assert pool.shipped > 100 and pool.kept > 100  # turns and passes went out; call windows stayed
    finally:
        await pool.close()


@pytest.mark.slow
async def test_a_worker_that_dies_costs_a_move_thought_in_the_loop(tmp_path: object, open_db: OpenDb) -> None:
    here, there, pool = await both_ways(tmp_path, open_db, 1)
    try:
        await play(there, 31, LEVELS[0])  # the worker is up and holds a game
        for pid in list(pool._workers[0]._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        assert await play(there, 32, LEVELS[0]) == await play(here, 32, LEVELS[0])
        shipped = pool.shipped
        assert await play(there, 33, LEVELS[0]) == await play(here, 33, LEVELS[0])
        assert pool.shipped > shipped  # a new worker took over
    finally:
        await pool.close()


START = datetime(2026, 11, 2, 12, tzinfo=UTC)


@given(st.lists(st.tuples(st.integers(0, 20), st.one_of(st.none(), st.integers(0, 100)), st.integers(0, 100)),
                max_size=200))
def test_the_timetable_agrees_with_sorting_every_table(changes: list[tuple[int, int | None, int]]) -> None:
    timetable = Timetable()
    moments: dict[int, datetime] = {}
    for table, seconds, now in changes:
        moment = None if seconds is None else START + timedelta(seconds=seconds)
        timetable.set(table, moment)
        if moment is None:
            moments.pop(table, None)
        else:
            moments[table] = moment
        assert timetable.earliest() == min(moments.values(), default=None)
        if now % 3 == 0:  # the clock takes what is due
            due = timetable.pop_due(START + timedelta(seconds=now))
            expected = sorted((m, t) for t, m in moments.items() if m <= START + timedelta(seconds=now))
            if not expected:
                assert due is None
            else:
                assert due is not None and moments[due] == expected[0][0]
                del moments[due]
        assert len(timetable) == len(moments)
