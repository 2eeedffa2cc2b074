"""/card-admin's service calls without Discord (bot/service/card_admin.py, GuildCards): an import of another
tool's file is read, its warnings returned and nothing stored until confirmed; one line of an imported card is
replaced by a line typed as printed, checked by the compiler, stored only when the card stays valid."""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.import_files import (
    GARDEN_JQ,
    GARDEN_JQ_LINES,
    ORCHARD_JSON,
    ORCHARD_JSON_LINES,
    PRACTICE_LINE,
    PRACTICE_LINE_TILES,
    SHORT_LINE,
)
from support.service import OpenDb

from bot.engine.matching import check
from bot.engine.notation import parse_tiles
from bot.engine.wording import line_name
from bot.service.card_admin import LineEdit, parse_line_text
from bot.service.cards import _imported as imported_cards
from bot.service.cards import load_card
from bot.service.errors import ErrorKind, TableError
from bot.service.guild_cards import CardProblems, GuildCards
from bot.store import guilds
from bot.store.db import Database

NOW = "2026-11-18T12:00:00+00:00"
LATER = "2026-11-18T12:16:00+00:00"  # past the 15 minutes an import waits


@pytest.fixture
async def cards(db_target: str, open_db: OpenDb) -> GuildCards:
    imported_cards.clear()
    load_card.cache_clear()
    return GuildCards(await open_db(db_target))


async def _stored(cards: GuildCards) -> list[str]:
    return [row[0] for row in await cards.db.fetchall("SELECT name FROM guild_cards")]


@pytest.mark.parametrize(("data", "filename", "fmt", "lines"), [
    (GARDEN_JQ, "garden.jq", "auto", GARDEN_JQ_LINES),
    (ORCHARD_JSON, "orchard.json", "auto", ORCHARD_JSON_LINES),
    (GARDEN_JQ, "card.txt", "ra", GARDEN_JQ_LINES),  # a name that says nothing: the format option tells
])
async def test_an_import_shows_its_warnings_and_stores_nothing_until_confirmed(
        cards: GuildCards, data: str, filename: str, fmt: str, lines: int) -> None:
    preview = await cards.preview_import(1, "spring", data.encode(), filename, fmt, 7, NOW)
    assert preview.lines == lines and preview.left_out == 1 and preview.name == "spring"
    assert any("left out: it has 13 tiles, not 14" in w for w in preview.warnings)
    assert any("value = 25" in w for w in preview.warnings)
    assert await _stored(cards) == [] and "spring" not in cards.names(1)
    card = await cards.confirm_import(1, preview.token, 7, NOW)
    assert await _stored(cards) == ["spring"] and len(card.lines) == lines
    assert cards.card(1, "spring") is card and card.id == "spring@1"
    with pytest.raises(TableError, match="no longer waiting") as again:  # one press stores it once
        await cards.confirm_import(1, preview.token, 7, NOW)
    assert again.value.kind == ErrorKind.GONE


async def test_a_waiting_import_is_its_servers_alone_and_expires(cards: GuildCards) -> None:
    preview = await cards.preview_import(1, "spring", GARDEN_JQ.encode(), "garden.jq", "auto", 7, NOW)
    with pytest.raises(TableError, match="no longer waiting"):
        await cards.confirm_import(2, preview.token, 7, NOW)
    with pytest.raises(TableError, match="15 minutes"):
        await cards.confirm_import(1, preview.token, 7, LATER)
    assert await _stored(cards) == []


async def test_a_name_taken_meanwhile_is_refused_at_confirmation(cards: GuildCards) -> None:
    first = await cards.preview_import(1, "spring", GARDEN_JQ.encode(), "garden.jq", "auto", 7, NOW)
    second = await cards.preview_import(1, "spring", ORCHARD_JSON.encode(), "orchard.json", "auto", 7, NOW)
    await cards.confirm_import(1, second.token, 7, NOW)
    with pytest.raises(TableError, match="already exists"):
        await cards.confirm_import(1, first.token, 7, NOW)
    assert cards.card(1, "spring").lines[0].section == "Orchard"


