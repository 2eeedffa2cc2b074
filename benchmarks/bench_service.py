"""The table service on a real SQLite file: persisted actions per second, and many computer tables at once.

    python benchmarks/bench_service.py [--suite all|throughput|tables|capacity] [--tables 500] [--think 2]
                                       [--seconds 30]
                                       [--db postgresql://...] [--thinkers N]

throughput  computer-only tables played flat out, one after another (random players, so nearly all the time
            is the engine and the database): actions applied, saved (snapshot + log, version-checked, one
            transaction each) and published per second. Goal >= 1,000.
tables      --tables computer-only tables open at once in one process, paced by the service's own clock (each
            computer moves --think seconds after the decision opened, as at a real table; the tables open at
            random moments over the first --think seconds); the latency of each action (apply + save + publish,
            waiting for the database included), how late each computer move was applied after it was due (its
            decision and the event loop's queue) over --seconds after a --warmup in which the
            tables are dealt (reported separately), and the process's peak memory. Goal: p99 <= 50 ms for 500
            tables. A process holds a number of tables when its computer moves come at most 300 ms late (p99).

capacity    --tables tables of --level players played flat out at once (no delay): the most actions a second
            the process makes when it does nothing else, and the event loop's own CPU time per action (the
            thread that runs it; a worker's thinking is not in it). A table paced at --think 2 s makes about
            1.4 actions a second, so the loop's CPU per action says how many tables it can pace.

--db        a PostgreSQL database to play in (default: a new SQLite file in a temporary folder); its tables are
            added to, so give a database of its own
--thinkers  processes the computers think in (default 0: in the event loop; the bot uses one per spare core)
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path

from bot.service.clock import ManualClock
from bot.service.live import LiveTable
from bot.service.tables import TableService
from bot.service.updates import TableOptions
from bot.store.db import Database


def thinking(thinkers: int) -> dict[str, int]:
    """The service's thinkers option (left out when 0, so the script also measures a service from before it)."""
    return {"thinkers": thinkers} if thinkers else {}


async def stop_thinking(service: TableService) -> None:
    if hasattr(service, "thinking"):
        await service.thinking.close()


async def throughput(path: Path | str, games: int, thinkers: int) -> None:
    db = await Database.open(path)
    service = TableService(db, clock=ManualClock(), computer_delay=0, **thinking(thinkers))
    actions = 0
    started = time.perf_counter()
    for n in range(games):
        table_id = (await service.create_table(1, n, seed=n)).table_id
        for _ in range(4):
            await service.add_computer(table_id, "random")
        await service.start(table_id)
        actions += service.tables[table_id].version
        await service.close_table(table_id)
    elapsed = time.perf_counter() - started
    await stop_thinking(service)
    await db.close()
    print(f"throughput: {actions} actions in {elapsed:.1f} s = {actions / elapsed:,.0f} persisted actions/s "
          f"({games} games)")


