"""The seam between the Discord layer and the service is typed and speaks one vocabulary (docs/architecture.md):
no ``Any`` on the service's side of it (mypy forbids it on the cogs' side), no action key is built or split
outside bot/service/keys.py, every helper button has one look and one handler, and the display record reads back
exactly what it wrote (the stored shape of older rows included). That the cogs never reach into the store's rows
is checked with the rest of the house's shape, in tests/house/test_layout.py."""

from __future__ import annotations

import ast
import inspect
import re
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.paths import ROOT

from bot.engine.actions import Action
from bot.service import choices, display, errors, hints, keys, leagues, nights, stats, surface, tables, updates
from bot.service.display import Display, DmShown
from cogs.press import controls
from cogs.show import components, ids

COGS = sorted((ROOT / "cogs").rglob("*.py"))
# What the cogs hold of the service: its classes, and the values they hand back.
SEAM = (tables.TableService, leagues.LeagueService, leagues.GuildCards, updates.TableUpdate, updates.SeatUpdate,
        updates.TableView, updates.SeatInfo, updates.TableOptions, display.Display, display.DmShown,
        choices.SeatChoices, choices.Choice, choices.TilePick, hints.Hint, errors.TableError)


def _hints(owner: type) -> Iterator[tuple[str, object]]:
    """Every annotation of a class's public fields and of its public methods' parameters and results."""
    names = {c.__name__: c for c in SEAM}  # for annotations imported only for the type checker
    for name, hint in typing.get_type_hints(owner, localns=names).items():
        if not name.startswith("_"):
            yield name, hint
    for name, member in inspect.getmembers(owner, callable):
        if (name.startswith("_") and name != "__init__") or not inspect.isfunction(member):
            continue
        for part, hint in typing.get_type_hints(member, localns=names).items():
            yield f"{name}({part})", hint


def _mentions_any(hint: object) -> bool:
    return hint is typing.Any or any(_mentions_any(arg) for arg in typing.get_args(hint))


@pytest.mark.parametrize("owner", SEAM, ids=lambda o: o.__name__)
def test_no_any_on_the_services_side_of_the_seam(owner: type) -> None:
    assert [name for name, hint in _hints(owner) if _mentions_any(hint)] == []


def _cog_nodes() -> Iterator[tuple[Path, ast.AST]]:
    for path in COGS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if id(node) not in docstrings:
                yield path, node


KEY_HEADS = ("d.", "c.", "cp.", "co.", "v.", "x.", "b.", "k.")


def test_no_action_key_is_built_or_split_in_the_cogs() -> None:
    """A key is written by keys.py's builders and read by its parser only: no key literal, no f-string shaped like
    a key, no splitting on its dots, no slicing of a choice's key."""
    wrong: list[str] = []
    for path, node in _cog_nodes():
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and keys.is_key_of(node.value, Action):
            wrong.append(f"{where} key literal {node.value!r}")
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant) \
                and str(node.values[0].value).startswith(KEY_HEADS):
            wrong.append(f"{where} key-shaped f-string")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("split", "partition", "rpartition") \
                and any(isinstance(a, ast.Constant) and a.value == "." for a in node.args):
            wrong.append(f"{where} splits on '.'")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "key":
            wrong.append(f"{where} slices a key")
    assert wrong == []


def test_the_key_checks_would_catch_what_they_look_for() -> None:
    assert keys.is_key_of("cp..3", Action) and keys.is_key_of("p", Action) and not keys.is_key_of("ch:t", Action)


def test_every_helper_button_has_one_look_and_one_handler() -> None:
    assert set(ids.HELPERS) == set(ids.Helper) == set(controls.HANDLERS)
    for helper in ids.Helper:
        assert ids.helper_id(7, helper) == f"ch:t:7:{helper.value}"
        assert re.fullmatch(ids.TABLE, ids.helper_id(7, helper))


dm = st.builds(DmShown, st.integers(1, 2**63), st.integers(1, 2**63), st.one_of(st.none(), st.text(max_size=8)))
displays = st.builds(Display, st.one_of(st.none(), st.integers(1, 2**63)), st.one_of(st.none(), st.integers(1, 2**63)),
                     st.one_of(st.none(), st.integers(1, 2**63)), st.dictionaries(st.integers(0, 3), dm, max_size=4),
                     st.frozensets(st.integers(0, 3)), st.booleans(), st.integers(0, 1000))


