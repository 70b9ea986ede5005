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
that its figures hold while other work runs. The machine's speed (benchmarks/engine.py's
deals per CPU second against the reference machine's, reference_speed.py's
``machine_speed``) is measured before and after each run (three runs of
``--speed-seconds``, 0.5 s, each time) and kept with its figures as ``times_slower``:
this virtual machine's speed moves by a third within minutes, and benchmarks/capacity.py
compares CPU costs at the same speed. A figure "per core" is the inverse of the CPU per
unit: what one core does when that part has it to itself. Prints one JSON document;
``--only app,nginx,postgres`` picks parts.
Loopback only; needs PostgreSQL and nginx (scripts/test.sh installs them).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE), str(HERE.parent / "tests")]

import reference_speed  # noqa: E402
from cpucap import ahead_of_other_work  # noqa: E402
from tier_postgres import measure_postgres  # noqa: E402
from tier_swarm import measure_app, measure_nginx  # noqa: E402


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
