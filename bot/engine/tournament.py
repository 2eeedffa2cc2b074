"""Tournament scoring (docs/rules.md, *Tournament scoring*): points for one game, as published tournament rules
score it, instead of chips. Pure: a finished game's outcome in, each seat's points out.

The winner scores the line's value, plus a bonus for a self-pick and one for a jokerless hand (never for Singles &
Pairs); the player who threw the winning tile loses points by how many exposures the winner had; a wall game gives
a bonus to every player whose hand is not dead; a dead hand scores nothing. Every number is a league setting
(:class:`TournamentScoring`); :data:`PRESETS` holds the published ones, each with its source.

A payout for a game recorded at a physical table, in chips as the table would have paid it (SC1-SC3), is here too
(:func:`recorded_payouts`): such a game has no :class:`~bot.engine.state.GameState` to hand to
:func:`bot.engine.payouts.payouts`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .state import Payout, Result, Seat

MAX_POINTS = 1000  # any one setting's bound: far above any published figure, and a typo stays readable
EXPOSURE_STEPS = 4  # the thrower's penalty is set for a winner with 0, 1, 2, and 3 or more exposures


class ScoringError(ValueError):
    """A tournament setting that cannot be used, with a sentence saying which and why."""


@dataclass(frozen=True, slots=True)
class TournamentScoring:
    """The numbers of a tournament scoring: bonuses for the winner, the thrower's penalty by the winner's exposures
    (for 0, 1, 2, and 3 or more), and the wall game's bonus for each player whose hand is not dead."""

    self_pick: int = 10
    jokerless: int = 20
    throw_penalty: tuple[int, int, int, int] = (10, 10, 20, 25)
    wall: int = 10
    preset: str = "tournament"  # the preset these numbers came from, or "custom" once one is changed

    def __post_init__(self) -> None:
        for name in ("self_pick", "jokerless", "wall"):
            check_points(name, getattr(self, name))
        if len(self.throw_penalty) != EXPOSURE_STEPS:
            raise ScoringError("The thrower's penalty has four numbers: for a winner with 0, 1, 2, and 3 or more "
                               "exposures (like 10 10 20 25).")
        for points in self.throw_penalty:
            check_points("throw_penalty", points)

    def penalty(self, exposures: int) -> int:
        """What the thrower of the winning tile loses when the winner had ``exposures`` exposures."""
        return self.throw_penalty[min(max(exposures, 0), EXPOSURE_STEPS - 1)]

    def to_json(self) -> dict[str, object]:
        """The stored form."""
        return {"preset": self.preset, "self_pick": self.self_pick, "jokerless": self.jokerless,
                "throw_penalty": list(self.throw_penalty), "wall": self.wall}

    @staticmethod
    def from_json(data: Mapping[str, object]) -> TournamentScoring:
        """Read the stored form: a preset's numbers, with any number stored beside it."""
        preset = str(data.get("preset", "tournament"))
        base = PRESETS.get(preset, PRESETS["tournament"]).scoring
        penalty = data.get("throw_penalty", base.throw_penalty)
        if not isinstance(penalty, list | tuple) or len(penalty) != EXPOSURE_STEPS:
            raise ScoringError("The thrower's penalty is stored as four numbers.")
        return TournamentScoring(_number(data, "self_pick", base.self_pick), _number(data, "jokerless", base.jokerless),
                                 (int(penalty[0]), int(penalty[1]), int(penalty[2]), int(penalty[3])),
                                 _number(data, "wall", base.wall), preset if preset in PRESETS else "custom")

    def changed(self, **numbers: int | tuple[int, int, int, int] | None) -> TournamentScoring:
        """These numbers changed (None: kept); a change of any number makes the scoring ``custom``."""
        given = {name: value for name, value in numbers.items() if value is not None}
        if not given:
            return self
        updated = replace(self, **given)  # type: ignore[arg-type]
        same = updated.to_json() | {"preset": self.preset} == self.to_json()
        return updated if same else replace(updated, preset="custom")

    def describe(self) -> str:
        """The numbers in one line, for people."""
        zero, one, two, three = self.throw_penalty
        thrower = (f"−{zero}" if zero == one else f"−{zero}/−{one}") + f" (0-1 exposures), −{two} (2), −{three} (3+)"
        return (f"winner: the hand's value, +{self.self_pick} self-pick, +{self.jokerless} jokerless (not Singles & "
                f"Pairs); thrower {thrower}; wall game +{self.wall} to each hand not dead; a dead hand 0")