@pytest.mark.parametrize(("data", "filename", "fmt", "message"), [
    (b"", "a.jq", "auto", "the file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "card.png", "auto", "binary file"),
    (b"hello there", "notes.txt", "auto", "cannot tell which format"),
    (b"[card\n", "c.toml", "auto", "not valid TOML"),
    (GARDEN_JQ.encode(), "garden.jq", "mpmahj", "garden.jq"),
])
async def test_a_file_that_cannot_be_imported_is_one_clear_message(cards: GuildCards, data: bytes, filename: str,
                                                                  fmt: str, message: str) -> None:
    with pytest.raises(TableError, match=re.escape(message)) as refused:
        await cards.preview_import(1, "spring", data, filename, fmt, 7, NOW)
    assert "\n" not in refused.value.message or isinstance(refused.value, CardProblems)
    assert "Traceback" not in refused.value.message
    assert await _stored(cards) == []


# -- /card-admin line -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "edit"), [
    ("2468a FFFF 2222b 88b", LineEdit(("2468a FFFF 2222b 88b",))),
    ("  2468a FFFF   2222b 88b  X 25", LineEdit(("2468a FFFF 2222b 88b",), True, 25)),
    ("NN 1111a or SS 1111a C30", LineEdit(("NN 1111a", "SS 1111a"), False, 30)),  # a fragment: not a line
    ("2468a FFFF 2222b 88b 40 x", LineEdit(("2468a FFFF 2222b 88b",), True, 40)),
    ("2468a FFFF 2222b 88c c", LineEdit(("2468a FFFF 2222b 88c",), False, None)),  # 88c is a pair in c
])
def test_a_line_is_typed_as_the_card_prints_it(typed: str, edit: LineEdit) -> None:
    assert parse_line_text(typed) == edit


async def _garden(cards: GuildCards) -> None:
    preview = await cards.preview_import(1, "garden", GARDEN_JQ.encode(), "garden.jq", "auto", 7, NOW)
    await cards.confirm_import(1, preview.token, 7, NOW)


async def test_replacing_a_line_stores_it_keeps_the_rest_and_plays_it(cards: GuildCards) -> None:
    await _garden(cards)
    before = await guilds.card_source(cards.db, 1, "garden")
    assert cards.line_names(1, "garden") == ["Garden #1", "Garden #2", "Breeze #1"]
    card, line_id = await cards.replace_line(1, "garden", "garden #2", f"{PRACTICE_LINE} X 30", "any 2 suits",
                                             8, LATER)
    line = card.line(line_id)
    assert line_name(card, line) == "Garden #2" and line.patterns == (PRACTICE_LINE,)
    assert (line.exposed, line.value, line.note) == (True, 30, "any 2 suits")
    assert line in [m.line for m in check(card, parse_tiles(PRACTICE_LINE_TILES)).matches]
    after = await guilds.card_source(cards.db, 1, "garden")
    assert before is not None and after is not None
    # every comment and every other line as written
    assert [x for x in before.splitlines() if x.startswith("#")] == [x for x in after.splitlines() if x.startswith("#")]
    assert [x for x in card.lines if x is not line] == [x for x in card.lines if x.id != line_id]
    assert card.lines[0].patterns == ("EEEE 444a 66a 888a WW",) and card.lines[2].patterns == ("FFF 22a 000 6666a 22b",)
    # a new process plays the new line
    again = GuildCards(cards.db)
    imported_cards.clear()
    load_card.cache_clear()
    await again.load_all()
    assert again.card(1, "garden").lines[1].patterns == (PRACTICE_LINE,)
    assert load_card("garden@1").lines[1].value == 30


@pytest.mark.parametrize(("name", "line", "typed", "message"), [
    ("garden", "Garden #1", SHORT_LINE, "add up to 13 tiles"),
    ("garden", "Garden #1", "WWW 44q 888a 22b 6666b", "Garden #1 was not changed"),
    ("garden", "Garden #1", "", "Type the line's tiles"),
    ("garden", "Garden #1", 'FF "2222a"', "without quotes"),
    ("garden", "Garden #9", PRACTICE_LINE, "has no line 'Garden #9'"),
    ("practice", "2026 #1", PRACTICE_LINE, "comes with the bot"),
    ("nowhere", "Garden #1", PRACTICE_LINE, "There is no card 'nowhere'"),
])
async def test_a_line_that_cannot_be_used_is_refused_and_nothing_changes(cards: GuildCards, name: str, line: str,
                                                                        typed: str, message: str) -> None:
    await _garden(cards)
    before = await guilds.card_source(cards.db, 1, "garden")
    with pytest.raises(TableError, match=re.escape(message)):
        await cards.replace_line(1, name, line, typed, None, 8, LATER)
    assert await guilds.card_source(cards.db, 1, "garden") == before
    assert cards.card(1, "garden").lines[0].patterns == ("EEEE 444a 66a 888a WW",)


