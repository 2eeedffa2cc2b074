"""What a league's standings are made of, game by game: who sat where, how the game ended, each seat's net chips
(its settlement and any correction), and, for tournament scoring, the outcome the points are worked out from (read
from the game's last stored state, or from what an organiser recorded for a game played at a physical table).

A voided game is left out (bot/store/corrections.py). The numbers are worked out by :mod:`bot.service.scoring`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.engine.tournament import Outcome, outcome_of

from .db import Database


@dataclass(frozen=True, slots=True)
class SeatFact:
    """One seat of a game: its player (None: a computer) and her name."""

    seat: int
    player_id: int | None
    name: str


@dataclass(frozen=True, slots=True)
class GameFacts:
    """One finished, not voided game of a guild: its seats, how it ended, each seat's net chips, its tournament
    outcome (when asked for) and the players a night's rules score nothing for (away while a computer played
    their seat, at a night whose absent players score zero)."""

    game_id: int
    table_id: int
    ended_at: str
    seats: tuple[SeatFact, ...]
    winner: int | None
    self_pick: bool
    jokerless: bool
    chips: dict[int, int]  # seat -> net chips
    outcome: Outcome | None = None
    zeroed: frozenset[int] = field(default_factory=frozenset)  # player ids

    @property
    def ended(self) -> datetime:
        """When the game ended (UTC)."""
        return datetime.fromisoformat(self.ended_at)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _scope(guild_id: int, start: datetime | None, end: datetime | None, league_id: int | None,
           table_ids: list[int] | None) -> tuple[str, list[object]]:
    where = ("g.guild_id = ? AND g.ended_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM game_corrections gc "
             "WHERE gc.game_id = g.game_id AND gc.kind = 'void')")
    params: list[object] = [guild_id]
    if league_id is not None:
        where += " AND g.table_id IN (SELECT table_id FROM tables WHERE league_id = ?)"
        params.append(league_id)
    if table_ids is not None:
        where += f" AND g.table_id IN ({', '.join('?' for _ in table_ids) or 'NULL'})"
        params += table_ids
    if start is not None:
        where += " AND g.ended_at >= ?"
        params.append(_iso(start))
    if end is not None:
        where += " AND g.ended_at < ?"
        params.append(_iso(end))
    return where, params


async def game_facts(db: Database, guild_id: int, start: datetime | None = None, end: datetime | None = None, *,
                     league_id: int | None = None, table_ids: list[int] | None = None,
                     outcomes: bool = False) -> list[GameFacts]:
    """Every finished, not voided game of the guild (of one league's tables, or of these tables) that ended in
    [start, end), oldest first; with ``outcomes``, each game's tournament outcome too."""
    where, params = _scope(guild_id, start, end, league_id, table_ids)
    games = {int(r[0]): r for r in await db.fetchall(
        f"SELECT g.game_id, g.table_id, g.ended_at, g.winner_seat, g.self_pick, g.jokerless FROM games g "
        f"WHERE {where} ORDER BY g.ended_at, g.game_id", params)}
    if not games:
        return []
    seats: dict[int, list[SeatFact]] = {}
    for game_id, seat, player_id, name, level in await db.fetchall(
            f"SELECT gs.game_id, gs.seat, gs.player_id, p.display_name, gs.computer_level FROM game_seats gs "
            f"JOIN games g ON g.game_id = gs.game_id LEFT JOIN players p ON p.player_id = gs.player_id "
            f"WHERE {where} AND (gs.player_id IS NOT NULL OR gs.computer_level IS NOT NULL) "
            f"ORDER BY gs.game_id, gs.seat", params):
        shown = name or (str(player_id) if player_id is not None else f"Computer ({level})")
        seats.setdefault(int(game_id), []).append(SeatFact(int(seat), player_id, str(shown)))
    chips: dict[int, dict[int, int]] = {}
    for game_id, seat, amount in await db.fetchall(
            f"SELECT t.game_id, p.seat, SUM(p.amount) FROM ledger_postings p JOIN ledger_transactions t "
            f"ON t.txn_id = p.txn_id JOIN games g ON g.game_id = t.game_id WHERE {where} AND t.closed = 1 "
            f"GROUP BY t.game_id, p.seat", params):
        chips.setdefault(int(game_id), {})[int(seat)] = int(amount)
    zeroed: dict[int, set[int]] = {}
    for game_id, player_id in await db.fetchall(
            f"SELECT a.game_id, a.player_id FROM night_away a JOIN games g ON g.game_id = a.game_id "
            f"JOIN night_tables nt ON nt.table_id = g.table_id JOIN nights n ON n.night_id = nt.night_id "
            f"WHERE {where} AND n.absent = 'zero'", params):
        zeroed.setdefault(int(game_id), set()).add(int(player_id))
    found = await _outcomes(db, where, params) if outcomes else {}
    return [GameFacts(game_id, int(r[1]), str(r[2]), tuple(seats.get(game_id, ())), r[3], bool(r[4]), bool(r[5]),
                      chips.get(game_id, {}), found.get(game_id), frozenset(zeroed.get(game_id, ())))
            for game_id, r in games.items()]


async def _outcomes(db: Database, where: str, params: list[object]) -> dict[int, Outcome]:
    """Each game's tournament outcome: what an organiser recorded for a game played at a physical table, else the
    game's last stored state (written whole when a game ends)."""
    found: dict[int, Outcome] = {}
    for game_id, detail in await db.fetchall(
            f"SELECT gc.game_id, gc.detail FROM game_corrections gc JOIN games g ON g.game_id = gc.game_id "
            f"WHERE {where} AND gc.kind = 'recorded'", params):
        found[int(game_id)] = Outcome.from_json(json.loads(detail))
    for game_id, state in await db.fetchall(
            f"SELECT s.game_id, s.state FROM snapshots s JOIN games g ON g.game_id = s.game_id WHERE {where}",
            params):
        if int(game_id) not in found and (outcome := outcome_of(json.loads(state))) is not None:
            found[int(game_id)] = outcome
    return found
