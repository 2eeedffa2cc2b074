"""Card files (docs/card-format.md): validation and compilation from TOML text.

Reading the file is the caller's job (see ``bot.service.cards``); this module only turns text into a :class:`Card`,
or into a list of every problem found, each naming the file line of the key (or pattern alternative) at fault,
the hand id and the group, and pointing at the tutorial section that shows how to write it. Warnings (a shift
without a note, a soap next to shifting numbers...) do not stop a card from loading; ``charleston card validate``
prints them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import cardtoml
from .card import Card
from .cardlines import HELP, LineCompiler, see
from .errors import CardError
from .line import Line
from .rules import PRESETS
from .tiles import SET_1946, STANDARD, TileSet

CARD_KEYS = ("id", "name", "year", "ruleset", "wild")
HAND_KEYS = ("id", "section", "pattern", "exposed", "value", "east_value", "shift", "note", "singles_and_pairs")
RULESETS = tuple(PRESETS)  # a card names the rules preset it is played with
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")

# Limits far above any printed card (about 10,000 characters, 50-75 lines, a few thousand variants), so that a
# damaged or hostile file is refused with a message instead of taking minutes or memory to compile.
MAX_CHARS = 1_000_000
MAX_HANDS = 500
MAX_EXPANSIONS = 50_000  # (shift, suit binding, wind) combinations expanded over the whole card
MAX_PROBLEMS = 100
MAX_VALUE = 10_000
TEXT_LIMITS = {"id": 40, "name": 100, "section": 100, "note": 500}

# What to write when a required key is missing, in the words of the tutorial.
MISSING = {
    "id": 'a short name for the card, such as id = "league-2026" (letters, digits, - and _)',
    "name": 'the card\'s name as players see it, such as name = "Tuesday league card 2026"',
    "hand id": 'a short name for this line, unique in the card, such as id = "2468-1"',
    "section": 'the heading the line is printed under, such as section = "2468"',
    "pattern": 'the line\'s tiles, such as pattern = "NN 2222a 4a 666b 8888b"',
    "exposed": "true for an X (exposed) line, false for a C (concealed) one",
    "value": "the value printed at the end of the line, such as value = 25",
}


@dataclass(frozen=True, slots=True)
class CardReport:
    """What checking a card file found: the card (None if there is any problem), every problem and warning."""

    card: Card | None
    problems: list[str]
    warnings: list[str]


def load_card_text(text: str, source: str = "<card>") -> Card:
    """Compile a card; raises :class:`CardError` listing every problem if there is any."""
    report = check_card_text(text, source)
    if report.problems or report.card is None:
        raise CardError(report.problems)
    return report.card


def validate_card_text(text: str, source: str = "<card>") -> list[str]:
    """Every problem in a card file, or an empty list."""
    return check_card_text(text, source).problems


def check_card_text(text: str, source: str = "<card>") -> CardReport:
    """Every problem and warning of a card file, and the card itself when it has no problem."""
    if len(text) > MAX_CHARS:
        return CardReport(None, [f"{source}: the file is {len(text):,} characters long; a card file may have at "
                                 f"most {MAX_CHARS:,} (a printed card takes about 10,000)"], [])
    try:
        parsed = cardtoml.read(text, source)
    except RecursionError:
        return CardReport(None, [f"{source}: not valid for a card: arrays or tables are nested too deeply"], [])
    compiler = _Compiler(source, parsed.layout, parsed.problems)
    card = compiler.compile(parsed.data)
    return CardReport(card, compiler.problems, compiler.warnings)


def did_you_mean(key: str, known: tuple[str, ...]) -> str:
    """`` (did you mean `value`?)`` for a key close to a known one, else the list of known keys."""
    close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.6)
    if close:
        return f"; did you mean `{close[0]}`?"
    return f" (the keys are {', '.join(known)})"


def _look_alike(key: str, written: Mapping[str, object], known: tuple[str, ...]) -> str:
    """The unknown key written in a table that is a misspelling of ``key`` (``vaule`` for ``value``), or ""."""
    unknown = [k for k in written if k not in known]
    close = difflib.get_close_matches(key, [k.lower() for k in unknown], n=1, cutoff=0.6) if key else []
    if not close or difflib.get_close_matches(close[0], known, n=1, cutoff=0.6) != [key]:
        return ""
    return next(k for k in unknown if k.lower() == close[0])


class _Compiler:
    def __init__(self, source: str, layout: cardtoml.Layout, problems: list[str]) -> None:
        self.source = source
        self.layout = layout
        self.problems: list[str] = []
        self.warnings: list[str] = []
        self.expansions = 0
        self.over_limit = False
        # Where TOML refused part of the file, a missing table is most likely the part refused: say it once.
        self.syntax_broken = bool(problems)
        for problem in problems:
            self.add(problem)

    def add(self, problem: str) -> None:
        # A huge broken file could have a problem on every line; the first hundred are enough to act on.
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append(f"{self.source}: more problems not shown; fix these first")

    # -- where ---------------------------------------------------------------------------------------
    def card_line(self, key: str = "") -> int:
        table = self.layout.card
        if table is None:
            return 1
        statement = table.keys.get(key) or table.keys.get(_look_alike(key, table.keys, CARD_KEYS))
        return statement.start if statement is not None else table.line

    def hand_line(self, index: int, key: str = "", alternative: int = 0) -> int:
        table = self.layout.hand(index)
        if table is None:
            return 0
        # A missing key is named on the line of its misspelling (`vaule`), where the fix is to be made.
        statement = table.keys.get(key) or table.keys.get(_look_alike(key, table.keys, HAND_KEYS))
        if statement is None:
            return table.line
        if alternative and len(statement.strings) >= alternative:
            return statement.strings[alternative - 1]
        return statement.start

    def card_problem(self, message: str, key: str = "") -> None:
        self.add(f"{self.source}:{self.card_line(key)}: [card]: {message}")

    def hand_message(self, index: int, hand_id: str, message: str, *, key: str = "", alternative: int = 0,
                     position: int = 0, token: str = "") -> str:
        where = f"hand {hand_id}" if hand_id else f"hand #{index + 1}"
        if position:
            where += f', group {position} "{token}"'
        return f"{self.source}:{self.hand_line(index, key, alternative)}: {where}: {message}"

    def unreadable(self, index: int, key: str) -> bool:
        """Whether TOML refused this key's statement (already reported: nothing more to say about it)."""
        table = self.layout.card if index < 0 else self.layout.hand(index)
        return table is not None and key in table.unreadable

    # -- the card ------------------------------------------------------------------------------------
    def compile(self, data: Mapping[str, Any]) -> Card | None:
        header = data.get("card")
        if not isinstance(header, dict):
            if self.syntax_broken:
                header = None
            else:
                self.add(f"{self.source}:1: the file needs a [card] table with id and name" + see("typing-toml"))
                header = {}
        if header is None:
            header, card_id, name = {}, "", ""
        else:
            card_id = self.text(header, "id", required=True)
            name = self.text(header, "name", required=True)
        for key in sorted(set(data) - {"card", "hand"}):
            self.add(f"{self.source}:{self.top_line(key)}: unknown top-level table or key `{key:.40}` (a card has "
                     "[card] and [[hand]] tables)" + see("typing-toml"))
        if card_id and not _ID.match(card_id):
            self.card_problem(f"id '{card_id}' may hold only letters, digits, '-' and '_'" + see("what-you-need"),
                              "id")
        for key in sorted(set(header) - set(CARD_KEYS)):
            self.card_problem(f"unknown key `{key:.40}`{did_you_mean(key, CARD_KEYS)}" + see("the-card-table"), key)
        year = header.get("year")
        if year is not None and (not isinstance(year, int) or isinstance(year, bool) or not 1000 <= year <= 9999):
            self.card_problem("year must be a four-digit whole number such as 2026" + see("the-card-table"), "year")
            year = None
        ruleset = header.get("ruleset", "nmjl")
        if ruleset not in RULESETS:
            self.card_problem(f"ruleset must be one of {', '.join(RULESETS)}, not {ruleset!r:.40}"
                              + see("the-card-table"), "ruleset")
            ruleset = "nmjl"
        wild = header.get("wild", "flower" if PRESETS[ruleset].get("flowers_wild") else "joker")
        if wild not in ("joker", "flower"):
            self.card_problem(f"wild must be \"joker\" or \"flower\", not {wild!r:.40}" + see("the-card-table"),
                              "wild")
            wild = "joker"
        tile_set = SET_1946 if wild == "flower" else STANDARD

        lines = self.hands(data.get("hand"), tile_set)
        if self.problems:
            return None
        sections = tuple(dict.fromkeys(line.section for line in lines))
        return Card(card_id, name, year, ruleset, tile_set, tuple(lines), sections)

    def top_line(self, key: str) -> int:
        statement = self.layout.top.keys.get(key)
        if statement is not None:
            return statement.start
        return next((t.line for t in self.layout.tables if t.header in (key, f"[{key}]")), 1)

    def hands(self, hands: Any, tile_set: TileSet) -> list[Line]:
        if isinstance(hands, dict):
            self.add(f"{self.source}:{self.top_line('hand')}: write each line of the card under [[hand]], with "
                     "two brackets on each side ([hand] makes a single table)" + see("typing-toml"))
            return []
        if not isinstance(hands, list) or not hands:
            if not self.layout.hands and not self.syntax_broken:
                self.add(f"{self.source}:1: the card has no [[hand]] tables" + see("from-a-printed-line-to-its-hand"))
            return []
        if len(hands) > MAX_HANDS:
            self.add(f"{self.source}:1: the card has {len(hands):,} [[hand]] tables; a card may have at most "
                     f"{MAX_HANDS} (a printed card has 50 to 75)" + see("limits"))
            return []
        lines: list[Line] = []
        seen: dict[str, int] = {}
        for index, hand in enumerate(hands):
            hand_id = hand.get("id") if isinstance(hand, dict) else None
            if isinstance(hand_id, str) and hand_id.strip():
                if hand_id.strip() in seen:
                    self.add(self.hand_message(index, hand_id, f"duplicate id (hand #{seen[hand_id.strip()] + 1} "
                                               "has it too): give each line its own"
                                               + see("from-a-printed-line-to-its-hand"), key="id"))
                seen.setdefault(hand_id.strip(), index)
            line = self.compile_hand(index, hand, tile_set)
            if line is not None:
                lines.append(line)
        return lines

    def text(self, table: Mapping[str, Any], key: str, *, required: bool = False, index: int = -1,
             hand_id: str = "") -> str:
        value = table.get(key)
        if value is None:
            if required and not self.unreadable(index, key):
                what = MISSING["hand id" if key == "id" and index >= 0 else key]
                self.report(index, hand_id, f"missing `{key}`: {what}" + see("from-a-printed-line-to-its-hand"),
                            key)
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.report(index, hand_id, f"`{key}` must be text in double quotes, such as {key} = \"...\""
                        + see("typing-toml"), key)
            return ""
        limit = TEXT_LIMITS.get(key, MAX_CHARS)
        if len(value.strip()) > limit:
            self.report(index, hand_id, f"`{key}` is {len(value.strip()):,} characters long; at most {limit}"
                        + see("limits"), key)
            return ""
        return value.strip()

    def report(self, index: int, hand_id: str, message: str, key: str = "") -> None:
        if index < 0:
            self.card_problem(message, key)
        else:
            self.add(self.hand_message(index, hand_id, message, key=key))

    # -- one hand ------------------------------------------------------------------------------------
    def compile_hand(self, index: int, hand: Any, tile_set: TileSet) -> Line | None:
        if not isinstance(hand, dict):
            self.add(self.hand_message(index, "", "each [[hand]] must be a table" + see("typing-toml")))
            return None
        before = len(self.problems)
        hand_id = self.text(hand, "id", required=True, index=index)
        section = self.text(hand, "section", required=True, index=index, hand_id=hand_id)
        note = self.text(hand, "note", index=index, hand_id=hand_id)
        for key in sorted(set(hand) - set(HAND_KEYS)):
            self.add(self.hand_message(index, hand_id, f"unknown key `{key:.40}`{did_you_mean(key, HAND_KEYS)}"
                                       + see("the-hand-table"), key=key))
        exposed = hand.get("exposed")
        if not isinstance(exposed, bool) and not self.unreadable(index, "exposed"):
            message = (f"missing `exposed`: {MISSING['exposed']}" if exposed is None else
                       "`exposed` must be true (an X line) or false (a C line), in small letters and no quotes")
            self.add(self.hand_message(index, hand_id, message + see("from-a-printed-line-to-its-hand"),
                                       key="exposed"))
        value = self.positive(hand, "value", index, hand_id, required=True)
        east_value = self.positive(hand, "east_value", index, hand_id, required=False)
        sp = hand.get("singles_and_pairs", False)
        if not isinstance(sp, bool):
            self.add(self.hand_message(index, hand_id, "`singles_and_pairs` must be true or false"
                                       + see("singles-and-pairs"), key="singles_and_pairs"))
            sp = False

        lines = LineCompiler(self, index, hand_id, tile_set, shifted=hand.get("shift") is not None)
        patterns = lines.patterns(hand.get("pattern"), unreadable=self.unreadable(index, "pattern"))
        parsed = lines.parse(patterns, singles_and_pairs=sp)
        shifts = lines.shifts(hand.get("shift"), parsed, unreadable=self.unreadable(index, "shift"))
        if shifts is None:
            return None
        if self.expansions + lines.expansions(parsed, shifts) > MAX_EXPANSIONS:
            self.expansions = MAX_EXPANSIONS + 1
            if not self.over_limit:
                self.over_limit = True
                self.add(self.hand_message(index, hand_id, f"by this line the card expands to more than "
                                           f"{MAX_EXPANSIONS:,} combinations of suits, winds and number shifts; use "
                                           "fewer alternatives, shifts or suit letters" + see("limits"),
                                           key="pattern"))
            return None
        self.expansions += lines.expansions(parsed, shifts)
        variants = lines.variants(parsed, shifts)
        if len(self.problems) > before or not variants or not isinstance(exposed, bool) or value is None:
            return None
        lines.warn(parsed, note)
        return Line(index, hand_id, section, tuple(patterns), exposed, value, east_value, note, sp, variants)

    def positive(self, hand: Mapping[str, Any], key: str, index: int, hand_id: str, *,
                 required: bool) -> int | None:
        value = hand.get(key)
        if value is None:
            if required and not self.unreadable(index, key):
                self.add(self.hand_message(index, hand_id, f"missing `{key}`: {MISSING[key]}"
                                           + see("from-a-printed-line-to-its-hand"), key=key))
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_VALUE:
            self.add(self.hand_message(index, hand_id, f"`{key}` must be a whole number from 1 to {MAX_VALUE:,}, "
                                       "without quotes" + see("typing-toml"), key=key))
            return 0
        return value


__all__ = ["HELP", "MAX_CHARS", "MAX_EXPANSIONS", "MAX_HANDS", "CardReport", "check_card_text", "load_card_text",
           "validate_card_text"]
