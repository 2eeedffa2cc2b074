"""Training the learned player (:mod:`bot.ai.learned`) from self-play: ``charleston train``.

A round plays games between four learned players through the real engine. Each decision is, with chance
``epsilon``, picked uniformly among the player's best few candidates (as the current model ranks them), and
every decision is recorded with the inputs of those candidates and the game's chips for the seat.

Fitting, per kind of decision (:data:`~bot.ai.model.GROUPS`):

1. a *baseline*: the seat's chips predicted from the inputs of the best candidate, by least squares over every
   decision (explored or not). It is fixed before the choice, so it takes none of the choice's effect; it only
   takes away much of the luck that follows.
2. the *effect*: over the explored decisions, what the chips left over (chips less the baseline) gain with the
   chosen candidate's inputs less the average of the candidates it was drawn from. The choice was random, so
   the deal's luck is independent of it: the slope is the choice's effect on the chips, not an imitation of
   the player that made it. This slope (ridge least squares) is the new model's weights.

The next round is played with the new model, and each fit pools every round so far. Everything is seeded:
the same command writes the same model.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from bot.ai.learned import Exploration, LearnedStrategy
from bot.ai.model import GROUPS, Model, input_names
from bot.ai.outlook import FloatArray
from bot.ai.selfplay import decision_seed, seats_to_move
from bot.cli.simulate import game_seed_for
from bot.engine.game import Game
from bot.engine.payouts import net_chips
from bot.engine.rules import table_rules
from bot.engine.views import seat_view
from bot.service.cards import load_card

RIDGE = 1e5  # ridge penalty on the standardised inputs (chosen on held-out games: docs/computer-players.md)


@dataclass
class Decisions:
    """The decisions of one kind recorded in self-play: per decision, the best candidate's inputs and, when the
    choice was random, the candidates it was drawn from and the position picked; and the game and the seat's
    chips in it."""

    best: list[FloatArray] = field(default_factory=list)
    candidates: list[FloatArray | None] = field(default_factory=list)
    pick: list[int] = field(default_factory=list)
    game: list[int] = field(default_factory=list)
    chips: list[float] = field(default_factory=list)

    def extend(self, other: Decisions) -> None:
        """Add another batch's decisions."""
        self.best += other.best
        self.candidates += other.candidates
        self.pick += other.pick
        self.game += other.game
        self.chips += other.chips

    def subset(self, keep: Sequence[bool]) -> Decisions:
        """The decisions where ``keep`` is true."""
        out = Decisions()
        for name in ("best", "candidates", "pick", "game", "chips"):
            setattr(out, name, [v for v, k in zip(getattr(self, name), keep, strict=True) if k])
        return out

    @property
    def explored(self) -> int:
        """How many decisions were picked at random."""
        return sum(c is not None for c in self.candidates)


def play_training_game(model: Model, explore: Exploration, preset: str, seed: int, game_no: int
                       ) -> dict[str, Decisions]:
    """One self-play game of four learned players exploring; its decisions by group, with the chips."""
    rules = table_rules(preset)
    card = load_card(rules.card)
    game, _ = Game.new(card, rules, game_seed_for(seed, game_no), east=game_no % 4)
    pending: list[tuple[int, str, FloatArray, int, bool]] = []
    for seat in seats_to_move(game):
        rng = random.Random(decision_seed(game, seat))

        def record(group: str, top: FloatArray, pick: int, explored: bool, seat: int = seat) -> None:
            pending.append((seat, group, top, pick, explored))

        strategy = LearnedStrategy(rng, model, explore, record)
        view = seat_view(game, seat)
        if not view.legal:  # a seat with no move at all (the engine's gap, see leaves_a_discard): drop the game
            return {g: Decisions() for g in GROUPS}
        game.apply(strategy.decide(view))
    chips = net_chips(game.state)
    out = {g: Decisions() for g in GROUPS}
    for seat, group, top, pick, explored in pending:
        d = out[group]
        d.best.append(top[0])
        d.candidates.append(top if explored else None)
        d.pick.append(pick)
        d.game.append(game_no)
        d.chips.append(float(chips[seat]))
    return out


def _play(job: tuple[Model, Exploration, str, int, int]) -> dict[str, Decisions]:
    return play_training_game(*job)


