"""The chip ledger: double-entry transactions, balances, histories and verification.

A settlement turns a finished game's payouts into one closed transaction whose postings sum to zero (the
database refuses to close one that does not). A game has at most one settlement (a unique index), so settling
again changes nothing. Mistakes are put right with a new 'correction' transaction; postings are never edited.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .db import Connection, Database, now_iso


@dataclass(frozen=True, slots=True)
class Transfer:
    """``amount`` chips from one seat's holder to another's (a player id, or None for a computer player)."""

    payer_seat: int
    payer: int | None
    payee_seat: int
    payee: int | None
    amount: int
    reason: str


def account(player: int | None, game_id: int | None, seat: int) -> str:
    """The ledger account of a seat: its player's, or the game's computer seat's."""
    return f"player:{player}" if player is not None else f"computer:{game_id}:{seat}"


async def settle(conn: Connection, game_id: int, guild_id: int, transfers: Sequence[Transfer],
                 memo: str = "") -> bool:
    """Write a game's settlement inside the caller's transaction. Returns False (and writes nothing) if the game
    is already settled: the unique index on settlements decides, so two writers at once settle it once (the
    second waits for the first to commit, then writes nothing)."""
    txn = await conn.fetchval(
        "INSERT INTO ledger_transactions (game_id, guild_id, kind, memo, created_at) VALUES (?, ?, 'settlement', ?, ?) "
        "ON CONFLICT (game_id) WHERE kind = 'settlement' DO NOTHING RETURNING txn_id",
        (game_id, guild_id, memo, now_iso()))
    if txn is None:
        return False
    await _post(conn, txn, game_id, transfers)
    await conn.execute("UPDATE ledger_transactions SET closed = 1 WHERE txn_id = ?", (txn,))
    return True


async def correct(db: Database, game_id: int, guild_id: int, transfers: Sequence[Transfer], memo: str) -> int:
    """A correction to a settled game: a new balanced transaction. Returns its id."""
    async with db.transaction() as conn:
        return await post_correction(conn, game_id, guild_id, transfers, memo)


async def post_correction(conn: Connection, game_id: int, guild_id: int, transfers: Sequence[Transfer],
                          memo: str) -> int:
    """A correction to a settled game, inside the caller's transaction: a new balanced transaction (closed; it
    may have no postings, for a game that moved no chips). Returns its id."""
    settlement = await conn.fetchval(
        "SELECT txn_id FROM ledger_transactions WHERE game_id = ? AND kind = 'settlement'", (game_id,))
    if settlement is None:
        raise ValueError(f"Game {game_id} has no settlement to correct.")
    txn = int(await conn.fetchval(
        "INSERT INTO ledger_transactions (game_id, guild_id, kind, memo, corrects, created_at) "
        "VALUES (?, ?, 'correction', ?, ?, ?) RETURNING txn_id", (game_id, guild_id, memo, settlement, now_iso())))
    await _post(conn, txn, game_id, transfers)
    await conn.execute("UPDATE ledger_transactions SET closed = 1 WHERE txn_id = ?", (txn,))
    return txn


async def _post(conn: Connection, txn: int, game_id: int, transfers: Sequence[Transfer]) -> None:
    rows = []
    for t in transfers:
        if t.amount <= 0:
            raise ValueError(f"A transfer moves a positive amount, not {t.amount}.")
        rows.append((txn, account(t.payer, game_id, t.payer_seat), t.payer, t.payer_seat, -t.amount, t.reason))
        rows.append((txn, account(t.payee, game_id, t.payee_seat), t.payee, t.payee_seat, t.amount, t.reason))
    await conn.executemany(
        "INSERT INTO ledger_postings (txn_id, account, player_id, seat, amount, reason) VALUES (?, ?, ?, ?, ?, ?)",
        rows)