def _number(data: Mapping[str, object], name: str, default: int) -> int:
    value = data.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScoringError(f"The setting {name} is stored as {value!r}, not a whole number.")
    return value


def check_points(name: str, points: int) -> None:
    """A setting of whole points from 0 to :data:`MAX_POINTS`; a ScoringError names it otherwise."""
    if not 0 <= points <= MAX_POINTS:
        raise ScoringError(f"{name.replace('_', ' ').capitalize()} is a number of points from 0 to {MAX_POINTS}, "
                           f"not {points}.")


@dataclass(frozen=True, slots=True)
class Preset:
    """A published tournament scoring and where it is published (docs/rules.md cites the same)."""

    name: str
    scoring: TournamentScoring
    source: str


PRESETS: dict[str, Preset] = {
    "tournament": Preset("tournament", TournamentScoring(10, 20, (10, 10, 20, 25), 10, "tournament"),
                         "I Love Mahj's tournament scoring (help article 'How are points calculated?')"),
    "mahjcon": Preset("mahjcon", TournamentScoring(10, 20, (0, 0, 20, 25), 10, "mahjcon"),
                      "MahjCon Tournament Rules (mahjcon.com), Scoring and Penalties"),
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What tournament scoring needs of a finished game: its seats (those with a player or a computer), how it
    ended (``how`` as :class:`~bot.engine.state.Result` says it; ``wall`` and ``no_live_players`` have no winner),
    the line's value, whether it was self-picked and jokerless, whether the line is Singles & Pairs, who threw the
    winning tile, how many exposures the winner had, and which hands were dead."""

    seats: tuple[int, ...]
    how: str
    winner: int | None = None
    value: int = 0
    self_pick: bool = False
    jokerless: bool = False
    singles_and_pairs: bool = False
    discarder: int | None = None
    exposures: int = 0
    dead: frozenset[int] = field(default_factory=frozenset)

    def to_json(self) -> dict[str, object]:
        """The stored form (a game recorded at a physical table keeps its outcome so)."""
        return {"seats": list(self.seats), "how": self.how, "winner": self.winner, "value": self.value,
                "self_pick": self.self_pick, "jokerless": self.jokerless,
                "singles_and_pairs": self.singles_and_pairs, "discarder": self.discarder,
                "exposures": self.exposures, "dead": sorted(self.dead)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Outcome:
        """Read the stored form."""
        return Outcome(tuple(data["seats"]), data["how"], data["winner"], data["value"], data["self_pick"],
                       data["jokerless"], data["singles_and_pairs"], data["discarder"], data["exposures"],
                       frozenset(data["dead"]))


def outcome_of(state: Mapping[str, object]) -> Outcome | None:
    """The outcome of a finished game from its stored state (``GameState.to_json``: only its seats and result are
    read), or None for a game without a result. The winner's exposures are those on her rack when the game ended
    (a concealed kong of the classical game is not an exposure)."""
    raw_result, raw_seats = state.get("result"), state.get("seats")
    if not isinstance(raw_result, dict) or not isinstance(raw_seats, list):
        return None
    result = Result.from_json(raw_result)
    seats = [Seat.from_json(s) for s in raw_seats]
    exposures = 0
    if result.winner is not None:
        exposures = sum(1 for e in seats[result.winner].exposures if not e.concealed)
    return Outcome(tuple(n for n, seat in enumerate(seats) if not seat.empty), result.how, result.winner, result.value,
                   result.self_pick, result.jokerless, result.singles_and_pairs, result.discarder, exposures,
                   frozenset(n for n, seat in enumerate(seats) if seat.dead))


def game_points(outcome: Outcome, scoring: TournamentScoring) -> dict[int, int]:
    """Each seat's points for one game (a seat missing from ``outcome.seats`` gets none)."""
    points = dict.fromkeys(outcome.seats, 0)
    winner = outcome.winner
    if winner is None:
        if outcome.how == "wall":
            for seat in outcome.seats:
                if seat not in outcome.dead:
                    points[seat] = scoring.wall
        return points
    points[winner] = outcome.value
    if outcome.self_pick:
        points[winner] += scoring.self_pick
    if outcome.jokerless and not outcome.singles_and_pairs:
        points[winner] += scoring.jokerless
    thrower = outcome.discarder
    if thrower is not None and thrower != winner and not outcome.self_pick and thrower in points:
        points[thrower] -= scoring.penalty(outcome.exposures)
    return points


def recorded_payouts(outcome: Outcome) -> list[Payout]:
    """The chips a game recorded at a physical table pays under the NMJL rules (SC1-SC3): on a discard the thrower
    pays 2V and the others V, on a self-pick everyone pays 2V, a jokerless hand (not Singles & Pairs) doubles every
    payment; a wall game pays nothing."""
    winner = outcome.winner
    if winner is None:
        return []
    transfers: list[Payout] = []
    for payer in outcome.seats:
        if payer == winner:
            continue
        reasons: list[str] = []
        factor = 1
        if outcome.self_pick:
            factor = 2
            reasons.append("self-pick")
        elif payer == outcome.discarder:
            factor = 2
            reasons.append("threw the winning tile")
        if outcome.jokerless and not outcome.singles_and_pairs:
            factor *= 2
            reasons.append("jokerless")
        transfers.append(Payout(payer, winner, outcome.value * factor, ", ".join(reasons) or "the hand's value"))
    return transfers


# -- how a league ranks its players -----------------------------------------------------------------------------

UNITS = ("chips", "tournament")
RULES = ("total", "best", "average")
MAX_BEST = 50  # best N games a week: N at most this
MAX_MINIMUM = 500  # a season average's minimum number of games: at most this


@dataclass(frozen=True, slots=True)
class LeagueScoring:
    """What a league's standings count and how they rank: ``unit`` ``chips`` (each game's net chips, as the ledger
    settles them) or ``tournament`` (each game's points, :func:`game_points` with ``tournament``); ``rule``
    ``total`` (every game), ``best`` (each player's ``best`` best games of each week) or ``average`` (points a game,
    a player ranked once she has played ``minimum`` games in a season)."""

    unit: str = "chips"
    tournament: TournamentScoring = field(default_factory=TournamentScoring)
    rule: str = "total"
    best: int = 4
    minimum: int = 5

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ScoringError(f"A league scores in chips or tournament points, not '{self.unit}'.")
        if self.rule not in RULES:
            raise ScoringError(f"The standings rank by total, best or average, not '{self.rule}'.")
        if not 1 <= self.best <= MAX_BEST:
            raise ScoringError(f"Best N games a week counts 1 to {MAX_BEST} games, not {self.best}.")
        if not 1 <= self.minimum <= MAX_MINIMUM:
            raise ScoringError(f"A season average needs a minimum of 1 to {MAX_MINIMUM} games, not {self.minimum}.")

    @property
    def points(self) -> bool:
        """Whether games score tournament points (else chips)."""
        return self.unit == "tournament"

    @property
    def plain(self) -> bool:
        """Chips totalled over every game: the standings as they were before leagues chose their scoring."""
        return self.unit == "chips" and self.rule == "total"

    def what(self) -> str:
        """What a standings row's number is, for a column or a chart: "net chips", "points", "points a game"."""
        unit = "points" if self.points else "chips"
        if self.rule == "average":
            return f"{unit} a game"
        if self.rule == "best":
            return f"{unit}, best {self.best} a week"
        return "net chips" if unit == "chips" else "points"

    def describe(self) -> str:
        """The league's scoring in a sentence or two, for people."""
        if self.points:
            name = PRESETS[self.tournament.preset].source if self.tournament.preset in PRESETS else "custom numbers"
            unit = f"tournament points ({name}): {self.tournament.describe()}"
        else:
            unit = "chips, as the ledger settles each game"
        rule = {"total": "every game counts",
                "best": f"each player's best {self.best} game{'s' if self.best != 1 else ''} of each week count",
                "average": f"ranked by the average a game; in a season a player is ranked once she has played "
                           f"{self.minimum} game{'s' if self.minimum != 1 else ''}"}[self.rule]
        return f"Scoring: {unit}. Standings: {rule}."

    def to_json(self) -> dict[str, object]:
        """The stored form (``leagues.scoring``)."""
        return {"unit": self.unit, "tournament": self.tournament.to_json(), "rule": self.rule, "best": self.best,
                "minimum": self.minimum}

    @staticmethod
    def from_json(data: Mapping[str, object]) -> LeagueScoring:
        """Read the stored form; ``{}`` is chips and totals (every league before scoring could be chosen)."""
        raw = data.get("tournament", {})
        tournament = TournamentScoring.from_json(raw if isinstance(raw, Mapping) else {})
        return LeagueScoring(str(data.get("unit", "chips")), tournament, str(data.get("rule", "total")),
                             _number(data, "best", 4), _number(data, "minimum", 5))