async def many_tables(path: Path | str, tables: int, think: float, seconds: float, level: str, warmup: float,
                      thinkers: int) -> None:
    db = await Database.open(path)
    service = TableService(db, **thinking(thinkers))  # the real clock: computers move when their time comes
    opening: list[float] = []  # while the tables are being dealt
    latencies: list[float] = []  # steady state, after the warm-up
    original = service._apply
    steady_from = time.monotonic() + warmup

    late: list[float] = []  # from the moment a computer move was due to the moment it was applied

    async def timed_apply(table: LiveTable, action, cause):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        if table.auto_at is not None and time.monotonic() >= steady_from:
            late.append(max(0.0, (service.clock.now() - table.auto_at).total_seconds()))
        try:
            return await original(table, action, cause)
        finally:
            (latencies if time.monotonic() >= steady_from else opening).append(time.perf_counter() - started)

    service._apply = timed_apply  # type: ignore[method-assign]
    ids = []
    for n in range(tables):
        table_id = (await service.create_table(2, n, seed=10_000 + n, options=TableOptions(think))).table_id
        for _ in range(4):
            await service.add_computer(table_id, level)
        ids.append(table_id)
    stop = asyncio.Event()
    clock_task = asyncio.create_task(service.run(stop))
    rng = random.Random(1)

    async def open_table(table_id: int) -> None:
        await asyncio.sleep(rng.uniform(0, think))  # tables did not all open in the same instant
        await service.start(table_id)

    async def deal_again() -> None:
        while not stop.is_set():  # the next game at each table whose game has ended
            for table_id in ids:
                if not service.tables[table_id].playing:
                    await service.start(table_id)
            await asyncio.sleep(0.5)

    await asyncio.gather(*(open_table(t) for t in ids))
    dealer = asyncio.create_task(deal_again())
    await asyncio.sleep(max(0.0, steady_from - time.monotonic()))
    loop_cpu = time.thread_time()  # this thread runs the event loop
    await asyncio.sleep(max(0.0, steady_from + seconds - time.monotonic()))
    loop_cpu = time.thread_time() - loop_cpu
    stop.set()
    await asyncio.gather(clock_task, dealer)
    elapsed = seconds
    await stop_thinking(service)
    await db.close()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ordered = sorted(latencies)
    p99 = ordered[int(len(ordered) * 0.99)] * 1e3
    print(f"{tables} tables of '{level}' players, {think} s per computer move: {len(latencies)} actions in "
          f"{elapsed:.0f} s "
          f"({len(latencies) / elapsed:,.0f}/s); latency median {statistics.median(ordered) * 1e3:.1f} ms, "
          f"p99 {p99:.1f} ms, max {ordered[-1] * 1e3:.0f} ms; peak memory {peak_mb:.0f} MB")
    if latencies:
        print(f"  the event loop's thread was busy {loop_cpu / seconds:.0%} of the time: "
              f"{loop_cpu / len(latencies) * 1e6:.0f} µs of its CPU per action")
    if late:
        due = sorted(late)
        print(f"  computer moves applied after they were due (their decision and any queue): median "
              f"{statistics.median(due) * 1e3:.1f} ms, p99 {due[int(len(due) * 0.99)] * 1e3:.1f} ms")
    if opening:
        first = sorted(opening)
        print(f"  while all {tables} tables were dealt in the first {warmup:.0f} s: {len(first)} actions, "
              f"p99 {first[int(len(first) * 0.99)] * 1e3:.1f} ms")


async def capacity(path: Path | str, tables: int, seconds: float, level: str, thinkers: int) -> None:
    db = await Database.open(path)
    service = TableService(db, clock=ManualClock(), computer_delay=0, **thinking(thinkers))
    stop = time.monotonic() + seconds
    counted = [0, 0]  # actions in games finished, and games

    async def table_loop(n: int) -> None:
        table_id = (await service.create_table(3, n, seed=20_000 + n)).table_id
        for _ in range(4):
            await service.add_computer(table_id, level)
        while time.monotonic() < stop:
            await service.start(table_id)
            counted[0] += service.tables[table_id].version
            counted[1] += 1

    started, loop_cpu = time.perf_counter(), time.thread_time()
    await asyncio.gather(*(table_loop(n) for n in range(tables)))
    elapsed, loop_cpu = time.perf_counter() - started, time.thread_time() - loop_cpu
    await stop_thinking(service)
    await db.close()
    actions = counted[0]
    print(f"capacity: {tables} tables of '{level}' players flat out: {actions:,} actions ({counted[1]} games) in "
          f"{elapsed:.1f} s = {actions / elapsed:,.0f} actions/s; the event loop's thread "
          f"{loop_cpu / actions * 1e6:.0f} µs of CPU per action, {loop_cpu / elapsed:.0%} busy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="all", choices=["all", "throughput", "tables", "capacity"])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--level", default="normal", help="computer level at the tables")
    parser.add_argument("--warmup", type=float, default=10, help="seconds of dealing left out of the latency")
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: a new SQLite file)")
    parser.add_argument("--thinkers", type=int, default=0, help="processes the computers think in (0: the loop)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}; "
          f"database: {'PostgreSQL' if args.db else 'SQLite'}; thinking: "
          f"{f'{args.thinkers} worker process(es)' if args.thinkers else 'in the event loop'}")
    with tempfile.TemporaryDirectory() as folder:
        if args.suite in ("all", "throughput"):
            asyncio.run(throughput(args.db or Path(folder) / "throughput.db", args.games, args.thinkers))
        if args.suite == "capacity":
            asyncio.run(capacity(args.db or Path(folder) / "capacity.db", args.tables, args.seconds, args.level,
                                 args.thinkers))
        if args.suite in ("all", "tables"):
            asyncio.run(many_tables(args.db or Path(folder) / "tables.db", args.tables, args.think, args.seconds,
                                    args.level, args.warmup, args.thinkers))


if __name__ == "__main__":
    main()
