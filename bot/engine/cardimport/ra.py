"""Reading riichi_advanced's American card files (``am_card_*.jq``; its documentation/documentation.md, "American
hand match specifications").

Such a file is a jq program setting lists of match specifications: ``.win_definition`` (every winning pattern,
under ``# Section`` comments, ``# concealed`` after a concealed line), ``.open_win_definition`` (those that may be
exposed), ``.singles_win_definition`` (Singles & Pairs) and ``.yaku``, one object per printed line with its
``display_name`` ("2468 #3"), ``value`` and conditions (``match`` with the line's patterns, ``has_no_call_named``
for a concealed line). A pattern is groups separated by spaces: ``F`` flowers, ``Z`` any wind, ``N E W S``, ``R G
0`` dragons, ``D`` the dragon of a suit, digits, and ``X`` followed by an offset for a number that moves with the
line (``XXXX0a`` a kong of the line's number, ``XX1a`` a pair of the next); ``a b c`` are three different suits;
``|`` separates a group's alternatives. Other statements of the program (buttons, rules) are not card lines.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field

from .draft import MAX_ALTERNATIVES, Alternative, Draft, DraftLine, ImportProblem, Piece, glue_runs
from .located import Comment, Dict, List, Reader, Statement, Str, Unreadable, statements, tokenize

FORMAT = "riichi_advanced"
KEYS = ("win_definition", "open_win_definition", "singles_win_definition", "yaku")
_NUMBERED = re.compile(r"^(.*?)\s*#\s*([0-9]{1,3})$")
_SINGLES_AND_PAIRS = re.compile(r"singles\s*(?:and|&)\s*pairs", re.IGNORECASE)
_X_GROUP = re.compile(r"^(X+)([0-9])([a-z]?)$")
_UNSUITED = "FZ0GRNEWSJ"


@dataclass(slots=True)
class _Lists:
    """The card's lists as the program sets them, and where."""

    values: dict[str, list[object]] = field(default_factory=dict)
    spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    ignored: list[Statement] = field(default_factory=list)


def _read_lists(text: str, source: str) -> tuple[_Lists, list[Comment], int]:
    try:
        tokens, comments = tokenize(text, jq=True)
        found = _Lists()
        for statement in statements(tokens):
            key = statement.path[0] if len(statement.path) == 1 else ""
            if key not in KEYS:
                found.ignored.append(statement)
                continue
            reader = Reader(statement.tokens, names=True)
            value = reader.value()
            if not reader.at_end():
                raise Unreadable(statement.tokens[reader.pos].line, f"unexpected text after the list .{key}")
            if not isinstance(value, List):
                raise Unreadable(statement.line, f".{key} should be a list in [ ]")
            if statement.op == "=":
                found.values[key] = list(value)
            else:
                found.values.setdefault(key, []).extend(value)
            last = statement.tokens[-1].line if statement.tokens else statement.line
            found.spans.setdefault(key, []).append((statement.line, last))
    except Unreadable as exc:
        raise ImportProblem(f"{source}:{exc.line}: not a riichi_advanced card file: {exc.message}") from None
    first_code = tokens[0].line if tokens else 0
    return found, comments, first_code


def read(text: str, source: str) -> Draft:
    """The card a riichi_advanced ``.jq`` file holds; raises :class:`ImportProblem` if it is not one."""
    found, comments, first_code = _read_lists(text, source)
    if not found.values.get("yaku") and not found.values.get("win_definition"):
        raise ImportProblem(f"{source}: not a riichi_advanced card file: it sets no .yaku or .win_definition "
                            "(is it another format? name it with --format)")
    header = [c.text for c in comments if c.line < first_code and not c.trailing]
    index = _Index(found, comments)
    draft = Draft(FORMAT, "", None, header, [], [])
    if found.values.get("yaku"):
        draft.lines = [line for entry in found.values["yaku"] if (line := _yaku_line(entry, index, draft, source))]
    else:
        draft.lines = _win_definition_lines(index)
        draft.notices.append(f"{source}: the file has no .yaku, so it gives no values: every line is written with "
                             "value = 25; type the printed values")
    if found.ignored:
        first = found.ignored[0]
        draft.notices.append(f"{source}:{first.line}: {len(found.ignored)} other statement(s) of the program "
                             "ignored (game settings, not card lines)")
    return draft