@given(displays)
def test_the_display_record_reads_back_what_it_wrote(shown: Display) -> None:
    assert Display.from_json(shown.to_json()) == shown


def test_a_display_stored_before_the_record_was_typed_reads_as_it_meant() -> None:
    old = {"thread": 11, "message": 12, "dms": {"0": [21, 22, "3t4"], "2": [23, 24, None]}, "dms_closed": [1]}
    shown = Display.from_json(old)
    assert (shown.thread, shown.message, shown.parent) == (11, 12, None)
    assert shown.dms == {0: DmShown(21, 22, "3t4"), 2: DmShown(23, 24, None)} and shown.dms_closed == {1}
    assert shown.to_json() == old  # nothing new is written for what was not there


@pytest.mark.parametrize("bad", [{"dms": [1]}, {"dms": {"0": [1]}}, {"dms_closed": 3}, {"thread": "x1"},
                                 {"message": True}])
def test_a_malformed_display_is_a_value_error(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Display.from_json(bad)


# -- the service's surface: the calls the cogs make, as Protocols (bot/service/surface.py) ----------------------------
SURFACES = ((surface.TableCalls, tables.TableService), (surface.LeagueCalls, leagues.LeagueService),
            (surface.CardCalls, leagues.GuildCards), (surface.CorrectionCalls, leagues.Corrections),
            (surface.NightCalls, nights.Nights), (surface.StatsCalls, stats.StatsService))


def _members(protocol: type) -> list[str]:
    return [name for name, member in vars(protocol).items() if not name.startswith("_")
            and (inspect.isfunction(member) or isinstance(member, property))]


@pytest.mark.parametrize(("protocol", "service"), SURFACES, ids=lambda c: c.__name__)
def test_the_real_service_makes_every_call_of_its_surface_as_written(protocol: type, service: type) -> None:
    for name in _members(protocol):
        promised = vars(protocol)[name]
        if isinstance(promised, property):
            continue  # an attribute of the service (LeagueService.cards): mypy checks its type at the wiring
        real = getattr(service, name)
        assert inspect.signature(real) == inspect.signature(promised), name
        assert inspect.iscoroutinefunction(real) == inspect.iscoroutinefunction(promised), name


def test_the_cogs_know_the_services_only_by_their_surface() -> None:
    """Only the wiring names the concrete services; every other part of cogs/ is handed a Protocol."""
    concrete = {"TableService", "LeagueService", "GuildCards", "Corrections", "Nights", "StatsService"}
    wrong = [f"{path.relative_to(ROOT)}:{node.lineno}" for path, node in _cog_nodes() if path.name != "app.py"
             and isinstance(node, ast.ImportFrom) and any(alias.name in concrete for alias in node.names)]
    assert wrong == []


def test_every_component_reads_back_the_custom_id_it_draws() -> None:
    drawn = [components.ActButton(3, "1t31", "d.5D"), components.ConfirmButton(3, "1t31", "p"),
             components.MoveSelect(3, "1t31", 2, "b.17"), components.TilePickSelect(3, "1c2", "b", ("5D", "N")),
             components.CallButton(3, "1w31"), components.HelperButton(3, ids.Helper.RACK),
             components.SignupButton(4, True),
             components.CardButton(ids.STORE_IMPORT, "0a1b2c3d4e"), components.CardButton(ids.SEND_PROOF, "spring-26")]
    assert {type(c) for c in drawn} == set(components.COMPONENTS)
    for component in drawn:
        custom_id = component.custom_id
        values = list(getattr(component, "picked", ())) or ([component.chosen] if isinstance(
            component, components.MoveSelect) else [])
        assert components.read_press(custom_id, values) == component
        # a night's sign-up and a card manager's button are pressed in a server's channel and name no table
        assert components.table_named(custom_id) == (
            None if isinstance(component, (components.SignupButton, components.CardButton)) else 3)
    assert components.read_press("ch:zz:3", []) is None and components.table_named("not ours") is None

