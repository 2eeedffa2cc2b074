from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings
from support.postgres import stop_test_server
from support.service import backend, db, db_target, new_target, open_db, pg_drops  # noqa: F401  (fixtures for all)

from bot.engine.card import Card
from bot.service.cards import load_card

E2E = Path(__file__).resolve().parent / "e2e"
# Left out of the fast lane (`pytest --fast`): what needs the PostgreSQL server, the offline-Discord games, and the
# few heavy tests of the other folders.
OUT_OF_THE_FAST_LANE = ("postgres", "e2e", "slow")

# Hypothesis's per-example deadline is a timing check, and timing is the benchmarks' job: on a shared 2-core
# machine an example that is slow only because the machine is busy would fail a test that asserts nothing wrong.
settings.register_profile("charleston", deadline=None)
settings.load_profile("charleston")


@pytest.fixture(scope="session")
def practice() -> Card:
    return load_card("practice")


@pytest.fixture(scope="session")
def card1946() -> Card:
    return load_card("nmjl-1946")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fast", action="store_true", help="the fast lane for the edit-test loop: the same as "
                     "-m 'not postgres and not e2e and not slow'")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: runs on the PostgreSQL server the tests start (deselect with "
                            "-m 'not postgres' to run on SQLite alone)")
    config.addinivalue_line("markers", "e2e: a test against the offline Discord (every test under tests/e2e, "
                            "marked by tests/conftest.py)")
    config.addinivalue_line("markers", "slow: a heavy test outside tests/e2e (over ~2 s here: fuzzing, paired ladders, "
                            "worker processes, whole-card and whole-game sweeps); left out by --fast")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With --fast, tests/e2e is not even imported (a few seconds of collection saved)."""
    return True if config.getoption("--fast") and collection_path == E2E else None


@pytest.hookimpl(tryfirst=True)  # before -m reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if E2E in item.path.parents:
            item.add_marker(pytest.mark.e2e)
    if config.getoption("--fast"):
        out = [item for item in items if any(item.get_closest_marker(name) for name in OUT_OF_THE_FAST_LANE)]
        if out:
            config.hook.pytest_deselected(items=out)
            left = set(out)
            items[:] = [item for item in items if item not in left]


def pytest_sessionfinish(session: pytest.Session) -> None:
    stop_test_server()