class _Index:
    """The patterns of the win definitions, with their line, section comment and trailing comment."""

    def __init__(self, found: _Lists, comments: list[Comment]) -> None:
        self.found = found
        own = sorted((c.line, c.text) for c in comments if not c.trailing)
        self.trailing = {c.line: c.text for c in comments if c.trailing}
        self.where: dict[str, Str] = {}
        self.section: dict[int, str] = {}
        for key in ("win_definition", "open_win_definition", "singles_win_definition"):
            for item in found.values.get(key, []):
                if isinstance(item, Str):
                    self.where.setdefault(str(item), item)
                    before = [text for line, text in own if line < item.line and self._same_list(key, line, item.line)]
                    if before and item.line not in self.section:
                        self.section[item.line] = before[-1]
        self.open = {str(p) for p in found.values.get("open_win_definition", []) if isinstance(p, str)}
        self.singles = {str(p) for p in found.values.get("singles_win_definition", []) if isinstance(p, str)}

    def _same_list(self, key: str, comment_line: int, item_line: int) -> bool:
        return any(start <= comment_line <= end and start <= item_line <= end
                   for start, end in self.found.spans.get(key, []))

    def comment_on(self, pattern: str) -> str:
        """The trailing comment on the line of a win definition holding this pattern."""
        item = self.where.get(pattern)
        return self.trailing.get(item.line, "") if item is not None else ""

    def section_of(self, pattern: str) -> str:
        """The section comment above a win definition holding this pattern."""
        item = self.where.get(pattern)
        return self.section.get(item.line, "") if item is not None else ""


def _conditions(when: object, line: DraftLine) -> list[str]:
    """The patterns of a ``.yaku`` entry's conditions; marks the line concealed, or says what is not carried."""
    patterns: list[str] = []
    if not isinstance(when, list):
        line.fatal.append('its "when" is not a list of conditions')
        return patterns
    matches = 0
    for condition in when:
        if not isinstance(condition, dict):
            line.reasons.append("a list of alternative conditions is not carried")
            continue
        kind = condition.get("name")
        opts = condition.get("opts")
        if kind == "match":
            matches += 1
            given = opts[1] if isinstance(opts, list) and len(opts) > 1 else None
            given = [given] if isinstance(given, str) else given
            if matches > 1:
                line.reasons.append("a second match condition is not carried")
            elif isinstance(given, list):
                patterns.extend(str(p) for p in given if isinstance(p, str))
        elif kind == "has_no_call_named":
            line.exposed = False
        elif kind == "not_match":
            line.reasons.append('its "not_match" condition (a hand it must not be) is not carried: the card '
                                "language has no exclusions")
        else:
            line.reasons.append(f'its condition "{str(kind)[:40]}" is not carried')
    if not patterns:
        line.fatal.append("it has no match patterns")
    return patterns


def _value(raw: object, line: DraftLine) -> None:
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 < raw <= 10_000:
        line.value = raw
    elif raw is None:
        line.fatal.append("it has no value")
    else:
        shown = f'"{raw[:20]}" (a text)' if isinstance(raw, str) else str(raw)[:20]
        line.fatal.append(f"its value {shown} is not a whole number from 1 to 10,000")


def _yaku_line(entry: object, index: _Index, draft: Draft, source: str) -> DraftLine | None:
    if not isinstance(entry, Dict):
        where = getattr(entry, "line", 0)
        draft.notices.append(f"{source}:{where}: an entry of .yaku that is not an object {{...}}: skipped")
        return None
    display = entry.get("display_name")
    name = str(display).strip() if isinstance(display, str) and display.strip() else f"line {entry.line}"
    numbered = _NUMBERED.match(name)
    line = DraftLine(entry.line, name, numbered.group(1) if numbered else name,
                     int(numbered.group(2)) if numbered else None, [], [], True, None)
    _value(entry.get("value"), line)
    patterns = _conditions(entry.get("when"), line)
    line.wording = [f'"{name}", value {entry.get("value")}' + ("" if line.exposed else ", concealed")]
    line.wording += [f'"{p}"' + (f"  # {c}" if (c := index.comment_on(p)) else "") for p in patterns]
    if not numbered and patterns and index.section_of(patterns[0]):
        line.section = index.section_of(patterns[0])
    _cross_check(line, patterns, index)
    _fill(line, patterns)
    line.singles_and_pairs |= any(p in index.singles for p in patterns)
    return line


def _cross_check(line: DraftLine, patterns: list[str], index: _Index) -> None:
    """Where the file disagrees with itself about a line, say so (the line is written as ``.yaku`` says)."""
    if index.found.values.get("win_definition") and not any(p in index.where for p in patterns):
        line.reasons.append("its patterns are not in .win_definition (riichi_advanced never lets it win)")
    said = [p for p in patterns if "concealed" in index.comment_on(p).lower()]
    if said and line.exposed:
        line.reasons.append("its .win_definition comment says concealed but .yaku does not (written exposed, "
                            "as .yaku says)")
    if index.open and line.exposed and not any(p in index.open for p in patterns):
        line.reasons.append("it is not in .open_win_definition, which means concealed, but .yaku does not say "
                            "so (written exposed, as .yaku says)")
    if index.open and not line.exposed and any(p in index.open for p in patterns):
        line.reasons.append("it is in .open_win_definition, which means it may be exposed, but .yaku says "
                            "concealed (written concealed, as .yaku says)")