def test_fuzz_any_typed_line_is_stored_valid_or_refused_in_one_message() -> None:
    """Whatever a person types into /card-admin line: the card either stays valid with the new line, or is left
    exactly as it was and she reads one message (never a traceback)."""
    loop = asyncio.new_event_loop()
    with tempfile.TemporaryDirectory() as folder:
        db = loop.run_until_complete(Database.open(Path(folder) / "fuzz.db"))
        try:
            imported_cards.clear()
            load_card.cache_clear()
            cards = GuildCards(db)
            loop.run_until_complete(_garden(cards))
            _fuzz_lines(loop, cards)
        finally:
            loop.run_until_complete(db.close())
            loop.close()


_SYMBOLS = st.sampled_from(["FF", "WWW", "44a", "888a", "22b", "6666b", "NN", "ZZZ", "DDa", "0", "2026a", "or", "X",
                            "C", "25", "11a", "+", "=", "x", "q", "\u201c", "[", "\"", "\\", "\n", "#"])


def _fuzz_lines(loop: asyncio.AbstractEventLoop, cards: GuildCards) -> None:
    typed_text = st.one_of(st.text(max_size=60), st.lists(_SYMBOLS, max_size=10).map(" ".join))

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
    @given(typed_text)
    def typed(text: str) -> None:
        before = loop.run_until_complete(guilds.card_source(cards.db, 1, "garden"))
        try:
            card, line_id = loop.run_until_complete(cards.replace_line(1, "garden", "Garden #1", text, None, 8, NOW))
        except TableError as refused:
            assert refused.message and "Traceback" not in refused.message
            assert loop.run_until_complete(guilds.card_source(cards.db, 1, "garden")) == before
            return
        assert card.line(line_id).variants and cards.card(1, "garden") is card

    typed()


def test_fuzz_any_uploaded_file_is_held_or_refused_in_one_message() -> None:
    """Whatever file an organiser attaches to /card-admin import, in whichever format she names: it is read and
    held for her confirmation, or refused in one message; nothing is stored before the press."""
    loop = asyncio.new_event_loop()
    with tempfile.TemporaryDirectory() as folder:
        db = loop.run_until_complete(Database.open(Path(folder) / "fuzz.db"))
        try:
            _fuzz_files(loop, GuildCards(db))
        finally:
            loop.run_until_complete(db.close())
            loop.close()


def _fuzz_files(loop: asyncio.AbstractEventLoop, cards: GuildCards) -> None:
    pieces = st.sampled_from([GARDEN_JQ, ORCHARD_JSON, '{"sections": [', ".win_definition = [", "[[hand]]",
                              '"FFF 22a"', "]", "}", "\x00", "\xff", "# note\n", '"count": -3'])
    content = st.one_of(st.binary(max_size=300), st.lists(pieces, max_size=6).map(lambda p: "".join(p).encode(
        "utf-8", "surrogatepass")))

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(content, st.sampled_from(["card.jq", "card.json", "card.toml", "card.txt", "card"]),
           st.sampled_from(["auto", "ra", "mpmahj", "toml"]))
    def uploaded(data: bytes, filename: str, fmt: str) -> None:
        try:
            preview = loop.run_until_complete(cards.preview_import(1, "fuzzed", data, filename, fmt, 7, NOW))
        except TableError as refused:
            assert refused.message and "Traceback" not in refused.message
        else:
            assert preview.lines >= 1 and preview.token
        assert loop.run_until_complete(cards.db.fetchall("SELECT name FROM guild_cards")) == []

    uploaded()


SHIFTED_TOML = """[card]
id = "shifted"
name = "A shifted practice line"

[[hand]]
id = "s-1"
section = "Runs"
pattern = "EEEE 444a 66a 888a WW"
shift = [0, 1]
exposed = true
value = 25
"""


async def test_a_toml_card_is_stored_at_once_unless_it_has_warnings_to_read(cards: GuildCards) -> None:
    plain = await cards.preview_import(1, "plain", SHIFTED_TOML.replace("shift = [0, 1]\n", "").encode(),
                                       "plain.toml", "auto", 7, NOW)
    assert plain.fmt == "toml" and plain.warnings == () and not plain.ask_first
    warned = await cards.preview_import(1, "warned", SHIFTED_TOML.encode(), "warned.toml", "auto", 7, NOW)
    assert warned.ask_first and any("note" in w for w in warned.warnings)
    assert warned.toml == SHIFTED_TOML  # a Charleston card is stored as written, comments and all
