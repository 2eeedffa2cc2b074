"""Importing a card from the files other tools keep (docs/card-format.md, "Importing a card"): riichi_advanced's
American notation (``.jq``), mpmahj's symbolic card JSON, and Charleston's own TOML. Pure: text in, TOML text and
warnings out; reading the file is the caller's (``bot.service.card_import`` for bytes, ``charleston card import``
for a path).

Every line the import cannot carry exactly, and every line that looks wrong (not 14 tiles, a value unlike its
section's, a suit count unlike its note), is one warning naming the source's file and line. A line that cannot be
made valid is left out of the card (kept in it as a comment, with the reason), so the card written always passes
``charleston card validate``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..cardfile import MAX_HANDS, validate_card_text
from . import mpmahj, ra, tomlcard
from .checks import suspicions
from .draft import Draft, DraftLine, ImportProblem, assemble
from .write import assign_ids, card_table, hand_table, write

__all__ = ["FORMATS", "ImportProblem", "Imported", "detect_format", "import_card_text"]

FORMATS = ("ra", "mpmahj", "toml")  # as named on the command line; "auto" tells them apart
FORMAT_NAMES = {"ra": "riichi_advanced American notation (.jq)", "mpmahj": "mpmahj card JSON (.json)",
                "toml": "Charleston TOML (.toml)"}
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
_PREFIX = re.compile(r"^[^\n]*?:\d+: (?:\[card\]: )?(?:hand [A-Za-z0-9_-]+[:,] ?)?")
_YEAR = re.compile(r"(?<![0-9])(19[0-9]{2}|20[0-9]{2})(?![0-9])")


@dataclass(frozen=True, slots=True)
class Imported:
    """An imported card: its TOML text (which passes ``card validate``), one line per warning, and counts."""

    toml: str
    warnings: tuple[str, ...]
    card_id: str
    fmt: str  # the format read, as in :data:`FORMATS`
    lines: int  # lines written
    left_out: int  # lines left out (each with its warning)


def detect_format(text: str, filename: str) -> str:
    """The format of a file, by its name's ending (``.jq``, ``.json``, ``.toml``) or else by its content; raises
    :class:`ImportProblem` if neither tells."""
    suffix = filename.lower().rpartition(".")[2] if "." in filename else ""
    by_suffix = {"jq": "ra", "json": "mpmahj", "toml": "toml"}
    if suffix in by_suffix:
        return by_suffix[suffix]
    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        return "mpmahj"
    if re.search(r"^\s*\.(?:yaku|win_definition)\s*\+?=", text, re.MULTILINE):
        return "ra"
    if re.search(r"^\s*\[\s*card\s*\]|^\s*\[\[\s*hand\s*\]\]", text, re.MULTILINE):
        return "toml"
    raise ImportProblem(f"{filename}: cannot tell which format it is in; name it with --format ra, mpmahj or toml")


def import_card_text(text: str, *, filename: str, fmt: str = "auto", card_id: str) -> Imported:
    """Import a card file's text (``filename`` names it in warnings and gives its format with ``fmt="auto"``) as
    the card ``card_id``; raises :class:`ImportProblem` (one line) if it cannot be read as that format or holds
    no line that can be carried."""
    if not _ID.match(card_id):
        raise ImportProblem(f"'{card_id[:40]}' can't be a card id: use 1 to 40 letters, digits, '-' or '_', "
                            "starting with a letter or digit")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise ImportProblem(f"{filename}:{line}: a NUL byte: this looks like a binary file, not a card; give the "
                            "card's text file")
    fmt = detect_format(text, filename) if fmt == "auto" else fmt
    if fmt == "toml":
        draft, source_table = tomlcard.read(text, filename)
        table = card_table(card_id, source_table.name or card_id, source_table.year, source_table.ruleset,
                           source_table.wild)
    elif fmt in ("ra", "mpmahj"):
        draft = ra.read(text, filename) if fmt == "ra" else mpmahj.read(text, filename)
        table = card_table(card_id, _name(draft, filename), draft.year or _year(filename), "nmjl", "joker")
    else:
        raise ImportProblem(f"unknown format {fmt[:20]!r}: use one of {', '.join(FORMATS)} or auto")
    placeholder = _prepare(draft, filename)
    for drafted in draft.lines:
        if not drafted.fatal:
            _check_alone(drafted, table)
    suspicions(draft.lines)
    _some_kept(draft, filename)
    text_out = _settle(draft, filename, card_id, table, placeholder)
    kept = _some_kept(draft, filename)
    warnings = tuple(draft.notices) + tuple(_warning(filename, x) for x in draft.lines if x.fatal or x.reasons)
    return Imported(text_out, warnings, card_id, fmt, len(kept), len(draft.lines) - len(kept))


def _some_kept(draft: Draft, filename: str) -> list[DraftLine]:
    """The lines to be written; a card with none of them is no card at all."""
    kept = [line for line in draft.lines if not line.fatal]
    if not kept:
        first = next((f": first: line {x.source_line}: {'; '.join(x.fatal)}" for x in draft.lines), "")
        raise ImportProblem(f"{filename}: none of its {len(draft.lines)} line(s) can be carried{first}")
    return kept


def _name(draft: Draft, filename: str) -> str:
    stem = re.split(r"[\\/]", filename)[-1].rpartition(".")[0] or filename
    stem = stem.removeprefix("am_card_").replace("_", " ").strip()
    return (draft.name or stem or "Imported card")[:100]


def _year(filename: str) -> int | None:
    found = _YEAR.search(re.split(r"[\\/]", filename)[-1])
    return int(found.group(1)) if found else None


def _prepare(draft: Draft, filename: str) -> bool:
    """Patterns for every line, the cap on the number of lines, ids; whether values were made up (the source
    gives none)."""
    if len(draft.lines) > MAX_HANDS:
        draft.notices.append(f"{filename}: it holds {len(draft.lines):,} lines; a card may have at most "
                             f"{MAX_HANDS}: the rest are left out")
        draft.lines = draft.lines[:MAX_HANDS]
    placeholder = False
    for line in draft.lines:
        if line.block is not None:
            continue
        if not line.fatal:
            assemble(line)
        if line.singles_and_pairs and any(p.size > 2 for a in line.alternatives for p in a):
            line.singles_and_pairs = False
            line.reasons.append("marked Singles & Pairs but it has a group of 3 or more: written without the mark")
        if line.value is None and not line.fatal:
            line.value = mpmahj.PLACEHOLDER_VALUE
            placeholder = True
            line.wording.append(f"value: not in the source, {mpmahj.PLACEHOLDER_VALUE} written for now")
    assign_ids(draft.lines)
    seen: set[str] = set()
    for line in draft.lines:
        if line.block is not None and line.hand_id:
            if line.hand_id in seen and not line.fatal:
                line.fatal.append(f"a second line with the id {line.hand_id}")
            seen.add(line.hand_id)
    return placeholder


def _check_alone(line: DraftLine, table: str) -> None:
    """The card validator's word on the line alone: anything it refuses leaves the line out."""
    problems = [_PREFIX.sub("", p) for p in validate_card_text(table + "\n" + hand_table(line), source="<line>")]
    line.fatal.extend(problems[:2])
    if len(problems) > 2:
        line.fatal.append(f"{len(problems) - 2} more problem(s) of the same kind")


def _settle(draft: Draft, filename: str, card_id: str, table: str, placeholder: bool) -> str:
    """The card's text, with every line the whole card's validation refuses left out (a card-wide limit)."""
    for _ in range(len(draft.lines) + 1):
        text = write(draft, filename, card_id, table, placeholder)
        problems = validate_card_text(text, source="<card>")
        if not problems:
            return text
        blamed = [line for line in draft.lines if not line.fatal
                  and any(re.search(rf"\bhand {re.escape(line.hand_id)}\b", p) for p in problems)]
        if not blamed:
            raise ImportProblem(f"{filename}: the card could not be written valid: {_PREFIX.sub('', problems[0])}")
        for line in blamed:
            line.fatal.extend(_PREFIX.sub("", p) for p in problems if re.search(
                rf"\bhand {re.escape(line.hand_id)}\b", p))
    raise ImportProblem(f"{filename}: the card could not be written valid")


def _warning(filename: str, line: DraftLine) -> str:
    what = "left out: " + "; ".join(line.fatal) if line.fatal else "; ".join(line.reasons)
    if line.fatal and line.reasons:
        what += "; also " + "; ".join(line.reasons)
    return f'{filename}:{line.source_line}: "{line.name}": {what}'
