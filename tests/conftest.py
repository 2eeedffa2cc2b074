from __future__ import annotations

import pytest
from support.discord_fixtures import discord_double, discord_spec, say_why_skipped  # noqa: F401  (fixtures)
from support.postgres import stop_test_server
from support.service import backend, db, db_target, new_target, open_db, pg_drops  # noqa: F401  (fixtures for all)

from bot.engine.card import Card
from bot.service.cards import load_card


@pytest.fixture(scope="session")
def practice() -> Card:
    return load_card("practice")


@pytest.fixture(scope="session")
def card1946() -> Card:
    return load_card("nmjl-1946")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: runs on the PostgreSQL server the tests start (deselect with "
                            "-m 'not postgres' to run on SQLite alone)")


def pytest_sessionfinish(session: pytest.Session) -> None:
    stop_test_server()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say in the summary, even without ``-rs``, why the offline-Discord tests were skipped."""
    say_why_skipped(terminalreporter)
