"""What each tier of a several-process deployment costs for this game's traffic, on this
machine: the figures behind the capacity model of docs/scaling.md (benchmarks/capacity.py).

    python benchmarks/tiers.py [--rooms 100,250,500] [--duration 15] [--appends 6000] [--json PATH]

Three measurements, one after the other, each with its own throwaway PostgreSQL or nginx:

- ``app``: one ``amerikaner serve`` on PostgreSQL, no nginx in front, played by the swarm
  of benchmarks/load.py (rooms of four people acting ``--think`` seconds after their turn
  comes), once for each of ``--rooms``: the costs per move fall as the rate rises, since
  one wake-up of the loop or one WAL flush serves more moves.  Over the swarm's window:
  the app's CPU per move, PostgreSQL's CPU per move (its whole process tree), the store's
  appends per move (the app's own ``amerikaner_store_append_seconds_count`` from
  /metrics, against ``amerikaner_moves_total``), the app's memory per socket (idle
  rooms, connected), and then PostgreSQL's CPU while the process holds its rooms and
  nothing is played (``--idle-seconds``: its heartbeat, paid per process).
- ``nginx``: at the same room counts, benchmarks/floor_server.py (one message in, four
  frames out, no game) behind nginx with ``deploy/nginx.conf``, the same swarm in floor
  mode: the nginx worker's CPU per move (a move: one frame in, four out, each through
  both of nginx's connections) and its memory per socket.
- ``postgres``: the store's own append statement (app/rooms/store/postgres_log_sql.py, ``APPEND``)
  on the store's own schema, ``--connections`` connections over ``--pg-rooms`` rooms whose
  leases one owner holds, with ``synchronous_commit`` on (the store's mode: every commit
  waits for the WAL flush) and off; one room per statement (what the store does) and
  ``--batch`` rooms per statement (what it could do): appends per second, PostgreSQL's
  CPU per append and the WAL it writes per append; and PostgreSQL's memory per
  connection (proportional set size).

The benchmark and everything it starts run in a control group that comes before other
work on the machine (benchmarks/cpucap.py, as root; ``--not-first`` to leave it out), so
that its figures hold while other work runs.  The machine's speed (benchmarks/engine.py's
deals per CPU second against the reference machine's, reference_speed.py's ``machine_speed``) is
measured before and after each run (three runs of ``--speed-seconds``, 0.5 s, each time)
and kept with its figures as ``times_slower``: this virtual machine's speed moves by a
third within minutes, and benchmarks/capacity.py compares CPU costs at the same speed.
A figure "per core" is the inverse of the CPU per unit: what one core does when that part
has it to itself.  Prints one JSON document; ``--only app,nginx,postgres`` picks parts.
Loopback only; needs PostgreSQL and nginx (scripts/test.sh installs them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE), str(HERE.parent / "tests")]

import asyncpg  # noqa: E402
import httpx  # noqa: E402
import load_servers  # noqa: E402
import reference_speed  # noqa: E402
from cluster_load import Sampler, descendants, tree_cpu  # noqa: E402
from cpucap import ahead_of_other_work  # noqa: E402
from nginx_server import NginxServer, without_rate_limits  # noqa: E402
from pg_server import PostgresServer  # noqa: E402
from serve_process import ServeProcess, free_port  # noqa: E402

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


def pss_kib(pid: int) -> int:
    """Proportional set size: the process's own pages, and its share of shared ones."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:  # it ended meanwhile
        pass
    return 0


def metric(base: str, name: str) -> float:
    """The sum of a metric's samples (all labels) on the app's /metrics."""
    text = httpx.get(f"{base}/metrics", timeout=10).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name) and line[len(name)] in " {")


def per(value: float, count: float, scale: float = 1000.0) -> float | None:
    return round(scale * value / count, 4) if count else None


def times_slower(args: argparse.Namespace) -> float:
    """How many times slower than the reference machine this one is now (reference_speed.py)."""
    return reference_speed.machine_speed(args.speed_seconds)["times_slower_than_reference"]


