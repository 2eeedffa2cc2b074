"""A league's standings as its scoring says (docs/rules.md, *Tournament scoring* and *Standings rules*): each game
scores chips (its net, as the ledger settled and corrected it) or tournament points
(:func:`bot.engine.tournament.game_points`), and the players rank by their total, by the sum of each week's best N
games, or by their average a game (in a season, ranked once they have played the minimum).

A league that scores chips over every game keeps the standings it always had (:func:`bot.store.standings.standings`,
one query); every other scoring is worked out here from each game's facts (:mod:`bot.store.scores`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from bot.engine.tournament import PRESETS, game_points
from bot.engine.tournament import LeagueScoring as LeagueScoring  # re-exported: the cogs see the service's names
from bot.store.db import Database
from bot.store.leagues import LeagueRow
from bot.store.scores import GameFacts, game_facts
from bot.store.standings import League, Standing, standings, week_label

PRESET_NAMES = tuple(PRESETS)  # the published tournament scorings a league may choose (docs/rules.md)
RULE_NAMES = {"total": "total: every game", "best": "best N games a week", "average": "season average, with a minimum"}


def game_scores(game: GameFacts, scoring: LeagueScoring) -> dict[int, int]:
    """Each person's score for one game (computers score nothing here): tournament points, or net chips. A player
    a night's rules score nothing for (away while a computer played her seat) scores 0 points; chips stay as the
    ledger settled them."""
    people = {s.seat: s.player_id for s in game.seats if s.player_id is not None}
    if scoring.points and game.outcome is not None:
        points = game_points(game.outcome, scoring.tournament)
        return {player: 0 if player in game.zeroed else points.get(seat, 0) for seat, player in people.items()}
    return {player: game.chips.get(seat, 0) for seat, player in people.items()}


@dataclass
class _Tally:
    name: str
    net: int = 0
    games: int = 0
    wins: int = 0
    self_picks: int = 0
    jokerless: int = 0
    total: int = 0
    by_week: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))


def rank(games: Iterable[GameFacts], scoring: LeagueScoring, weeks: League, *, season: bool) -> list[Standing]:
    """The standings over these games: each player's figures and her score by the league's rule, ranked. With
    ``season`` (a season, every game so far: not one week) an average ranks only players with the minimum games;
    the others follow, unranked."""
    tallies: dict[int, _Tally] = {}
    for game in games:
        scores = game_scores(game, scoring)
        week = week_label(game.ended.astimezone(weeks.zone).date(), weeks.week_start)
        for seat in game.seats:
            if seat.player_id is None:
                continue
            tally = tallies.setdefault(seat.player_id, _Tally(seat.name))
            tally.name = seat.name
            tally.games += 1
            tally.net += game.chips.get(seat.seat, 0)
            if game.winner == seat.seat:
                tally.wins += 1
                tally.self_picks += game.self_pick
                tally.jokerless += game.jokerless
            tally.total += scores[seat.player_id]
            tally.by_week[week].append(scores[seat.player_id])
    rows = [_standing(player, tally, scoring, season) for player, tally in tallies.items()]
    rows.sort(key=lambda s: (not s.ranked, -s.value, -s.wins, s.name.lower(), s.player_id))
    return rows


def _standing(player: int, tally: _Tally, scoring: LeagueScoring, season: bool) -> Standing:
    ranked = True
    if scoring.rule == "best":
        score: float = sum(sum(sorted(week, reverse=True)[: scoring.best]) for week in tally.by_week.values())
    elif scoring.rule == "average":
        score = round(tally.total / tally.games, 2)
        ranked = not season or tally.games >= scoring.minimum
    else:
        score = tally.total
    return Standing(player, tally.name, tally.net, tally.games, tally.wins, round(tally.wins / tally.games, 3),
                    tally.self_picks, tally.jokerless, score, ranked)


async def league_standings(db: Database, league: LeagueRow, start: datetime | None, end: datetime | None, *,
                           season: bool = False) -> list[Standing]:
    """A league's standings over the games that ended in [start, end), as its scoring says (``season``: over a
    season or every game so far, where an average has its minimum)."""
    scoring = league.scoring
    if scoring.plain:
        return await standings(db, league.guild_id, start, end, league_id=league.league_id)
    games = await game_facts(db, league.guild_id, start, end, league_id=league.league_id, outcomes=scoring.points)
    return rank(games, scoring, league.weeks, season=season)
