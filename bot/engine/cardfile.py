"""Card files (docs/card-format.md): validation and compilation from TOML text.

Reading the file is the caller's job (see ``bot.service.cards``); this module only turns text into a :class:`Card`,
or into a list of every problem found, each naming the file line, the hand id and the group.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from .card import Card
from .errors import CardError
from .line import Line, Variant
from .pattern import Group, Symbolic, binding_count, expand, letter_bindings, number_range, parse_pattern
from .rules import PRESETS
from .tiles import SET_1946, STANDARD, Tile, TileSet, name

CARD_KEYS = {"id", "name", "year", "ruleset", "wild"}
HAND_KEYS = {"id", "section", "pattern", "exposed", "value", "east_value", "shift", "note", "singles_and_pairs"}
RULESETS = tuple(PRESETS)  # a card names the rules preset it is played with
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_HAND_HEADER = re.compile(r"^\s*\[\[\s*hand\s*\]\]")
_CARD_HEADER = re.compile(r"^\s*\[\s*card\s*\]")

# Limits far above any printed card (about 10,000 characters, 50-75 lines, under 1,000 variants), so that a
# damaged or hostile file is refused with a message instead of taking minutes or memory to compile.
MAX_CHARS = 1_000_000
MAX_HANDS = 500
MAX_ALTERNATIVES = 20
MAX_EXPANSIONS = 50_000  # (shift, suit binding) combinations expanded over the whole card
MAX_PROBLEMS = 100
MAX_VALUE = 10_000
TEXT_LIMITS = {"id": 40, "name": 100, "section": 100, "note": 500}


def load_card_text(text: str, source: str = "<card>") -> Card:
    """Compile a card; raises :class:`CardError` listing every problem if there is any."""
    card, problems = _compile(text, source)
    if problems or card is None:
        raise CardError(problems)
    return card


def validate_card_text(text: str, source: str = "<card>") -> list[str]:
    """Every problem in a card file, or an empty list."""
    return _compile(text, source)[1]


def _compile(text: str, source: str) -> tuple[Card | None, list[str]]:
    if len(text) > MAX_CHARS:
        return None, [f"{source}: the file is {len(text):,} characters long; a card file may have at most "
                      f"{MAX_CHARS:,} (a printed card takes about 10,000)"]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [f"{source}: not valid TOML: {exc}"]
    except RecursionError:
        return None, [f"{source}: not valid for a card: arrays or tables are nested too deeply"]
    header_lines = [n for n, line in enumerate(text.splitlines(), start=1) if _HAND_HEADER.match(line)]
    card_line = next((n for n, line in enumerate(text.splitlines(), start=1) if _CARD_HEADER.match(line)), 1)
    return _Compiler(source, header_lines, card_line).compile(data)


class _Compiler:
    def __init__(self, source: str, hand_lines: list[int], card_line: int) -> None:
        self.source = source
        self.hand_lines = hand_lines
        self.card_line = card_line
        self.problems: list[str] = []
        self.expansions = 0
        self.over_limit = False

    def add(self, problem: str) -> None:
        # A huge broken file could have a problem on every line; the first hundred are enough to act on.
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append(f"{self.source}: more problems not shown; fix these first")

    def card_problem(self, message: str) -> None:
        self.add(f"{self.source}:{self.card_line}: [card]: {message}")

    def hand_problem(self, index: int, hand_id: str, message: str, position: int = 0, token: str = "") -> None:
        line = self.hand_lines[index] if index < len(self.hand_lines) else 0
        where = f"hand {hand_id}" if hand_id else f"hand #{index + 1}"
        if position:
            where += f', group {position} "{token}"'
        self.add(f"{self.source}:{line}: {where}: {message}")

    def compile(self, data: Mapping[str, Any]) -> tuple[Card | None, list[str]]:
        header = data.get("card")
        if not isinstance(header, dict):
            self.add(f"{self.source}:1: the file needs a [card] table with id and name")
            header = {}
        for key in sorted(set(data) - {"card", "hand"}):
            self.add(f"{self.source}:1: unknown top-level table or key '{key:.40}' "
                     "(a card has [card] and [[hand]] tables)")
        card_id = self.text(header, "id", required=True)
        if card_id and not _ID.match(card_id):
            self.card_problem(f"id '{card_id}' may hold only letters, digits, '-' and '_'")
        name = self.text(header, "name", required=True)
        for key in sorted(set(header) - CARD_KEYS):
            self.card_problem(f"unknown key '{key:.40}' (known: {', '.join(sorted(CARD_KEYS))})")
        year = header.get("year")
        if year is not None and (not isinstance(year, int) or isinstance(year, bool) or not 1000 <= year <= 9999):
            self.card_problem("year must be a four-digit whole number such as 2026")
            year = None
        ruleset = header.get("ruleset", "nmjl")
        if ruleset not in RULESETS:
            self.card_problem(f"ruleset must be one of {', '.join(RULESETS)}, not {ruleset!r:.40}")
            ruleset = "nmjl"
        wild = header.get("wild", "flower" if PRESETS[ruleset].get("flowers_wild") else "joker")
        if wild not in ("joker", "flower"):
            self.card_problem(f"wild must be \"joker\" or \"flower\", not {wild!r:.40}")
            wild = "joker"
        tile_set = SET_1946 if wild == "flower" else STANDARD

        hands = data.get("hand", [])
        if not isinstance(hands, list) or not hands:
            self.add(f"{self.source}:1: the card has no [[hand]] tables")
            hands = []
        elif len(hands) > MAX_HANDS:
            self.add(f"{self.source}:1: the card has {len(hands):,} [[hand]] tables; a card may have at most "
                     f"{MAX_HANDS} (a printed card has 50 to 75)")
            hands = []
        lines: list[Line] = []
        seen: dict[str, int] = {}
        for index, hand in enumerate(hands):
            hand_id = hand.get("id") if isinstance(hand, dict) else None
            if isinstance(hand_id, str) and hand_id.strip():
                if hand_id.strip() in seen:
                    self.hand_problem(index, hand_id, f"duplicate id (hand #{seen[hand_id.strip()] + 1} has it too)")
                seen.setdefault(hand_id.strip(), index)
            line = self.compile_hand(index, hand, tile_set)
            if line is not None:
                lines.append(line)
        if self.problems:
            return None, self.problems
        sections = tuple(dict.fromkeys(line.section for line in lines))
        return Card(card_id, name, year, ruleset, tile_set, tuple(lines), sections), []

    def text(self, table: Mapping[str, Any], key: str, *, required: bool = False, index: int = -1,
             hand_id: str = "") -> str:
        value = table.get(key)
        if value is None:
            if required:
                self.report(index, hand_id, f"'{key}' is missing")
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.report(index, hand_id, f"'{key}' must be a non-empty string")
            return ""
        limit = TEXT_LIMITS.get(key, MAX_CHARS)
        if len(value.strip()) > limit:
            self.report(index, hand_id, f"'{key}' is {len(value.strip()):,} characters long; at most {limit}")
            return ""
        return value.strip()

    def report(self, index: int, hand_id: str, message: str) -> None:
        if index < 0:
            self.card_problem(message)
        else:
            self.hand_problem(index, hand_id, message)

    def compile_hand(self, index: int, hand: Any, tile_set: TileSet) -> Line | None:
        if not isinstance(hand, dict):
            self.hand_problem(index, "", "each [[hand]] must be a table")
            return None
        before = len(self.problems)
        hand_id = self.text(hand, "id", required=True, index=index)
        report_id = hand_id
        section = self.text(hand, "section", required=True, index=index, hand_id=report_id)
        note = self.text(hand, "note", index=index, hand_id=report_id)
        for key in sorted(set(hand) - HAND_KEYS):
            self.hand_problem(index, report_id, f"unknown key '{key:.40}' (known: {', '.join(sorted(HAND_KEYS))})")
        exposed = hand.get("exposed")
        if not isinstance(exposed, bool):
            self.hand_problem(index, report_id, "'exposed' must be true (X) or false (C)")
        value = self.positive(hand, "value", index, report_id, required=True)
        east_value = self.positive(hand, "east_value", index, report_id, required=False)
        sp = hand.get("singles_and_pairs", False)
        if not isinstance(sp, bool):
            self.hand_problem(index, report_id, "'singles_and_pairs' must be true or false")
            sp = False

        raw = hand.get("pattern")
        patterns: list[str] = []
        if isinstance(raw, str):
            patterns = [raw]
        elif isinstance(raw, list) and len(raw) > MAX_ALTERNATIVES:
            self.hand_problem(index, report_id, f"'pattern' lists {len(raw):,} alternatives; at most "
                              f"{MAX_ALTERNATIVES}")
        elif isinstance(raw, list) and raw and all(isinstance(p, str) for p in raw):
            patterns = list(raw)
        else:
            self.hand_problem(index, report_id, "'pattern' must be a string or a list of strings (alternatives)")

        parsed: list[list[Symbolic]] = []
        for alt, text in enumerate(patterns, start=1):
            groups, problems = parse_pattern(text)
            prefix = f"alternative {alt}: " if len(patterns) > 1 else ""
            for p in problems:
                self.hand_problem(index, report_id, prefix + p.message, p.position, p.token)
            if problems:
                continue
            for g in groups:
                if g.kind == "fixed" and g.value == Tile.F and tile_set.wild == Tile.F:
                    self.hand_problem(index, report_id, prefix + "flowers are the wild tiles on this card, "
                                      "so F cannot be part of a pattern", g.position, g.token)
                if sp and g.size >= 3:
                    self.hand_problem(index, report_id, prefix + "a Singles & Pairs line has only singles and "
                                      "pairs", g.position, g.token)
            parsed.append(groups)

        shifts = self.shifts(hand.get("shift"), parsed, index, report_id)
        if len(self.problems) > before:
            return None
        variants = self.variants(index, report_id, parsed, shifts, tile_set)
        if not variants:
            return None
        assert isinstance(exposed, bool)
        return Line(index, hand_id, section, tuple(patterns), exposed, value, east_value, note, sp, variants)

    def positive(self, hand: Mapping[str, Any], key: str, index: int, hand_id: str, *, required: bool) -> Any:
        value = hand.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_VALUE:
            self.hand_problem(index, hand_id, f"'{key}' must be a whole number from 1 to {MAX_VALUE:,}")
            return 0
        return value

    def shifts(self, raw: Any, parsed: list[list[Symbolic]], index: int, hand_id: str) -> list[list[int]]:
        """The offsets allowed for each alternative."""
        result: list[list[int]] = []
        for groups in parsed:
            span = number_range(groups)
            if raw is None:
                result.append([0])
                continue
            if span is None:
                self.hand_problem(index, hand_id, "'shift' is set but the line has no numbers to shift")
                return []
            low, high = span
            if raw == "any":
                result.append(list(range(1 - low, 10 - high)))
            elif isinstance(raw, list) and raw and all(isinstance(s, int) and not isinstance(s, bool)
                                                       for s in raw):
                for offset in sorted(set(raw)):
                    if not (low + offset >= 1 and high + offset <= 9):
                        self.hand_problem(index, hand_id, f"shift {offset} moves the numbers to "
                                          f"{low + offset}-{high + offset}, outside 1-9")
                result.append(sorted(set(raw)))
            else:
                self.hand_problem(index, hand_id, "'shift' must be \"any\" or a list of whole numbers "
                                  "such as [0, 2, 4]")
                return []
        return result

    def variants(self, index: int, hand_id: str, parsed: list[list[Symbolic]], shifts: list[list[int]],
                 tile_set: TileSet) -> tuple[Variant, ...]:
        self.expansions += sum(len(offsets) * binding_count(groups)
                               for groups, offsets in zip(parsed, shifts, strict=True))
        if self.expansions > MAX_EXPANSIONS:
            if not self.over_limit:
                self.over_limit = True
                self.hand_problem(index, hand_id, f"by this line the card expands to more than {MAX_EXPANSIONS:,} "
                                  "combinations of suits and number shifts; use fewer alternatives, shifts or "
                                  "suit letters")
            return ()
        unique: dict[tuple[Group, ...], Variant] = {}
        reasons: list[str] = []
        for groups, offsets in zip(parsed, shifts, strict=True):
            for offset in offsets:
                for binding in letter_bindings(groups):
                    concrete = expand(groups, offset, binding)
                    key = tuple(sorted(concrete))
                    if key in unique:
                        continue
                    variant = Variant.from_groups(index, concrete)
                    reason = impossible_reason(variant, tile_set)
                    if reason:
                        reasons.append(reason)
                    else:
                        unique[key] = variant
        if not unique:
            self.hand_problem(index, hand_id, "can never be completed: " + (reasons[0] if reasons else
                                                                            "no variant"))
        return tuple(unique.values())


def impossible_reason(variant: Variant, tile_set: TileSet) -> str:
    """Why the tile set can never make this variant, or "" if it can."""
    wild = tile_set.wild
    wilds = tile_set.counts[wild] if wild is not None else 0
    wanted = 0
    for tile, need in zip(Tile, variant.need, strict=True):
        if not need:
            continue
        have = tile_set.counts[tile]
        if variant.small[tile] > have:
            return (f"it needs {variant.small[tile]} {name(tile)} in singles and pairs, where no wild tile "
                    f"may stand in, but the set has only {have}")
        wanted += max(0, need - have)
    if wanted > wilds:
        if not wilds:
            return f"it needs {wanted} wild tile(s) beyond the naturals, and this card has no wild tiles"
        return f"it needs {wanted} wild tiles beyond the naturals, but the set has only {wilds}"
    return ""
