from __future__ import annotations

import pytest
from support.service import open_db  # noqa: F401  (a fixture for every test module)

from bot.engine.card import Card
from bot.service.cards import load_card


@pytest.fixture(scope="session")
def practice() -> Card:
    return load_card("practice")


@pytest.fixture(scope="session")
def card1946() -> Card:
    return load_card("nmjl-1946")
