"""The capacity model of docs/scaling.md: how many cores, how much memory and which
machines a number of tables needs, from each tier's measured cost (benchmarks/tiers.py);
and the model's check against a run on this machine with every part held to a known share
of a core.

    python benchmarks/capacity.py plan  TIERS.json [--tables 10000,100000] [--pace 1.0]
    python benchmarks/capacity.py check TIERS.json [--workers 2] [--app-cap 0.3]
                                  [--pg-cap 0.3] [--nginx-cap 0.15] [--duration 12]

The model: a table at ``--pace`` moves a second has four sockets; each move costs the app
``app_cpu_ms_per_move`` at the rate its process sees (a wake-up of the loop serves more
moves as the rate rises), nginx ``nginx_cpu_ms_per_move``, and PostgreSQL
``appends_per_move`` appends at the cost one append has at that rate of appends (measured
behind the app; above the rates one app process reaches here, the store's statement alone,
paced, scaled to the live level: a commit costs less when many share a WAL flush; beyond
the fastest run, that run's cost), plus each process's heartbeat.  A part is planned at
``--target`` of its cores (0.7: the headroom that keeps p99 low), one app process per
core.

``check`` starts ``--workers`` app processes, PostgreSQL and nginx (benchmarks/
cluster_load.py), each held to its share of a core by a control group
(benchmarks/cpucap.py; the swarm, standing for the browsers, runs uncapped), and plays
the load benchmark's swarm twice: at ``--low`` of the moves/s the model says the capped
parts can carry (every part's CPU then is the model's prediction: moves/s times its cost)
and at ``--high`` of it (the swarm's people wait for each answer, so an overloaded cluster
delivers what its busiest part can do: the model's capacity).  The machine's speed is
measured before and after each run, and the model's costs are taken at that speed
(this virtual machine's speed moves by a third within minutes).  Every part, capped or not,
comes before other work on the machine when both want a core (benchmarks/cpucap.py's
weights; ``--not-first`` leaves that out), so that each capped part gets its whole share.
It prints each figure beside the prediction and whether it is within ``--tolerance``
(20 %).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import reference_speed  # noqa: E402
from cluster_load import descendants, run_cluster  # noqa: E402
from cpucap import CpuCap, ahead_of_other_work  # noqa: E402
from pg_server import PostgresServer  # noqa: E402

SOCKETS_PER_TABLE = 4


class Curve:
    """A cost per unit (CPU ms) that depends on the rate (units/s), from measured points:
    linear between them, the nearest point's cost outside them."""

    def __init__(self, points: list[tuple[float, float]]) -> None:
        self.points = sorted(points)

    def at(self, rate: float) -> float:
        pts = self.points
        if rate <= pts[0][0]:
            return pts[0][1]
        for (r0, c0), (r1, c1) in itertools.pairwise(pts):
            if rate <= r1:
                return c0 + (c1 - c0) * (rate - r0) / (r1 - r0)
        return pts[-1][1]

    def cores(self, rate: float) -> float:
        return rate * self.at(rate) / 1000

    def capacity(self, cores: float) -> float:
        """The highest rate that ``cores`` carry (the cost falls as the rate rises, so
        by bisection, not by division)."""
        lo, hi = 0.0, 1e7
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.cores(mid) <= cores else (lo, mid)
        return lo


