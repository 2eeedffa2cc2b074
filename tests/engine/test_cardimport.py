"""Importing cards from other tools' files (bot/engine/cardimport, docs/card-format.md "Importing a card"): the
practice card written in each format comes back as the same card, every construct of each format is carried (or
said not to be), and every mistake is one warning naming its source line. The files are our own
(tests/engine/data/import): no line of any published card."""

from __future__ import annotations

import itertools
import re

import pytest
from support.card_import import (
    IMPORT_FILES,
    PRACTICE_TOML,
    imported_from,
    line_meaning,
    named_line,
    one_line_card,
)

from bot.engine.card import Card
from bot.engine.cardfile import load_card_text, validate_card_text
from bot.engine.cardimport import ImportProblem, detect_format, import_card_text

NEEDS_29 = pytest.mark.xfail(strict=True, reason="needs the card language of issue 29 item 1")
WINDS = "NEWS"


@pytest.fixture(scope="module")
def practice() -> Card:
    return load_card_text(PRACTICE_TOML.read_text(encoding="utf-8"))


def source_line(name: str, text: str) -> int:
    """The line of a file on which this text first appears."""
    return next(n for n, row in enumerate(text.splitlines(), start=1) if text in row or name in row)


# -------------------------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(("name", "fmt"), [("practice.jq", "ra"), ("practice.json", "mpmahj")])
def test_the_practice_card_written_in_another_tools_format_imports_as_the_same_card(practice: Card, name: str,
                                                                                     fmt: str) -> None:
    imported = imported_from(name)
    assert imported.fmt == fmt and imported.left_out == 0
    card = load_card_text(imported.toml)
    assert [line.section for line in card.lines] == [line.section for line in practice.lines]
    for mine, original in zip(card.lines, practice.lines, strict=True):
        assert line_meaning(mine) == line_meaning(original), original.id
        assert (mine.exposed, mine.singles_and_pairs) == (original.exposed, original.singles_and_pairs), original.id


def test_riichi_advanced_values_concealed_and_singles_and_pairs_marks_are_carried(practice: Card) -> None:
    imported = imported_from("practice.jq")
    card = load_card_text(imported.toml)
    assert imported.warnings == ()
    assert [(x.value, x.exposed, x.singles_and_pairs) for x in card.lines] == [
        (x.value, x.exposed, x.singles_and_pairs) for x in practice.lines]


def test_mpmahj_notes_are_carried_and_its_missing_values_are_said_once(practice: Card) -> None:
    imported = imported_from("practice.json")
    card = load_card_text(imported.toml)
    assert [x.note for x in card.lines] == [x.note for x in practice.lines]
    assert {x.value for x in card.lines} == {25}
    assert len(imported.warnings) == 1 and "no values" in imported.warnings[0]
    assert imported.toml.count("value: not in the source") == len(practice.lines)


def test_a_toml_card_imports_as_itself_with_the_new_id_and_its_comments(practice: Card) -> None:
    text = PRACTICE_TOML.read_text(encoding="utf-8")
    imported = import_card_text(text, filename="practice.toml", card_id="spring-2026")
    assert imported.warnings == () and imported.fmt == "toml"
    card = load_card_text(imported.toml)
    assert card.id == "spring-2026" and card.name == practice.name and card.year == 2026
    assert [line_meaning(x) for x in card.lines] == [line_meaning(x) for x in practice.lines]
    assert [(x.id, x.value, x.note) for x in card.lines] == [(x.id, x.value, x.note) for x in practice.lines]
    assert "not copied, paraphrased or adapted" in imported.toml  # the file's own comments stay


def test_the_imported_card_keeps_the_sources_wording_as_comments() -> None:
    imported = imported_from("practice.jq")
    assert '# riichi_advanced line ' in imported.toml
    assert '"Consecutive Run #1", value 25' in imported.toml
    assert '#   "XX0a XXX1b XX2a XXX3b EEEE|WWWW"' in imported.toml
    json_import = imported_from("practice.json")
    assert '"EEEE 444 66 888 WW (any 1 suit, kong of East, pair of West)"' in json_import.toml


