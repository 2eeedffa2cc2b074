"""Closing a table at any moment, and the display record the Discord layer keeps with it: a game in progress is
recorded abandoned (no standings, no settlement, the ledger whole), a finished one stays settled, a second close
is a clear refusal, and two changes to the display record made at once never undo each other."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from support.service import ALICE, BOB, OpenDb, human_table, move_people

from bot.service.clock import ManualClock
from bot.service.display import DmShown
from bot.service.errors import ErrorKind, TableError
from bot.service.tables import TableService
from bot.service.updates import Cause, TablePhase, TableStatus
from bot.store import ledger


async def test_closing_mid_game_records_the_game_abandoned_and_changes_no_chips(tmp_path: Path,
                                                                                 open_db: OpenDb) -> None:
    db = await open_db(tmp_path / "close.db")
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = await human_table(service, [ALICE], seed=4)
    await service.start(table_id)
    for _ in range(3):
        await move_people(service, table_id)
    game_id = service.tables[table_id].game_id
    with pytest.raises(TableError) as refused:
        await service.close_table(table_id, by=BOB)
    assert refused.value.kind is ErrorKind.FORBIDDEN
    closed = await service.close_table(table_id, by=BOB, manager=True)
    assert closed.cause is Cause.CLOSE and closed.view.status is TableStatus.CLOSED and closed.view.abandoned
    assert closed.phase is not TablePhase.FINISHED and not service.is_open(table_id)
    (how, ended) = tuple(await db.fetchone("SELECT how, ended_at FROM games WHERE game_id = ?", (game_id,)))
    assert (how, ended) == ("abandoned", None)
    assert await db.fetchall("SELECT * FROM ledger_transactions WHERE game_id = ?", (game_id,)) == []
    assert await ledger.verify(db) == []
    with pytest.raises(TableError) as again:
        await service.close_table(table_id, by=ALICE)
    assert again.value.kind is ErrorKind.NO_TABLE
    restarted = TableService(db, clock=ManualClock())
    assert await restarted.restore() == 0  # a closed table stays closed


async def test_closing_after_a_game_keeps_its_settlement_and_in_the_lobby_records_nothing(
        tmp_path: Path, open_db: OpenDb) -> None:
    db = await open_db(tmp_path / "close.db")
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    lobby = await human_table(service, [ALICE], seed=5)
    assert not (await service.close_table(lobby)).view.abandoned
    table_id = (await service.create_table(5, 50, seed=3)).table_id
    for _ in range(4):
        await service.add_computer(table_id, "normal")
    await service.start(table_id)
    assert not service.tables[table_id].playing
    game_id = service.tables[table_id].game_id
    closed = await service.close_table(table_id)
    assert closed.phase is TablePhase.FINISHED and not closed.view.abandoned
    (settled,) = await db.fetchone("SELECT COUNT(*) FROM ledger_transactions WHERE game_id = ? AND kind = "
                                   "'settlement'", (game_id,))
    assert settled == 1 and await ledger.verify(db) == []


async def test_display_changes_made_at_once_all_land_and_survive_a_restart(tmp_path: Path, open_db: OpenDb) -> None:
    db = await open_db(tmp_path / "display.db")
    service = TableService(db, clock=ManualClock())
    table_id = await human_table(service, [ALICE, BOB], seed=6)
    await service.update_display(table_id, lambda d: d.opened(thread=77, parent=7))
    await asyncio.gather(*(service.update_display(table_id, lambda d, s=seat: d.with_dm(s, DmShown(90 + s, 100 + s)))
                           for seat in range(4)), service.update_display(table_id, lambda d: d.with_message(55)),
                         service.update_display(table_id, lambda d: d.with_dms_closed(3)))
    shown = service.display(table_id)
    assert (shown.thread, shown.parent, shown.message, set(shown.dms), shown.dms_closed) == (77, 7, 55,
                                                                                             {0, 1, 2, 3}, {3})
    restarted = TableService(db, clock=ManualClock())
    await restarted.restore()
    assert restarted.display(table_id) == shown and restarted.view(table_id).display == shown
    moved = await restarted.update_display(table_id, lambda d: d.moved(88))
    assert (moved.thread, moved.parent, moved.message, moved.dms) == (88, 7, None, shown.dms)
