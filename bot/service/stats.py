"""Players' statistics (``/stats``, ``charleston stats``): games, wins, self-picks, jokerless wins, wall games,
chips a game, wins as East and not, and the lines won most.

Every figure is recomputed on each call from the record (the games the standings count, their recorded results,
their seats and the ledger: :func:`bot.store.stats.counted_games`), never kept in a counter that could drift. A
*wall game* is a finished game nobody won: the wall ran out, or every hand was dead. *Chips* are a player's net
in the ledger's closed transactions of those games, corrections included.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import CardError
from bot.engine.wording import line_called
from bot.store import stats as rows
from bot.store.db import Database
from bot.store.stats import CountedGame

from .cards import UnknownCard, load_card

TOP_LINES = 3  # the lines won most, as many as a phone shows at a glance


@dataclass(frozen=True, slots=True)
class LineWins:
    """A card line and how many times a player won with it."""

    card_id: str
    line_id: str
    name: str  # as players name it ("Consecutive Run #2"), from the card
    wins: int


@dataclass(slots=True)
class PlayerStats:
    """One player's figures over the games counted."""

    player_id: int
    name: str
    games: int = 0
    mahjong: int = 0  # her wins
    self_picks: int = 0
    jokerless: int = 0  # wins with a jokerless hand
    wall_games: int = 0  # her games nobody won
    chips: int = 0  # net
    games_as_east: int = 0
    wins_as_east: int = 0
    lines: list[LineWins] = field(default_factory=list)  # most won first, at most TOP_LINES

    @property
    def chips_per_game(self) -> float:
        """Net chips over games played, to one decimal (0 with no games)."""
        return round(self.chips / self.games, 1) if self.games else 0.0

    @property
    def wins_not_east(self) -> int:
        """Wins in a seat other than East."""
        return self.mahjong - self.wins_as_east

    @property
    def games_not_east(self) -> int:
        """Games played in a seat other than East."""
        return self.games - self.games_as_east

    def to_json(self) -> dict[str, Any]:
        """The figures as ``charleston stats --json`` prints them."""
        return {"player_id": self.player_id, "name": self.name, "games": self.games, "mahjong": self.mahjong,
                "self_picks": self.self_picks, "jokerless": self.jokerless, "wall_games": self.wall_games,
                "chips": self.chips, "chips_per_game": self.chips_per_game,
                "east": {"games": self.games_as_east, "mahjong": self.wins_as_east},
                "not_east": {"games": self.games_not_east, "mahjong": self.wins_not_east},
                "lines": [{"card": w.card_id, "line": w.line_id, "name": w.name, "wins": w.wins} for w in self.lines]}


@dataclass(frozen=True, slots=True)
class Totals:
    """The games counted, each once: how many, won, nobody won, self-picked, jokerless."""

    games: int = 0
    mahjong: int = 0
    wall_games: int = 0
    self_picks: int = 0
    jokerless: int = 0

    def to_json(self) -> dict[str, int]:
        """The totals as ``charleston stats --json`` prints them."""
        return {"games": self.games, "mahjong": self.mahjong, "wall_games": self.wall_games,
                "self_picks": self.self_picks, "jokerless": self.jokerless}


@dataclass(frozen=True, slots=True)
class StatsReport:
    """Every player's figures (most games first) and the totals of the games counted."""

    players: list[PlayerStats]
    totals: Totals

    def of(self, player_id: int) -> PlayerStats | None:
        """One player's figures, if she played any game counted."""
        return next((p for p in self.players if p.player_id == player_id), None)

    def to_json(self) -> dict[str, Any]:
        """The report as ``charleston stats --json`` prints it."""
        return {"players": [p.to_json() for p in self.players], "totals": self.totals.to_json()}


def tally(games: list[CountedGame], names: dict[int, str], player_id: int | None = None) -> StatsReport:
    """The figures of ``games``, for every person seated (or only ``player_id``); the totals count each game once,
    over the games of the players shown (with ``player_id``, hers)."""
    players: dict[int, PlayerStats] = {}
    won_lines: dict[int, Counter[tuple[str, str]]] = {}
    shown: list[CountedGame] = []
    for game in games:
        seated = [(seat, pid) for seat, pid in game.players.items()
                  if pid is not None and (player_id is None or pid == player_id)]
        if not seated:
            continue
        shown.append(game)
        for seat, pid in seated:
            figures = players.setdefault(pid, PlayerStats(pid, names.get(pid, str(pid))))
            _count(figures, game, seat, won_lines.setdefault(pid, Counter()))
    for pid, figures in players.items():
        figures.lines = [LineWins(card, line, _line_name(card, line), wins)
                         for (card, line), wins in won_lines[pid].most_common(TOP_LINES)]
    won = [g for g in shown if g.winner_seat is not None]
    totals = Totals(len(shown), len(won), len(shown) - len(won), sum(g.self_pick for g in won),
                    sum(g.jokerless for g in won))
    order = sorted(players.values(), key=lambda p: (-p.games, -p.mahjong, p.name.lower(), p.player_id))
    return StatsReport(order, totals)


def _count(figures: PlayerStats, game: CountedGame, seat: int, lines: Counter[tuple[str, str]]) -> None:
    east = seat == game.east
    figures.games += 1
    figures.games_as_east += east
    figures.chips += game.chips.get(figures.player_id, 0)
    if game.winner_seat is None:
        figures.wall_games += 1
    elif game.winner_seat == seat:
        figures.mahjong += 1
        figures.wins_as_east += east
        figures.self_picks += game.self_pick
        figures.jokerless += game.jokerless
        if game.line_id:
            lines[(game.card_id, game.line_id)] += 1


def _line_name(card_id: str, line_id: str) -> str:
    try:
        return line_called(load_card(card_id), line_id)
    except (UnknownCard, CardError):  # a card no longer installed: its id says which
        return f"{line_id} of card {card_id}"


class StatsService:
    """Players' statistics over the store (the calls :class:`bot.service.surface.StatsCalls` lists)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def stats(self, guild_id: int | None, league_id: int | None = None,
                    player_id: int | None = None) -> StatsReport:
        """The figures of the games the standings count in a guild (None: every guild) or one of its leagues,
        for every player or one."""
        games = await rows.counted_games(self.db, guild_id, league_id)
        seated = sorted({pid for g in games for pid in g.players.values() if pid is not None})
        return tally(games, await rows.player_names(self.db, seated), player_id)