class Tiers:
    """The measured costs of benchmarks/tiers.py's JSON, as the model reads them."""

    def __init__(self, data: dict[str, Any], slower: float | None = None) -> None:
        """The costs at a machine ``slower`` times slower than the reference machine
        (reference_speed.py's ``machine_speed``); None: the speed the figures were measured at (the
        median of their runs).  Each CPU figure is scaled from its own run's speed."""
        apps, nginx, pg = data["app"], data["nginx"], data["postgres"]
        on = pg["synchronous_commit_on"]
        speeds = [x.get("times_slower", 1.0) for x in [*apps, *nginx, *on]]
        self.slower = statistics.median(speeds) if slower is None else slower

        def at(x: dict[str, Any], ms: float) -> float:  # ``x``'s CPU ms at our speed
            return float(ms) * self.slower / float(x.get("times_slower", self.slower))

        # per app process: its moves/s against its CPU per move
        self.app = Curve([(a["moves_per_s"], at(a, a["app_cpu_ms_per_move"])) for a in apps])
        self.appends_per_move = statistics.mean(a["appends_per_move"] for a in apps)
        self.nginx = Curve([(n["moves_per_s"], at(n, n["nginx_cpu_ms_per_move"]))
                            for n in nginx])
        # a process's heartbeat, paid per process per second (0 in older files)
        self.pg_idle_ms = statistics.mean(at(a, a.get("postgres_idle_cpu_ms_per_s", 0.0))
                                          for a in apps)
        # PostgreSQL per append: what it cost behind the app (its loads and lease checks
        # included) where the app runs measured it; above their rates, the store's
        # statement alone (the paced runs), scaled to the app runs' level where the two
        # meet
        live = [(rate, max(0.0, (at(a, a["postgres_cpu_ms_per_move"]) * a["moves_per_s"]
                                 - self.pg_idle_ms) / rate))
                for a in apps
                for rate in [a["moves_per_s"] * a["appends_per_move"]]]
        alone = Curve([(r["appends_per_s"], at(r, r["cpu_ms_per_append"]))
                       for r in on if r["batch"] == 1])
        top_rate, top_cost = max(live)
        at_top = alone.at(top_rate)
        scale = top_cost / at_top if at_top > 0 else 1.0  # 0: a run too short to count
        self.pg_scale = scale
        self.pg = Curve(live + [(r, c * scale) for r, c in alone.points if r > top_rate])
        self.pg_batched_ms = scale * min(at(r, r["cpu_ms_per_append"]) for r in on
                                         if r["batch"] > 1)
        self.app_kib_socket = statistics.mean(a["app_kib_per_socket"] for a in apps)
        self.app_kib_process = statistics.mean(a["app_rss_kib"]["empty"] for a in apps)
        self.nginx_kib_socket = statistics.mean(n["nginx_kib_per_socket"] for n in nginx)
        self.pg_kib_connection = float(pg["kib_per_connection"]["pss_per_connection"])

    def cores(self, moves_per_s: float, processes: int = 1) -> dict[str, float]:
        """Each part's CPU, in cores, for this many moves a second over ``processes``
        app processes (no headroom)."""
        appends = moves_per_s * self.appends_per_move
        heartbeats = processes * self.pg_idle_ms / 1000
        return {"app": processes * self.app.cores(moves_per_s / processes),
                "postgres": heartbeats + self.pg.cores(appends),
                "postgres_batched": heartbeats + appends * self.pg_batched_ms / 1000,
                "nginx": self.nginx.cores(moves_per_s)}

    def capacity(self, processes: int, app_cores: float, pg_cores: float,
                 nginx_cores: float) -> tuple[float, str]:
        """The moves/s those shares carry (``app_cores`` for each of ``processes``), and
        the part that runs out first."""
        heartbeats = processes * self.pg_idle_ms / 1000
        limits = {"app": processes * self.app.capacity(app_cores),
                  "postgres": (self.pg.capacity(max(0.0, pg_cores - heartbeats))
                               / self.appends_per_move),
                  "nginx": self.nginx.capacity(nginx_cores)}
        part = min(limits, key=lambda k: limits[k])
        return limits[part], part


def plan(tiers: Tiers, tables: int, pace: float, target: float, pool: int,
         machine_cores: int) -> dict[str, Any]:
    """Cores, memory and machines for ``tables`` at ``pace`` moves/s each."""
    moves = tables * pace
    sockets = tables * SOCKETS_PER_TABLE
    processes = math.ceil(moves / tiers.app.capacity(target))  # each at ``target`` of a core
    c = tiers.cores(moves, processes)
    gib = 1024 * 1024
    out = {
        "tables": tables, "moves_per_s": moves, "sockets": sockets,
        "appends_per_s": round(moves * tiers.appends_per_move),
        "app_cores_used": round(c["app"], 1), "app_processes": processes,
        "app_machines": math.ceil(processes / machine_cores),
        "app_memory_gib": round((sockets * tiers.app_kib_socket
                                 + processes * tiers.app_kib_process) / gib, 1),
        "nginx_cores": round(c["nginx"] / target, 1),
        "nginx_memory_gib": round(sockets * tiers.nginx_kib_socket / gib, 2),
        "postgres_cores": round(c["postgres"] / target, 1),
        "postgres_cores_batched": round(c["postgres_batched"] / target, 1),
        "postgres_connections": processes * pool,
        "postgres_connection_memory_gib": round(
            processes * pool * tiers.pg_kib_connection / gib, 1),
    }
    return out


def print_plan(rows: list[dict[str, Any]]) -> None:
    keys = list(rows[0])
    print("| " + " | ".join(["figure", *(f"{r['tables']:,} tables" for r in rows)]) + " |")
    print("|---" * (len(rows) + 1) + "|")
    for key in keys[1:]:
        print("| " + " | ".join([key, *(f"{r[key]:,}" for r in rows)]) + " |")


def cap_tree(cap: CpuCap, root: int) -> None:
    for pid in [root, *descendants(root)]:
        with contextlib.suppress(OSError):  # a process that ended meanwhile
            cap.add(pid)


