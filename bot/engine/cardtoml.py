"""Reading a card file's TOML so that every problem can name its own line (docs/card-format.md).

``tomllib`` gives the data but not where each key was written, and it stops at the first syntax error. This module
adds both: :func:`scan` splits the text into statements (a table header, or a key with its value, however many
lines the value takes) without judging them, and :func:`read` parses the whole file, or, when that fails, each
table on its own, setting aside every statement TOML refuses (one problem each, said for a non-programmer) so that
the rest of the file is still checked in the same run.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

MAX_SYNTAX_ERRORS = 50  # statements set aside in one file before giving up on the rest

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\"' -]*?)\s*(\]\]?)\s*(#.*)?$")
_LOOKS_LIKE_HEADER = re.compile(r"^\s*\[\[?\s*[A-Za-z_]")
_KEY = re.compile(r"""^\s*([A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')\s*(\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')\s*)*=""")
_WORD = re.compile(r"^\s*([A-Za-z0-9_-]*)")
_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


@dataclass(slots=True)
class Statement:
    """One statement of the file: a table header or a ``key = value`` (lines are 1-based, ``end`` included)."""

    start: int
    end: int
    header: str = ""  # "card", "[hand]" for an array-of-tables header, "" for a key
    key: str = ""  # the key as written, quotes removed ("" for a header)
    strings: list[int] = field(default_factory=list)  # lines where the value's top-level strings begin
    open: bool = False  # the value was left open (a list or table without its closing bracket)


@dataclass(slots=True)
class Table:
    """A table of the file as written: its header's line and the line of each of its keys."""

    header: str
    line: int
    keys: dict[str, Statement] = field(default_factory=dict)
    unreadable: set[str] = field(default_factory=set)  # keys whose statement TOML refused (already reported)


@dataclass(slots=True)
class Layout:
    """Where things are written: the top of the file (before any header), ``[card]``, and each ``[[hand]]``."""

    top: Table
    card: Table | None
    hands: list[Table]
    tables: list[Table] = field(default_factory=list)  # every table, in the file's order

    def hand(self, index: int) -> Table | None:
        """The ``index``-th ``[[hand]]`` table as written, if the file writes it with a header."""
        return self.hands[index] if 0 <= index < len(self.hands) else None


def scan(text: str) -> list[Statement]:
    """Every statement of the text, in order; blank and comment lines belong to none."""
    statements: list[Statement] = []
    lines = text.split("\n")
    n = 0
    while n < len(lines):
        line = lines[n]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            n += 1
            continue
        header = _HEADER.match(line)
        if header and _LOOKS_LIKE_HEADER.match(line):
            name = _unquote(header.group(2))
            statements.append(Statement(n + 1, n + 1, f"[{name}]" if header.group(1) == "[[" else name))
            n += 1
            continue
        key = _KEY.match(line)
        # A line without its = (value 25) still names the key it meant to set.
        meant = key.group(0)[:-1] if key else _WORD.match(line).group(1)  # type: ignore[union-attr]
        statement = Statement(n + 1, n + 1, key=_unquote(meant))
        n = _value_end(lines, n, key.end() if key else 0, statement)
        statement.end = n
        statements.append(statement)
    return statements


def _unquote(key: str) -> str:
    parts = [part.strip() for part in re.split(r"\.(?=(?:[^\"']|\"[^\"]*\"|'[^']*')*$)", key.strip())]
    return ".".join(part[1:-1] if len(part) >= 2 and part[0] == part[-1] and part[0] in "\"'" else part
                    for part in parts)


