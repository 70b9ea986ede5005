"""The PostgreSQL tier of benchmarks/tiers.py: the store's own append statement on its
own schema (one room a statement, and batched), with ``synchronous_commit`` on and off,
its appends per second, CPU and WAL per append, and PostgreSQL's memory per connection.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE), str(HERE.parent / "tests")]

import asyncpg  # noqa: E402
from cluster_load import descendants, tree_cpu  # noqa: E402
from pg_server import PostgresServer  # noqa: E402
from tier_units import per, pss_kib, times_slower  # noqa: E402

from app.rooms.store.postgres_log_sql import APPEND  # noqa: E402
from app.rooms.store.postgres_schema import migrate  # noqa: E402

# One entry per room per statement, as many rooms as the arrays hold: APPEND for a batch.
BATCH_APPEND = """
WITH lease AS (SELECT code FROM leases WHERE code = ANY($1::text[]) AND owner = $2
               FOR SHARE),
     ins AS (INSERT INTO log(code, seq, entry, owner)
             SELECT t.c, t.s, t.e, $2 FROM unnest($1::text[], $3::bigint[], $4::text[])
             AS t(c, s, e) JOIN lease ON lease.code = t.c RETURNING 1),
     upd AS (UPDATE rooms SET updated_at = $5 WHERE code IN (SELECT code FROM lease))
SELECT count(*) FROM lease
"""
# a card played, as the log writes it (about the size of the common entry)
ENTRY = json.dumps({"k": "act", "seat": 2, "action": {"type": "play", "card": "QH"},
                    "at": 1764000000.123}, separators=(",", ":"))
OWNER = "tiers-benchmark"
WAL_SINCE = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::text::pg_lsn)"


async def append_run(url: str, args: argparse.Namespace, batch: int, pg_pid: int,
                     rate: float | None = None) -> dict[str, Any]:
    """``--appends`` appends over ``--connections`` connections, ``batch`` rooms a
    statement, as fast as they go or paced at ``rate`` appends/s in all (a table's moves
    come at a human pace: PostgreSQL's cost per commit depends on how many share a WAL
    flush and a wake-up); appends/s and PostgreSQL's CPU per append."""
    pool = await asyncpg.create_pool(url, min_size=args.connections,
                                     max_size=args.connections)
    assert pool is not None
    try:
        async with pool.acquire() as con:
            await con.execute("TRUNCATE log")
        codes = [f"R{i:05d}" for i in range(args.pg_rooms)]
        seqs = dict.fromkeys(codes, 0)
        lanes = [codes[i::args.connections] for i in range(args.connections)]
        count = args.appends if rate is None else round(rate * args.pg_seconds)
        per_lane = max(batch, count // args.connections)

        start = time.perf_counter()

        async def lane(mine: list[str], offset: float) -> None:
            async with pool.acquire() as con:
                done, k = 0, 0
                while done < per_lane:
                    if rate is not None:  # the lane's next statement is due then
                        due = start + offset + done * args.connections / rate
                        await asyncio.sleep(max(0.0, due - time.perf_counter()))
                    group = [mine[(k + j) % len(mine)] for j in range(batch)]
                    k += batch
                    first = []
                    for c in group:  # a room twice in a batch takes two numbers
                        first.append(seqs[c])
                        seqs[c] += 1
                    if batch == 1:
                        await con.fetchval(APPEND, group[0], OWNER, first[0], [ENTRY],
                                           time.time())
                    else:
                        await con.fetchval(BATCH_APPEND, group, OWNER, first,
                                           [ENTRY] * batch, time.time())
                    done += batch

        async with pool.acquire() as con:
            lsn0 = await con.fetchval("SELECT pg_current_wal_lsn()::text")
        cpu0, t0 = tree_cpu(pg_pid), time.perf_counter()
        await asyncio.gather(*(lane(m, i / rate if rate else 0.0)
                               for i, m in enumerate(lanes)))
        seconds, cpu = time.perf_counter() - t0, tree_cpu(pg_pid) - cpu0
        total = per_lane * args.connections
        async with pool.acquire() as con:
            rows = await con.fetchval("SELECT count(*) FROM log")
            wal = await con.fetchval(WAL_SINCE, lsn0)
        if rows < total:
            raise RuntimeError(f"{rows} rows for {total} appends: a lease was not held")
        return {"batch": batch, "paced_at": rate, "appends": total,
                "appends_per_s": round(total / seconds),
                "cpu_ms_per_append": per(cpu, total),
                "appends_per_core_s": round(total / cpu) if cpu else None,
                "cpu_percent": round(100 * cpu / seconds, 1),
                "wal_bytes_per_append": round(float(wal) / total)}
    finally:
        await pool.close()


async def prepare(url: str, rooms: int) -> None:
    con = await asyncpg.connect(url)
    try:
        await migrate(con)
        await con.execute("INSERT INTO processes(owner, expires_at) VALUES "
                          "($1, now() + interval '1 day')", OWNER)
        codes = [f"R{i:05d}" for i in range(rooms)]
        await con.executemany("INSERT INTO rooms(code, created_at, updated_at, checkpoint)"
                              " VALUES ($1, 0, 0, 0)", [(c,) for c in codes])
        await con.executemany("INSERT INTO leases(code, owner) VALUES ($1, $2)",
                              [(c, OWNER) for c in codes])
    finally:
        await con.close()


def measure_postgres(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"connections": args.connections, "rooms": args.pg_rooms,
                           "entry_bytes": len(ENTRY)}
    for mode in ("on", "off"):
        server = PostgresServer({"synchronous_commit": mode}).start()
        try:
            assert server.proc is not None
            url = server.create_database("tiers")
            asyncio.run(prepare(url, args.pg_rooms))
            pid = server.proc.pid
            runs = []
            for batch, rate in [(1, None), (args.batch, None)] + (
                    [(1, r) for r in args.rates] if mode == "on" else []):  # tables' paces
                before = times_slower(args)
                run = asyncio.run(append_run(url, args, batch, pid, rate))
                after = times_slower(args)
                runs.append({**run, "times_slower": round((before + after) / 2, 3)})
            out[f"synchronous_commit_{mode}"] = runs
            if mode == "on":
                out["kib_per_connection"] = postgres_memory(server, url, args.connections)
        finally:
            server.stop()
    return out


def postgres_memory(server: PostgresServer, url: str, connections: int) -> dict[str, Any]:
    """Proportional set size of the backends with ``connections`` connections open and
    used, against none: what a pool's connection costs PostgreSQL."""
    assert server.proc is not None
    root = server.proc.pid

    async def held() -> float:
        before = sum(pss_kib(p) for p in descendants(root))
        pool = await asyncpg.create_pool(url, min_size=connections, max_size=connections)
        assert pool is not None
        try:
            async def use() -> None:
                async with pool.acquire() as con:
                    await con.fetchval("SELECT count(*) FROM log")
                    await asyncio.sleep(0.2)
            await asyncio.gather(*(use() for _ in range(connections)))
            after = sum(pss_kib(p) for p in descendants(root))
        finally:
            await pool.close()
        return (after - before) / connections

    return {"pss_per_connection": round(asyncio.run(held()), 1)}
