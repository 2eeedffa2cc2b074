"""Rows of provable deals (docs/rules.md, *Provable deals*): each dealt game's commitment and salt (``deal_seals``),
and the games the bot dealt, read back with what is needed to deal each again and replay it.

*A game the bot dealt* is one with a snapshot: the service writes a game's row, its seats, its first snapshot and
its seal in one transaction at the deal. A game recorded some other way (a game played at a physical table and
entered by hand) has no deal and no snapshot, and is not one of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .db import Connection, Database, now_iso

NO_SCHEME = "none"  # the seal row of a game dealt before deals were sealed: nothing was committed


@dataclass(frozen=True, slots=True)
class SealRow:
    """A deal's commitment as stored: its scheme, the SHA-256 and the salt (secret until the game is over)."""

    scheme: str
    commitment: str
    salt: str


@dataclass(frozen=True, slots=True)
class DealtGame:
    """A game the bot dealt: what fixes its deal, how it ended, and its seal (None: no seal row at all)."""

    game_id: int
    table_id: int
    guild_id: int
    game_no: int
    card_id: str
    rules: dict[str, Any]
    seed: int | None  # None: what is stored is not a whole number (the file was edited by hand)
    east: int
    ended: bool  # finished (with a result)
    how: str | None  # self_pick, discard, heavenly, wall, no_live_players; 'abandoned'; None while in progress
    winner_seat: int | None
    line_id: str | None
    seal: SealRow | None

    @property
    def over(self) -> bool:
        """Whether the game is over (finished or abandoned), so its seed may be revealed."""
        return self.ended or self.how == "abandoned"


async def insert_seal(conn: Connection, game_id: int, seal: SealRow) -> None:
    """Record a game's seal (in the transaction that records the game)."""
    await conn.execute("INSERT INTO deal_seals (game_id, scheme, commitment, salt, sealed_at) VALUES (?, ?, ?, ?, ?)",
                       (game_id, seal.scheme, seal.commitment, seal.salt, now_iso()))


async def seals(db: Database, game_ids: list[int]) -> dict[int, SealRow]:
    """The seals of these games, by game id."""
    found: dict[int, SealRow] = {}
    for start in range(0, len(game_ids), 500):
        chunk = game_ids[start:start + 500]
        marks = ", ".join("?" for _ in chunk)
        query = f"SELECT game_id, scheme, commitment, salt FROM deal_seals WHERE game_id IN ({marks})"
        for r in await db.fetchall(query, chunk):
            found[int(r[0])] = SealRow(str(r[1]), str(r[2]), str(r[3]))
    return found


async def dealt_games(db: Database, game_id: int | None = None) -> list[DealtGame]:
    """Every game the bot dealt (or the one numbered ``game_id``), oldest first, with its seal."""
    where, params = ("WHERE g.game_id = ?", (game_id,)) if game_id is not None else ("", ())
    rows = await db.fetchall(
        "SELECT g.game_id, g.table_id, g.guild_id, g.game_no, g.card_id, g.rules, g.seed, g.east, g.ended_at, g.how, "
        "g.winner_seat, g.line_id, d.scheme, d.commitment, d.salt FROM games g "
        "JOIN snapshots s ON s.game_id = g.game_id LEFT JOIN deal_seals d ON d.game_id = g.game_id "
        f"{where} ORDER BY g.game_id", params)
    return [DealtGame(int(r[0]), int(r[1]), int(r[2]), int(r[3]), str(r[4]), _rules(r[5]), _whole(r[6]), int(r[7]),
                      r[8] is not None, r[9], r[10], r[11],
                      None if r[12] is None else SealRow(str(r[12]), str(r[13]), str(r[14])))
            for r in rows]


async def game_log(db: Database, game_id: int) -> list[dict[str, Any]]:
    """A game's action log in the order applied (replay form)."""
    return [json.loads(r[0]) for r in await db.fetchall("SELECT action FROM actions WHERE game_id = ? ORDER BY seq",
                                                        (game_id,))]


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _rules(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
