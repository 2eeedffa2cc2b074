"""The event vocabulary (bot/engine/events.py): every event the engine raises is an :class:`EventKind` member,
its privacy is the one the kind declares, and its data holds only the kind's documented fields; every kind has
exactly one payload class, and the replay form of each is what it always was."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import typing

import pytest
from support.game_tables import CARD_1946, PRACTICE
from support.paths import ROOT

from bot.ai.selfplay import play_game
from bot.engine import payloads
from bot.engine.events import ENGINE_KINDS, KIND_OF, PAYLOADS, Event, EventKind, private, public
from bot.engine.game import Game
from bot.engine.rules import table_rules
from bot.engine.state import Payout
from bot.engine.tiles import Tile

BOT = ROOT / "bot"
ENGINE = BOT / "engine"
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


@pytest.mark.slow
def test_every_event_is_a_documented_engine_kind(played: list[Event]) -> None:
    assert len(played) > 1000
    for event in played:
        assert isinstance(event.type, EventKind), event
        assert event.type in ENGINE_KINDS, f"{event.type} is raised by the service, not the engine"
        data = set(event.to_json()) - {"type", "seat", "private"}
        assert data <= set(event.type.fields), f"{event.type}: {sorted(data)}"


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
    """No event is made from a bare string: every ``public``/``private``/``Event`` call in the engine and the
    service names a payload class of :mod:`bot.engine.payloads` (``payloads.Discard(...)``), which names its kind."""
    classes = {cls.__name__ for cls in PAYLOADS.values()}
    bare: list[str] = []
    for path in sorted([*ENGINE.glob("*.py"), *(BOT / "service").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("public", "private", "Event") and node.args):
                made = node.args[0]
                named = isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) \
                    and isinstance(made.func.value, ast.Name) and made.func.value.id == "payloads" \
                    and made.func.attr in classes
                if not named and path.name != "events.py":
                    bare.append(f"{path.name}:{node.lineno}")
    assert not bare, f"events made without a payload class: {bare}"


def test_every_kind_has_exactly_one_payload_class_and_every_class_one_kind() -> None:
    assert set(PAYLOADS) == set(EventKind)
    assert len(set(PAYLOADS.values())) == len(PAYLOADS)
    assert set(typing.get_args(payloads.Payload)) == set(PAYLOADS.values())
    assert {cls: kind for cls, kind in KIND_OF.items()} == {cls: kind for kind, cls in PAYLOADS.items()}
    for kind, cls in PAYLOADS.items():
        assert cls.__name__ == "".join(word.capitalize() for word in kind.name.split("_")), (kind, cls)
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
        assert "__slots__" in cls.__dict__, cls
        assert kind.payload is cls and kind.fields == tuple(f.name for f in dataclasses.fields(cls))
        assert kind.about == cls.__doc__ and re.sub(r"\s+", " ", kind.about).strip(), kind


def test_the_fields_of_each_kind_are_the_documented_ones() -> None:
    """The data fields each kind carried as a dictionary, now its payload's fields, in the same order."""
    assert {kind.value: kind.fields for kind in EventKind} == {
        "deal": ("east", "wall", "game_no"), "rack": ("tiles",), "charleston": ("step", "blind_allowed"),
        "charleston_passed": ("blind",), "charleston_received": ("tiles", "step"), "charleston_step_done": ("step",),
        "charleston_vote": (), "charleston_voted": ("stop",), "charleston_stopped": (), "courtesy": (),
        "courtesy_offered": ("count",), "courtesy_exchanged": ("partner", "count"), "courtesy_received": ("tiles",),
        "charleston_done": (), "play": ("turn", "wall"), "draw": ("wall",), "drew": ("tile",), "discard": ("tile",),
        "call_window": ("tile", "mahjong_only"), "turn": (), "dead_hand": ("reason",), "pass": (),
        "hold": ("seconds",), "call": ("mahjong", "size", "chow"), "window_closed": ("claimed", "winner"),
        "exposure": ("tile", "tiles", "called_from"), "draw_returned": ("wall",),
        "kong": ("tile", "tiles", "concealed", "added"), "replacement": ("wall",),
        "joker_exchange": ("owner", "exposure", "tile"), "blank_swap": ("discard", "tile"), "false_mahjong": (),
        "mahjong": ("line", "section", "value", "how", "discarder", "jokerless", "tiles"),
        "game_over": ("how", "payouts"), "table_opened": ("table_id",), "joined": ("name",), "left": ("name",),
        "computer_added": ("level",), "table_closed": (), "computer_takes_over": (), "back": ()}