def measure_app(args: argparse.Namespace, rooms: int, tmp: Path) -> dict[str, Any]:
    postgres = PostgresServer().start()
    app: ServeProcess | None = None
    try:
        url = postgres.create_database("tiers")
        env = {**load_servers.SERVER_ENV, "AMERIKANER_MAX_ROOMS": str(max(2000, 2 * rooms)),
               "AMERIKANER_DATABASE_URL": url}
        app = ServeProcess(tmp / f"app{rooms}", env).start()
        assert postgres.proc is not None and app.proc is not None
        slower = [times_slower(args)]
        base = app.base

        def counters() -> dict[str, float]:
            return {"moves": metric(base, "amerikaner_moves_total"),
                    "appends": metric(base, "amerikaner_store_append_seconds_count")}

        sampler = Sampler({"app": app.proc.pid, "postgres": postgres.proc.pid}, counters)
        sampler.start()
        lsn0 = postgres.psql("SELECT pg_current_wal_lsn()", "tiers").strip()
        appends0 = metric(app.base, "amerikaner_store_append_seconds_count")
        try:
            swarm = load_servers.swarm_run(app.base, app.proc.pid, "game", rooms, args)
        finally:
            sampler.done.set()
            sampler.join()
        seconds, d = sampler.delta(*swarm["window_epoch"])
        moves = swarm["moves"] * seconds / swarm["seconds"]  # over the sampler's span
        mem = swarm["memory_kib"]
        wal = float(postgres.psql(f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{lsn0}')",
                                  "tiers"))
        appends = metric(app.base, "amerikaner_store_append_seconds_count") - appends0
        # what PostgreSQL spends for a process that holds rooms and plays none: its
        # heartbeat and lease renewals, paid per process whatever the moves
        pg0, t0 = tree_cpu(postgres.proc.pid), time.perf_counter()
        time.sleep(args.idle_seconds)
        idle = (tree_cpu(postgres.proc.pid) - pg0) / (time.perf_counter() - t0)
        slower.append(times_slower(args))
        return {
            "rooms": rooms, "think_s": args.think, "moves_per_s": swarm["moves_per_s"],
            "times_slower": round(statistics.mean(slower), 3),
            "latency_ms": swarm["latency_ms"],
            "app_cpu_ms_per_move": per(d["app"], moves),
            "postgres_cpu_ms_per_move": per(d["postgres"], moves),
            "postgres_idle_cpu_ms_per_s": round(1000 * idle, 2),
            # the whole run's (rooms made and joined too), per append
            "wal_bytes_per_append": round(wal / appends) if appends else None,
            "appends_per_move": per(d["appends"], d["moves"], 1.0),
            "moves_counted_by_app_per_swarm_move": per(d["moves"], moves, 1.0),
            "app_kib_per_socket": round(mem["per_idle_room"] / 4, 1),
            "app_rss_kib": mem,
            "state_frame_bytes_mean": swarm["state_frame_bytes_mean"],
            "swarm_cpu_ms_per_move": swarm["swarm_cpu_ms_per_move"],
            "errors": swarm["errors"], "closed": swarm["sockets_closed_by_server"]}
    finally:
        if app is not None:
            app.stop()
        postgres.stop()


def nginx_worker(nginx: NginxServer) -> int:
    assert nginx.proc is not None
    for pid in descendants(nginx.proc.pid):
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if b"worker process" in f.read():
                return pid
    raise RuntimeError("no nginx worker process")


