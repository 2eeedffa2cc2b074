"""How fast the engine answers what a computer player asks: legal actions for a seat, a seat's view, and whole
games between four hard players (hard: the card reader that was the normal level before the ladder).

    python benchmarks/bench_legal.py [--games 60] [--seed 1] [--card practice]

Goals on the project's machine (issue 16, the simulator search needs): legal actions for a seat >= 30,000 a
second over the positions of real games, and hard x4 >= 15 complete games a second on one core.

Legal actions are timed for every seat at every position of hard x4 games (the Charleston, the turns, the
call windows), and reported for the seats whose move the table awaits (what a player asks) and for any seat;
then the games' own speed is timed separately.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from bot.ai.selfplay import computer_move, play_game
from bot.cli.simulate import game_seed_for
from bot.engine.actions import TABLE, CloseWindow
from bot.engine.game import Game
from bot.engine.legal import legal_actions
from bot.engine.rules import rules_for_card
from bot.engine.state import Phase
from bot.engine.views import seat_view, waiting_for
from bot.service.cards import load_card


def main() -> None:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--card", default="practice")
    args = parser.parse_args()
    card = load_card(args.card)
    rules = rules_for_card(card)
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}; "
          f"card {card.id}")

    legal_calls = [0, 0]  # [a seat the table waits for, any seat]
    legal_time = [0.0, 0.0]
    view_calls = 0
    view_time = 0.0
    for n in range(args.games):
        game, _ = Game.new(card, rules, game_seed_for(args.seed, n), east=n % 4)
        while game.state.phase != Phase.FINISHED:
            waiting = waiting_for(game)
            for seat in range(4):
                started = time.perf_counter()
                legal_actions(game, seat)
                elapsed = time.perf_counter() - started
                for kind in (0, 1) if seat in waiting else (1,):
                    legal_time[kind] += elapsed
                    legal_calls[kind] += 1
            if not waiting:
                game.apply(CloseWindow(TABLE))
                continue
            started = time.perf_counter()
            seat_view(game, waiting[0])
            view_time += time.perf_counter() - started
            view_calls += 1
            game.apply(computer_move("hard", game, waiting[0]))
    print(f"legal actions for a seat whose move is awaited: {legal_calls[0] / legal_time[0]:,.0f} a second over "
          f"{legal_calls[0]:,} positions (goal >= 30,000)")
    print(f"legal actions for any seat (those not asked answer at once): {legal_calls[1] / legal_time[1]:,.0f} "
          f"a second over {legal_calls[1]:,}")
    print(f"a seat's view (legal actions included): {view_calls / view_time:,.0f} a second")

    rates = []
    for _ in range(3):
        started = time.perf_counter()
        for n in range(args.games):
            game, _ = Game.new(card, rules, game_seed_for(args.seed, n), east=n % 4)
            play_game(game, ["hard"] * 4)
        rates.append(args.games / (time.perf_counter() - started))
    print(f"hard x4: {statistics.median(rates):.1f} complete games a second (median of 3 runs of {args.games}; "
          f"goal >= 15)")


if __name__ == "__main__":
    main()
