"""Engine throughput under random legal play: actions applied per second, card checks included.

    python benchmarks/bench_engine.py [--games 200] [--seed 1] [--card practice]

Each step picks uniformly among every seat's legal actions (and sometimes lets the call window's timer run
out). Two figures: the engine alone (time inside ``Game.apply``: validation, exposures checked against the
card, Mah Jongg checks, dead-hand detection) and the whole loop including enumerating legal actions.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from bot.engine.actions import TABLE, CloseWindow
from bot.engine.game import Game
from bot.engine.legal import legal_actions
from bot.engine.rules import rules_for_card
from bot.engine.state import Phase
from bot.service.cards import load_card


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--card", default="practice")
    args = parser.parse_args()
    card = load_card(args.card)
    rules = rules_for_card(card)
    rng = random.Random(args.seed)
    applied = 0
    in_apply = 0.0
    started = time.perf_counter()
    outcomes: dict[str, int] = {}
    for n in range(args.games):
        game, _ = Game.new(card, rules, seed=args.seed * 100_000 + n)
        while game.state.phase != Phase.FINISHED:
            options = [a for seat in range(4) for a in legal_actions(game, seat)]
            if game.state.phase == Phase.CALL_WINDOW and rng.random() < 0.2:
                options.append(CloseWindow(TABLE))
            action = rng.choice(options)
            t = time.perf_counter()
            game.apply(action)
            in_apply += time.perf_counter() - t
            applied += 1
        assert game.state.result is not None
        outcomes[game.state.result.how] = outcomes.get(game.state.result.how, 0) + 1
    total = time.perf_counter() - started
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    print(f"card {card.id}: {args.games} games, {applied} actions, outcomes {outcomes}")
    print(f"engine alone: {applied / in_apply:,.0f} actions/s ({in_apply / applied * 1e6:.1f} us each)")
    print(f"with legal-action enumeration: {applied / total:,.0f} actions/s")


if __name__ == "__main__":
    main()
