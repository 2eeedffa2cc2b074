"""Median time of one full-card ``analyze`` and one ``check``, on both shipped cards and on the practice card with
one made-up line of 1,008 variants added (issue 29: a line's alternatives have no fixed cap); and of the classical
game's Mah Jongg check (four sets and a pair, no card).

    python benchmarks/bench_matching.py [--racks 2000] [--seed 1] [--runs 1]

Racks are dealt from a shuffled set (13 tiles for analyze, as a player holds between turns; 14 for check),
plus, for check, one winning rack per variant sampled from the card, so both the common "no" and the
"yes, on this line" paths are timed. Each call is timed on its own; the card is compiled before timing.

Classical: the check the referee makes (``bot.engine.classical.complete``: the seat's rack with the discard
it would take, against its exposures) on dealt racks and on as many random winning hands, and the same for
winning hands with two sets exposed; the first timing round fills the per-group tables the check keeps, as
a table does in its first few turns. ``shanten`` (13 tiles) and ``arrange`` (the layout of a win) are shown
beside it.
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
from bot.engine.cardfile import load_card_text
from bot.engine.classical import complete
from bot.engine.matching import check
from bot.engine.sets import arrange, shanten
from bot.engine.state import Exposure, Seat
from bot.engine.tiles import CLASSICAL, Tile
from bot.service.cards import DEFAULT_CARDS_DIR, load_card


def long_line_card() -> Card:
    """The practice card plus one made-up line printed with "or" 42 times (any wind, a kong of one number and a
    pung of another in two suits): 42 alternatives x 4 winds x 6 suit pairs = 1,008 variants in one line."""
    pairs = [(i, j) for i in range(1, 10) for j in range(1, 10) if i != j][:42]
    alternatives = ", ".join(f'"ZZZ {str(i) * 4}a NN {str(j) * 3}b FF"' for i, j in pairs)
    practice = (DEFAULT_CARDS_DIR / "practice.toml").read_text(encoding="utf-8")
    line = (f'\n[[hand]]\nid = "long-1"\nsection = "Long"\npattern = [{alternatives}]\nexposed = true\n'
            'value = 30\nnote = "any wind, a kong and a pung of two numbers in 2 suits"\n')
    return load_card_text(practice.replace('id = "practice"', 'id = "practice-long"', 1) + line)


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
    parser.add_argument("--runs", type=int, default=1, help="repeat the card figures, the cards taking turns")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.platform()}")
    cards = [load_card("practice"), load_card("nmjl-1946"), long_line_card()]
    for _ in range(args.runs):
        for card in cards:
            card_figures(card, args.racks, args.seed)
    classical_figures(args.racks, random.Random(args.seed))


def card_figures(card: Card, count: int, seed: int) -> None:
    card.index  # compile before timing  # noqa: B018
    rng = random.Random(seed)
    hands13 = dealt_racks(card, count, 13, rng)
    hands14 = dealt_racks(card, count, 14, rng)
    wins = winning_racks(card, count, rng)
    analyze_us = median_us(lambda rack: analyze(card, rack), hands13)
    analyze_need_us = median_us(lambda rack: [a.need for a in analyze(card, rack)], hands13[:500])
    check_us = median_us(lambda rack: check(card, rack), hands14 + wins)
    check_win_us = median_us(lambda rack: check(card, rack), wins)
    print(f"{card.id:<13} lines {len(card.lines):>3}  variants {card.variant_count:>4}  "
          f"analyze {analyze_us:6.1f} us  (with every line's need: {analyze_need_us:6.1f} us)  "
          f"check {check_us:5.1f} us  (winning racks only: {check_win_us:5.1f} us)", flush=True)


def classical_win(rng: random.Random, exposed: int = 0) -> tuple[list[int], list[list[int]]]:
    """A random four sets and a pair from the classical set: (concealed tiles, exposed sets)."""
    while True:
        left = list(CLASSICAL.counts)
        groups: list[list[int]] = []
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                group = [start, start + 1, start + 2]
            else:
                group = [rng.randrange(Tile.WD + 1)] * 3
            groups.append(group)
        pair = [rng.randrange(Tile.WD + 1)] * 2
        for tile in [t for g in groups for t in g] + pair:
            left[tile] -= 1
        if min(left) >= 0:
            concealed = [t for g in groups[exposed:] for t in g] + pair
            rng.shuffle(concealed)
            return concealed, groups[:exposed]


def seat_of(concealed: list[int], exposures: list[list[int]]) -> tuple[Seat, int]:
    """A seat holding all but the last concealed tile, and that tile (the discard it would call)."""
    return Seat(concealed[:-1], [Exposure(e[0], e, 0) for e in exposures]), concealed[-1]


def classical_figures(count: int, rng: random.Random) -> None:
    dealt = dealt_racks(load_card("classical"), count, 14, rng)
    wins = [classical_win(rng) for _ in range(count)]
    wins_exposed = [classical_win(rng, exposed=2) for _ in range(count)]
    seats = [seat_of(rack, []) for rack in dealt] + [seat_of(c, e) for c, e in wins]
    check_us = median_us(lambda s: complete(*s), seats)  # type: ignore[arg-type, misc]
    win_us = median_us(lambda s: complete(*s), [seat_of(c, e) for c, e in wins])  # type: ignore[arg-type, misc]
    exposed_us = median_us(lambda s: complete(*s), [seat_of(c, e) for c, e in wins_exposed])  # type: ignore[arg-type, misc]
    shanten_us = median_us(shanten, [rack[:13] for rack in dealt])
    arrange_us = median_us(arrange, [c for c, _ in wins])
    print(f"{'classical':<10} Mah Jongg check {check_us:5.1f} us  (winning hands only: {win_us:5.1f} us; "
          f"with two sets exposed: {exposed_us:5.1f} us)  shanten {shanten_us:5.1f} us  arrange {arrange_us:5.1f} us")


if __name__ == "__main__":
    main()
