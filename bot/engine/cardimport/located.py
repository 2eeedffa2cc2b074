"""JSON values that remember the line they were written on, read from JSON files and from jq programs.

Card files of other tools are JSON (mpmahj) or a jq program of JSON values (riichi_advanced's ``.jq`` cards: lines
like ``.yaku = [ ... ] |``, with ``#`` comments). An import names the source line of everything it warns about,
which ``json.loads`` cannot give, so this module reads the values itself: strings, lists and objects come back as
:class:`Str`, :class:`List` and :class:`Dict`, subclasses of the built-in types carrying ``line``. It reads in
linear time with a fixed nesting limit, so a hostile file ends in a :class:`Unreadable` with its line, never in a
``RecursionError`` or a long wait.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

MAX_DEPTH = 64  # lists and objects within each other; a card file needs four


class Unreadable(ValueError):
    """Text that is not the JSON (or jq) it should be; ``line`` is where reading stopped."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class Str(str):
    """A string with the line it starts on."""

    line: int


class List(list[object]):
    """A list with the line of its ``[``."""

    line: int


class Dict(dict[str, object]):
    """An object with the line of its ``{``."""

    line: int


def _str(value: str, line: int) -> Str:
    made = Str(value)
    made.line = line
    return made


@dataclass(frozen=True, slots=True)
class Token:
    """One token: ``kind`` is string, number, name, punct or other; ``text`` as written."""

    kind: str
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class Comment:
    """A ``#`` comment of a jq program: its text without the ``#``, and whether code precedes it on its line."""

    line: int
    text: str
    trailing: bool


_SPACE = re.compile(r"[ \t\r\n]+")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMMENT = re.compile(r"#[^\n]*")
_PUNCT = "[]{}:,"
_JQ_PUNCT = ("+=", "|=", "//", "==", "!=", "<=", ">=")
_SURROGATE = re.compile("[\ud800-\udfff]")


def tokenize(text: str, *, jq: bool) -> tuple[list[Token], list[Comment]]:
    """The tokens of a JSON text, or of a jq program (``jq=True``: comments, names and any operator are read,
    so the statements a card import skips need not be understood); raises :class:`Unreadable`."""
    tokens: list[Token] = []
    comments: list[Comment] = []
    pos, line, end = 0, 1, len(text)
    last_code_line = 0
    while pos < end:
        char = text[pos]
        if m := _SPACE.match(text, pos):
            line += m.group().count("\n")
            pos = m.end()
            continue
        if char == '"':
            m = _STRING.match(text, pos)
            if m is None:
                raise Unreadable(line, "a string is not closed on its line (a \" is missing)")
            tokens.append(Token("string", m.group(), line))
        elif jq and char == "#":
            m = _COMMENT.match(text, pos)
            assert m is not None  # '#' followed by anything up to the end of the line
            comments.append(Comment(line, m.group()[1:].strip(), last_code_line == line))
            pos = m.end()
            continue
        elif (m := _NUMBER.match(text, pos)) is not None and (char.isdigit() or char == "-"):
            tokens.append(Token("number", m.group(), line))
        elif char in _PUNCT:
            tokens.append(Token("punct", char, line))
            pos += 1
            last_code_line = line
            continue
        elif (m := _NAME.match(text, pos)) is not None:
            tokens.append(Token("name", m.group(), line))
        elif jq:
            two = text[pos:pos + 2]
            op = two if two in _JQ_PUNCT else char
            tokens.append(Token("punct" if op in ("|", "=", "+=", ".") else "other", op, line))
            pos += len(op)
            last_code_line = line
            continue
        else:
            shown = repr(char) if char.isprintable() else f"character U+{ord(char):04X}"
            raise Unreadable(line, f"unexpected {shown}")
        pos = m.end()
        last_code_line = line
    return tokens, comments


def decode_string(token: Token) -> Str:
    """A string token's value (escapes decoded; a lone half of a surrogate pair becomes U+FFFD, as no UTF-8
    file can hold it)."""
    try:
        value = json.loads(token.text)
    except ValueError:
        raise Unreadable(token.line, f"a string with a broken escape: {token.text[:40]}") from None
    assert isinstance(value, str)
    return _str(_SURROGATE.sub("\ufffd", value), token.line)


