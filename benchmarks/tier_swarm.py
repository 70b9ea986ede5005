"""The app and nginx tiers of benchmarks/tiers.py, each played by the load swarm: one
``amerikaner serve`` on PostgreSQL (its CPU, PostgreSQL's and the appends per move, memory
per socket, PostgreSQL's idle CPU), and benchmarks/floor_server.py behind nginx (the
nginx worker's CPU per move and memory per socket).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE), str(HERE.parent / "tests")]

import httpx  # noqa: E402
import load_servers  # noqa: E402
from cluster_load import Sampler, descendants, tree_cpu  # noqa: E402
from nginx_server import NginxServer, without_rate_limits  # noqa: E402
from pg_server import PostgresServer  # noqa: E402
from serve_process import ServeProcess, free_port  # noqa: E402
from tier_units import per, times_slower  # noqa: E402


def metric(base: str, name: str) -> float:
    """The sum of a metric's samples (all labels) on the app's /metrics."""
    text = httpx.get(f"{base}/metrics", timeout=10).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name) and line[len(name)] in " {")


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