def check(data: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    tiers = Tiers(data, speed())
    capacity, part = tiers.capacity(args.workers, args.app_cap, args.pg_cap, args.nginx_cap)
    print(f"model: {args.workers} app processes at {args.app_cap} of a core, PostgreSQL at "
          f"{args.pg_cap}, nginx at {args.nginx_cap}: {capacity:.0f} moves/s, "
          f"{part} runs out first", flush=True)
    out: dict[str, Any] = {"date": time.strftime("%Y-%m-%dT%H:%M:%S"),
                           "load_average_before": os.getloadavg()[0],
                           "capacity_predicted": round(capacity, 1), "first_limit": part,
                           "caps": {"app_each": args.app_cap, "workers": args.workers,
                                    "postgres": args.pg_cap, "nginx": args.nginx_cap},
                           "runs": []}
    args.cpu_cap = args.app_cap
    postgres = PostgresServer().start()
    pg_cap = CpuCap("postgres", args.pg_cap, first=args.first)
    try:
        assert postgres.proc is not None
        cap_tree(pg_cap, postgres.proc.pid)
        with tempfile.TemporaryDirectory(prefix="amerikaner-capacity-") as tmp:
            for share in (args.low, args.high):
                rooms = max(4, round(share * capacity / args.pace))
                before = speed()
                r = run_cluster(args.workers, rooms, args, Path(tmp), postgres)
                slower = (before + speed()) / 2
                # the model at the speed the machine had during this run
                now = Tiers(data, slower)
                capacity, _ = now.capacity(args.workers, args.app_cap, args.pg_cap,
                                           args.nginx_cap)
                out["runs"].append({**compare(now, r, share, capacity, args),
                                    "times_slower": round(slower, 3)})
    finally:
        postgres.stop()
        pg_cap.remove()
    return out


def speed() -> float:
    """How many times slower than the reference machine this one is now."""
    return float(reference_speed.machine_speed()["times_slower_than_reference"])


def compare(tiers: Tiers, r: dict[str, Any], share: float, capacity: float,
            args: argparse.Namespace) -> dict[str, Any]:
    """One run's figures beside the model's: each part's CPU at the moves/s delivered
    (the low run) and the moves/s delivered (the high run)."""
    moves = r["moves_per_s"]
    cpu = r["cpu_percent_by_part"]
    predicted = {k: 100 * v for k, v in tiers.cores(moves, args.workers).items()}
    measured = {"app": r["apps_cpu_percent"], "postgres": cpu["postgres"],
                "nginx": cpu["nginx"]}
    row: dict[str, Any] = {"share_of_capacity": share, "rooms": r["rooms"],
                           "moves_per_s": moves, "latency_ms": r["latency_ms"],
                           "throttled_seconds": r.get("throttled_seconds"),
                           "errors": r["errors"], "figures": []}

    def within(what: str, got: float, want: float) -> None:
        off = (got - want) / want if want else math.inf
        ok = abs(off) <= args.tolerance
        row["figures"].append({"what": what, "measured": round(got, 1),
                               "predicted": round(want, 1), "off": round(off, 3), "ok": ok})
        print(f"  {what}: measured {got:.1f}, model {want:.1f} ({100 * off:+.0f} %) "
              f"{'ok' if ok else 'OUTSIDE'}", flush=True)

    print(f"{r['rooms']} rooms ({share:g} of the capacity): {moves} moves/s, p50 "
          f"{r['latency_ms']['p50']} p99 {r['latency_ms']['p99']} ms", flush=True)
    if share < 1:
        for part in ("app", "postgres", "nginx"):
            within(f"{part} CPU, % of a core", measured[part], predicted[part])
    else:
        within("moves/s delivered", moves, capacity)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("plan", "check"))
    parser.add_argument("tiers", type=Path, help="benchmarks/tiers.py --json's file")
    parser.add_argument("--tables", default="10000,100000")
    parser.add_argument("--pace", type=float, default=1.0, help="moves/s of a table")
    parser.add_argument("--target", type=float, default=0.7,
                        help="the share of each core a plan uses")
    parser.add_argument("--pool", type=int, default=10,
                        help="PostgreSQL connections per app process")
    parser.add_argument("--machine-cores", type=int, default=16)
    parser.add_argument("--slower", type=float, default=None,
                        help="plan for a machine this many times slower than the reference "
                             "(1: the reference; default: the speed of the measurements)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--app-cap", type=float, default=0.3)
    parser.add_argument("--pg-cap", type=float, default=0.3)
    parser.add_argument("--nginx-cap", type=float, default=0.15)
    parser.add_argument("--low", type=float, default=0.6)
    parser.add_argument("--high", type=float, default=1.4)
    parser.add_argument("--tolerance", type=float, default=0.2)
    parser.add_argument("--duration", type=float, default=12.0)
    parser.add_argument("--not-first", action="store_true",
                        help="do not put the check's parts ahead of other work")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    data = json.loads(args.tiers.read_text())
    tiers = Tiers(data, args.slower)
    if args.what == "plan":
        rows = [plan(tiers, int(t), args.pace, args.target, args.pool, args.machine_cores)
                for t in args.tables.split(",")]
        print(f"(CPU at a machine {tiers.slower:.2f} times slower than the reference)")
        print_plan(rows)
        result: dict[str, Any] = {"plans": rows, "times_slower": tiers.slower}
    else:
        # the swarm's settings (benchmarks/load.py), think time from the pace
        args.think, args.warmup, args.idle_wait, args.seed = 1 / args.pace, 3.0, 2.0, 2026
        args.rules, args.min_moves, args.until_matches, args.window_cap = None, 0, 0, 300.0
        args.first = not args.not_first
        with ahead_of_other_work(args.first) as group:
            result = check(data, args)
        result["ahead_of_other_work"] = group is not None
        figures = [f for run in result["runs"] for f in run["figures"]]
        result["all_within"] = all(f["ok"] for f in figures)
        print(f"all within {100 * args.tolerance:g} %: {result['all_within']}", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
