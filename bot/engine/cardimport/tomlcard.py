"""Reading a Charleston TOML card for import (docs/card-format.md): each ``[[hand]]`` table is kept as written,
comments and all, and one that cannot be made valid is left out; the ``[card]`` table is written anew with the
id the import gives it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass

from ..rules import PRESETS
from .draft import Draft, DraftLine, ImportProblem

FORMAT = "Charleston TOML"
_HAND_HEADER = re.compile(r"^\s*\[\[\s*hand\s*\]\]")
_CARD_HEADER = re.compile(r"^\s*\[\s*card\s*\]")
_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
RULESETS = tuple(PRESETS)


@dataclass(frozen=True, slots=True)
class CardTable:
    """What the source's ``[card]`` table says, checked."""

    name: str
    year: int | None
    ruleset: str
    wild: str


def _loads(text: str, first_line: int) -> dict[str, object]:
    """The TOML of a part of the file starting on ``first_line``; a ValueError's message names the file's line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = _AT.sub(lambda m: f"(line {int(m.group(1)) + first_line - 1})", str(exc))
        raise ValueError(f"not valid TOML: {message}") from None
    except RecursionError:
        raise ValueError("not valid for a card: arrays or tables are nested too deeply") from None


def read(text: str, source: str) -> tuple[Draft, CardTable]:
    """The card a TOML file holds, each ``[[hand]]`` as its own line; raises :class:`ImportProblem` if the file
    has no readable ``[card]`` table or no ``[[hand]]``."""
    rows = text.splitlines(keepends=True)
    starts = [n for n, row in enumerate(rows) if _HAND_HEADER.match(row)]
    if not starts:
        raise ImportProblem(f"{source}: not a Charleston card file: it has no [[hand]] tables (is it another "
                            "format? name it with --format)")
    try:
        top = _loads("".join(rows[:starts[0]]), 1)
    except ValueError as exc:
        raise ImportProblem(f"{source}: its [card] table cannot be read: {exc}") from None
    card = top.get("card")
    if not isinstance(card, dict):
        raise ImportProblem(f"{source}: not a Charleston card file: it has no [card] table before its [[hand]] "
                            "tables")
    card_row = next((n for n, row in enumerate(rows[:starts[0]]) if _CARD_HEADER.match(row)), 0)
    draft = Draft(FORMAT, "", None, _comments(rows[:card_row]), [], [])
    draft.after_table = _comments(rows[card_row:starts[0]])
    table = _card_table(card, top, draft, source)
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(rows)
        draft.lines.append(_hand("".join(rows[start:end]), start + 1))
    return draft, table


def _comments(rows: list[str]) -> list[str]:
    return [row.strip()[1:].strip() for row in rows if row.strip().startswith("#")]


def _card_table(card: dict[str, object], top: dict[str, object], draft: Draft, source: str) -> CardTable:
    for key in sorted(set(top) - {"card"}):
        draft.notices.append(f"{source}: the top-level key or table '{key[:40]}' is not part of a card: left out")
    for key in sorted(set(card) - {"id", "name", "year", "ruleset", "wild"}):
        draft.notices.append(f"{source}: [card] key '{key[:40]}' is unknown: left out")
    name = card.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        draft.notices.append(f"{source}: [card] has no usable name (a text of 1 to 100 characters): named after "
                             "its id; set name in the file")
        name = ""
    year = card.get("year")
    if year is not None and not (isinstance(year, int) and not isinstance(year, bool) and 1000 <= year <= 9999):
        draft.notices.append(f"{source}: [card] year is not a four-digit year: left out")
        year = None
    ruleset = card.get("ruleset", "nmjl")
    if ruleset not in RULESETS:
        draft.notices.append(f"{source}: [card] ruleset {str(ruleset)[:20]!r} is unknown: nmjl is written")
        ruleset = "nmjl"
    wild = card.get("wild", "flower" if ruleset == "nmjl-1946" else "joker")
    if wild not in ("joker", "flower"):
        draft.notices.append(f"{source}: [card] wild {str(wild)[:20]!r} is neither joker nor flower: joker is "
                             "written")
        wild = "joker"
    assert isinstance(ruleset, str) and isinstance(wild, str)
    return CardTable(name.strip(), year, ruleset, wild)


def _hand(block: str, first_line: int) -> DraftLine:
    line = DraftLine(first_line, f"[[hand]] at line {first_line}", "", None, [], [], True, None)
    line.block = block
    try:
        data = _loads(block, first_line)
    except ValueError as exc:
        line.fatal.append(str(exc))
        return line
    hands = data.get("hand")
    hand = hands[0] if isinstance(hands, list) and len(hands) == 1 and isinstance(hands[0], dict) else None
    if hand is None or set(data) != {"hand"}:
        line.fatal.append("the table holds more than one [[hand]] (or another table): write each line as one "
                          "[[hand]]")
        return line
    hand_id, section = hand.get("id"), hand.get("section")
    if isinstance(hand_id, str) and hand_id.strip():
        line.name = f"hand {hand_id.strip()[:40]}"
        line.hand_id = hand_id.strip()
    line.section = section.strip() if isinstance(section, str) else ""
    value = hand.get("value")
    line.value = value if isinstance(value, int) and not isinstance(value, bool) else None
    note = hand.get("note")
    line.note = note if isinstance(note, str) else ""
    pattern = hand.get("pattern")
    line.patterns = [pattern] if isinstance(pattern, str) else [p for p in pattern if isinstance(p, str)] \
        if isinstance(pattern, list) else []
    line.exposed = hand.get("exposed") is not False
    return line
