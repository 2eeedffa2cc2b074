"""Computer-player strength and speed, through the real engine.

    python benchmarks/bench_ai.py [--games 400] [--seed 1] [--suite all|mahjong|vs-random|speed|decision-speed]
                                  [--rules nmjl|nmjl-1946|classical]

Suites (each figure is over seeded games, East rotating). ``hard`` is the strongest level, the card reader at
normal's settings (the player that was the ``normal`` level before the ladder: the same decisions, so its older
figures carry over):
  mahjong         hard x4 on the practice card: share of games ending in Mah Jongg (goal >= 85%)
  vs-random       one hard against three random: share of games hard wins (goal >= 70%)
  speed           hard x4: complete games per second on one core (goal >= 10) and the median time of one
                  decision (goal <= 20 ms)
  decision-speed  one hard (then one learned, then one hard-search) against three hard: the time of each of its
                  decisions, median and p99 (goal: median <= 50 ms, p99 <= 300 ms; a Discord table paces moves
                  at ~1.5 s)

Strength between levels is measured paired, deal by deal, with ``charleston paired`` (docs/computer-players.md).

With ``--rules classical`` every suite plays the classical game (four sets and a pair, no card); its goals are
Mah Jongg in >= 70% of hard x4 games and hard winning >= 70% against three random.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial

from bot.ai import selfplay
from bot.cli.simulate import SimulationResult
from bot.cli.simulate import simulate as simulate_with
from bot.engine.actions import Action
from bot.engine.game import Game
from bot.engine.rules import table_rules
from bot.service.cards import load_card


def report(title: str, result: SimulationResult, seat: int | None = None) -> None:
    line = (f"{title}: {result.games} games, Mah Jongg {result.mahjong / result.games:.1%}, "
            f"wins by seat {result.wins_by_seat}, {result.games_per_sec:.1f} games/s")
    if seat is not None:
        line += f", seat {seat} wins {result.wins_by_seat[seat] / result.games:.1%}"
    print(line, flush=True)


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def decision_times(level: str, games: int, seed: int, simulate: Callable[..., SimulationResult]) -> list[float]:
    """Seconds each decision of seat 0 took, ``level`` in seat 0 against three hard."""
    times: list[float] = []
    original = selfplay.computer_move

    def timed(seat_level: str, game: Game, seat: int) -> Action:
        started = time.perf_counter()
        action = original(seat_level, game, seat)
        if seat == 0:
            times.append(time.perf_counter() - started)
        return action

    selfplay.computer_move = timed  # play_game looks the function up on the module at each move
    try:
        simulate(games, seed, [level, "hard", "hard", "hard"])
    finally:
        selfplay.computer_move = original
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--suite", default="all", choices=["all", "mahjong", "vs-random", "speed", "decision-speed"])
    parser.add_argument("--rules", default="nmjl", choices=["nmjl", "nmjl-1946", "classical"])
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}; "
          f"rules {args.rules}")
    rules = table_rules(args.rules)
    simulate = partial(simulate_with, card=load_card(rules.card), rules=rules)
    suites = ["mahjong", "vs-random", "speed"] if args.suite == "all" else [args.suite]
    if "mahjong" in suites:
        report("hard x4", simulate(args.games, args.seed, ["hard"] * 4))
    if "vs-random" in suites:
        # The strong seat moves round the table with East rotating, so seat advantage evens out.
        report("hard vs 3 random", simulate(args.games, args.seed, ["hard", "random", "random", "random"]), 0)
    if "decision-speed" in suites:
        for level in ("hard", "learned", "hard-search"):
            times = decision_times(level, max(20, args.games // 4), args.seed, simulate)
            print(f"{level} decisions: {len(times)} over {max(20, args.games // 4)} games against three hard; "
                  f"median {statistics.median(times) * 1e3:.2f} ms, p99 {percentile(times, 0.99) * 1e3:.1f} ms, "
                  f"max {max(times) * 1e3:.1f} ms")
    if "speed" in suites:
        timings: list[float] = []
        started = time.perf_counter()
        result = simulate(max(20, args.games // 4), args.seed, ["hard"] * 4, decision_times=timings)
        elapsed = time.perf_counter() - started
        p99 = sorted(timings)[int(len(timings) * 0.99)]
        print(f"speed: {result.games / elapsed:.1f} hard x4 games/s; one hard decision: median "
              f"{statistics.median(timings) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms")

if __name__ == "__main__":
    main()