def test_the_replay_form_is_unchanged() -> None:
    """The JSON text of events, key order included, as the replay format (docs/replay-format.md) has it: fields
    that apply only sometimes are left out when they do not, tiles are codes, transfers their own JSON."""
    T = Tile
    cases = [
        (public(payloads.Call(mahjong=True), 2), '{"type": "call", "seat": 2, "private": false, "mahjong": true}'),
        (public(payloads.Call(mahjong=False, size=3), 2),
         '{"type": "call", "seat": 2, "private": false, "mahjong": false, "size": 3}'),
        (public(payloads.Call(mahjong=False, size=3, chow=True), 1),
         '{"type": "call", "seat": 1, "private": false, "mahjong": false, "size": 3, "chow": true}'),
        (public(payloads.WindowClosed(claimed=False), 0),
         '{"type": "window_closed", "seat": 0, "private": false, "claimed": false}'),
        (public(payloads.WindowClosed(claimed=True, winner=3), 0),
         '{"type": "window_closed", "seat": 0, "private": false, "claimed": true, "winner": 3}'),
        (public(payloads.CourtesyExchanged(partner=None, count=2), 1),
         '{"type": "courtesy_exchanged", "seat": 1, "private": false, "partner": null, "count": 2}'),
        (private(payloads.Drew(T.D5), 3), '{"type": "drew", "seat": 3, "private": true, "tile": "5D"}'),
        (public(payloads.Exposure(T.N, (T.N, T.J, T.J), 1), 2),
         '{"type": "exposure", "seat": 2, "private": false, "tile": "N", "tiles": ["N", "J", "J"], "called_from": 1}'),
        (public(payloads.Mahjong("369-4", "369", 25, "discard", 1, False, ((T.B3, T.B3), (T.RD,))), 0),
         '{"type": "mahjong", "seat": 0, "private": false, "line": "369-4", "section": "369", "value": 25, '
         '"how": "discard", "discarder": 1, "jokerless": false, "tiles": [["3B", "3B"], ["RD"]]}'),
        (public(payloads.GameOver("discard", (Payout(1, 0, 50, "value"),)), 0),
         '{"type": "game_over", "seat": 0, "private": false, "how": "discard", '
         '"payouts": [{"from": 1, "to": 0, "amount": 50, "reason": "value"}]}'),
        (public(payloads.TableOpened(table_id=7)),
         '{"type": "table_opened", "seat": null, "private": false, "table_id": 7}'),
        (public(payloads.Left(name=None), 3), '{"type": "left", "seat": 3, "private": false, "name": null}'),
        (public(payloads.Away(), 3), '{"type": "computer_takes_over", "seat": 3, "private": false}'),
    ]
    for event, text in cases:
        assert json.dumps(event.to_json()) == text


def test_privacy_is_the_kinds() -> None:
    """A private kind is made for its seat alone and seen by it alone; a public one is seen by everyone."""
    drew = private(payloads.Drew(Tile.J), 2)
    assert drew.private and drew.type is EventKind.DREW and drew.seat == 2
    assert [drew.visible_to(s) for s in (None, 0, 1, 2, 3)] == [False, False, False, True, False]
    discard = public(payloads.Discard(Tile.J), 2)
    assert not discard.private and all(discard.visible_to(s) for s in (None, 0, 1, 2, 3))
    with pytest.raises(AssertionError):
        public(payloads.Rack(()), 1)
    with pytest.raises(AssertionError):
        private(payloads.Discard(Tile.J), 1)
