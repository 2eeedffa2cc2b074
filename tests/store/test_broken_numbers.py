"""bot/store/integrity.py on both backends: a whole-number field a hand edit broke is found and named (SQLite keeps
whatever is typed into a column); a sound record, on SQLite or PostgreSQL, has none."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.service import OpenDb

from bot.store.db import Database
from bot.store.integrity import BrokenNumber, check_numbers, find_broken_number


async def one_game(db: Database) -> int:
    """A finished game at a closed table, written as the store writes them; returns its id."""
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO tables (guild_id, channel_id, status, rules, created_at, seed) "
                           "VALUES (?, ?, 'closed', '{}', '2026-11-28T10:00:00+00:00', ?)", (7, 70, 11))
    table = int(await db.fetchval("SELECT MAX(table_id) FROM tables"))
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at, "
                           "ended_at, how, winner_seat, line_id, value, jokerless, self_pick) VALUES (?, ?, 1, "
                           "'practice', '{}', ?, 0, '2026-11-28T10:00:00+00:00', '2026-11-28T10:20:00+00:00', "
                           "'discard', 2, '2468-1', 25, 0, 0)", (table, 7, 12))
    return int(await db.fetchval("SELECT MAX(game_id) FROM games"))


async def test_a_sound_record_has_no_broken_number_on_either_backend(db: Database) -> None:
    await one_game(db)
    assert await find_broken_number(db) is None
    await check_numbers(db)  # raises nothing


async def test_text_typed_into_a_games_value_is_found_and_named(tmp_path: Path, open_db: OpenDb) -> None:
    path = tmp_path / "league.db"
    db = await open_db(path)
    game = await one_game(db)
    await db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET value = 'twenty' WHERE game_id = ?", (game,))
    conn.close()
    db = await open_db(path)
    found = await find_broken_number(db)
    assert found is not None
    assert (found.table, found.column, found.game_id, found.found) == ("games", "value", game, "twenty")
    with pytest.raises(BrokenNumber, match=rf"game {game} has 'twenty' in games.value, where a whole number"):
        await check_numbers(db)


async def test_chips_past_any_games_are_found_even_as_a_number(tmp_path: Path, open_db: OpenDb) -> None:
    """A 64-bit amount would overflow SQLite's sums: it is named before any sum is taken."""
    path = tmp_path / "league.db"
    db = await open_db(path)
    game = await one_game(db)
    await db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET value = ? WHERE game_id = ?", (2**63 - 1, game))
    conn.close()
    found = await find_broken_number(await open_db(path))
    assert found is not None and (found.column, found.found) == ("value", 2**63 - 1)
    assert "far past any game's chips" in found.describe(str(path))
