"""The event vocabulary (bot/engine/events.py): every event the engine raises is an :class:`EventKind` member,
its privacy is the one the kind declares, and its data holds only the kind's documented fields."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from support.game_tables import CARD_1946, PRACTICE

from bot.ai.selfplay import play_game
from bot.engine.events import ENGINE_KINDS, Event, EventKind
from bot.engine.game import Game
from bot.engine.rules import table_rules

ENGINE = Path(__file__).resolve().parent.parent / "bot" / "engine"
LEVELS = ["random", "easy", "normal", "hard"]
TABLES = [
    ("nmjl", {}),
    ("nmjl-1946", {}),
    ("nmjl", {"blanks": 6, "blank_timing": "any_time"}),
    ("nmjl", {"players": 3, "three_player_charleston": "bob"}),
    ("nmjl", {"declarations": "strict", "hot_wall": 16}),
]


def _seeded_games() -> list[Event]:
    """Every event of several seeded games between computer players, the deal included."""
    events: list[Event] = []
    for n, (preset, options) in enumerate(TABLES):
        rules = table_rules(preset, **options)
        card = CARD_1946 if rules.flowers_wild else PRACTICE
        for seed in (1, 2):
            game, opening = Game.new(card, rules, 100 * n + seed, east=seed % 4)
            events += opening
            play_game(game, LEVELS, on_events=events.extend)
    return events


@pytest.fixture(scope="module")
def played() -> list[Event]:
    return _seeded_games()


def test_every_event_is_a_documented_engine_kind(played: list[Event]) -> None:
    assert len(played) > 1000
    for event in played:
        assert isinstance(event.type, EventKind), event
        assert event.type in ENGINE_KINDS, f"{event.type} is raised by the service, not the engine"
        assert set(event.data) <= set(event.type.fields), f"{event.type}: {sorted(event.data)}"


def test_private_kinds_are_exactly_those_marked_private(played: list[Event]) -> None:
    for event in played:
        assert event.private == event.type.private, event
        if event.private:
            assert event.seat is not None
    seen_private = {e.type for e in played if e.private}
    assert seen_private == {k for k in EventKind if k.private}
    assert seen_private == {EventKind.RACK, EventKind.DREW, EventKind.CHARLESTON_RECEIVED,
                            EventKind.COURTESY_RECEIVED}


def test_the_vocabulary_is_documented_and_the_service_kinds_are_public() -> None:
    for kind in EventKind:
        assert kind.about.strip(), kind
        assert kind == kind.value and EventKind(kind.value) is kind
    service = {k for k in EventKind if k.by_service}
    assert {k.value for k in service} == {"table_opened", "joined", "left", "computer_added", "table_closed",
                                          "computer_takes_over", "back"}
    assert not any(k.private for k in service)
    assert EventKind.DISCARD == "discard"  # a StrEnum: callers comparing with strings keep working


def test_engine_code_names_event_kinds_by_member() -> None:
    """No event is made from a bare string: every ``public``/``private``/``Event`` call in the engine names an
    ``EventKind`` member."""
    bare: list[str] = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("public", "private", "Event") and node.args):
                kind = node.args[0]
                named = isinstance(kind, ast.Attribute) and isinstance(kind.value, ast.Name) \
                    and kind.value.id == "EventKind"
                if not named and path.name != "events.py":
                    bare.append(f"{path.name}:{node.lineno}")
    assert not bare, f"events made without an EventKind member: {bare}"
