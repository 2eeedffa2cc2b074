"""What the end-to-end tests of Discord's failures share: a table in play (one scripted person and three computers,
no computer delay), playing it out, and the checks every such test makes: the ledger balances and settles each
finished game once, no move was applied twice, every interaction Discord let the bot answer was answered within
3 s, and the log holds one line per expected failure and no traceback."""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path

import pytest

from bot.engine.state import Phase
from bot.store import ledger
from cogs.app import CharlestonBot
from support.discord_double import Double, Player
from support.discord_double.models import Channel, Message
from support.e2e_tables import open_table, seat_everyone
from support.game_driver import Driver, Person, make_bot


async def table_in_play(double: Double, bot: CharlestonBot, person: Player, moves: int) -> Driver:
    """A table opened by ``person`` (in the channel she acts in), three computers seated, dealt, and played until
    ``moves`` actions have been applied."""
    await double.wait_for_commands("table")
    table_id = await open_table(double, person, computer_delay=0)
    await seat_everyone(double, bot, table_id, [person], 3)
    driver = Driver(double, bot, table_id, [Person(person, 0)])
    await driver.play(until=lambda: driver.live.version >= moves)
    return driver


async def play_on(driver: Driver, actions: int) -> None:
    """Play on until ``actions`` more actions have been applied (or the game ends)."""
    version = driver.live.version
    await driver.play(until=lambda: driver.live.version >= version + actions)


def bot_for(double: Double, tmp_path: Path, *seeds: int, request_timeout: float = 5.0) -> CharlestonBot:
    """The bot, with its own database, dealing its tables from ``seeds`` in turn."""
    return make_bot(double, tmp_path / "faults.db", seeds=iter(seeds), request_timeout=request_timeout)


async def play_out(driver: Driver, bot: CharlestonBot) -> None:
    """The person leaves: a computer finishes her hand at once, the game ends and its results are posted."""
    game_id = driver.live.game_id
    await bot.service.leave(driver.table_id, driver.people[0].player.id)
    await bot.service.drain()
    await driver.double.wait_for(lambda: results_in(driver.thread()) is not None, 10, "the results in the thread")
    await bot.presenter.settle()
    assert driver.live.game is not None and driver.live.game.state.phase == Phase.FINISHED
    await ledger_is_whole(bot, settled=[game_id])


def results_in(thread: Channel) -> Message | None:
    """The results message of a thread, if posted."""
    return next((m for m in thread.live_messages if "Settled in the chip ledger" in m.content), None)


async def ledger_is_whole(bot: CharlestonBot, settled: tuple[int | None, ...] | list[int | None] = ()) -> None:
    """The ledger balances, every finished game is settled once (these ``settled`` among them), and no game
    logged an action twice."""
    db = bot.service.db
    assert await ledger.verify(db) == []
    for game_id in settled:
        (count,) = await db.fetchone("SELECT COUNT(*) FROM ledger_transactions WHERE game_id = ? AND kind = "
                                     "'settlement'", (game_id,))
        assert count == 1, game_id
    for game_id, seqs, distinct, last in await db.fetchall(
            "SELECT game_id, COUNT(*), COUNT(DISTINCT seq), MAX(seq) FROM actions GROUP BY game_id"):
        assert seqs == distinct == last + 1, f"game {game_id}: the action log has gaps or repeats"


def answered_in_time(double: Double, late: int = 0) -> None:
    """Every interaction was answered within Discord's 3 s, but the ``late`` ones a test made late."""
    expired = [i for i in double.world.interactions.values() if i.expired]
    assert len(expired) == late, expired
    slow = [i for i in double.world.interactions.values() if not i.expired and (not i.responded or i.latency > 3)]
    assert slow == [], slow


def one_line_each(caplog: pytest.LogCaptureFixture, *expected: str) -> None:
    """No traceback and no error in the log; each expected text (a failure's code, say) logged as a line."""
    records = [r for r in caplog.records if r.name.startswith("charleston")]
    assert [r.getMessage() for r in records if r.exc_info or r.levelno >= logging.ERROR] == []
    lines = Counter(text for r in records for text in expected if text in r.getMessage())
    assert set(lines) == set(expected), (expected, [r.getMessage() for r in records])
