"""Helpers shared by the command modules."""

from __future__ import annotations

import json
from typing import Any

from bot.engine.card import Card
from bot.engine.errors import CardError
from bot.service.cards import UnknownCard, load_card


class UsageProblem(Exception):
    """Bad input from the command line: printed as one line on stderr, exit status 2."""


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def card_or_explain(card_id: str) -> Card:
    """An installed card, or a :class:`UsageProblem` saying which cards exist or what is broken in this one."""
    try:
        return load_card(card_id)
    except UnknownCard as exc:
        raise UsageProblem(str(exc)) from None
    except CardError as exc:
        raise UsageProblem(f"card '{card_id}' is broken; run 'charleston card validate' on it. "
                           f"First problem: {exc.problems[0]}") from None
