"""``charleston train``: rebuild the learned player's model from self-play (see :mod:`bot.cli.training`)."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.ai.learned import Exploration
from bot.ai.model import MODEL_PATH, Model, normal_like
from bot.cli.common import WRITE_HELP, UsageProblem, count, file_path, output_file, seed
from bot.cli.training import save_decisions, train
from bot.engine.rules import PRESETS

TRAINED_PRESETS = ("nmjl", "nmjl-1946")  # the card games (the classical game has its own player)


def register(commands: Any) -> None:
    """Add `charleston train` to the command line."""
    p = commands.add_parser("train", help="rebuild the learned computer player's model from self-play",
                            description="Play rounds of self-play games between learned players that now and "
                            "then pick at random among their best few choices, fit each kind of decision's "
                            "effect on the game's chips, and write the model. Run it under nice: it keeps "
                            "--workers cores busy for a while.")
    p.add_argument("--rules", default="nmjl,nmjl-1946", metavar="PRESET[,...]",
                   help=f"the presets to train, each on its own card: {', '.join(TRAINED_PRESETS)}")
    p.add_argument("--rounds", type=count(1, 100), default=3, metavar="N",
                   help="rounds of self-play and fitting (default 3)")
    p.add_argument("--games", type=count(1, 10_000_000), default=4000, metavar="N", help="games a round")
    p.add_argument("--seed", type=seed, default=60_001, metavar="S", help="round r plays seed S + r")
    p.add_argument("--workers", type=count(1, 64), default=2, metavar="N", help="processes playing games")
    p.add_argument("--epsilon", type=float, default=0.25, help="chance a decision is picked at random")
    p.add_argument("--top", type=count(2, 10), default=3, metavar="N", help="...among this many of the best")
    p.add_argument("--vote-explore", type=float, default=0.15, help="chance the stop vote is picked at random")
    p.add_argument("--out", type=file_path, default=str(MODEL_PATH), metavar="FILE",
                   help=f"the model file to write (default: {MODEL_PATH.relative_to(MODEL_PATH.parents[2])}, the "
                   f"shipped model, which it replaces: give another file to keep it; {WRITE_HELP})")
    p.add_argument("--data", type=file_path, default=None, metavar="FILE",
                   help="also write every recorded decision to FILE (.npz), for looking at the fits")
    p.set_defaults(run=run_train)


def run_train(args: argparse.Namespace) -> int:
    """`train`: the rounds of self-play and fits, one preset after the other; writes the model file."""
    presets = [p.strip() for p in args.rules.split(",") if p.strip()]
    for preset in presets:
        if preset not in TRAINED_PRESETS:
            why = "the classical game has its own player" if preset in PRESETS else "unknown preset"
            raise UsageProblem(f"--rules: cannot train '{preset}' ({why}): choose from {', '.join(TRAINED_PRESETS)}")
    for name, value in (("--epsilon", args.epsilon), ("--vote-explore", args.vote_explore)):
        if not 0.0 <= value <= 1.0:
            raise UsageProblem(f"{name} must be between 0 and 1 (got {value})")
    out = output_file(args.out, "--out")
    explore = Exploration(args.epsilon, args.top, args.vote_explore)

    def say(line: str) -> None:
        print(line, flush=True)

    model = _start(out, presets)
    for preset in presets:
        say(f"training {preset}: {args.rounds} rounds of {args.games} games, seeds {args.seed}..."
            f"{args.seed + args.rounds - 1}, {args.workers} workers")
        started = time.perf_counter()
        model, data = train(preset, model, args.rounds, args.games, args.seed, args.workers, explore, say,
                            progress=_progress(say))
        if args.data:
            save_decisions(data, Path(f"{args.data}.{preset}.npz"))
        seconds = round(time.perf_counter() - started)
        info = dict(model.info)
        trained = info.get(preset)
        info[preset] = {**(trained if isinstance(trained, dict) else {}), "command": _command(args, preset),
                        "seconds": seconds}
        model = Model(model.weights, info)
        try:
            model.save(out)  # after each preset, so a later failure keeps what is done
        except OSError as exc:
            raise UsageProblem(f"cannot write {out}: {exc.strerror or exc}") from None
        say(f"wrote {preset}'s model to {out} after {seconds} s")
    say(json.dumps({"presets": sorted(model.weights)}))
    return 0


def _start(out: Path, presets: list[str]) -> Model:
    """The model training starts from: normal's measure for the presets trained, and whatever ``out`` already
    holds for the others (each preset is trained on its own, so they can be rebuilt one at a time)."""
    start = normal_like(tuple(presets))
    try:
        kept = Model.from_json(json.loads(out.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return start
    weights = {p: w for p, w in kept.weights.items() if p not in presets}
    info = {k: v for k, v in kept.info.items() if k not in presets}
    return Model({**weights, **start.weights}, info)


def _progress(say: Callable[[str], None]) -> Callable[[int, int], None]:
    """Report a round's games at each tenth (for a log that is polled)."""
    def report(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            say(f"  {done}/{total} games")
    return report


def _command(args: argparse.Namespace, preset: str) -> str:
    """The command line that rebuilds a preset's part of the model (the number of workers changes nothing but
    the time)."""
    return (f"charleston train --rules {preset} --rounds {args.rounds} --games {args.games} --seed {args.seed} "
            f"--epsilon {args.epsilon} --top {args.top} --vote-explore {args.vote_explore}")
