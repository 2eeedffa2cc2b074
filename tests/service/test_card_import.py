"""``bot.service.card_import.convert_card_file``: the entry point ``/card-admin import`` shares with
``charleston card import``, bytes in, the TOML card and its warnings out (docs/card-format.md, "Importing a
card")."""

from __future__ import annotations

import pytest
from support.card_import import IMPORT_FILES

from bot.engine.cardfile import MAX_CHARS, load_card_text, validate_card_text
from bot.service.card_import import ImportProblem, card_id_for, convert_card_file


def test_an_uploaded_file_becomes_a_card_named_after_the_file_with_its_warnings() -> None:
    data = (IMPORT_FILES / "constructs.json").read_bytes()
    imported = convert_card_file(data, "Constructs 2026.json")
    assert imported.card_id == "Constructs-2026" and imported.fmt == "mpmahj"
    assert validate_card_text(imported.toml) == []
    assert load_card_text(imported.toml).id == "Constructs-2026"
    assert imported.warnings and all(w.startswith("Constructs 2026.json:") for w in imported.warnings)


def test_the_format_and_the_card_id_can_be_given() -> None:
    imported = convert_card_file((IMPORT_FILES / "practice.jq").read_bytes(), "upload.bin", "ra", "tuesday")
    assert (imported.card_id, imported.fmt, imported.lines, imported.left_out) == ("tuesday", "ra", 51, 0)


def test_a_byte_order_mark_is_no_problem() -> None:
    data = b"\xef\xbb\xbf" + (IMPORT_FILES / "practice.json").read_bytes()
    assert convert_card_file(data, "card.json").lines == 51


@pytest.mark.parametrize(("data", "words"), [
    (b"", "the file is empty"),
    (b"  \n\t", "the file is empty"),
    (b"%PDF-1.7\n\x00\x01\x02", "binary file"),
    ('{"sections": "Caf\u00e9"}'.encode("latin-1"), "not UTF-8"),
    (b"{" + b" " * MAX_CHARS + b"}", "larger than"),
    (b"# just a comment\n", "cannot tell which format"),
])
def test_a_file_that_cannot_be_imported_is_one_line_naming_it(data: bytes, words: str) -> None:
    with pytest.raises(ImportProblem) as caught:
        convert_card_file(data, "upload")
    message = str(caught.value)
    assert words in message and "upload" in message and "\n" not in message, message


@pytest.mark.parametrize(("filename", "card_id"), [("My Card 2026.json", "My-Card-2026"),
                                                   ("C:\\cards\\am_card_x.jq", "am_card_x"),
                                                   ("...json", "imported"), ("é.toml", "imported")])
def test_a_card_id_is_made_from_the_files_name(filename: str, card_id: str) -> None:
    assert card_id_for(filename) == card_id
