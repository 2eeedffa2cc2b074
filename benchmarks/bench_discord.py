"""The Discord bot under load, over the offline Discord of the tests (tests/support/discord_double).

    python benchmarks/bench_discord.py [--tables 100] [--think 2] [--arrive 30] [--refresh 1.0] [--validate]
                                       [--global-limit 50]

--tables tables play at once in one bot process: at each, one scripted person (who plays like a `hard`
computer player, through the buttons and selects of her DM and the table message) and three computer players
(computer delay 0). The person takes --think seconds per move on average (jittered from half to one and a half
times that, as people do); --think 0 makes every person answer the instant her message shows, which measures
how far the bot can be pushed rather than how it feels. Every person opens her table with /table new, seats the
computers with the lobby's button, starts, and plays to the end. People arrive at random over the first --arrive
seconds (a club's evening does not open a hundred tables in the same second); --arrive 2 opens them all in a
burst. Reported:

- first-response latency: from each interaction's dispatch by Discord to the bot's first answer (the double
  timestamps both); goal p99 <= 300 ms (Discord allows 3 s); also split into the interactions made while tables
  were still opening and those once every table was playing;
- REST calls per game action: every request the bot made (messages, edits, DMs, answers) over every action
  applied at the tables, computers' included;
- rack DM render + send: from the moment a DM is due to the moment Discord has it (drawing the rack image,
  encoding it, uploading it); goal median <= 50 ms;
- the request budget: rate-limited requests per table a second, and the busiest second (any 1 s, sliding) against
  the process's pacer (cogs/pacer.py; --global-limit lowers its limit, to watch it hold a burst); goal <= 50;
- (--suite solo) the game's length, the median call window she could not use and nobody called (goal <= 0.5 s), a
  computer's call after its window opened (its delay), rate-limited requests per game action, image bytes per game.

The double runs in the same process and event loop as the bot, so its own work (HTTP, multipart, gateway) counts
against the bot: the figures are an upper bound. --validate also checks every request against Discord's OpenAPI
spec, as the tests do (CHARLESTON_DISCORD_SPEC or ../shared/discord-openapi.json); that checking is slower than
the bot itself, so it is off by default here.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import platform
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT), str(ROOT / "benchmarks")]

from discord_budget import budget, busiest_window, image_bytes, table_edits  # noqa: E402
from support.call_windows import Windows  # noqa: E402
from support.discord_double import DiscordDouble, Double, World, load_validator, spec_path  # noqa: E402
from support.game_driver import Driver, Person, make_bot  # noqa: E402

from bot.service.updates import TablePhase, TableUpdate  # noqa: E402


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else 0.0


@dataclass
class Timeline:
    """When each table was dealt and finished, and how long its call windows stood open (monotonic seconds)."""

    dealt: dict[int, float] = field(default_factory=dict)
    finished: dict[int, float] = field(default_factory=dict)
    window_opened: dict[int, float] = field(default_factory=dict)
    window_seconds: dict[int, float] = field(default_factory=dict)
    actions: dict[int, int] = field(default_factory=dict)
    turns: Counter[int] = field(default_factory=Counter)  # the discards of seat 0 (the person), by table

    def note(self, update: TableUpdate) -> None:
        """Follow one table's update."""
        now, table = time.monotonic(), update.table_id
        self.actions[table] = update.version
        self.turns[table] += sum(1 for e in update.events if e.type == "discard" and e.seat == 0)
        if update.phase is TablePhase.CHARLESTON and table not in self.dealt:
            self.dealt[table] = now
        opened = self.window_opened.pop(table, None)
        if opened is not None and update.phase is not TablePhase.CALL_WINDOW:
            self.window_seconds[table] = self.window_seconds.get(table, 0.0) + now - opened
        elif update.phase is TablePhase.CALL_WINDOW:
            self.window_opened[table] = opened if opened is not None else now
        if update.phase is TablePhase.FINISHED and table not in self.finished:
            self.finished[table] = now

    def spans(self) -> list[tuple[float, float]]:
        """Each finished table's (dealt, finished)."""
        return [(self.dealt[t], self.finished[t]) for t in self.finished if t in self.dealt]