def _value_end(lines: list[str], n: int, column: int, statement: Statement) -> int:
    """The (1-based) last line of the value that starts at ``lines[n][column:]``; records where its top-level
    strings begin. A line that looks like a new key or header ends a value left open, so that one missing
    bracket or quote costs one statement, not the rest of the file."""
    depth = 0
    quote = ""  # the open multi-line string's delimiter
    first = n
    while n < len(lines):
        line = lines[n]
        if n > first and not quote and (_KEY.match(line) or _LOOKS_LIKE_HEADER.match(line)) and depth:
            statement.open = True
            return n  # the value ends before this line (the previous one, 1-based n)
        i = column if n == first else 0
        while i < len(line):
            ch = line[i]
            if quote:
                if line.startswith(quote, i):
                    quote, i = "", i + 3
                    continue
                i += 2 if ch == "\\" and quote == '"""' else 1
                continue
            if ch == "#":
                break
            if ch in "\"'":
                if depth <= 1:
                    statement.strings.append(n + 1)
                if line.startswith(ch * 3, i):
                    quote, i = ch * 3, i + 3
                    continue
                i = _string_end(line, i)
                continue
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth = max(0, depth - 1)
            i += 1
        n += 1
        if not quote and not depth:
            return n
    return n


def _string_end(line: str, i: int) -> int:
    """The index just past the one-line string starting at ``line[i]`` (or the end of the line if it is open)."""
    quote = line[i]
    j = i + 1
    while j < len(line):
        if line[j] == "\\" and quote == '"':
            j += 2
            continue
        if line[j] == quote:
            return j + 1
        j += 1
    return j


def layout(statements: list[Statement]) -> Layout:
    """Which statement belongs to which table."""
    top = Table("", 1)
    card: Table | None = None
    hands: list[Table] = []
    tables: list[Table] = []
    current = top
    for statement in statements:
        if statement.header:
            current = Table(statement.header, statement.start)
            tables.append(current)
            if statement.header == "card" and card is None:
                card = current
            elif statement.header == "[hand]":
                hands.append(current)
        elif statement.key:
            current.keys.setdefault(statement.key, statement)
    return Layout(top, card, hands, tables)


@dataclass(slots=True)
class Parsed:
    """The data read (as much of it as TOML accepts), the problems met reading it, and where things are."""

    data: dict[str, Any]
    problems: list[str]
    layout: Layout


def read(text: str, source: str) -> Parsed:
    """Parse the card file's text; a syntax error is reported on its statement's line and that statement set
    aside (the rest of its table is still read), so one run finds every mistake."""
    statements = scan(text)
    where = layout(statements)
    try:
        return Parsed(tomllib.loads(text), [], where)
    except tomllib.TOMLDecodeError:
        pass
    lines = text.split("\n")
    problems: list[str] = []
    data: dict[str, Any] = {}
    hands: list[Any] = []
    tables = _chunks(statements, len(lines))
    for header, first, last, members in tables:
        if len(problems) >= MAX_SYNTAX_ERRORS:
            problems.append(f"{source}:{first}: more TOML mistakes not shown; fix these first")
            break
        chunk, table_problems, dropped = _read_chunk(lines, first, last, members, source)
        problems += table_problems
        if header == "[hand]":
            hand = chunk.get("hand")
            hands.append(hand[0] if isinstance(hand, list) and hand else {})
            table = where.hand(len(hands) - 1)
            if table is not None:
                table.unreadable.update(dropped)
        elif header == "card":
            if "card" not in data:
                data["card"] = chunk.get("card", {})
                if where.card is not None:
                    where.card.unreadable.update(dropped)
            else:
                problems.append(f"{source}:{first}: a second [card] table; a card file has one [card] table at "
                                "the top and a [[hand]] table (double brackets) for each line of the card")
        else:
            for key, value in chunk.items():
                data.setdefault(key, value)
            where.top.unreadable.update(dropped)
    if hands:
        data["hand"] = hands
    return Parsed(data, problems, where)


def _chunks(statements: list[Statement], count: int) -> list[tuple[str, int, int, list[Statement]]]:
    """(header, first line, last line, statements) of each table, the part before any header first."""
    out: list[tuple[str, int, int, list[Statement]]] = [("", 1, count, [])]
    for statement in statements:
        if statement.header:
            out[-1] = (out[-1][0], out[-1][1], statement.start - 1, out[-1][3])
            out.append((statement.header, statement.start, count, [statement]))
        else:
            out[-1][3].append(statement)
    return out