async def balance(db: Database, player_id: int, guild_id: int | None = None) -> int:
    """A player's net chips over closed transactions, in one guild or everywhere."""
    query = ("SELECT COALESCE(SUM(p.amount), 0) FROM ledger_postings p JOIN ledger_transactions t USING (txn_id) "
             "WHERE t.closed = 1 AND p.player_id = ?")
    params: tuple[int, ...] = (player_id,)
    if guild_id is not None:
        query += " AND t.guild_id = ?"
        params += (guild_id,)
    row = await db.fetchone(query, params)
    return int(row[0]) if row else 0


async def history(db: Database, player_id: int, limit: int = 50) -> list[dict[str, object]]:
    """A player's postings, newest first."""
    return [dict(row) for row in await db.fetchall(
            "SELECT t.txn_id, t.game_id, t.kind, t.created_at, p.amount, p.reason FROM ledger_postings p "
            "JOIN ledger_transactions t USING (txn_id) WHERE t.closed = 1 AND p.player_id = ? "
            "ORDER BY t.txn_id DESC, p.posting_id DESC LIMIT ?", (player_id, limit))]


async def game_breakdown(db: Database, game_id: int) -> list[dict[str, object]]:
    """Every posting of a game (settlement and corrections), in order."""
    return [dict(row) for row in await db.fetchall(
            "SELECT t.txn_id, t.kind, p.account, p.player_id, p.seat, p.amount, p.reason FROM ledger_postings p "
            "JOIN ledger_transactions t USING (txn_id) WHERE t.game_id = ? AND t.closed = 1 "
            "ORDER BY p.posting_id", (game_id,))]


async def verify(db: Database) -> list[str]:
    """Problems found: games whose postings do not sum to zero, games settled more than once, open transactions
    left with postings. Empty when the ledger is sound."""
    problems: list[str] = []
    for game_id, total in await db.fetchall(
            "SELECT t.game_id, SUM(p.amount) FROM ledger_transactions t JOIN ledger_postings p USING (txn_id) "
            "WHERE t.closed = 1 GROUP BY t.game_id HAVING SUM(p.amount) != 0"):
        problems.append(f"game {game_id}: postings sum to {total}, not 0")
    for game_id, count in await db.fetchall(
            "SELECT game_id, COUNT(*) FROM ledger_transactions WHERE kind = 'settlement' "
            "GROUP BY game_id HAVING COUNT(*) > 1"):
        problems.append(f"game {game_id}: settled {count} times")
    for txn_id, game_id in await db.fetchall(
            "SELECT t.txn_id, t.game_id FROM ledger_transactions t WHERE t.closed = 0 "
            "AND EXISTS (SELECT 1 FROM ledger_postings p WHERE p.txn_id = t.txn_id)"):
        problems.append(f"transaction {txn_id} (game {game_id}) was never closed")
    for (game_id,) in await db.fetchall(
            "SELECT g.game_id FROM games g WHERE g.ended_at IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.game_id = g.game_id "
            "AND t.kind = 'settlement' AND t.closed = 1)"):
        problems.append(f"game {game_id} has ended but has no settlement")
    return problems


def _scope(guild_id: int, league_id: int | None) -> tuple[str, list[object]]:
    """The WHERE part that keeps a query to one guild's closed transactions (and to one league's tables)."""
    where = "t.closed = 1 AND t.guild_id = ?"
    params: list[object] = [guild_id]
    if league_id is not None:
        where += (" AND t.game_id IN (SELECT g.game_id FROM games g JOIN tables tb ON tb.table_id = g.table_id "
                  "WHERE tb.league_id = ?)")
        params.append(league_id)
    return where, params


