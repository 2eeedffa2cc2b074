"""Median time of one full-card ``analyze`` and one ``check``, on both shipped cards.

    python benchmarks/bench_matching.py [--racks 2000] [--seed 1]

Racks are dealt from a shuffled set (13 tiles for analyze, as a player holds between turns; 14 for check),
plus, for check, one winning rack per variant sampled from the card, so both the common "no" and the
"yes, on this line" paths are timed. Each call is timed on its own; the card is compiled before timing.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence

from bot.engine.analysis import analyze
from bot.engine.card import Card
from bot.engine.matching import check
from bot.service.cards import load_card


def dealt_racks(card: Card, count: int, size: int, rng: random.Random) -> list[list[int]]:
    wall = card.tile_set.tiles()
    return [rng.sample(wall, size) for _ in range(count)]


def winning_racks(card: Card, count: int, rng: random.Random) -> list[list[int]]:
    """A rack per sampled variant: its groups laid out, with wilds where naturals run out."""
    racks = []
    variants = [v for line in card.lines for v in line.variants]
    for variant in rng.sample(variants, min(count, len(variants))):
        rack = []
        for tile, size in variant.groups:
            naturals = min(size, card.tile_set.counts[tile] - rack.count(tile))
            rack += [tile] * naturals + [card.wild] * (size - naturals)
        racks.append(rack)
    return racks


def median_us(call: Callable[[Sequence[int]], object], racks: list[list[int]], rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        for rack in racks:
            start = time.perf_counter_ns()
            call(rack)
            times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--racks", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.platform()}")
    for card_id in ("practice", "nmjl-1946"):
        card = load_card(card_id)
        card.index  # compile before timing  # noqa: B018
        rng = random.Random(args.seed)
        hands13 = dealt_racks(card, args.racks, 13, rng)
        hands14 = dealt_racks(card, args.racks, 14, rng)
        wins = winning_racks(card, args.racks, rng)
        analyze_us = median_us(lambda rack, c=card: analyze(c, rack), hands13)
        analyze_need_us = median_us(lambda rack, c=card: [a.need for a in analyze(c, rack)], hands13[:500])
        check_us = median_us(lambda rack, c=card: check(c, rack), hands14 + wins)
        check_win_us = median_us(lambda rack, c=card: check(c, rack), wins)
        print(f"{card_id:<10} lines {len(card.lines):>3}  variants {card.variant_count:>4}  "
              f"analyze {analyze_us:6.1f} us  (with every line's need: {analyze_need_us:6.1f} us)  "
              f"check {check_us:5.1f} us  (winning racks only: {check_win_us:5.1f} us)")


if __name__ == "__main__":
    main()