async def run(tables: int, think: float, arrive: float, refresh: float, validate: bool, workers: int | None,
              delay: float, global_limit: int) -> None:
    validator = load_validator(str(spec_path())) if validate else None
    server = await DiscordDouble(World(), validator).start()
    double = Double(server)
    timeline = Timeline()
    with tempfile.TemporaryDirectory() as folder:
        bot = make_bot(double, Path(folder) / "bench.db", seeds=iter(range(1000, 1000 + tables)), refresh=refresh,
                       render_workers=workers, request_timeout=60.0,  # a loaded machine is slow, not failing
                       global_limit=global_limit)
        dm_times: list[float] = []
        drawing = f"drawing in {bot.drawing.workers or 'no'} worker process(es)"
        async with double.running(bot):
            bot.dms.timings = dm_times  # the DMs are built when the bot starts
            await double.wait_for_commands("table", timeout=30)
            bot.service.subscribe(timeline.note)
            people = [double.user(f"player{n}") for n in range(tables)]
            started = time.perf_counter()
            rng = random.Random(1)
            dealt: list[float] = []
            results = await asyncio.gather(*(_play(double, bot, person, think, arrive, rng, dealt, delay)
                                             for person in people),
                                           return_exceptions=True)
            elapsed = time.perf_counter() - started
            failures = [r for r in results if isinstance(r, BaseException)]
            actions = sum(t.version for t in bot.service.tables.values())
            finished = sum(1 for t in bot.service.tables.values() if t.game is not None and not t.playing)
        await server.close()
        waited, share = bot.pacer.waited, bot.pacer.per_second
    latency = double.world.latency_percentiles()
    calls = sum(double.world.rest_calls.values())
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}; "
          f"spec validation {'on' if validate else 'off'}; message refresh {refresh:g} s; "
          f"{drawing}")
    print(f"{tables} tables opened over {arrive:g} s (1 person taking {think:g} s a move + 3 computers moving after "
          f"{delay:g} s each): {finished} games finished in {elapsed:.0f} s; "
          f"{len(failures)} failed{': ' + repr(failures[0])[:200] if failures else ''}")
    print(f"first response: {latency['n']} interactions, p50 {latency['p50'] * 1e3:.0f} ms, "
          f"p99 {latency['p99'] * 1e3:.0f} ms (goal p99 <= 300 ms)")
    opening = [i.latency for i in double.world.interactions.values()
               if i.latency is not None and dealt and i.perf_at <= max(dealt)]
    playing = [i.latency for i in double.world.interactions.values()
               if i.latency is not None and dealt and i.perf_at > max(dealt)]
    for label, values in (("  while the tables opened (until the last was dealt)", opening),
                          ("  once every table was playing", playing)):
        print(f"{label}: {len(values)} interactions, p50 {_percentile(values, 0.5) * 1e3:.0f} ms, "
              f"p99 {_percentile(values, 0.99) * 1e3:.0f} ms")
    print(f"REST calls: {calls} for {actions} game actions = {calls / max(actions, 1):.2f} per action")
    if dm_times:
        print(f"rack DM render + send: {len(dm_times)} DMs, median {statistics.median(dm_times) * 1e3:.0f} ms, "
              f"p99 {_percentile(dm_times, 0.99) * 1e3:.0f} ms (goal median <= 50 ms)")
    _print_budget(double, timeline)
    most, _ = busiest_window(double.world.requests)
    print(f"the pacer (cogs/pacer.py, {share} requests a second): {waited} requests waited for their turn; the "
          f"busiest second (any 1 s, sliding) held {most} rate-limited requests (goal <= {share}, the pacer's); "
          "429s the double sent: "
          f"{sum(1 for r in double.world.requests if r.status == 429)}")


