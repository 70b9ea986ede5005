"""asyncpg or psycopg 3 for the PostgreSQL store: the same statements timed with both.

    python benchmarks/pg_drivers.py [--appends 2000] [--rooms 20] [--loads 300]
                                    [--rounds 3] [--sync]

Starts a throwaway PostgreSQL on loopback (tests/pg_server.py: its own data folder and
port; ``synchronous_commit=off`` unless ``--sync``, so that the disk's flush, the same
for both drivers and the noisiest part on a shared machine, does not hide the drivers'
own costs), makes the store's tables, and times with each driver, through a pool of 10
connections, ``--rounds`` times with the drivers taking turns (the median of the rounds
is printed, and every round):

- ``append_serial``: one room's appends one after another (the store's one-statement
  append: lock the lease, insert the entry, touch the room), median and p95 in ms;
- ``append_concurrent``: ``--rooms`` rooms appending at once, appends per second;
- ``load``: a room of 300 entries read back from its checkpoint, median ms;
- the CPU this process used per append, serial and concurrent (the driver's share of
  the server's CPU: the figure other work on the machine changes least).

Prints JSON.  Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from pg_server import PostgresServer  # noqa: E402

ENTRY = json.dumps({"k": "act", "seat": 2, "card": "QH", "note": "x" * 40})
SETUP = """
CREATE TABLE leases (code text PRIMARY KEY, owner text NOT NULL);
CREATE TABLE rooms (code text PRIMARY KEY, created_at double precision NOT NULL,
                    updated_at double precision NOT NULL, checkpoint bigint NOT NULL);
CREATE TABLE log (code text NOT NULL, seq bigint NOT NULL, entry text NOT NULL,
                  owner text, PRIMARY KEY (code, seq));
"""
APPEND = """
WITH lease AS (SELECT code FROM leases WHERE code = {c} AND owner = {o} FOR SHARE),
     ins AS (INSERT INTO log(code, seq, entry, owner)
             SELECT lease.code, {s} + t.i - 1, t.e, {o}
             FROM lease, unnest({e}::text[]) WITH ORDINALITY AS t(e, i) RETURNING 1),
     upd AS (UPDATE rooms SET updated_at = {now} WHERE code = {c}
             AND EXISTS (SELECT 1 FROM lease))
SELECT count(*) FROM lease
"""
LOAD = """
SELECT r.checkpoint, l.entry FROM rooms r
LEFT JOIN log l ON l.code = r.code AND l.seq >= r.checkpoint
WHERE r.code = {c} ORDER BY l.seq
"""
OWNER = "bench"

Run = Callable[[str, tuple[Any, ...]], Awaitable[list[tuple[Any, ...]]]]


NAMES = ("c", "o", "s", "e", "now")


def sql(template: str) -> str:
    """``template`` with asyncpg's ``$n`` placeholders."""
    return template.format(**{n: f"${i + 1}" for i, n in enumerate(NAMES)})


def psycopg_sql(template: str) -> str:
    """``template`` with psycopg's ``%(name)s`` placeholders."""
    return template.format(**{n: f"%({n})s" for n in NAMES})


async def setup_room(run: Run, code: str, entries: int) -> None:
    await run("INSERT INTO leases VALUES ({c}, {o})", (code, OWNER))
    await run("INSERT INTO rooms VALUES ({c}, 0, 0, 0)", (code,))
    if entries:
        await run("INSERT INTO log SELECT {c}, g, {o}, 'x' FROM generate_series(0, "
                  f"{entries - 1}) g", (code, ENTRY))


