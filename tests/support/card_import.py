"""Shared helpers for the card import tests: the files written for them (tests/engine/data/import: the practice
card in each tool's format and made-up lines, one construct each; no line of any published card), and what a
card line means to the matcher, to compare an import with what it should be."""

from __future__ import annotations

from pathlib import Path

from bot.engine.card import Card, Line
from bot.engine.cardfile import load_card_text
from bot.engine.cardimport import Imported, import_card_text
from support.paths import TESTS

IMPORT_FILES = TESTS / "engine" / "data" / "import"
PRACTICE_TOML = TESTS.parent / "data" / "cards" / "practice.toml"

Meaning = frozenset[tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]]


def imported_from(name: str, fmt: str = "auto", card_id: str = "imported") -> Imported:
    """One of the import test files, imported."""
    path = IMPORT_FILES / name if (IMPORT_FILES / name).exists() else Path(name)
    return import_card_text(path.read_text(encoding="utf-8"), filename=path.name, fmt=fmt, card_id=card_id)


def line_meaning(line: Line) -> Meaning:
    """What a line asks of a rack, variant by variant: the tiles of each kind, those in singles and pairs (no
    joker there), and the groups of three or more (the ones exposures and jokers concern). Two ways of writing a
    line that mean the same (``1223a`` and ``1a 22a 3a``) give the same."""
    return frozenset((v.need, v.small, tuple(sorted((int(t), s) for t, s in v.groups if s >= 3)))
                     for v in line.variants)


def one_line_card(pattern: str | list[str], shift: str | list[int] | None = None) -> Line:
    """The one line of a card holding just this pattern (and shift), as the engine compiles it."""
    patterns = [pattern] if isinstance(pattern, str) else pattern
    rows = ["[card]", 'id = "expected"', 'name = "Expected"', "", "[[hand]]", 'id = "x"', 'section = "S"',
            "pattern = [" + ", ".join(f'"{p}"' for p in patterns) + "]", "exposed = true", "value = 25"]
    if shift is not None:
        rows.append(f'shift = "{shift}"' if isinstance(shift, str) else f"shift = {shift}")
    return load_card_text("\n".join(rows) + "\n").lines[0]


def named_line(card: Card, name: str) -> Line:
    """The line an import wrote for the source's line ``name`` ("Constructs #3"), found by its section and
    number as the import numbers ids."""
    section, _, number = name.rpartition(" #")
    wanted = f"{section.lower().replace(' ', '-')}-{number}"
    return next(line for line in card.lines if line.id == wanted)