def _print_routes(requests: list, start: float, end: float) -> None:  # type: ignore[type-arg]
    """Requests and image bytes by route while the game played (``--verbose``)."""
    counts: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    for record in requests:
        if start <= record.at <= end:
            where = "dm" if record.write_channel is not None and record.write_channel not in _threads else ""
            counts[f"{record.key} {where}"] += 1
            sizes[f"{record.key} {where}"] += record.uploaded
    for key, count in counts.most_common():
        print(f"    {count:5d}  {sizes[key] / 1e6:6.2f} MB  {key}")


_threads: set[int] = set()


def _print_budget(double: Double, timeline: Timeline) -> None:
    spent = budget(double.world.requests, timeline.spans())
    print(f"rate-limited requests: {spent.requests} ({spent.exempt} more through interactions, exempt); per table "
          f"playing, {spent.per_table_mean:.3f} a second on average, {spent.per_table_busiest:.3f} in the busiest "
          f"second ({spent.busiest_second} requests), {spent.steady_busiest:.3f} in the busiest second once every "
          f"table was playing (goal <= 0.25)")
    print(f"tables one bot token holds under {50} requests a second: {spent.tables_mean:.0f} on average, "
          f"{spent.tables_busiest:.0f} at the busiest second, {50 / max(spent.steady_busiest, 1e-9):.0f} at the "
          "busiest second of play")
    print(f"most writes to one channel in any 5 s: {spent.most_channel_writes} (limit about 5; "
          f"{spent.channel_over} channel(s) went over)")


async def solo(games: int, think: float, refresh: float, validate: bool, workers: int | None,
               verbose: bool = False) -> None:
    """Solo games at default options, one after another: one person and three computers."""
    rows = []
    for n in range(games):
        validator = load_validator(str(spec_path())) if validate else None
        server = await DiscordDouble(World(), validator).start()
        double = Double(server)
        timeline = Timeline()
        with tempfile.TemporaryDirectory() as folder:
            bot = make_bot(double, Path(folder) / "solo.db", seeds=iter([2000 + n]), refresh=refresh,
                           render_workers=workers, request_timeout=60.0)
            windows = Windows()
            async with double.running(bot):
                await double.wait_for_commands("table", timeout=30)
                bot.service.subscribe(timeline.note)
                bot.service.subscribe(windows.table)
                bot.service.subscribe_seat(windows.mine)
                person = double.user("solo")
                rng = random.Random(n)
                await _play(double, bot, person, think, 0.0, rng, [], None)
                await bot.service.drain()
                await bot.presenter.settle()
                (table_id,) = bot.service.tables
                live = bot.service.tables[table_id]
                threads = {live.display.thread} if live.display.thread else set()
                _threads.clear()
                _threads.update(threads)
            await server.close()
        world = double.world
        start, end = timeline.dealt[table_id], timeline.finished[table_id]
        taps = sum(1 for i in world.interactions.values() if i.user is person.user and start <= i.clock_at)
        unused = windows.unused()
        spent = budget(world.requests, [(start, end)])
        rows.append({
            "length": end - start, "windows": timeline.window_seconds.get(table_id, 0.0) / (end - start),
            "unused": statistics.median(unused) if unused else 0.0, "unused_n": len(unused),
            "calls": statistics.median(windows.computer_calls()) if windows.computer_calls() else float("nan"),
            "per_action": spent.requests / max(1, timeline.actions[table_id]),
            "taps": taps / max(1, timeline.turns[table_id]),
            "edits": table_edits(world.requests, threads) / timeline.actions[table_id],
            "bytes": image_bytes(world.requests), "budget": spent,
        })
        print(f"game {n + 1}: {rows[-1]['length']:.0f} s, {rows[-1]['windows']:.0%} in call windows, "
              f"{len(unused)} windows she could not use and nobody called open a median "
              f"{rows[-1]['unused']:.2f} s (max {max(unused, default=0.0):.2f} s), computers' calls "
              f"{rows[-1]['calls']:.2f} s after their window opened (median), "
              f"{rows[-1]['per_action']:.3f} rate-limited requests per game action, "
              f"{rows[-1]['taps']:.1f} taps a turn, {rows[-1]['edits']:.2f} table edits per action, "
              f"{rows[-1]['bytes'] / 1e6:.2f} MB of images, {rows[-1]['budget'].per_table_mean:.3f} requests/s")
        if verbose:
            _print_routes(world.requests, start, end)

    def med(key: str) -> float:
        return statistics.median(row[key] for row in rows)

    spent = [row["budget"] for row in rows]
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}; "
          f"message refresh {refresh:g} s; a person taking {think:g} s a move (jittered); default table options")
    print(f"solo game at default options, median of {games}: {med('length'):.0f} s long, "
          f"{med('windows'):.0%} of it in call windows, a window she could not use open {med('unused'):.2f} s "
          f"(goal <= 0.5 s), {med('per_action'):.3f} rate-limited requests per game action, "
          f"{med('taps'):.1f} taps a turn, "
          f"{med('edits'):.2f} table-message edits per action, {med('bytes') / 1e6:.2f} MB of images per game "
          "(goal <= 3 MB); rate-limited requests "
          f"{statistics.median(b.per_table_mean for b in spent):.3f} a second (goal <= 0.25), "
          f"most writes to one channel in 5 s {max(b.most_channel_writes for b in spent)}")


