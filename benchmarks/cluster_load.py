"""``benchmarks/load.py``'s swarm against several server processes behind nginx: the
moves per second and latency of 1 process and of ``--workers`` processes, in the same
run, each with one PostgreSQL and nginx in front (``deploy/nginx.conf``).

    python benchmarks/cluster_load.py --workers 2 --rooms 200,400 --duration 15

For each room count and each process count (1, then ``--workers``): a fresh throwaway
PostgreSQL database, that many ``amerikaner serve --database-url`` processes, nginx on
loopback routing by room code, and the swarm of benchmarks/swarm.py (four people per
room, ``--think`` seconds per move) against nginx's address.  The swarm's own figures
(moves/s, p50/p99/max latency, its CPU) are printed as load.py prints them; its
``server`` CPU and memory are the first process's only, so this script also samples the
CPU of every part from ``/proc`` (each app process, nginx, PostgreSQL with its backends)
over the swarm's measuring window.  ``ratio`` is moves/s of ``--workers`` processes over
1 process where both kept p99 under ``--p99-ms``; ``best_ratio`` the same for the most
moves/s that each process count delivered under that bound over all ``--rooms``.

``--cpu-cap CORES`` gives each app process that share of a core (a control group's CPU
quota, benchmarks/cpucap.py, as a container's ``--cpus`` does): on this 2-core machine the
swarm, PostgreSQL and nginx share the cores with the apps, and one uncapped process never
runs out of CPU before the machine does, so without a cap the figures show the machine's
limit, not what a second process adds.

``--min-moves``, ``--until-matches`` and ``--window-cap`` end the swarm's window on events,
as in load.py (tests/cluster/test_cluster_benchmark.py uses them).

It needs benchmarks/load.py and swarm.py (the load benchmark) beside it, PostgreSQL and
nginx (scripts/test.sh installs them).  Bounded in time; loopback only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import load_points  # noqa: E402  (benchmarks/load.py's: whether a point holds)
import load_servers  # noqa: E402  (benchmarks/load.py's: the swarm's runner)
from cpucap import CpuCap  # noqa: E402
from nginx_server import NginxServer, without_rate_limits  # noqa: E402
from pg_server import PostgresServer  # noqa: E402
from procstat import cpu_seconds  # noqa: E402
from serve_process import ServeProcess  # noqa: E402


def descendants(root: int) -> list[int]:
    """Every process below ``root`` (PostgreSQL's backends, nginx's workers), now."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every process below it, so far; processes that ended
    are not counted."""
    total = 0.0
    for pid in [root, *descendants(root)]:
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


class Sampler(threading.Thread):
    """CPU seconds of each named process tree, every half second, with the time; and the
    figures ``counters`` reads (benchmarks/tiers.py: the app's own counters)."""

    def __init__(self, roots: dict[str, int],
                 counters: Callable[[], dict[str, float]] | None = None) -> None:
        super().__init__(daemon=True)
        self.roots, self.counters = roots, counters
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            row = {n: tree_cpu(p) for n, p in self.roots.items()}
            if self.counters is not None:
                row |= self.counters()
            self.samples.append((time.time(), row))
            self.done.wait(0.5)

    def delta(self, start: float, end: float) -> tuple[float, dict[str, float]]:
        """Seconds between the samples nearest ``start`` and ``end`` (epoch), and each
        figure's change between them."""
        first = min(self.samples, key=lambda s: abs(s[0] - start))
        last = min(self.samples, key=lambda s: abs(s[0] - end))
        return last[0] - first[0], {k: last[1][k] - first[1][k] for k in first[1]}

    def window_percent(self, start: float, end: float) -> dict[str, float]:
        """Each tree's CPU over ``[start, end]`` (epoch), in % of one core."""
        span, change = self.delta(start, end)
        span = max(span, 1e-6)
        return {n: round(100 * change[n] / span, 1) for n in self.roots}


def run_cluster(workers: int, rooms: int, args: argparse.Namespace, tmp: Path,
                postgres: PostgresServer) -> dict[str, Any]:
    url = postgres.create_database(f"load{workers}x{rooms}x{time.monotonic_ns()}")
    env = {**load_servers.SERVER_ENV, "AMERIKANER_MAX_ROOMS": str(max(2000, 2 * rooms)),
           "AMERIKANER_DATABASE_URL": url}
    apps: list[ServeProcess] = []
    caps: list[CpuCap] = []
    nginx: NginxServer | None = None
    try:
        for i in range(workers):
            apps.append(ServeProcess(tmp / f"app{workers}-{rooms}-{i}", env).start())
            if args.cpu_cap is not None:
                caps.append(CpuCap(f"app{workers}x{rooms}x{i}", args.cpu_cap,
                                   first=getattr(args, "first", False)))
                caps[-1].add(apps[-1].pid)
        # the swarm is one address for every room: nginx's per-address rates lifted
        nginx = NginxServer([a.port for a in apps], edit=without_rate_limits).start()
        nginx_cap = getattr(args, "nginx_cap", None)  # benchmarks/capacity.py's check
        if nginx_cap is not None and nginx.proc is not None:
            caps.append(CpuCap(f"nginx{workers}x{rooms}", nginx_cap, first=args.first))
            for pid in [nginx.proc.pid, *descendants(nginx.proc.pid)]:
                caps[-1].add(pid)
        roots = {f"app{i + 1}": a.proc.pid for i, a in enumerate(apps) if a.proc}
        assert nginx.proc is not None and postgres.proc is not None
        roots |= {"nginx": nginx.proc.pid, "postgres": postgres.proc.pid}
        sampler = Sampler(roots)
        sampler.start()
        first = apps[0].proc
        assert first is not None
        throttled = [cap.throttled_seconds() for cap in caps]
        try:
            result = load_servers.swarm_run(nginx.base, first.pid, "game", rooms, args)
        finally:
            sampler.done.set()
            sampler.join()
        if caps:
            result["cpu_cap_cores"] = args.cpu_cap
            result["throttled_seconds"] = [round(cap.throttled_seconds() - before, 2)
                                           for cap, before in zip(caps, throttled, strict=True)]
        cpu = sampler.window_percent(*result["window_epoch"])
        result["cpu_percent_by_part"] = cpu
        result["apps_cpu_percent"] = round(sum(v for k, v in cpu.items()
                                               if k.startswith("app")), 1)
        result["workers"] = workers
        return result
    finally:
        if nginx is not None:
            nginx.stop()
        for app in apps:
            app.stop()
        for cap in caps:
            cap.remove()


def best_held(points: list[dict[str, Any]], workers: int, p99_ms: float) -> float | None:
    """The most moves/s that ``workers`` processes delivered with p99 under the bound."""
    held = [p[f"workers_{workers}"]["moves_per_s"] for p in points
            if load_points.holds({"real": p[f"workers_{workers}"]}, p99_ms)]
    return max(held, default=None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rooms", default="200", help="room counts, comma-separated")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=None)
    parser.add_argument("--idle-wait", type=float, default=2.0)
    parser.add_argument("--min-moves", type=int, default=0,
                        help="the window lasts until every room had this many moves in it")
    parser.add_argument("--until-matches", type=int, default=0,
                        help="... and until every room ended this many matches in it")
    parser.add_argument("--window-cap", type=float, default=300.0,
                        help="fail if those events have not come in this many seconds")
    parser.add_argument("--p99-ms", type=float, default=150.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rules", type=json.loads, default=None,
                        help="the rooms' rule set as JSON (default: the server's)")
    parser.add_argument("--cpu-cap", type=float, default=None, metavar="CORES",
                        help="each app process gets this share of a core (e.g. 0.25)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    args.rooms = [int(n) for n in args.rooms.split(",")]
    if args.warmup is None:
        args.warmup = 2 * args.think + 1
    if args.workers < 2:
        parser.error("--workers: at least 2 (1 process is always measured too)")
    out: dict[str, Any] = {"date": time.strftime("%Y-%m-%dT%H:%M:%S"),
                           "cpus": os.cpu_count(), "cpu_cap_cores": args.cpu_cap,
                           "points": []}
    postgres = PostgresServer().start()
    try:
        with tempfile.TemporaryDirectory(prefix="amerikaner-cluster-load-") as tmp:
            for rooms in args.rooms:
                point: dict[str, Any] = {"rooms": rooms,
                                         "load_average_before": os.getloadavg()[0]}
                for workers in (1, args.workers):
                    r = run_cluster(workers, rooms, args, Path(tmp), postgres)
                    point[f"workers_{workers}"] = r
                    lat = r["latency_ms"]
                    print(f"{workers} process(es), {rooms} rooms: {r['moves_per_s']} moves/s"
                          f" | p50 {lat['p50']} p99 {lat['p99']} max {lat['max']} ms | CPU % "
                          f"of a core {r['cpu_percent_by_part']} | swarm "
                          f"{r['swarm_cpu_percent']} % | throttled "
                          f"{r.get('throttled_seconds', '-')} s"
                          f" | refused {r['errors'] or 'none'}",
                          flush=True)
                one, many = point["workers_1"], point[f"workers_{args.workers}"]
                if all(load_points.holds({"real": x}, args.p99_ms) for x in (one, many)):
                    point["ratio"] = round(many["moves_per_s"] / one["moves_per_s"], 2)
                print(f"   {rooms} rooms: {args.workers} processes / 1 process, moves/s: "
                      f"{point.get('ratio', 'n/a (p99 over the bound)')}", flush=True)
                out["points"].append(point)
        best = {w: best_held(out["points"], w, args.p99_ms) for w in (1, args.workers)}
        out["best_moves_per_s"] = best
        single, several = best[1], best[args.workers]
        if single and several:
            out["best_ratio"] = round(several / single, 2)
        print(f"the most moves/s with p99 under {args.p99_ms:g} ms: 1 process {best[1]}, "
              f"{args.workers} processes {best[args.workers]}; ratio "
              f"{out.get('best_ratio', 'n/a')}", flush=True)
    finally:
        postgres.stop()
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
