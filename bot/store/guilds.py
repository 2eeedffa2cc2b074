"""A guild's own settings (its default card) and the cards it imported. Every query names its guild: a card
imported in one server is never seen in another."""

from __future__ import annotations

from dataclasses import dataclass

from .db import Database


@dataclass(frozen=True, slots=True)
class GuildCard:
    """A card a guild imported: its name there, the card's own title and ruleset, and the file as imported."""

    guild_id: int
    name: str
    title: str
    ruleset: str
    source: str
    imported_by: int | None
    imported_at: str


_COLUMNS = "guild_id, name, title, ruleset, source, imported_by, imported_at"


async def default_card(db: Database, guild_id: int) -> str | None:
    """The guild's default card (a shipped card id or an imported card's name), if it chose one."""
    row = await db.fetchone("SELECT default_card FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return row[0] if row and row[0] else None


async def set_default_card(db: Database, guild_id: int, card: str, now: str) -> None:
    """Choose the guild's default card."""
    async with db.single_statement() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id, default_card, updated_at) VALUES (?, ?, ?) "
                           "ON CONFLICT (guild_id) DO UPDATE SET default_card = excluded.default_card, "
                           "updated_at = excluded.updated_at", (guild_id, card, now))


async def insert_card(db: Database, card: GuildCard) -> bool:
    """Store an imported card; False (nothing written) if the guild already has a card of that name."""
    async with db.single_statement() as conn:
        return await conn.execute(
            f"INSERT INTO guild_cards ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (card.guild_id, card.name, card.title, card.ruleset, card.source, card.imported_by,
             card.imported_at)) > 0


async def cards_of(db: Database, guild_id: int) -> list[GuildCard]:
    """The cards a guild imported, by name."""
    rows = await db.fetchall(f"SELECT {_COLUMNS} FROM guild_cards WHERE guild_id = ? ORDER BY name", (guild_id,))
    return [GuildCard(*row) for row in rows]


async def all_cards(db: Database) -> list[GuildCard]:
    """Every imported card of every guild (loaded once at start-up)."""
    rows = await db.fetchall(f"SELECT {_COLUMNS} FROM guild_cards ORDER BY guild_id, name")
    return [GuildCard(*row) for row in rows]


async def card_source(db: Database, guild_id: int, name: str) -> str | None:
    """The file of a card the guild imported, as stored (None if it has none of that name)."""
    row = await db.fetchone("SELECT source FROM guild_cards WHERE guild_id = ? AND name = ?", (guild_id, name))
    return str(row[0]) if row else None


async def replace_card_source(db: Database, guild_id: int, name: str, title: str, source: str, by: int | None,
                              now: str) -> bool:
    """Store a guild's card anew (a line of it replaced), with who changed it and when; False if it has none of
    that name."""
    async with db.single_statement() as conn:
        return await conn.execute(
            "UPDATE guild_cards SET title = ?, source = ?, imported_by = ?, imported_at = ? "
            "WHERE guild_id = ? AND name = ?", (title, source, by, now, guild_id, name)) > 0
