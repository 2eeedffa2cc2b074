"""Rendering speed and PNG size for every image the bot sends.

    python benchmarks/bench_render.py [--rounds 200]

Each image is rendered once to warm the tile-face cache (the bot renders the same faces all day), then
``--rounds`` times, each call timed on its own; the figures are the median and 95th percentile. The cold figure
is the first rack of a fresh process (faces drawn from scratch). Goals: rack <= 15 ms and <= 150 KB, table
<= 40 ms and <= 300 KB.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from bot.engine.notation import parse_groups
from bot.engine.replay import replay
from bot.engine.views import public_view
from bot.service.cards import load_card
from renderers import (
    Rendered,
    render_card,
    render_card_pages,
    render_proof_pages,
    render_rack,
    render_table,
    render_weekly,
    samples,
)
from renderers.tiles import tile_face

GOALS = {"rack": (15.0, 150), "rack (13 + drawn)": (15.0, 150), "table": (40.0, 300),
         "table (100 discards)": (40.0, 300), "table (the end)": (40.0, 300)}


class Row:
    def __init__(self, player_id: int, name: str, net: int) -> None:
        self.player_id, self.name, self.net, self.games, self.wins = player_id, name, net, 6, 2


def measure(make: Callable[[], Rendered], rounds: int) -> tuple[float, float, Rendered]:
    image = make()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        make()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1], image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()

    started = time.perf_counter()
    render_rack(*samples.rack())
    cold = (time.perf_counter() - started) * 1000

    view = samples.table()
    crowded = samples.table(discards=(view.discards * 2)[:100], wall=0)
    card = load_card("practice")
    ended = json.loads((Path(__file__).resolve().parent.parent / "docs" / "examples" / "mahjong-on-a-discard.json")
                       .read_text(encoding="utf-8"))
    finished = public_view(replay(ended, card).game)
    winning = parse_groups("GD GD; 2B 2B 2B 2B; 8B 8B; 4C 4C J; 6C 6C 6C")
    rows = [Row(k, name, net) for k, (name, net) in
            enumerate([("Ruth", 84), ("Sadie", 31), ("Ida", 0), ("Dorothy", -40), ("Edna", -75)])]
    cases: dict[str, Callable[[], Rendered]] = {
        "rack": lambda: render_rack(*samples.rack()),
        "rack (13 + drawn)": lambda: render_rack(*samples.full_rack()),
        "table": lambda: render_table(view, samples.NAMES),
        "table (100 discards)": lambda: render_table(crowded, samples.NAMES),
        "table (the end)": lambda: render_table(finished, samples.NAMES, card=card),
        "card section": lambda: render_card(card, section="2468"),
        "card line + tiles": lambda: render_card(card, line_id="2468-1", tiles=winning),
        "standings (5 players)": lambda: render_weekly("week of 23 Nov 2026", rows),
    }
    print(f"machine: {platform.machine()}, {platform.processor() or '?'}, {platform.python_implementation()} "
          f"{platform.python_version()}, Pillow {__import__('PIL').__version__}")
    print(f"first rack, cold face cache: {cold:.1f} ms ({tile_face.cache_info().currsize} faces drawn)")
    print(f"{'image':<22} {'size':>9} {'median':>9} {'p95':>9} {'PNG':>9}  goal")
    failed = False
    for label, make in cases.items():
        median, p95, image = measure(make, args.rounds)
        kb = len(image.png) / 1024
        goal = GOALS.get(label)
        verdict = ""
        if goal:
            ok = median <= goal[0] and kb <= goal[1]
            failed |= not ok
            verdict = f"<= {goal[0]:.0f} ms, <= {goal[1]} KB: {'ok' if ok else 'MISSED'}"
        print(f"{label:<22} {image.width:>4}x{image.height:<4} {median:>6.1f} ms {p95:>6.1f} ms {kb:>6.1f} KB  "
              f"{verdict}")
    started = time.perf_counter()
    pages = render_card_pages(card)
    took = (time.perf_counter() - started) * 1000
    tallest, size = max(p.height for p in pages), sum(len(p.png) for p in pages) / 1024
    print(f"whole card as pages: {len(pages)} pages, at most 824x{tallest}, {size:.0f} KB in all, {took:.0f} ms")
    started = time.perf_counter()
    proof = render_proof_pages(card)  # issue 29: the proof sheet, a page per section
    took = (time.perf_counter() - started) * 1000
    tallest, size = max(p.height for p in proof), sum(len(p.png) for p in proof) / 1024
    print(f"proof sheet: {len(proof)} pages, at most 720x{tallest}, {size:.0f} KB in all, {took:.0f} ms")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
