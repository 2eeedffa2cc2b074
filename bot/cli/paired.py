"""Paired comparison of two computer levels: every deal is played twice, once with the candidate in one seat and
once with the baseline in that same seat, the other three seats the baseline both times.

A deal is identified by (seed, game number, seat): game ``n`` of seed ``s`` is dealt exactly as ``charleston
simulate --seed s`` deals its game ``n`` (East is seat ``n mod 4``), and the seat compared is ``(n // 4) mod 4``,
so over 16 games every seat meets every East. Because both games share the deal, the luck of the tiles cancels
out of the difference, which is why a few thousand paired deals tell apart what tens of thousands of unpaired
games could not.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bot.ai.selfplay import Stuck, play_game
from bot.cli.simulate import game_seed_for
from bot.engine.card import Card
from bot.engine.game import Game
from bot.engine.payouts import net_chips
from bot.engine.rules import TableRules

Z95 = 1.959964  # two-sided 95% normal quantile


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat fared in one game: net chips, and whether it won, threw the winning tile, or the wall ran out."""

    chips: int
    won: bool
    threw: bool
    wall: bool


@dataclass(frozen=True, slots=True)
class PairedDeal:
    """One deal played twice: the candidate's and the baseline's result in the same seat."""

    seed: int
    game: int
    seat: int
    candidate: SeatResult
    baseline: SeatResult
    candidate_seconds: float  # time the candidate's whole game took (all four seats' decisions and the engine)
    levels: tuple[str, str] = ("", "")  # (candidate, baseline)

    def to_json(self) -> dict[str, object]:
        """The deal as one JSON-ready record (a line of ``--jsonl``)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> PairedDeal:
        """A record written by :meth:`to_json`."""
        cand, base = data["candidate"], data["baseline"]
        levels = data.get("levels", ("", ""))
        if not (isinstance(cand, dict) and isinstance(base, dict) and isinstance(levels, (list, tuple))
                and len(levels) == 2):
            raise ValueError("not a paired deal record")
        return cls(int(data["seed"]), int(data["game"]), int(data["seat"]),  # type: ignore[call-overload]
                   SeatResult(**cand), SeatResult(**base), float(data["candidate_seconds"]),  # type: ignore[arg-type]
                   (str(levels[0]), str(levels[1])))


def seat_for(game: int) -> int:
    """The seat compared in game ``game`` of a seed: it moves every four games, while East moves every game."""
    return (game // 4) % 4


def seat_result(game: Game, seat: int) -> SeatResult:
    """``seat``'s chips and part in the ending of a finished game."""
    outcome = game.state.result
    assert outcome is not None
    return SeatResult(net_chips(game.state)[seat], outcome.winner == seat, outcome.discarder == seat,
                      outcome.winner is None)


def play_deal(card: Card, rules: TableRules, seed: int, game: int, candidate: str, baseline: str) -> PairedDeal:
    """Play deal (seed, game) twice: the candidate, then the baseline, in :func:`seat_for` ``(game)``."""
    seat = seat_for(game)
    results: list[SeatResult] = []
    seconds = 0.0
    for level in (candidate, baseline):
        levels = [baseline] * 4
        levels[seat] = level
        started = time.perf_counter()
        played, _ = Game.new(card, rules, game_seed_for(seed, game), east=game % 4)
        play_game(played, levels)
        if not results:
            seconds = time.perf_counter() - started
        results.append(seat_result(played, seat))
    return PairedDeal(seed, game, seat, results[0], results[1], round(seconds, 4), (candidate, baseline))