# -------------------------------------------------------------------------------- riichi_advanced constructs

SAME_NUMBERS = [f"{b * 3}a 5555b {b * 3}c FFFF" for b in "123456789"]
CONSTRUCTS = {
    "Constructs #1": ("N E W S RRR GGG 0000", None),
    "Constructs #2": ("FFFF E W NN SS DDDDa", None),
    "Constructs #6": ([f"{b + 1}{b + 1}a {str(b + 2) * 3}a {str(b + 3) * 4}a FFFFF" for b in range(1, 7)], None),
    "Constructs #7": (SAME_NUMBERS, None),
    "Constructs #8": (["FF 8888a 6666b 2222c", "FF 4444a 6666b 2222c"], None),
    "Constructs #10": ("2468a Da 2468b Db NN SS", None),
    "Constructs #11": ("SS 3333a 7777a 1b 0 EE", None),
    "Constructs #12": ("0 5a 1a 0 1a 5a NNNN EEEE", None),
    "Constructs #13": ("1111a 1111b 111c EEE", "any"),
    "Constructs #14": ("12345a 1111b 55555c", "any"),
}
CONSTRUCTS_29 = {
    "Constructs #3": ("ZZZ 1111a 2222a FFF", "any"),
    "Constructs #4": ([f"{v * 3} 11a {w * 3} 2222b FF" for v, w in itertools.product(WINDS, repeat=2)], None),
    "Constructs #5": ([f"FF 2026a {b * 3}b {b * 3}c DDa" for b in "123456789"], None),
    "Constructs #9": ([f"FFFF {a * 2}a {b * 4}b 8888c" for a, b in itertools.product("123456789", "246")], None),
    "Constructs #15": ("FFF 1111a FFF 2222b", None),
    "Constructs #16": ("11a 333a 11a 4444b DDDc", None),
}


@pytest.fixture(scope="module")
def constructs_ra() -> Card:
    return load_card_text(imported_from("constructs.jq").toml)


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_each_riichi_advanced_construct_means_what_riichi_advanced_means(constructs_ra: Card, name: str) -> None:
    pattern, shift = CONSTRUCTS[name]
    assert line_meaning(named_line(constructs_ra, name)) == line_meaning(one_line_card(pattern, shift))


@NEEDS_29
@pytest.mark.parametrize("name", sorted(CONSTRUCTS_29))
def test_riichi_advanced_constructs_that_need_the_new_card_language(name: str) -> None:
    card = load_card_text(imported_from("constructs.jq").toml)
    pattern, shift = CONSTRUCTS_29[name]
    assert line_meaning(named_line(card, name)) == line_meaning(one_line_card(pattern, shift))


def test_a_run_not_starting_at_its_base_keeps_to_the_numbers_riichi_advanced_allows() -> None:
    """``XX1a``: the lowest number is one above the base, and the base is at least 1, so never a pair of 1s."""
    imported = imported_from("constructs.jq")
    assert 'pattern = "22a 333a 4444a FFFFF"\nshift = [0, 1, 2, 3, 4, 5]' in imported.toml


def test_singles_and_pairs_and_concealed_marks_of_riichi_advanced(constructs_ra: Card) -> None:
    marked = named_line(constructs_ra, "Constructs #17")
    assert marked.singles_and_pairs and not marked.exposed
    concealed = named_line(constructs_ra, "Constructs #19")
    assert not concealed.exposed and not concealed.singles_and_pairs
    with_pung = named_line(constructs_ra, "Constructs #18")
    assert not with_pung.singles_and_pairs