def measure_nginx(args: argparse.Namespace, rooms: int, frame_bytes: int
                  ) -> dict[str, Any]:
    port = free_port()
    floor = subprocess.Popen([sys.executable, str(HERE / "floor_server.py"), "--port",
                              str(port), "--frame-bytes", str(frame_bytes)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    nginx: NginxServer | None = None
    try:
        if not load_servers.answers(f"http://127.0.0.1:{port}", floor):
            raise RuntimeError("the floor server did not start")
        # the swarm is one address for every room: nginx's per-address rates lifted
        nginx = NginxServer([port], edit=without_rate_limits).start()
        worker = nginx_worker(nginx)
        slower = [times_slower(args)]
        sampler = Sampler({"nginx": worker, "floor": floor.pid})
        sampler.start()
        try:
            swarm = load_servers.swarm_run(nginx.base, worker, "floor", rooms, args)
        finally:
            sampler.done.set()
            sampler.join()
        seconds, d = sampler.delta(*swarm["window_epoch"])
        moves = swarm["moves"] * seconds / swarm["seconds"]
        mem = swarm["memory_kib"]
        slower.append(times_slower(args))
        return {"rooms": rooms, "moves_per_s": swarm["moves_per_s"],
                "times_slower": round(statistics.mean(slower), 3),
                "frame_bytes": frame_bytes,
                "nginx_cpu_ms_per_move": per(d["nginx"], moves),
                "nginx_cpu_us_per_frame": per(d["nginx"], 5 * moves, 1e6),
                "floor_cpu_ms_per_move": per(d["floor"], moves),
                "nginx_kib_per_socket": round(mem["per_idle_room"] / 4, 1),
                "nginx_worker_rss_kib": mem, "latency_ms": swarm["latency_ms"]}
    finally:
        if nginx is not None:
            nginx.stop()
        floor.terminate()
        floor.wait(10)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", default="100,250,500",
                        help="rooms of four people, one run each (comma-separated)")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=None)
    parser.add_argument("--idle-wait", type=float, default=2.0)
    parser.add_argument("--idle-seconds", type=float, default=5.0,
                        help="PostgreSQL's CPU measured this long after the swarm, rooms held")
    parser.add_argument("--appends", type=int, default=6000)
    parser.add_argument("--connections", type=int, default=10,
                        help="PostgreSQL connections (the store's pool: 10)")
    parser.add_argument("--pg-rooms", type=int, default=400)
    parser.add_argument("--batch", type=int, default=20, help="rooms per batched append")
    parser.add_argument("--pg-seconds", type=float, default=8.0,
                        help="how long each paced run lasts")
    parser.add_argument("--rates", default="200,500,1000,2000",
                        help="paced runs, appends/s (one room a statement)")
    parser.add_argument("--only", default="app,nginx,postgres")
    parser.add_argument("--min-moves", type=int, default=0, metavar="N",
                        help="the swarm's window lasts until every room had N moves in it")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--speed-seconds", type=float, default=reference_speed.SPEED_SECONDS,
                        help="each of the three runs that measure the machine's speed, "
                             "before and after each measurement (a test's tiny run: less)")
    parser.add_argument("--not-first", action="store_true",
                        help="do not put the benchmark ahead of other work on the machine")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    args.warmup = 2 * args.think + 1 if args.warmup is None else args.warmup
    args.rules, args.until_matches, args.window_cap = None, 0, 300.0
    parts = set(args.only.split(","))
    args.rooms = [int(n) for n in args.rooms.split(",")]
    args.rates = [float(r) for r in args.rates.split(",") if r]
    out: dict[str, Any] = {"date": time.strftime("%Y-%m-%dT%H:%M:%S"),
                           "cpus": os.cpu_count(), "load_average_before": os.getloadavg()[0],
                           "machine": reference_speed.machine_speed(args.speed_seconds)}
    with ahead_of_other_work(not args.not_first) as group, \
            tempfile.TemporaryDirectory(prefix="amerikaner-tiers-") as tmp:
        out["ahead_of_other_work"] = group is not None
        frame = 2200
        if "app" in parts:
            out["app"] = [measure_app(args, rooms, Path(tmp)) for rooms in args.rooms]
            frame = out["app"][-1]["state_frame_bytes_mean"] or frame
            print(json.dumps({"app": out["app"]}), flush=True)
        if "nginx" in parts:
            out["nginx"] = [measure_nginx(args, rooms, frame) for rooms in args.rooms]
            print(json.dumps({"nginx": out["nginx"]}), flush=True)
        if "postgres" in parts:
            out["postgres"] = measure_postgres(args)
            print(json.dumps({"postgres": out["postgres"]}), flush=True)
    text = json.dumps(out, indent=1)
    print(text)
    if args.json is not None:
        args.json.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