def play_round(model: Model, explore: Exploration, preset: str, seed: int, games: int, workers: int,
               progress: Callable[[int, int], None] | None = None) -> dict[str, Decisions]:
    """``games`` self-play games (game n dealt as ``charleston simulate --seed SEED`` deals it), on ``workers``
    processes."""
    data = {g: Decisions() for g in GROUPS}
    jobs = [(model, explore, preset, seed, n) for n in range(games)]
    results: Iterator[dict[str, Decisions]]
    if workers > 1:
        with get_context("spawn").Pool(workers) as pool:
            results = pool.imap(_play, jobs, chunksize=8)
            _collect(results, data, games, progress)
    else:
        _collect(map(_play, jobs), data, games, progress)
    return data


def _collect(results: Iterator[dict[str, Decisions]], data: dict[str, Decisions], games: int,
             progress: Callable[[int, int], None] | None) -> None:
    for done, result in enumerate(results, 1):
        for group, decisions in result.items():
            data[group].extend(decisions)
        if progress is not None:
            progress(done, games)


def ridge(x: FloatArray, y: FloatArray, penalty: float, intercept: bool) -> tuple[FloatArray, float]:
    """Least squares of ``y`` on ``x`` with a ridge penalty on the standardised columns: ``(weights, bias)``."""
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = x / scale
    if intercept:
        mean_x, mean_y = xs.mean(axis=0), float(y.mean())
        xs, y = xs - mean_x, y - mean_y
    gram = xs.T @ xs + penalty * np.eye(xs.shape[1])
    w = np.linalg.solve(gram, xs.T @ y)
    weights = w / scale
    bias = mean_y - float(mean_x @ w) if intercept else 0.0
    return weights, bias


@dataclass(frozen=True)
class GroupFit:
    """One group's fit: the effect weights, and what the fit saw."""

    weights: FloatArray
    decisions: int
    explored: int
    baseline_r2: float  # the share of the chips' variance the baseline explains


def _left_over(data: Decisions, penalty: float) -> tuple[FloatArray, FloatArray, float]:
    """The explored decisions' chips less the baseline, the explored mask, and the baseline's R²."""
    best = np.asarray(data.best)
    chips = np.asarray(data.chips)
    base_w, base_b = ridge(best, chips, penalty, intercept=True)
    predicted = best @ base_w + base_b
    r2 = 1.0 - float(((chips - predicted) ** 2).mean() / max(1e-9, float(chips.var())))
    explored = np.array([c is not None for c in data.candidates], dtype=bool)
    return (chips - predicted)[explored], explored, r2


def fit_group(data: Decisions, penalty: float = RIDGE) -> GroupFit | None:
    """The effect weights of one group (None if it has too few explored decisions to fit)."""
    if data.explored < 50:
        return None
    left, explored, r2 = _left_over(data, penalty)
    contrast = np.array([c[p] - c.mean(axis=0) for c, p in zip(data.candidates, data.pick, strict=True)
                         if c is not None])
    weights, _ = ridge(contrast, left, penalty, intercept=False)
    return GroupFit(weights, len(data.chips), int(explored.sum()), r2)


def pick_value(data: Decisions, weights: FloatArray | None, penalty: float = RIDGE) -> tuple[float, float, int]:
    """Over the explored decisions: how much more the seat's chips (less the baseline) were when the random pick
    fell on the candidate ``weights`` score best (None: the candidate ranked first when playing) than on
    average. The pick was uniform, so this estimates, without bias, what always playing that candidate gains
    over a random one of the best few, per decision: ``(gain, standard error, explored decisions)``."""
    left, _, _ = _left_over(data, penalty)
    cands = [(c, p) for c, p in zip(data.candidates, data.pick, strict=True) if c is not None]
    if len(cands) < 2:
        return 0.0, float("inf"), len(cands)
    hit = np.array([p == (0 if weights is None else int(np.argmax(c @ weights))) for c, p in cands])
    # chips when the pick was the favourite, less all explored: both means are over the same uniform draws.
    k = np.array([len(c) for c, _ in cands], dtype=np.float64)
    values = left * (hit * k - 1.0)  # E[left * (k * 1{hit} - 1)] = E[left | favourite] - E[left | uniform]
    return float(values.mean()), float(values.std() / np.sqrt(len(values))), len(values)


def cross_checked(data: Decisions, penalty: float = RIDGE) -> tuple[float, float]:
    """The fitted model's gain (as :func:`pick_value`) on games it was not fitted on: fitted on the even games,
    measured on the odd, and the other way round; ``(gain, standard error)``."""
    even = [g % 2 == 0 for g in data.game]
    odd = [not e for e in even]
    gains, errors = [], []
    for train_on, test_on in ((even, odd), (odd, even)):
        fitted = fit_group(data.subset(train_on), penalty)
        test = data.subset(test_on)
        if fitted is None or test.explored < 2:
            return 0.0, float("inf")
        gain, se, _ = pick_value(test, fitted.weights, penalty)
        gains.append(gain)
        errors.append(se)
    return float(np.mean(gains)), float(np.sqrt(errors[0] ** 2 + errors[1] ** 2) / 2)