RA_WARNINGS = {
    "Constructs #12": (False, 'starts with 0, which riichi_advanced reads without its suit'),
    "Constructs #18": (False, "marked Singles & Pairs but it has a group of 3 or more"),
    "Mistakes #1": (True, "13 tiles, not 14"),
    "Mistakes #2": (True, "15 tiles, not 14"),
    "Mistakes #3": (True, "J (a joker as a tile of the line) cannot be written"),
    "Mistakes #4": (True, 'unknown group "QQ"'),
    "Mistakes #5": (True, '"XXXX0" needs a suit letter'),
    "Mistakes #6": (True, '"DDD" needs a suit letter'),
    "Mistakes #7": (False, "its value 75 is unlike the other Mistakes lines' (25)"),
    "Mistakes #8": (True, 'its value "25" (a text) is not a whole number'),
    "Mistakes #9": (False, '"not_match" condition'),
    "Mistakes #10": (False, "in .open_win_definition, which means it may be exposed, but .yaku says concealed"),
    "Mistakes #12": (False, "not in .open_win_definition, which means concealed"),
}


def test_every_mistake_in_a_riichi_advanced_file_is_one_warning_naming_its_line() -> None:
    text = (IMPORT_FILES / "constructs.jq").read_text(encoding="utf-8")
    imported = imported_from("constructs.jq")
    by_name = {re.search(r'"([^"]+)"', w).group(1): w for w in imported.warnings if '"' in w}  # type: ignore[union-attr]
    for name, (left_out, words) in RA_WARNINGS.items():
        warning = by_name[name]
        line = next(n for n, row in enumerate(text.splitlines(), start=1) if f'"display_name": "{name}"' in row)
        assert warning.startswith(f"constructs.jq:{line}: "), warning
        assert words in warning and ("left out" in warning) == left_out, warning
        assert "\n" not in warning
    assert "Mistakes #11" not in by_name  # a plain line is carried without a word
    assert any("2 other statement(s) of the program ignored" in w for w in imported.warnings)


def test_a_line_left_out_stays_in_the_card_as_a_comment_with_its_reason() -> None:
    imported = imported_from("constructs.jq")
    assert "# LEFT OUT by the import: it has 13 tiles, not 14" in imported.toml
    assert '#   "FF 2222a 4444b 666c"' in imported.toml
    assert validate_card_text(imported.toml) == []
    assert imported.left_out == sum("LEFT OUT" in row for row in imported.toml.splitlines())


def test_a_riichi_advanced_file_without_yaku_takes_sections_and_concealment_from_its_comments() -> None:
    imported = imported_from("winonly.jq")
    card = load_card_text(imported.toml)
    assert [(x.section, x.exposed, x.value) for x in card.lines] == [
        ("Evens", True, 25), ("Evens", False, 25), ("Winds", True, 25)]
    assert len(card.lines[0].patterns) == 2
    assert any("no .yaku" in w and "value = 25" in w for w in imported.warnings)


# ----------------------------------------------------------------------------------------- mpmahj constructs

MPMAHJ = {
    "constructs-3": ([f"FF {p} {q * 4}b {q * 3}c" for p, q in
                      (("11a 234a", "1"), ("1a 22a 34a", "2"), ("12a 33a 4a", "3"), ("123a 44a", "4"))], "any"),
    "constructs-4": ([f"FFF 111a 222a {x * 2} {y * 3}" for x, y in itertools.permutations("RG0", 2)], "any"),
    "constructs-5": ("1357a 2468b FF GG NN", None),
    "constructs-6": ([f"EE {b * 4}a {b * 4}b {b * 2}c WW" for b in "13579"], None),
    "constructs-7": ("222a 666a 4444b 8888b", None),
    "constructs-8": ([f"FFF {b * 4}a 555b {b * 4}c" for b in "123456789"], None),
    "constructs-11": ("FFFF 000 RRRR GGG", None),
}
MPMAHJ_29 = {
    "constructs-1": ("ZZZZ 111a 222a FFFF", "any"),
    "constructs-2": ([f"{w * 2} 1111a 2222a {w * 4}" for w in WINDS], "any"),
    "constructs-9": ([f"FFF 2026a {b * 3}b {b * 4}c" for b in "123456789"], None),
    "constructs-10": ("FFF 7777a FFF 7777b", None),
}


