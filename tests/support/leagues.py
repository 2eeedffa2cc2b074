"""League test data: a guild and settled games written straight into the store."""

from __future__ import annotations

from datetime import datetime

from bot.store.db import Database

GUILD, OTHER = 5, 6


async def game_at(db: Database, league_id: int | None, ended: datetime, winner: int = 1, loser: int = 2) -> None:
    """A settled game between two players at a table of ``league_id``, ended at ``ended``."""
    stamp = ended.isoformat(timespec="milliseconds")
    async with db.transaction() as conn:
        for player in (winner, loser):
            await conn.execute("INSERT INTO players VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                               (player, f"P{player}", stamp))
        table = await conn.fetchval("INSERT INTO tables (guild_id, channel_id, status, rules, created_at, seed, "
                                    "league_id) VALUES (?, 1, 'open', '{}', ?, 0, ?) RETURNING table_id",
                                    (GUILD, stamp, league_id))
        game = await conn.fetchval(
            "INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at, ended_at, how, "
            "winner_seat, value, jokerless, self_pick) VALUES (?, ?, 1, 'practice', '{}', 1, 0, ?, ?, 'discard', 0, "
            "25, 0, 0) RETURNING game_id", (table, GUILD, stamp, stamp))
        await conn.executemany("INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                               [(game, 0, winner), (game, 1, loser), (game, 2, None), (game, 3, None)])
        txn = await conn.fetchval("INSERT INTO ledger_transactions (game_id, guild_id, kind, created_at) "
                                  "VALUES (?, ?, 'settlement', ?) RETURNING txn_id", (game, GUILD, stamp))
        await conn.executemany("INSERT INTO ledger_postings (txn_id, account, player_id, seat, amount) "
                               "VALUES (?, ?, ?, ?, ?)", [(txn, f"player:{loser}", loser, 1, -25),
                                                          (txn, f"player:{winner}", winner, 0, 25)])
        await conn.execute("UPDATE ledger_transactions SET closed = 1 WHERE txn_id = ?", (txn,))