async def measure(run_append: Callable[[str, int], Awaitable[int]],
                  run_load: Callable[[str], Awaitable[int]], run: Run,
                  args: argparse.Namespace, prefix: str) -> dict[str, Any]:
    serial_code = f"{prefix}serial"
    await setup_room(run, serial_code, 0)
    times: list[float] = []
    cpu0 = time.process_time()
    for seq in range(args.appends):
        t0 = time.perf_counter()
        assert await run_append(serial_code, seq) == 1
        times.append((time.perf_counter() - t0) * 1000)
    cpu_serial = time.process_time() - cpu0
    codes = [f"{prefix}c{i}" for i in range(args.rooms)]
    for code in codes:
        await setup_room(run, code, 0)
    per_room = args.appends // args.rooms

    async def room(code: str) -> None:
        for seq in range(per_room):
            await run_append(code, seq)

    t0 = time.perf_counter()
    cpu0 = time.process_time()
    await asyncio.gather(*(room(c) for c in codes))
    concurrent_s = time.perf_counter() - t0
    cpu_concurrent = time.process_time() - cpu0
    load_code = f"{prefix}load"
    await setup_room(run, load_code, 300)
    load_times = []
    for _ in range(args.loads):
        t0 = time.perf_counter()
        assert await run_load(load_code) == 300
        load_times.append((time.perf_counter() - t0) * 1000)
    return {
        "append_serial_ms": {"median": round(statistics.median(times), 3),
                             "p95": round(statistics.quantiles(times, n=20)[18], 3)},
        "append_concurrent_per_s": round(per_room * len(codes) / concurrent_s),
        "client_cpu_ms_per_append": round(cpu_serial / args.appends * 1000, 3),
        "client_cpu_ms_per_append_concurrent": round(
            cpu_concurrent / (per_room * len(codes)) * 1000, 3),
        "load_300_entries_ms": round(statistics.median(load_times), 3),
    }


async def with_asyncpg(url: str, args: argparse.Namespace) -> dict[str, Any]:
    import asyncpg

    pool = await asyncpg.create_pool(url, min_size=10, max_size=10)

    async def run(template: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        rows = await pool.fetch(sql(template), *params)
        return [tuple(r) for r in rows]

    append_sql = sql(APPEND)
    load_sql = sql(LOAD)

    async def append(code: str, seq: int) -> int:
        n: int = await pool.fetchval(append_sql, code, OWNER, seq, [ENTRY], time.time())
        return n

    async def load(code: str) -> int:
        rows = await pool.fetch(load_sql, code)
        return len(rows)

    try:
        return await measure(append, load, run, args, "a")
    finally:
        await pool.close()


async def with_psycopg(url: str, args: argparse.Namespace) -> dict[str, Any]:
    from psycopg_pool import AsyncConnectionPool

    pool = AsyncConnectionPool(url, min_size=10, max_size=10, open=False,
                               kwargs={"autocommit": True})
    await pool.open(wait=True)
    append_sql = psycopg_sql(APPEND)
    load_sql = psycopg_sql(LOAD)

    async def run(template: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        text = psycopg_sql(template)
        async with pool.connection() as con:
            cur = await con.execute(text, dict(zip(NAMES, params, strict=False)))
            return await cur.fetchall() if cur.description else []

    async def append(code: str, seq: int) -> int:
        async with pool.connection() as con:
            cur = await con.execute(append_sql, {"c": code, "o": OWNER, "s": seq,
                                                 "e": [ENTRY], "now": time.time()},
                                    prepare=True)
            row = await cur.fetchone()
            assert row is not None
            return int(row[0])

    async def load(code: str) -> int:
        async with pool.connection() as con:
            cur = await con.execute(load_sql, {"c": code}, prepare=True)
            return len(await cur.fetchall())

    try:
        return await measure(append, load, run, args, "p")
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--loads", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sync", action="store_true",
                        help="synchronous_commit on (every commit waits for the disk)")
    args = parser.parse_args()
    server = PostgresServer(None if args.sync else {"synchronous_commit": "off"}).start()
    try:
        server.psql(SETUP)
        rounds: dict[str, list[dict[str, Any]]] = {"asyncpg": [], "psycopg": []}
        for _ in range(args.rounds):
            for name, bench in (("asyncpg", with_asyncpg), ("psycopg", with_psycopg)):
                server.psql("TRUNCATE leases, rooms, log")
                rounds[name].append(asyncio.run(bench(server.url, args)))
        result: dict[str, Any] = {
            "postgresql": server.psql("SHOW server_version").strip(),
            "synchronous_commit": "on" if args.sync else "off",
            "load_average_1min": os.getloadavg()[0],
            "median": {name: median_of(runs) for name, runs in rounds.items()},
            "rounds": rounds}
        print(json.dumps(result, indent=1))
    finally:
        server.stop()


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of every figure over the rounds."""
    out: dict[str, Any] = {}
    for key, value in runs[0].items():
        if isinstance(value, dict):
            out[key] = median_of([r[key] for r in runs])
        else:
            out[key] = statistics.median(r[key] for r in runs)
    return out


if __name__ == "__main__":
    main()
