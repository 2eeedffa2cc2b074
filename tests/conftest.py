from __future__ import annotations

import pytest
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