@pytest.fixture(scope="module")
def constructs_json() -> Card:
    return load_card_text(imported_from("constructs.json").toml)


@pytest.mark.parametrize("line_id", sorted(MPMAHJ))
def test_each_mpmahj_construct_means_what_mpmahj_means(constructs_json: Card, line_id: str) -> None:
    pattern, shift = MPMAHJ[line_id]
    assert line_meaning(constructs_json.line(line_id)) == line_meaning(one_line_card(pattern, shift))


@NEEDS_29
@pytest.mark.parametrize("line_id", sorted(MPMAHJ_29))
def test_mpmahj_constructs_that_need_the_new_card_language(line_id: str) -> None:
    card = load_card_text(imported_from("constructs.json").toml)
    pattern, shift = MPMAHJ_29[line_id]
    assert line_meaning(card.line(line_id)) == line_meaning(one_line_card(pattern, shift))


MPMAHJ_WARNINGS = {
    "1357 2468 FF GG NN": (False, "no fixed suits: Bams and Craks are read as any 2 different suits"),
    "FF 2222 4444 66666": (True, "15 tiles, not 14"),
    "FF 3333 7777 9999": (False, 'the note says "2 Suits" but "FF 3333a 7777b 9999c" has 3 suit(s)'),
    "FF 9999 5555 1111": (False, "vsuit_count is 3 but its tiles use 2 suit(s)"),
    "FFFF 2222 DD 4444": (False, "the note names the red dragon but the line has another"),
    "JJ 2222 4444 6666": (True, 'unknown suit "Joker"'),
    "WW 2222 4444 6666": (True, "wind number 7 is not 1 (North)"),
    "NN 1111 3333 5555": (True, "vsuit_count 4 is not 0, 1, 2, 3 or 5"),
}


def test_every_mistake_in_an_mpmahj_file_is_one_warning_naming_its_line() -> None:
    text = (IMPORT_FILES / "constructs.json").read_text(encoding="utf-8")
    imported = imported_from("constructs.json")
    for printed, (left_out, words) in MPMAHJ_WARNINGS.items():
        found = [w for w in imported.warnings if f'"{printed} (' in w]
        assert len(found) == 1, printed
        hand_line = next(n for n, row in enumerate(text.splitlines(), start=1) if f'"{printed} (' in row) - 1
        assert found[0].startswith(f"constructs.json:{hand_line}: "), found[0]
        assert words in found[0] and ("left out" in found[0]) == left_out, found[0]


# ------------------------------------------------------------------------------------- files it cannot read


@pytest.mark.parametrize(("text", "filename", "fmt", "words"), [
    ("{}", "card.json", "mpmahj", 'no "sections" list'),
    ('{"meta": {}, "patterns": []}', "unified.json", "auto", "unified card, which holds only expanded variants"),
    ('{"year": 2025, "sections": [', "card.json", "auto", "card.json:1: not an mpmahj card file: not JSON"),
    ('.yaku = [ "FF 2222a', "card.jq", "auto", "card.jq:1: not a riichi_advanced card file: a string is not closed"),
    (".buttons.x = 1", "card.jq", "auto", "it sets no .yaku or .win_definition"),
    ("[card]\nid = 'x'\n", "card.toml", "auto", "no [[hand]] tables"),
    ("[[hand]]\nid = 'x'\n", "card.toml", "auto", "no [card] table"),
    ("hello", "notes.txt", "auto", "cannot tell which format"),
    ("a\x00b", "card.jq", "auto", "NUL byte"),
    ('{"year": 2025, "sections": []}', "card.json", "auto", "none of its 0 line(s) can be carried"),
])
def test_a_file_that_cannot_be_imported_is_one_clear_line(text: str, filename: str, fmt: str, words: str) -> None:
    with pytest.raises(ImportProblem) as caught:
        import_card_text(text, filename=filename, fmt=fmt, card_id="x")
    message = str(caught.value)
    assert words in message and "\n" not in message, message


