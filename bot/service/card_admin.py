"""What ``/card-admin import`` and ``/card-admin line`` need beyond storing a card: an import held until the
organiser confirms it, and one line of a card's TOML replaced by a line typed as the card prints it.

**An import waits for its confirmation** (:class:`PendingImports`): the file is read and converted, its warnings
shown, and the converted card kept in memory, under a short token carried by the confirm button, for 15 minutes
(the life of the interaction that showed it). Nothing is in the database until the organiser presses the button;
a restart forgets what was waiting, and the button then says to import again.

**A line typed as printed** (:func:`parse_line_text`): ``2468a FFFF 2222b 88b`` in the card language
(docs/card-format.md), alternatives joined by ``or``, and optionally X or C and the value at the end as the card
prints them (``... X 25``); what is not typed is kept from the line being replaced. :func:`replace_hand` writes it
into the card's TOML in place of that ``[[hand]]``'s keys, keeping every comment and every other line as written.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from bot.engine.card import Card, Line
from bot.engine.cardfile import check_card_text
from bot.engine.cardimport import FORMAT_NAMES, ImportProblem, detect_format
from bot.engine.cardtoml import layout, scan
from bot.engine.wording import line_name

from .card_import import MAX_IMPORT_BYTES, convert_card_file
from .errors import ErrorKind, TableError
from .files import FileProblem, decode_text

PENDING_MINUTES = 15  # an interaction's token lives 15 minutes: the confirm button cannot be answered after
PENDING_PER_GUILD = 5  # imports waiting in one server at once (the oldest is forgotten)
MAX_LINE_TEXT = 400  # a printed line with a few "or"s takes about 100 characters
# X or C and the value at the end: "X 25", "X25", "X", or "25 X" (with its space: "25c" is a single tile, 25 in c)
_MARK = re.compile(r"^(?P<mark>[XxCc])\s*(?P<value>[0-9]{1,4})?$|^(?P<value2>[0-9]{1,4})\s+(?P<mark2>[XxCc])$")
_OR = re.compile(r"\s+or\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ImportPreview:
    """An import read and checked, waiting for the organiser's confirmation: what to show her before it is
    stored."""

    token: str
    guild_id: int
    name: str  # its name in this server
    filename: str
    fmt: str  # the format read: "toml", "ra" or "mpmahj"
    source_format: str  # in words: "riichi_advanced American notation (.jq)"
    title: str
    lines: int
    left_out: int  # lines of the file that could not be carried (each has a warning)
    warnings: tuple[str, ...]
    toml: str = field(repr=False)
    by: int | None = None
    expires: str = ""

    @property
    def ask_first(self) -> bool:
        """Whether the organiser must read something before it is stored: a file converted from another tool's
        format, or any warning. A Charleston TOML card without warnings is stored as written, at once."""
        return bool(self.warnings) or self.fmt != "toml"


class PendingImports:
    """Imports shown and not yet confirmed, by token (in memory: a restart forgets them)."""

    def __init__(self) -> None:
        self._waiting: dict[str, ImportPreview] = {}

    def hold(self, preview: ImportPreview, now: str) -> ImportPreview:
        """Keep an import for :data:`PENDING_MINUTES`; returns it with its token and expiry."""
        self._forget_expired(now)
        mine = [p for p in self._waiting.values() if p.guild_id == preview.guild_id]
        for old in mine[: max(0, len(mine) - PENDING_PER_GUILD + 1)]:
            del self._waiting[old.token]
        expires = (datetime.fromisoformat(now) + timedelta(minutes=PENDING_MINUTES)).isoformat()
        held = replace(preview, token=secrets.token_hex(5), expires=expires)
        self._waiting[held.token] = held
        return held

    def take(self, guild_id: int, token: str, now: str) -> ImportPreview:
        """The import a confirm button names, removed from those waiting; TableError if it is gone."""
        self._forget_expired(now)
        preview = self._waiting.get(token)
        if preview is None or preview.guild_id != guild_id:
            raise TableError(ErrorKind.GONE, "That import is no longer waiting (it was stored already, or more than "
                             f"{PENDING_MINUTES} minutes went by, or the bot restarted): nothing was stored from it. "
                             "Run `/card-admin import` again.")
        del self._waiting[token]
        return preview

    def _forget_expired(self, now: str) -> None:
        for token in [t for t, p in self._waiting.items() if p.expires <= now]:
            del self._waiting[token]


@dataclass(frozen=True, slots=True)
class LineEdit:
    """A line as typed: its alternatives, and X/C and the value if they were typed (None: keep the old)."""

    patterns: tuple[str, ...]
    exposed: bool | None = None
    value: int | None = None


def parse_line_text(text: str) -> LineEdit:
    """A line typed as printed: ``2468a FFFF 2222b 88b``, ``... or ...`` for alternatives, ``X 25``/``C 30`` at
    the end for X or C and the value. The groups themselves are the card compiler's to judge."""
    text = " ".join(text.split())
    if not text:
        raise TableError(ErrorKind.BAD_INPUT, "Type the line's tiles, like `2468a FFFF 2222b 88b` (add `X 25` at the "
                         "end for exposed, 25 chips). How to write a line: docs/card-format.md.")
    if len(text) > MAX_LINE_TEXT:
        raise TableError(ErrorKind.BAD_INPUT, f"That is {len(text)} characters: one line of a card takes about 100. "
                         "Type one line (alternatives joined by `or`).")
    if any(not c.isprintable() for c in text) or any(c in text for c in "\"\\[]="):
        raise TableError(ErrorKind.BAD_INPUT, "Type the line as the card prints it, without quotes, brackets or "
                         "`=`: like `2468a FFFF 2222b 88b X 25`.")
    exposed, value = None, None
    words = text.split(" ")
    for take in (2, 1):  # "X 25" or "25 X" (two words), or "X25", "X", "C" (one)
        if len(words) > take and (mark := _MARK.match(" ".join(words[-take:]))):
            letter = mark["mark"] or mark["mark2"]
            number = mark["value"] or mark["value2"]
            exposed = letter in "Xx"
            value = int(number) if number else None
            words = words[:-take]
            break
    patterns = tuple(p.strip() for p in _OR.split(" ".join(words)) if p.strip())
    if not patterns:
        raise TableError(ErrorKind.BAD_INPUT, "Type the line's tiles before X or C and the value, like "
                         "`2468a FFFF 2222b 88b X 25`.")
    return LineEdit(patterns, exposed, value)


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def replace_hand(source: str, index: int, edit: LineEdit, note: str | None = None) -> str:
    """The card's TOML with the ``index``-th ``[[hand]]``'s pattern (and exposed, value and note where given)
    replaced, every other line, comment and key as written. TableError if the file does not write that hand
    with its own ``[[hand]]`` header (then the file must be edited and imported again)."""
    hand = layout(scan(source)).hand(index)
    if hand is None:
        raise TableError(ErrorKind.BAD_INPUT, "This card's file does not write that line under a `[[hand]]` of its "
                         "own, so it can't be replaced here: fix the file and import it again.")
    pattern = _toml_string(edit.patterns[0]) if len(edit.patterns) == 1 else \
        "[" + ", ".join(_toml_string(p) for p in edit.patterns) + "]"
    wanted = {"pattern": pattern}
    if edit.exposed is not None:
        wanted["exposed"] = "true" if edit.exposed else "false"
    if edit.value is not None:
        wanted["value"] = str(edit.value)
    if note is not None:
        wanted["note"] = _toml_string(" ".join(note.split()))
    lines = source.split("\n")
    changes: list[tuple[int, int, str]] = []  # (first line, last line, new text): 0-based, inclusive
    added: list[str] = []
    for key, value in wanted.items():
        statement = hand.keys.get(key)
        if statement is None:
            added.append(f"{key} = {value}")
        else:
            changes.append((statement.start - 1, statement.end - 1, f"{key} = {value}"))
    for first, last, text in sorted(changes, reverse=True):
        lines[first:last + 1] = [text]
    if added:
        lines[hand.line:hand.line] = added  # just under the [[hand]] header
    return "\n".join(lines)


