"""The rooms server measured for real: deals and actions per second, latency and memory,
against the engine alone in the same run.

    python benchmarks/rooms.py [--rooms 20] [--seconds 20] [--bots random]

A real ``amerikaner serve`` process on a free loopback port with a temporary data folder
(bots act at once, rate limits out of the way, warnings-only logs).  ``--rooms`` rooms are
created over HTTP; each gets one real WebSocket client (``websockets``) holding seat 0
against three ``--bots`` bots.  The client plays a random legal action whenever its view
says it is its turn (the rooms tests' ``pick_action``: any K cards for the discard), sends
``ready`` after every deal and ``rematch`` after every match, for ``--seconds``.

Printed (JSON on stdout):

- ``server``: scored deals per second over all rooms, room changes per second (every
  version a client saw: game actions plus one ``ready`` per deal), the client's own
  actions per second, and the latency from sending an action to receiving the state frame
  that holds it (median, p95, max); CPU used by the server process and by this script,
  and deals per CPU second of the server (the figure a busy machine changes least);
- ``memory_kib``: the server's VmRSS when idle, after creating the rooms, with every
  client connected, and at the end; the growth per room;
- ``sqlite``: the database's size after the run, per room and per log entry;
- ``engine``: the same number of scored deals played in this process by ``Match`` with
  the same bots (a random bot in seat 0), nothing else; ``ratios`` compares the two;
- ``in_process_ms``: the costs of one change measured in this process: the store's append
  on a mid-deal room, the four seats' views built and serialized, a bot decision.

Traffic goes only to 127.0.0.1.  The server is stopped at the end, on errors and on Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import datetime
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rooms"))

from procstat import cpu_seconds, rss_kib  # noqa: E402
from room_clients import RULES_JSON, RoomClient, RoomStats  # noqa: E402
from room_costs import engine_baseline, in_process_costs  # noqa: E402
from rooms_harness import create_room  # noqa: E402
from serve_process import ServeProcess  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from app.bots import BOT_LEVELS  # noqa: E402

SERVER_ENV = {
    "AMERIKANER_HOST": "127.0.0.1",
    "AMERIKANER_BOT_DELAY": "0",          # bots act at once: the server is the bottleneck
    "AMERIKANER_RATE": "1000000",         # a scripted client acts far faster than 10/s
    "AMERIKANER_BURST": "1000000",
    "AMERIKANER_NEXT_DEAL_PAUSE": "60",   # the next deal starts on the client's ready
    "AMERIKANER_LOG_LEVEL": "warning",    # no access log lines on the measured loop
    "AMERIKANER_ROOMS_PER_MINUTE": "0",   # every client comes from 127.0.0.1: no per-address
    "AMERIKANER_ROOMS_HELD": "0",
    "AMERIKANER_CONNECTIONS_PER_ADDRESS": "0",  # limits
    "AMERIKANER_WS_PER_ADDRESS": "0",
}


async def run_rooms(server: ServeProcess, pid: int, rooms: int, seconds: float,
                    bots: str) -> dict[str, Any]:
    memory = {"idle": rss_kib(pid)}
    created = [create_room(server.base, f"Bench {i}", rules=RULES_JSON) for i in range(rooms)]
    memory["rooms_created"] = rss_kib(pid)
    clients = [RoomClient(server.base, c["room"], c["token"], seed=i)
               for i, c in enumerate(created)]
    try:
        await asyncio.gather(*(c.open(bots) for c in clients))
        memory["rooms_connected"] = rss_kib(pid)
        cpu0, own0 = cpu_seconds(pid), time.process_time()
        start = time.perf_counter()
        await asyncio.gather(*(c.play(start + seconds) for c in clients))
        elapsed = time.perf_counter() - start
        server_cpu, own_cpu = cpu_seconds(pid) - cpu0, time.process_time() - own0
        memory["end"] = rss_kib(pid)
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    return summarize(clients, memory, rooms, elapsed, server_cpu, own_cpu)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarize(clients: list[RoomClient], memory: dict[str, int], rooms: int, elapsed: float,
              server_cpu: float, own_cpu: float) -> dict[str, Any]:
    def total(get: Callable[[RoomStats], int]) -> int:
        return sum(get(c.stats) for c in clients)

    latencies = [t for c in clients for t in c.stats.latencies]
    errors: collections.Counter[str] = collections.Counter()
    for c in clients:
        errors.update(c.stats.errors)
    frames = total(lambda s: s.frames)
    deals = total(lambda s: s.deals)
    changes = total(lambda s: s.changes)
    server = {
        "seconds": round(elapsed, 2),
        "deals": deals,
        "deals_per_s": round(deals / elapsed, 1),
        "changes_per_s": round(changes / elapsed),
        "client_actions_per_s": round(total(lambda s: s.actions) / elapsed),
        "latency_ms": {
            "median": round(1000 * statistics.median(latencies), 2) if latencies else None,
            "p95": round(1000 * percentile(latencies, 0.95), 2) if latencies else None,
            "max": round(1000 * max(latencies), 2) if latencies else None,
            "samples": len(latencies),
        },
        "state_frame_bytes_mean": round(total(lambda s: s.frame_bytes) / frames) if frames else 0,
        "errors": dict(errors),
        "server_cpu_percent": round(100 * server_cpu / elapsed),
        # per CPU second of the server: what a busy machine changes least
        "deals_per_server_cpu_s": round(deals / server_cpu, 1) if server_cpu else None,
        "server_cpu_ms_per_change": round(1000 * server_cpu / changes, 3) if changes else None,
        "client_cpu_percent": round(100 * own_cpu / elapsed),
    }
    idle = memory["idle"]
    memory_out: dict[str, Any] = dict(memory)
    memory_out["per_room_created"] = round((memory["rooms_created"] - idle) / rooms, 1)
    memory_out["per_room_connected"] = round((memory["rooms_connected"] - idle) / rooms, 1)
    memory_out["per_room_end"] = round((memory["end"] - idle) / rooms, 1)
    return {"server": server, "memory_kib": memory_out}


def sqlite_size(data_dir: Path, rooms: int) -> dict[str, Any]:
    """The database after the server stopped (its WAL checkpointed into the file)."""
    path = data_dir / "amerikaner.sqlite3"
    size = sum(p.stat().st_size for p in data_dir.glob("amerikaner.sqlite3*"))
    with sqlite3.connect(path) as db:
        stored = db.execute("SELECT count(*) FROM log").fetchone()[0]
    return {"bytes": size, "bytes_per_room": round(size / rooms),
            "log_entries": stored, "bytes_per_entry": round(size / stored) if stored else None}


# -- main ---------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--bots", choices=BOT_LEVELS, default="random",
                        help="the level of the three bots of every room (default random)")
    args = parser.parse_args()
    if args.rooms < 1 or args.seconds <= 0:
        parser.error("--rooms must be at least 1 and --seconds above 0")
    rng = random.Random(2026)
    out: dict[str, Any] = {
        "date": datetime.date.today().isoformat(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform(),
                    "load_average_before": os.getloadavg()[0]},
        "rooms": args.rooms, "bots": args.bots, "rules": RULES_JSON,
    }
    with tempfile.TemporaryDirectory(prefix="amerikaner-bench-") as tmp:
        data_dir = Path(tmp) / "data"
        server = ServeProcess(data_dir, SERVER_ENV)
        try:
            server.start()
            assert server.proc is not None
            out.update(asyncio.run(run_rooms(server, server.proc.pid, args.rooms,
                                             args.seconds, args.bots)))
        except BaseException:
            log = server.stop() if server.proc is not None else ""
            if log:
                print(f"server output:\n{log[-4000:]}", file=sys.stderr)
            raise
        proc = server.proc  # stop() forgets the process; its exit status is read after
        log = server.stop()
        if proc is not None and proc.returncode not in (0, -15):
            print(f"server exited with {proc.returncode}:\n{log[-4000:]}", file=sys.stderr)
        out["sqlite"] = sqlite_size(data_dir, args.rooms)
        out["engine"] = engine_baseline(max(out["server"]["deals"], 1), args.bots, rng)
        out["ratios"] = {"server_deals_per_s/engine_deals_per_s": round(
            out["server"]["deals_per_s"] / out["engine"]["deals_per_s"], 3)}
        out["in_process_ms"] = in_process_costs(Path(tmp), rng)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the server is stopped by then
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except ConnectionClosed as exc:  # Ctrl-C in a terminal reaches the server too
        print(f"the server closed a connection ({exc}); stopped", file=sys.stderr)
        sys.exit(1)