async def player_statement(db: Database, guild_id: int, player_id: int, *, league_id: int | None = None,
                           limit: int = 10) -> tuple[int, int, list[dict[str, object]]]:
    """A player's balance in one guild (or league), how many transactions (games settled, corrections) make it,
    and the last ``limit`` of them, newest first: the game, its table, when, the player's amount and why."""
    where, params = _scope(guild_id, league_id)
    row = await db.fetchone(f"SELECT COALESCE(SUM(p.amount), 0), COUNT(DISTINCT t.txn_id) FROM ledger_postings p "
                            f"JOIN ledger_transactions t USING (txn_id) WHERE {where} AND p.player_id = ?",
                            [*params, player_id])
    total, count = (int(row[0]), int(row[1])) if row else (0, 0)
    rows = await db.fetchall(
        f"SELECT t.txn_id, t.game_id, g.table_id, t.kind, t.created_at, SUM(p.amount) AS amount, "
        f"gc.kind AS correction, gc.reason AS correction_reason, pm.display_name AS made_by "
        f"FROM ledger_postings p JOIN ledger_transactions t USING (txn_id) "
        f"LEFT JOIN games g ON g.game_id = t.game_id LEFT JOIN game_corrections gc ON gc.txn_id = t.txn_id "
        f"LEFT JOIN players pm ON pm.player_id = gc.made_by WHERE {where} AND p.player_id = ? "
        f"GROUP BY t.txn_id, t.game_id, g.table_id, t.kind, t.created_at, gc.kind, gc.reason, pm.display_name "
        f"ORDER BY t.txn_id DESC LIMIT ?",
        [*params, player_id, limit])
    latest = [dict(r) for r in rows]
    # Each transaction's reasons, joined in the order posted (a string aggregate is spelled differently by each
    # backend, so they are joined here).
    reasons: dict[int, list[str]] = {}
    if latest:
        marks = ", ".join("?" for _ in latest)
        for txn_id, reason in await db.fetchall(
                f"SELECT txn_id, reason FROM ledger_postings WHERE player_id = ? AND txn_id IN ({marks}) "
                "ORDER BY posting_id", [player_id, *(r["txn_id"] for r in latest)]):
            reasons.setdefault(txn_id, []).append(reason)
    for r in latest:
        r["amount"] = int(r["amount"])
        r["reason"] = "; ".join(reasons.get(r["txn_id"], []))
    return total, count, latest


LEDGER_CSV_COLUMNS = ("txn_id", "created_at", "kind", "game_id", "table_id", "league", "account", "player_id",
                      "player_name", "seat", "amount", "reason", "memo",
                      # a correction of the league's record (a void, a game recorded at a physical table): what,
                      # who made it and when, and why
                      "correction", "made_by", "made_by_name", "made_at", "correction_reason")


async def guild_postings(db: Database, guild_id: int, *, league_id: int | None = None) -> list[tuple[object, ...]]:
    """Every posting of one guild's (or league's) closed transactions, oldest first, as
    :data:`LEDGER_CSV_COLUMNS`."""
    where, params = _scope(guild_id, league_id)
    rows = await db.fetchall(
        f"SELECT t.txn_id, t.created_at, t.kind, t.game_id, g.table_id, l.name, p.account, p.player_id, "
        f"pl.display_name, p.seat, p.amount, p.reason, t.memo, gc.kind, gc.made_by, pm.display_name, gc.made_at, "
        f"gc.reason FROM ledger_transactions t "
        # a correction that moved no chips (the void of a wall game) is still a line, with no account
        f"LEFT JOIN ledger_postings p ON p.txn_id = t.txn_id LEFT JOIN games g ON g.game_id = t.game_id "
        f"LEFT JOIN tables tb ON tb.table_id = g.table_id LEFT JOIN leagues l ON l.league_id = tb.league_id "
        f"LEFT JOIN players pl ON pl.player_id = p.player_id "
        f"LEFT JOIN game_corrections gc ON gc.txn_id = t.txn_id LEFT JOIN players pm ON pm.player_id = gc.made_by "
        f"WHERE {where} AND (p.posting_id IS NOT NULL OR gc.kind IS NOT NULL) ORDER BY t.txn_id, p.posting_id",
        params)
    return [tuple(r) for r in rows]