def fit_model(data: dict[str, Decisions], previous: Model, preset: str, info: dict[str, object]) -> Model:
    """A new model for ``preset``: each group's effect weights (a group with too few explored decisions keeps
    the previous model's)."""
    weights = {p: dict(groups) for p, groups in previous.weights.items()}
    current = dict(previous.for_preset(preset))
    for group in GROUPS:
        fitted = fit_group(data[group])
        if fitted is not None:
            current[group] = fitted.weights
    weights[preset] = current
    return Model(weights, info)


def describe(model: Model, preset: str) -> list[str]:
    """The model's weights for a preset, one group a line, by input name."""
    lines = []
    for group in GROUPS:
        w = model.for_preset(preset)[group]
        pairs = ", ".join(f"{n} {v:+.3g}" for n, v in zip(input_names(group), w, strict=True))
        lines.append(f"{group}: {pairs}")
    return lines


def train(preset: str, start: Model, rounds: int, games: int, seed: int, workers: int, explore: Exploration,
          say: Callable[[str], None], progress: Callable[[int, int], None] | None = None
          ) -> tuple[Model, dict[str, Decisions]]:
    """``rounds`` rounds of ``games`` self-play games each (round r on seed ``seed + r``), refitting after each
    on every round so far. Returns the last model and the pooled decisions."""
    model = start
    pooled = {g: Decisions() for g in GROUPS}
    started = time.perf_counter()
    for r in range(rounds):
        round_seed = seed + r
        data = play_round(model, explore, preset, round_seed, games, workers, progress)
        for group in GROUPS:
            d = data[group]
            pooled[group].extend(d)
            if d.explored < 50:
                say(f"round {r + 1}, {group}: {len(d.chips)} decisions, {d.explored} explored: too few to judge")
                continue
            gain, se, _ = pick_value(d, None)
            fresh, fresh_se = cross_checked(pooled[group])
            say(f"round {r + 1}, {group}: {len(d.chips)} decisions, {d.explored} explored. Against a random one "
                f"of the best {explore.top}, per decision: the playing model's pick {gain:+.2f} chips (se "
                f"{se:.2f}); a model fitted on half the games so far, on the other half, {fresh:+.2f} (se "
                f"{fresh_se:.2f})")
        info = {"rounds": r + 1, "games_per_round": games, "seed": seed, "epsilon": explore.epsilon,
                "top": explore.top, "vote_explore": explore.vote, "seconds": round(time.perf_counter() - started)}
        model = fit_model(pooled, model, preset, {**start.info, preset: info})
        say(f"round {r + 1} fitted after {time.perf_counter() - started:.0f} s")
        for line in describe(model, preset):
            say("  " + line)
    return model, pooled


def save_decisions(data: dict[str, Decisions], path: Path) -> None:
    """Write recorded decisions to an ``.npz`` file (for looking at fits without playing again)."""
    arrays: dict[str, FloatArray] = {}
    for group, d in data.items():
        if not d.chips:
            continue
        arrays[f"{group}.best"] = np.asarray(d.best)
        arrays[f"{group}.pick"] = np.asarray(d.pick, dtype=np.float64)
        arrays[f"{group}.game"] = np.asarray(d.game, dtype=np.float64)
        arrays[f"{group}.chips"] = np.asarray(d.chips)
        width = max((len(c) for c in d.candidates if c is not None), default=0)
        padded = np.full((len(d.chips), width, d.best[0].shape[0]), np.nan)
        for n, c in enumerate(d.candidates):
            if c is not None:
                padded[n, :len(c)] = c
        arrays[f"{group}.candidates"] = padded
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def load_decisions(path: Path) -> dict[str, Decisions]:
    """Decisions written by :func:`save_decisions`."""
    out = {g: Decisions() for g in GROUPS}
    with np.load(path) as f:
        for group in GROUPS:
            if f"{group}.chips" not in f:
                continue
            d = out[group]
            d.best = list(f[f"{group}.best"])
            d.pick = [int(v) for v in f[f"{group}.pick"]]
            d.game = [int(v) for v in f[f"{group}.game"]]
            d.chips = [float(v) for v in f[f"{group}.chips"]]
            d.candidates = []
            for c in f[f"{group}.candidates"]:
                rows = c[~np.isnan(c).any(axis=1)] if c.size else c
                d.candidates.append(rows if len(rows) else None)
    return out