async def _play(double: Double, bot, person, think: float, arrive: float,  # type: ignore[no-untyped-def]
                rng: random.Random, dealt: list[float], delay: float | None) -> None:
    """One person's table, from /table new to the end of the game (``delay``: the computers' delay; None: the
    table's default)."""
    await asyncio.sleep(rng.uniform(0, arrive))
    options = {} if delay is None else {"computer_delay": delay}
    sent = await person.slash("table", "new", **options)
    answer = await sent.message(timeout=60)
    table_id = int(answer.content.split("**table ")[1].split("**")[0])
    live = bot.service.tables[table_id]
    await double.wait_for(lambda: live.display.message is not None, 60, "the lobby")
    thread = double.world.channels[live.display.thread]
    here = person.at(thread)
    for _ in range(3):
        message = double.world.messages[live.display.message]
        await (await here.click(message, f"ch:t:{table_id}:computer")).response(timeout=60)
    await double.wait_for(lambda: all(not s.empty for s in bot.service.view(table_id).seats), 60, "a full table")
    message = double.world.messages[live.display.message]
    await (await here.click(message, f"ch:t:{table_id}:start")).response(timeout=60)
    dealt.append(time.perf_counter())
    await Driver(double, bot, table_id, [Person(person, 0)], think=lambda: think * rng.uniform(0.5, 1.5),
                 patience=120).play(timeout=3600)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", choices=("tables", "solo"), default="tables")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--games", type=int, default=3, help="solo games, one after another (--suite solo)")
    parser.add_argument("--think", type=float, default=2.0, help="a person's seconds per move, on average")
    parser.add_argument("--arrive", type=float, default=30.0, help="seconds over which the tables open")
    parser.add_argument("--computer-delay", type=float, default=1.5, help="seconds before each computer move "
                        "(1.5, the table's default)")
    parser.add_argument("--refresh", type=float, default=1.0, help="seconds between two updates of one message")
    parser.add_argument("--render-workers", type=int, default=None, help="processes drawing images (default: "
                        "one per spare core)")
    parser.add_argument("--global-limit", type=int, default=50, help="the requests a second the bot may start "
                        "(CHARLESTON_GLOBAL_LIMIT; lower it to watch the pacer hold a burst)")
    parser.add_argument("--validate", action="store_true", help="validate every request against the spec")
    parser.add_argument("--verbose", action="store_true", help="solo: each game's requests by route")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if args.suite == "solo":
        asyncio.run(solo(args.games, args.think, args.refresh, args.validate, args.render_workers, args.verbose))
    else:
        asyncio.run(run(args.tables, args.think, args.arrive, args.refresh, args.validate, args.render_workers,
                        args.computer_delay, args.global_limit))


if __name__ == "__main__":
    main()
