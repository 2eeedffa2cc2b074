"""Importing a card from another tool's file, given as bytes: the one entry point for ``charleston card import``
and for ``/card-admin import`` (docs/card-format.md, "Importing a card").

:func:`convert_card_file` takes a file's bytes, its name and its format (``"ra"``, ``"mpmahj"``, ``"toml"`` or
``"auto"``: by the name's ending, else by the content) and returns an :class:`~bot.engine.cardimport.Imported`:
the card as TOML text, which passes ``card validate`` as it is, and its warnings, one line each, naming the
source file and line (show them to the organiser before anything is stored). A file that cannot be imported at
all (empty, binary, not UTF-8, too big, not the format named, nothing in it can be carried) raises
:class:`~bot.engine.cardimport.ImportProblem` with one line saying what is wrong and what to do.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.engine.cardfile import MAX_CHARS
from bot.engine.cardimport import FORMATS, Imported, ImportProblem, import_card_text

from .files import FileProblem, decode_text, read_bytes

__all__ = ["FORMATS", "ImportProblem", "Imported", "card_id_for", "convert_card_file", "import_card_path"]

MAX_IMPORT_BYTES = MAX_CHARS  # the card file limit: a printed card's transcription takes about 10-40 KB
_NOT_ID = re.compile(r"[^A-Za-z0-9_-]+")


def card_id_for(filename: str) -> str:
    """A card id made from a file's name (``My Card 2026.json`` gives ``My-Card-2026``), for an import that is
    given none."""
    stem = re.split(r"[\\/]", filename)[-1].rpartition(".")[0] or filename
    return _NOT_ID.sub("-", stem).strip("-_")[:40].strip("-_") or "imported"


def convert_card_file(data: bytes, filename: str, fmt: str = "auto", card_id: str = "") -> Imported:
    """The card a file's bytes hold, as TOML, with its warnings; ``card_id`` is the id written into it (from the
    file's name when empty). Raises :class:`ImportProblem`."""
    if not data.strip():
        raise ImportProblem(f"{filename}: the file is empty; give the card file itself")
    if b"\x00" in data[:8192]:
        raise ImportProblem(f"{filename}: this looks like a binary file (an image, a PDF, a spreadsheet?), not a "
                            "card file; give the .jq, .json or .toml text file")
    try:
        text = decode_text(data, name=filename, what="card file", max_bytes=MAX_IMPORT_BYTES)
    except FileProblem as exc:
        raise ImportProblem(str(exc)) from None
    return import_card_text(text, filename=filename, fmt=fmt, card_id=card_id or card_id_for(filename))


def import_card_path(path: Path | str, fmt: str, card_id: str) -> Imported:
    """:func:`convert_card_file` on a file on disk (a missing, unreadable or special file is an
    :class:`ImportProblem` too)."""
    try:
        data = read_bytes(path, what="card file", max_bytes=MAX_IMPORT_BYTES)
    except FileProblem as exc:
        raise ImportProblem(str(exc)) from None
    return convert_card_file(data, str(path), fmt, card_id)