def play_deals(card: Card, rules: TableRules, seeds: Sequence[int], games: int, candidate: str, baseline: str, *,
               progress: Callable[[int, int], None] | None = None) -> Iterable[PairedDeal]:
    """Every deal of every seed, in order, as it is played."""
    total = len(seeds) * games
    done = 0
    for seed in seeds:
        for n in range(games):
            try:
                yield play_deal(card, rules, seed, n, candidate, baseline)
            except Stuck as exc:  # a game that cannot go on (1946 rules): the deal is left out, both sides of it
                print(f"charleston: deal {seed}/{n} left out: {exc}", file=sys.stderr)
            done += 1
            if progress is not None:
                progress(done, total)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95% confidence interval (normal approximation)."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        """The mean of ``values`` and its 95% interval."""
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(var / n)
        return cls(round(mean, 4), round(mean - half, 4), round(mean + half, 4))

    def text(self, scale: float = 1.0, digits: int = 1, unit: str = "") -> str:
        """``+1.2 (95% CI -0.3..+2.7)``, each figure multiplied by ``scale``."""
        return (f"{self.mean * scale:+.{digits}f}{unit} (95% CI {self.low * scale:+.{digits}f}.."
                f"{self.high * scale:+.{digits}f}{unit})")


def summarise(deals: Sequence[PairedDeal], candidate: str, baseline: str) -> dict[str, object]:
    """The paired differences (candidate minus baseline, deal by deal) and each side's own rates."""
    if not deals:
        raise ValueError("no deals to summarise")

    def side(pick: Callable[[PairedDeal], SeatResult]) -> dict[str, object]:
        return {
            "chips_per_game": asdict(Estimate.of([pick(d).chips for d in deals])),
            "wins": asdict(Estimate.of([float(pick(d).won) for d in deals])),
            "threw": asdict(Estimate.of([float(pick(d).threw) for d in deals])),
            "wall_games": asdict(Estimate.of([float(pick(d).wall) for d in deals])),
        }

    def diff(field: str) -> dict[str, float]:
        values = [float(getattr(d.candidate, field)) - float(getattr(d.baseline, field)) for d in deals]
        return asdict(Estimate.of(values))

    seconds = sorted(d.candidate_seconds for d in deals)
    return {
        "candidate": candidate,
        "baseline": baseline,
        "deals": len(deals),
        "seeds": sorted({d.seed for d in deals}),
        "difference": {"chips_per_game": diff("chips"), "wins": diff("won"), "threw": diff("threw"),
                       "wall_games": diff("wall")},
        "candidate_side": side(lambda d: d.candidate),
        "baseline_side": side(lambda d: d.baseline),
        "candidate_game_seconds_median": seconds[len(seconds) // 2],
    }


def report_lines(summary: dict[str, object]) -> list[str]:
    """The summary as a few lines of text, the chips difference first (the headline)."""
    diff = summary["difference"]
    cand, base = summary["candidate_side"], summary["baseline_side"]
    assert isinstance(diff, dict) and isinstance(cand, dict) and isinstance(base, dict)

    def est(data: dict[str, float]) -> Estimate:
        return Estimate(data["mean"], data["low"], data["high"])

    def rate(data: dict[str, float]) -> str:
        return f"{data['mean']:.1%}"

    seeds = summary["seeds"]
    assert isinstance(seeds, list)
    return [
        f"{summary['candidate']} against {summary['baseline']}, paired over {summary['deals']} deals "
        f"(seeds {', '.join(str(s) for s in seeds)})",
        f"  chips a game: {est(diff['chips_per_game']).text()}",
        f"  wins: {est(diff['wins']).text(100, 1, ' pts')} ({summary['candidate']} {rate(cand['wins'])}, "
        f"{summary['baseline']} {rate(base['wins'])} in the same seats)",
        f"  threw the winning tile: {est(diff['threw']).text(100, 1, ' pts')} ({rate(cand['threw'])} against "
        f"{rate(base['threw'])})",
        f"  wall games: {est(diff['wall_games']).text(100, 1, ' pts')} ({rate(cand['wall_games'])} against "
        f"{rate(base['wall_games'])})",
    ]


def versus(first: Sequence[PairedDeal], second: Sequence[PairedDeal]) -> dict[str, object]:
    """Two candidates recorded against the same baseline, compared on the deals both played: the first's
    chips and wins minus the second's, deal by deal."""
    theirs = {(d.seed, d.game): d for d in second}
    common = [(d, theirs[(d.seed, d.game)]) for d in first if (d.seed, d.game) in theirs]
    if not common:
        raise ValueError("the two records share no deal")
    return {
        "first": first[0].levels[0], "second": second[0].levels[0], "deals": len(common),
        "chips_per_game": asdict(Estimate.of([a.candidate.chips - b.candidate.chips for a, b in common])),
        "wins": asdict(Estimate.of([float(a.candidate.won) - float(b.candidate.won) for a, b in common])),
    }


def read_deals(paths: Sequence[Path]) -> list[PairedDeal]:
    """Deals recorded with ``--jsonl``, from one or more files (later copies of the same deal are dropped)."""
    seen: dict[tuple[tuple[str, str], int, int], PairedDeal] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                deal = PairedDeal.from_json(json.loads(line))
                seen.setdefault((deal.levels, deal.seed, deal.game), deal)
    return list(seen.values())
