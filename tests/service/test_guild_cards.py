"""Cards a guild imports, without Discord: checked like any card file (size, UTF-8, the compiler), stored for
that guild alone, loadable by id for its tables (shipped cards load as before), loaded again at start-up; the
guild's default card and the card a new table plays."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from support.paths import ROOT
from support.service import OpenDb

from bot.engine.rules import table_rules
from bot.service.cards import UnknownCard, card_label, imported_id, load_card
from bot.service.cards import _imported as imported_cards
from bot.service.clock import ManualClock
from bot.service.errors import ErrorKind, TableError
from bot.service.guild_cards import MAX_CARD_BYTES, CardProblems, GuildCards
from bot.service.tables import TableService

GARDEN = """[card]
id = "garden"
name = "Garden Club card"
ruleset = "nmjl"

[[hand]]
id = "g-1"
section = "Garden"
pattern = "FFFF 1111a 2222a 33a"
exposed = true
value = 25
"""
NOW = "2026-11-18T12:00:00.000+00:00"


@pytest.fixture
async def cards(db_target: str, open_db: OpenDb) -> GuildCards:
    # Imported cards are registered for the whole process, as in the bot: each test (each backend's run of it)
    # starts as a new process would.
    imported_cards.clear()
    load_card.cache_clear()
    return GuildCards(await open_db(db_target))


async def test_an_imported_card_belongs_to_its_guild(cards: GuildCards, db_target: str, open_db: OpenDb) -> None:
    card = await cards.import_card(1, " Garden ", GARDEN.encode(), "garden.toml", 7, NOW)
    assert card.id == imported_id(1, "garden") == "garden@1" and card_label(card.id) == "garden"
    assert load_card("garden@1") is card and load_card("practice").id == "practice"
    assert cards.names(1) == ["nmjl-1946", "practice", "garden"] and cards.names(2) == ["nmjl-1946", "practice"]
    assert cards.card(1, "GARDEN") is card
    with pytest.raises(TableError, match="There is no card 'garden' here") as other:
        cards.card(2, "garden")
    assert other.value.kind == ErrorKind.BAD_INPUT
    mine = await cards.import_card(2, "garden", GARDEN.replace("Garden Club", "Other").encode(), "g.toml", 8, NOW)
    assert mine.id == "garden@2" and mine.name == "Other card" and cards.card(1, "garden").name == "Garden Club card"
    # a new process: loaded from the database before any table needs them
    again = GuildCards(cards.db)
    assert await again.load_all() == 2 and again.card(2, "garden").name == "Other card"


@pytest.mark.parametrize(("name", "data", "message"), [
    ("practice", GARDEN.encode(), "A card named 'practice' already exists"),
    ("classical", GARDEN.encode(), "A card named 'classical' already exists"),
    ("my card", GARDEN.encode(), "can't be a card name"),
    ("x" * 33, GARDEN.encode(), "can't be a card name"),
    ("big", b"#" * (MAX_CARD_BYTES + 1), "larger than 262,144 bytes"),
    ("binary", b"[card]\nid = \"x\"\n\xff\xfe", "g.toml:3: not UTF-8 text (byte 0xff at column 1)"),
    ("toml", b"[card\n", "g.toml:1: not valid TOML"),
])
async def test_a_bad_import_is_refused_and_nothing_is_stored(cards: GuildCards, name: str, data: bytes,
                                                             message: str) -> None:
    with pytest.raises(TableError, match=re.escape(message)):
        await cards.import_card(1, name, data, "g.toml", 7, NOW)
    assert await cards.db.fetchall("SELECT * FROM guild_cards") == []
    assert cards.names(1) == ["nmjl-1946", "practice"]


async def test_every_problem_of_a_malformed_card_is_listed(cards: GuildCards) -> None:
    broken = GARDEN.replace('"FFFF 1111a 2222a 33a"', '"FFFF 1111a 2222a 3a"').replace("value = 25", "vaule = 25")
    with pytest.raises(CardProblems) as refused:
        await cards.import_card(1, "weeds", broken.encode(), "weeds/../x y.toml", 7, NOW)
    problems = refused.value.problems
    # each problem on the line of its key: the misspelt key, the missing value on the misspelling's line, the pattern
    assert [p.split(": hand g-1:")[0] for p in problems] == [f"weeds_.._x_y.toml:{n}" for n in (11, 11, 9)]
    assert str(refused.value).splitlines()[1:] == problems
    with pytest.raises(UnknownCard):
        load_card("weeds@1")


async def test_the_card_a_new_table_plays(cards: GuildCards) -> None:
    assert await cards.for_table(1, None, None) == ("practice", "nmjl")
    assert await cards.for_table(1, None, "nmjl-1946") == (None, "nmjl-1946")  # the rules' own card
    assert await cards.for_table(1, None, "classical") == (None, "classical")
    assert await cards.for_table(1, "classical", None) == ("classical", "classical")  # the built-in card
    await cards.import_card(1, "garden", GARDEN.encode(), "garden.toml", 7, NOW)
    await cards.set_default(1, "garden", NOW)
    assert await cards.for_table(1, None, None) == ("garden@1", "nmjl")
    assert await cards.for_table(2, None, None) == ("practice", "nmjl")  # another guild keeps its own default
    assert await cards.for_table(1, "nmjl-1946", None) == ("nmjl-1946", "nmjl-1946")
    infos = {i.name: i for i in await cards.infos(1)}
    assert infos["garden"].default and infos["garden"].imported and not infos["practice"].default
    with pytest.raises(TableError, match="no card 'spring'"):
        await cards.set_default(1, "spring", NOW)


@pytest.mark.slow
async def test_a_game_on_an_imported_card_survives_a_restart_and_the_table_commands(db_target: str,
                                                                                    open_db: OpenDb) -> None:
    path = db_target
    db = await open_db(path)
    cards = GuildCards(db)
    card = await cards.import_card(3, "garden", GARDEN.encode(), "garden.toml", 7, NOW)
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table = (await service.create_table(3, 1, seed=4, rules=table_rules(card=card.id))).table_id
    for seat in range(4):
        await service.add_computer(table, "random", seat)
    await service.start(table)  # four computers: the whole game is played at once...
    async with db.transaction() as conn:  # ...so take its end back, as if the process had died mid-game
        await conn.execute("UPDATE games SET ended_at = NULL")
        await conn.execute("UPDATE tables SET status = 'playing'")
    await service.close()
    # A new process (the command line) registers the imported card before it restores the table.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    listed = subprocess.run([sys.executable, "-m", "bot", "tables", "list", "--db", str(path), "--json"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert listed.returncode == 0, listed.stderr
    (row,) = json.loads(listed.stdout)
    assert row["table"] == table and row["phase"] is not None