def test_a_file_in_another_format_than_the_one_named_is_refused() -> None:
    json_text = (IMPORT_FILES / "practice.json").read_text(encoding="utf-8")
    with pytest.raises(ImportProblem, match="not a riichi_advanced card file"):
        import_card_text(json_text, filename="practice.json", fmt="ra", card_id="x")
    jq_text = (IMPORT_FILES / "practice.jq").read_text(encoding="utf-8")
    with pytest.raises(ImportProblem, match="not an mpmahj card file"):
        import_card_text(jq_text, filename="practice.jq", fmt="mpmahj", card_id="x")
    with pytest.raises(ImportProblem, match="no \\[\\[hand\\]\\] tables"):
        import_card_text(jq_text, filename="practice.jq", fmt="toml", card_id="x")


def test_the_format_is_told_by_the_files_name_else_by_its_content() -> None:
    assert detect_format("", "a.JQ") == "ra" and detect_format("", "a.json") == "mpmahj"
    assert detect_format("", "a.toml") == "toml"
    assert detect_format(' \n{"sections": []}', "card") == "mpmahj"
    assert detect_format("# x\n.yaku = []", "card") == "ra"
    assert detect_format("[card]\n", "card.txt") == "toml"


def test_a_card_id_that_breaks_the_id_rule_is_refused() -> None:
    with pytest.raises(ImportProblem, match="can't be a card id"):
        import_card_text("[card]\n", filename="c.toml", card_id="my card")


# ------------------------------------------------------------------------------------------- TOML imports


def test_a_toml_line_that_cannot_be_made_valid_is_left_out_and_the_rest_kept() -> None:
    text = PRACTICE_TOML.read_text(encoding="utf-8")
    broken = text.replace('pattern = "EEEE 444a 66a 888a WW"', 'pattern = "EEEE 444a 66a 888a W"', 1)
    broken = broken.replace('id = "369-2"', 'id = "369-2"\nvalue = 30 30', 1)
    broken = broken.replace('id = "wd-4"', 'id = "wd-3"', 1)
    imported = import_card_text(broken, filename="mine.toml", card_id="mine")
    card = load_card_text(imported.toml)
    assert imported.left_out == 3 and len(card.lines) == 48
    assert {"2468-3", "369-2"}.isdisjoint(x.id for x in card.lines)
    rows = broken.splitlines()
    lines = {name: next(n for n, row in enumerate(rows, start=1) if row == "[[hand]]" and rows[n] == f'id = "{name}"')
             for name in ("2468-3", "369-2")}
    assert any(w.startswith(f"mine.toml:{lines['2468-3']}: \"hand 2468-3\": left out: ") and "13 tiles" in w
               for w in imported.warnings)
    assert any(w.startswith(f"mine.toml:{lines['369-2']}: ") and "not valid TOML" in w for w in imported.warnings)
    assert any("a second line with the id wd-3" in w for w in imported.warnings)
    assert '# pattern = "EEEE 444a 66a 888a W"' in imported.toml  # kept, commented out, to be mended


def test_a_toml_card_table_that_breaks_the_rules_is_written_right_with_a_warning() -> None:
    text = PRACTICE_TOML.read_text(encoding="utf-8").replace('ruleset = "nmjl"', 'ruleset = "mahjong"\ncolour = 1')
    imported = import_card_text(text, filename="c.toml", card_id="c")
    assert load_card_text(imported.toml).ruleset == "nmjl"
    assert any("ruleset 'mahjong' is unknown" in w for w in imported.warnings)
    assert any("[card] key 'colour' is unknown" in w for w in imported.warnings)