def _read_chunk(lines: list[str], first: int, last: int, members: list[Statement],
                source: str) -> tuple[dict[str, Any], list[str], set[str]]:
    """One table's data, with each statement TOML refuses reported and blanked out, one at a time."""
    # Blank lines in front keep TOML's line numbers those of the file.
    body = [""] * (first - 1) + lines[first - 1:last]
    problems: list[str] = []
    dropped: set[str] = set()
    for _ in range(MAX_SYNTAX_ERRORS):
        try:
            return tomllib.loads("\n".join(body)), problems, dropped
        except tomllib.TOMLDecodeError as exc:
            line, column, message = _where(exc)
        except RecursionError:
            return {}, [*problems, f"{source}:{first}: not valid for a card: arrays or tables are nested too "
                                   "deeply"], dropped
        statement = next((s for s in members if s.start <= line <= s.end), None)
        before = next((s for s in reversed(members) if s.start < line), None)
        if before is not None and before.open and (statement is None or statement.start == line):
            # TOML notices a list left open only on the line after it; the mistake is the statement before.
            statement, line, column = before, before.start, 0
        if statement is None or statement.header:
            # A header TOML refuses, or a mistake outside any statement: nothing of this table can be read.
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            return {}, [*problems, f"{source}:{line}: {explain(text, message, column)}"], dropped
        problems.append(f"{source}:{line}: {explain(lines[statement.start - 1], message, column)}")
        if statement.key:
            dropped.add(statement.key)
        for n in range(statement.start, statement.end + 1):
            body[n - 1] = ""
    return {}, problems, dropped


def _where(exc: tomllib.TOMLDecodeError) -> tuple[int, int, str]:
    message = str(exc)
    found = _WHERE.search(message)
    if found is None:
        return 0, 0, message
    return int(found.group(1)), int(found.group(2)), message[: found.start()]


TOML_HELP = "docs/card-format.md#typing-toml"


def explain(line: str, message: str, column: int = 0) -> str:
    """A TOML syntax error in words for someone who has never met TOML, naming what to write instead."""
    text = line.strip()
    key, equals, value = text.partition("=")
    key, value = key.strip(), value.strip()
    hint = ""
    if any(q in text for q in "\u201c\u201d\u2018\u2019"):
        hint = ("the quotes are curly (\u201c \u201d), as a word processor types them: use straight double quotes "
                '" " (type the card in a plain-text editor)')
    elif text.startswith("[") and not text.startswith("[["):
        hint = "write a table header as [card] or [[hand]] (each line of the card is one [[hand]], two brackets)"
    elif not equals:
        hint = f"every setting is a key, an equals sign and a value, such as value = 25; \"{text[:40]}\" has no ="
    elif not value.split("#")[0].strip():
        hint = f"nothing follows the = sign: write the value on the same line, such as {_example(key)}"
    elif value.lower() in ("true", "false", "yes", "no", "x", "c") and value not in ("true", "false"):
        hint = (f"write {key} = true or {key} = false, in small letters"
                + (" (true for an exposed X line, false for a concealed C line)" if key == "exposed" else ""))
    elif re.search(r'"\s+or\s+"', value):
        hint = (f'write alternatives as a list in square brackets, separated by commas: {key} = ["...", "..."], '
                'not "..." or "..."')
    elif value.startswith('"') and value.count('"') == 1:
        hint = "the text has no closing double quote: end it with \" on the same line"
    elif value.startswith("[") and "]" not in value:
        hint = "the list is not closed: end it with ] (a list may go on over several lines, but it must end)"
    elif value and value[0] not in "\"'[{" and not re.fullmatch(r"[+-]?[0-9][0-9_]*", value.split("#")[0].strip()):
        hint = f'text goes in double quotes: {key} = "{value.split("#")[0].strip()[:60]}"'
    where = f" (column {column})" if column else ""
    plain = message[:1].lower() + message[1:]
    if hint:
        return f"not valid TOML{where}: {hint} (see {TOML_HELP})"
    return f"not valid TOML{where}: {plain} (see {TOML_HELP})"


def _example(key: str) -> str:
    examples = {"value": "value = 25", "east_value": "east_value = 50", "exposed": "exposed = true",
                "shift": 'shift = "any"', "singles_and_pairs": "singles_and_pairs = true", "year": "year = 2026",
                "pattern": 'pattern = "NN 2222a 4a 666b 8888b"'}
    return examples.get(key, f'{key} = "..."')