class Reader:
    """Reads JSON values from a list of tokens; ``names`` allows jq's unquoted object keys."""

    def __init__(self, tokens: list[Token], *, names: bool = False) -> None:
        self.tokens = tokens
        self.names = names
        self.pos = 0

    def at_end(self) -> bool:
        """Whether every token has been read."""
        return self.pos >= len(self.tokens)

    def _next(self, what: str) -> Token:
        if self.pos >= len(self.tokens):
            line = self.tokens[-1].line if self.tokens else 1
            raise Unreadable(line, f"the text ends where {what} should be")
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def value(self, depth: int = 0) -> object:
        """The next value: a :class:`Str`, :class:`List`, :class:`Dict`, number, bool or None."""
        if depth > MAX_DEPTH:
            raise Unreadable(self.tokens[self.pos - 1].line, f"lists or objects nested more than {MAX_DEPTH} deep")
        token = self._next("a value")
        if token.kind == "string":
            return decode_string(token)
        if token.kind == "number":
            number = float(token.text) if any(c in token.text for c in ".eE") else int(token.text)
            return number
        if token.kind == "name" and token.text in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[token.text]
        if token.text == "[":
            return self._list(token.line, depth)
        if token.text == "{":
            return self._object(token.line, depth)
        raise Unreadable(token.line, f"expected a value, found {token.text[:20]!r}")

    def _list(self, line: int, depth: int) -> List:
        items = List()
        items.line = line
        if self._peek("]"):
            return items
        while True:
            items.append(self.value(depth + 1))
            token = self._next("',' or ']'")
            if token.text == "]":
                return items
            if token.text != ",":
                raise Unreadable(token.line, f"expected ',' or ']' in the list opened on line {line}, found "
                                 f"{token.text[:20]!r}")
            if self._peek("]"):  # jq allows no trailing comma either, but a hand-edited file often has one
                raise Unreadable(self.tokens[self.pos - 1].line, "a ',' just before ']'")

    def _object(self, line: int, depth: int) -> Dict:
        items = Dict()
        items.line = line
        if self._peek("}"):
            return items
        while True:
            key_token = self._next("a key")
            if key_token.kind == "string":
                key: str = decode_string(key_token)
            elif self.names and key_token.kind == "name":
                key = key_token.text
            else:
                raise Unreadable(key_token.line, f"expected a key in quotes, found {key_token.text[:20]!r}")
            colon = self._next("':'")
            if colon.text != ":":
                raise Unreadable(colon.line, f"expected ':' after the key {key[:20]!r}")
            items[key] = self.value(depth + 1)
            token = self._next("',' or '}'")
            if token.text == "}":
                return items
            if token.text != ",":
                raise Unreadable(token.line, f"expected ',' or '}}' in the object opened on line {line}, found "
                                 f"{token.text[:20]!r}")

    def _peek(self, text: str) -> bool:
        if self.pos < len(self.tokens) and self.tokens[self.pos].text == text:
            self.pos += 1
            return True
        return False


def read_json(text: str) -> object:
    """The one JSON value of a text; raises :class:`Unreadable`."""
    tokens, _ = tokenize(text, jq=False)
    if not tokens:
        raise Unreadable(1, "the file is empty")
    reader = Reader(tokens)
    value = reader.value()
    if not reader.at_end():
        token = tokens[reader.pos]
        raise Unreadable(token.line, f"more text after the JSON value: {token.text[:20]!r}")
    return value


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a jq program between ``|`` separators: an assignment to a path (``.yaku = [...]``,
    ``.yaku += [...]``: ``path`` ``("yaku",)``, ``op`` ``=`` or ``+=``) or anything else (``path`` empty)."""

    line: int
    path: tuple[str, ...]
    op: str
    tokens: list[Token]  # the value's tokens, for an assignment; all of them otherwise


_OPENERS = {"[": "]", "{": "}", "(": ")"}


def statements(tokens: list[Token]) -> Iterator[Statement]:
    """The top-level statements of a jq program, split at the ``|`` outside brackets and ``if ... end``."""
    current: list[Token] = []
    depth = 0
    for token in tokens:
        if token.text in _OPENERS or (token.kind == "name" and token.text == "if"):
            depth += 1
        elif token.text in _OPENERS.values() or (token.kind == "name" and token.text == "end"):
            depth = max(0, depth - 1)
        if token.text == "|" and token.kind == "punct" and depth == 0:
            if current:
                yield _statement(current)
            current = []
        else:
            current.append(token)
    if current:
        yield _statement(current)


def _statement(tokens: list[Token]) -> Statement:
    path: list[str] = []
    i = 0
    while i + 1 < len(tokens) and tokens[i].text == "." and tokens[i + 1].kind in ("name", "string"):
        name = tokens[i + 1].text if tokens[i + 1].kind == "name" else decode_string(tokens[i + 1])
        path.append(name)
        i += 2
    if path and i < len(tokens) and tokens[i].text in ("=", "+="):
        return Statement(tokens[0].line, tuple(path), tokens[i].text, tokens[i + 1:])
    return Statement(tokens[0].line, (), "", tokens)
