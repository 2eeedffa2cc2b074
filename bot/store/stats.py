"""The rows players' statistics are recomputed from (``/stats``, ``charleston stats``): the games the standings
count, each with who sat where, how it ended and each seat's chips from the ledger.

Nothing here is a counter: every figure is read afresh from the games' recorded results, their seats and the
ledger's closed postings, so no total can drift from the record. :func:`counted_where` is the one place that says
which games count, the same games as the standings (finished, not voided); a rule that takes a game out of the
standings belongs in its ``WHERE`` too, and the statistics follow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .db import Database
from .standings import name_key


@dataclass(slots=True)
class CountedGame:
    """One finished game as the statistics read it: its result and, per seat, the player (None: a computer) and
    the net chips that seat's account received in the game's closed ledger transactions."""

    game_id: int
    guild_id: int
    card_id: str
    east: int
    how: str  # self_pick, discard, heavenly, wall, no_live_players
    winner_seat: int | None
    line_id: str | None
    self_pick: bool
    jokerless: bool
    players: dict[int, int | None] = field(default_factory=dict)  # seat -> player id
    chips: dict[int, int] = field(default_factory=dict)  # player id -> net chips in this game


def counted_where(guild_id: int | None, league_id: int | None) -> tuple[str, list[object]]:
    """The ``WHERE`` clause (over ``games g``) of the games the standings count: finished (a game abandoned when
    its table closed has no end) and not voided, in one guild or every one, of one league's tables or every table."""
    # As the standings: a voided game no longer counts (bot/store/corrections.py); a game recorded at a physical
    # table counts like any other.
    where = ("g.ended_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM game_corrections gc "
             "WHERE gc.game_id = g.game_id AND gc.kind = 'void')")
    params: list[object] = []
    if guild_id is not None:
        where += " AND g.guild_id = ?"
        params.append(guild_id)
    if league_id is not None:
        where += " AND g.table_id IN (SELECT table_id FROM tables WHERE league_id = ?)"
        params.append(league_id)
    return where, params


async def counted_games(db: Database, guild_id: int | None = None, league_id: int | None = None) -> list[CountedGame]:
    """Every game the standings count (in ``guild_id``, of ``league_id``'s tables; None: all), oldest first."""
    where, params = counted_where(guild_id, league_id)
    games = {int(r[0]): CountedGame(int(r[0]), int(r[1]), str(r[2]), int(r[3]), str(r[4]),
                                    None if r[5] is None else int(r[5]), r[6], bool(r[7]), bool(r[8]))
             for r in await db.fetchall(
                 "SELECT g.game_id, g.guild_id, g.card_id, g.east, g.how, g.winner_seat, g.line_id, "
                 f"COALESCE(g.self_pick, 0), COALESCE(g.jokerless, 0) FROM games g WHERE {where} ORDER BY g.game_id",
                 params)}
    for game_id, seat, player in await db.fetchall(
            f"SELECT gs.game_id, gs.seat, gs.player_id FROM game_seats gs JOIN games g ON g.game_id = gs.game_id "
            f"WHERE {where}", params):
        games[int(game_id)].players[int(seat)] = None if player is None else int(player)
    for game_id, player, amount in await db.fetchall(
            "SELECT lt.game_id, lp.player_id, SUM(lp.amount) FROM ledger_postings lp "
            "JOIN ledger_transactions lt ON lt.txn_id = lp.txn_id JOIN games g ON g.game_id = lt.game_id "
            f"WHERE {where} AND lt.closed = 1 AND lp.player_id IS NOT NULL GROUP BY lt.game_id, lp.player_id", params):
        games[int(game_id)].chips[int(player)] = int(amount)
    return list(games.values())


async def player_names(db: Database, player_ids: list[int]) -> dict[int, str]:
    """The display names the bot last saw for these players."""
    names: dict[int, str] = {}
    for start in range(0, len(player_ids), 500):
        chunk = player_ids[start:start + 500]
        marks = ", ".join("?" for _ in chunk)
        for player, name in await db.fetchall(
                f"SELECT player_id, display_name FROM players WHERE player_id IN ({marks})", chunk):
            names[int(player)] = str(name)
    return names


async def leagues_named(db: Database, name: str, guild_id: int | None = None) -> list[tuple[int, int, str]]:
    """The leagues called ``name`` (case and spacing ignored), in one guild or any, as (league id, guild id,
    name)."""
    where, params = "name_key = ?", list[object]([name_key(name)])
    if guild_id is not None:
        where += " AND guild_id = ?"
        params.append(guild_id)
    return [(int(r[0]), int(r[1]), str(r[2])) for r in await db.fetchall(
        f"SELECT league_id, guild_id, name FROM leagues WHERE {where} ORDER BY league_id", params)]
