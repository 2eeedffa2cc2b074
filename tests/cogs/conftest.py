"""Fixtures for the Discord layer's own tests: a table service on an SQLite file, a plain discord.py client logged
into the offline Discord (``discord_double``, shared with tests/e2e from tests/support/discord_fixtures.py), the real
door over it, and the four parts wired as the bot wires them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support import discord_fixtures
from support.discord_double import Double
from support.lone_parts import Parts, PressCatcher

from bot.service.clock import ManualClock
from bot.service.tables import TableService
from bot.store.db import Database
from cogs.door import Door
from cogs.failures import Backoff
from cogs.show.drawing import Drawing

# The offline Discord's fixtures, shared with tests/e2e.
discord_spec = discord_fixtures.discord_spec
discord_double = discord_fixtures.discord_double

# A failed write is tried again after 10 ms, doubling to 80 ms (the bot's: 1 s to a minute).
FAST = Backoff(0.01, 0.08)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    """A table service on its own SQLite file, its clock moved by hand, computers moving at once."""
    db = await Database.open(tmp_path / "cogs.db")
    table_service = TableService(db, clock=ManualClock(), computer_delay=0)
    try:
        yield table_service
    finally:
        await table_service.close()


@pytest.fixture
async def client(discord_double: Double) -> AsyncIterator[PressCatcher]:
    """A plain discord.py client logged into the offline Discord (no bot, no cogs)."""
    async with discord_double.running(PressCatcher()) as connected:
        yield connected


@pytest.fixture
def door(client: PressCatcher) -> Door:
    """The real door over that client."""
    return Door(client, timeout=5.0, backoff=FAST)


@pytest.fixture
async def parts(service: TableService, door: Door) -> AsyncIterator[Parts]:
    """The DMs, the presenter, the keeper and the controls over the real door, not listening yet."""
    assert isinstance(service.clock, ManualClock)
    built = Parts(service, service.clock, door, Drawing(0))
    try:
        yield built
    finally:
        built.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say in the summary, even without ``-rs``, why the offline-Discord tests were skipped."""
    discord_fixtures.say_why_skipped(terminalreporter)
