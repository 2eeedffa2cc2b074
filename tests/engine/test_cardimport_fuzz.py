"""Fuzzing the card importers (bot/engine/cardimport) with Hypothesis: a file broken anywhere, in any of the
formats, is either imported as a card that passes ``card validate`` (with its warnings, one line each) or refused
with one clear line; never a traceback, never a hang. The files mutated are our own (tests/engine/data/import)."""

from __future__ import annotations

import json
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.card_import import IMPORT_FILES, PRACTICE_TOML

from bot.engine.cardfile import validate_card_text
from bot.engine.cardimport import ImportProblem, import_card_text

pytestmark = pytest.mark.slow

FUZZ = settings(max_examples=int(os.environ.get("CHARLESTON_FUZZ_EXAMPLES", "40")), deadline=None,
                derandomize=not os.environ.get("CHARLESTON_FUZZ_RANDOM"), database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SOURCES = {name: (IMPORT_FILES / name).read_text(encoding="utf-8")
           for name in ("practice.jq", "practice.json", "constructs.jq", "constructs.json", "winonly.jq")}
SOURCES["practice.toml"] = PRACTICE_TOML.read_text(encoding="utf-8")
HANG = 20.0  # seconds: far above the slowest import of a whole card (well under a second), on a loaded machine
# Characters that mean something to one of the formats, so that mutations reach the readers' corners.
SPECIAL = st.sampled_from([*'"[]{},:=|#.\\\n0123456789XxDdZzFfabcNEWSRG ', "\x00", "\ufeff", "\u00e9",
                          "true", "false", "null", ".yaku", "[[hand]]", "[card]", "  # concealed"])


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str]:
    """One of the test files with a few cuts, insertions and swaps, and the name it is read under."""
    name = draw(st.sampled_from(sorted(SOURCES)))
    text = SOURCES[name]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["cut", "insert", "swap"]))
        if kind == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 400)):]
        elif kind == "insert":
            text = text[:at] + "".join(draw(st.lists(SPECIAL, max_size=6))) + text[at:]
        else:
            text = text[:at] + draw(SPECIAL) + text[at + 1:]
    return text, name


def imports_or_refuses_in_one_line(text: str, filename: str, fmt: str) -> None:
    """The property every input must keep."""
    started = time.monotonic()
    try:
        imported = import_card_text(text, filename=filename, fmt=fmt, card_id="fuzzed")
    except ImportProblem as exc:
        message = str(exc)
        assert message and "\n" not in message and "Traceback" not in message, message
    else:
        assert validate_card_text(imported.toml) == [], imported.toml
        assert all(w and "\n" not in w for w in imported.warnings), imported.warnings
        assert imported.lines >= 1
    assert time.monotonic() - started < HANG


@FUZZ
@given(mutated(), st.sampled_from(["auto", "ra", "mpmahj", "toml"]))
def test_a_broken_card_file_imports_valid_or_is_refused_in_one_line(case: tuple[str, str], fmt: str) -> None:
    text, name = case
    imports_or_refuses_in_one_line(text, name, fmt)


@FUZZ
@given(st.text(max_size=2_000), st.sampled_from(["card.jq", "card.json", "card.toml", "card.txt", "card"]),
       st.sampled_from(["auto", "ra", "mpmahj", "toml"]))
def test_any_text_imports_valid_or_is_refused_in_one_line(text: str, filename: str, fmt: str) -> None:
    imports_or_refuses_in_one_line(text, filename, fmt)


@FUZZ
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
                        st.sampled_from(["sections", "group_description", "hands", "description", "vsuit_count",
                                         "concealed", "odd", "even", "components", "suit", "number", "count",
                                         "year"]) | st.text(max_size=8),
                        inner, max_size=6), max_leaves=40))
def test_any_json_structure_imports_valid_or_is_refused_in_one_line(document: object) -> None:
    imports_or_refuses_in_one_line(json.dumps(document), "card.json", "mpmahj")