def _win_definition_lines(index: _Index) -> list[DraftLine]:
    """Without ``.yaku``: one line per source line of ``.win_definition`` (its patterns are the alternatives)."""
    by_line: dict[int, list[str]] = {}
    for item in index.found.values.get("win_definition", []):
        if isinstance(item, Str):
            by_line.setdefault(item.line, []).append(str(item))
    lines: list[DraftLine] = []
    numbers: Counter[str] = Counter()
    for source_line, patterns in by_line.items():
        section = index.section.get(source_line, "") or "Card"
        numbers[section] += 1
        comment = index.trailing.get(source_line, "")
        line = DraftLine(source_line, f"{section} #{numbers[section]}", section, numbers[section], [], [],
                         "concealed" not in comment.lower() and (not index.open or any(p in index.open
                                                                                        for p in patterns)), None)
        line.wording = [", ".join(f'"{p}"' for p in patterns) + (f"  # {comment}" if comment else "")]
        _fill(line, patterns)
        line.singles_and_pairs |= any(p in index.singles for p in patterns)
        lines.append(line)
    return lines


def _fill(line: DraftLine, patterns: list[str]) -> None:
    """The line's alternatives from its patterns, its Singles & Pairs mark, and a note for a moving line."""
    for pattern in patterns:
        alternatives, problem = parse(pattern, line.reasons)
        if problem:
            line.fatal.append(f'"{pattern[:60]}": {problem}')
            return
        for alternative in alternatives:
            line.alternatives.append(alternative)
            top = max((p.offset for p in alternative if p.symbol == "X"), default=-1)
            line.bases.append(list(range(1, 10 - top)) if top >= 0 else [])
    if _SINGLES_AND_PAIRS.search(line.section):
        line.singles_and_pairs = True
    offsets = {p.offset for a in line.alternatives for p in a if p.symbol == "X"}
    if offsets:
        line.note = "any like numbers" if len(offsets) == 1 else "any consecutive numbers"
        line.wording.append("(the note is written by the import: the file has none)")


def parse(pattern: str, reasons: list[str]) -> tuple[list[Alternative], str]:
    """Every alternative a pattern spells out (``|`` in a group multiplies them), or why it cannot be read."""
    options: list[list[list[Piece]]] = []
    glue = 0
    for group in pattern.split():
        choices: list[list[Piece]] = []
        for option in group.split("|"):
            pieces, problem = _group(option, reasons, glue)
            if problem:
                return [], problem
            glue = max([glue, *(p.glue for p in pieces)])
            choices.append(pieces)
        options.append(choices)
    if not options:
        return [], "the pattern is empty"
    count = 1
    for choices in options:
        count *= len(choices)
        if count > MAX_ALTERNATIVES:
            return [], f"its | alternatives multiply to more than {MAX_ALTERNATIVES:,} patterns"
    return [tuple(itertools.chain.from_iterable(chosen)) for chosen in itertools.product(*options)], ""


def _group(option: str, reasons: list[str], glue: int) -> tuple[list[Piece], str]:
    """One group (one side of a ``|``) as pieces, or why it cannot be read."""
    if not option:
        return [], "an empty side of a |"
    if option[0] == "0" and len(option) > 1 and option[-1] in "abc" and set(option[:-1]) <= set("0123456789D"):
        # riichi_advanced reads a group opening with 0 as unsuited and drops its digits; the printed intent is plain
        reasons.append(f'"{option}" starts with 0, which riichi_advanced reads without its suit: carried as printed')
        return _suited(option, glue)
    if option[0] in _UNSUITED:
        pieces = []
        for char, count in Counter(option).items():
            if char == "J":
                return [], "J (a joker as a tile of the line) cannot be written in the card language"
            if char not in _UNSUITED:
                return [], f'unknown symbol "{char}" in "{option}"'
            pieces.append(Piece(char, count))
        return pieces, ""
    if option[0] in "123456789D":
        return _suited(option, glue)
    if m := _X_GROUP.match(option):
        xs, offset, letter = m.groups()
        if letter not in ("a", "b", "c"):
            return [], f'"{option}" needs a suit letter a, b or c'
        return [Piece("X", len(xs), letter, int(offset))], ""
    return [], f'unknown group "{option[:20]}"'


def _suited(option: str, glue: int) -> tuple[list[Piece], str]:
    letter = option[-1]
    body = option[:-1]
    if letter not in ("a", "b", "c"):
        return [], f'"{option}" needs a suit letter a, b or c'
    if not body or not set(body) <= set("0123456789D"):
        return [], f'unknown group "{option[:20]}"'
    if len(set(body)) == 1:
        char = body[0]
        return [Piece(char, len(body), "" if char == "0" else letter)], ""
    singles = [Piece(c, 1, "" if c == "0" else letter) for c in body]
    return glue_runs(singles, glue), ""