def clean_problem(problem: str) -> str:
    """A compiler's problem without the file's name and line (which mean nothing to someone who typed a line in
    Discord): ``spring.toml:41: hand 2468-1: pattern: ...`` becomes ``pattern: ...``."""
    return re.sub(r"^[^\n]*?:[0-9]+: (?:hand [A-Za-z0-9_-]+[:,] ?)?", "", problem, count=1)


class CardProblems(TableError):
    """A card file the compiler refused: ``problems`` lists every problem, one per line of the file."""

    def __init__(self, source: str, problems: list[str]) -> None:
        count = len(problems)
        super().__init__(ErrorKind.BAD_INPUT, f"{source} is not a card I can use ({count} problem"
                         f"{'s' if count != 1 else ''}); nothing was imported:\n" + "\n".join(problems))
        self.problems = problems


def read_import(data: bytes, source: str, fmt: str, name: str) -> ImportPreview:
    """A card file's bytes read as ``fmt`` ("auto": by its name, else its content) into a preview (not yet held):
    a Charleston TOML card is taken as written (its problems refuse it, its warnings are shown); another tool's
    file is converted (``bot.service.card_import``), every line it could not carry exactly one warning."""
    try:
        if not data.strip() or b"\x00" in data[:8192]:
            convert_card_file(data, source, fmt, name)  # an empty or binary file: the converter's one clear line
        text = decode_text(data, name=source, what="card file", max_bytes=MAX_IMPORT_BYTES)
        chosen = detect_format(text, source) if fmt == "auto" else fmt
        if chosen == "toml":
            report = check_card_text(text, source=source)
            if report.problems or report.card is None:
                raise CardProblems(source, report.problems)
            card, toml, warnings, left_out = report.card, text, tuple(report.warnings), 0
        else:
            imported = convert_card_file(data, source, chosen, name)
            toml, warnings, left_out = imported.toml, imported.warnings, imported.left_out
            compiled = check_card_text(toml, source=source).card
            if compiled is None:  # the converter promises a valid card; were it not, nothing is stored
                raise ImportProblem(f"{source}: nothing in it could be made into a card line")
            card = compiled
    except (FileProblem, ImportProblem) as exc:
        raise TableError(ErrorKind.BAD_INPUT, f"{str(exc).rstrip('.')}. Nothing was imported.") from None
    return ImportPreview("", 0, name, source, chosen, FORMAT_NAMES.get(chosen, chosen), card.name, len(card.lines),
                         left_out, warnings, toml)


def find_line(card: Card, typed: str) -> Line:
    """A line by the name players give it ("2468 #1", any case and spacing) or by its id in the card file."""
    wanted = " ".join(typed.replace("#", " #").split()).lower()
    for line in card.lines:
        if line_name(card, line).lower() == wanted or line.id.lower() == typed.strip().lower():
            return line
    names = ", ".join(line_name(card, line) for line in card.lines[:6])
    raise TableError(ErrorKind.BAD_INPUT, f"{card.name} has no line '{typed[:40]}'. Name it as the card prints it, "
                     f"section and number: {names}, ... (the suggestions list them all).")
