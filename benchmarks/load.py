"""Server throughput and memory under rooms of four people playing at a human pace.

    python benchmarks/load.py                        # 100 rooms, 1 s think, 20 s window
    python benchmarks/load.py --rooms 100,250 --duration 20
    python benchmarks/load.py --search --max-rooms 2000 --duration 15

For each room count a real ``amerikaner serve`` (loopback, a temporary data folder, rate
limits and the room cap lifted, warnings-only logs) is played by a swarm of scripted
players in another process (benchmarks/swarm.py): every room has four people on four
WebSockets, each acting ``--think`` seconds (jittered +-50 %) after its turn comes.  After
``--warmup`` seconds of play a ``--duration`` window measures:

- moves per second (game actions that reached all four seats);
- latency from sending an action until all four seats of the room hold a state that
  reflects it: p50, p99, max;
- the server's CPU per move (utime + stime from ``/proc/PID/stat`` over the window,
  divided by the moves), its share of one core, and the swarm's own CPU (so that one sees
  the swarm is not what saturates first);
- the server's RSS empty, per idle room of four connected sockets (all rooms connected in
  the lobby for ``--idle-wait`` seconds, the growth divided by the rooms) and busy.

In the same run the same swarm plays benchmarks/floor_server.py, a bare FastAPI WebSocket
broadcast server under the same uvicorn settings (one message in, four frames of the real
run's mean state frame size out, no game): its CPU per move is the floor, and the ratio
real / floor is printed.  ``--no-floor`` skips it; ``--plain-floor`` adds the same floor
as a plain ASGI callable (``plain``), to show what FastAPI costs per connection.

``--search`` looks for the largest room count whose p99 stays under ``--p99-ms`` (150):
doubling from the first ``--rooms`` value, then bisection, each step a fresh server and a
bounded run (no floor), at most ``--max-rooms`` rooms and ``--max-steps`` steps; a count
that fails is measured ``--confirm`` (1) more times and fails only if every run fails.

``--min-moves N`` and ``--until-matches N`` end the window on events rather than on the
clock: it lasts ``--duration`` and then until every room has had N moves in it (actions
that reached all four seats) and, on the real server, its host has said ``rematch`` N
times in it (N matches ended; the floor has no matches); the swarm then waits until every
action sent in the window has landed.  What the window holds then follows from events, on
a machine of any speed: tests/test_load_benchmark.py uses them.  A goal not reached within
``--window-cap`` seconds (300) of window fails the run.  The figures per second are then
over a window whose length the events chose.

Everything is bounded in time (the swarm is killed after its setup allowance plus the
run) and only loopback addresses are used.  ``--workers N`` (N > 1) measures 1 and then N
server processes behind nginx sharing one PostgreSQL (benchmarks/cluster_load.py, which
needs both installed: scripts/test.sh does).  ``--json PATH`` writes all results.
``--gc-probe`` loads benchmarks/gcprobe into the server (``PYTHONPATH``) and prints its
garbage collections of over 5 ms in the window: the slow moves of a run, counted per second
(``slow_moves_by_second``), fall in the seconds of the long collections.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from load_points import run_point, search
from reference_speed import SPEED_SECONDS, machine_speed


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", default="100",
                        help="room counts, comma-separated (default 100); with --search "
                             "the first is where the search starts")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a person waits before acting, jittered +-50%%")
    parser.add_argument("--duration", type=float, default=20.0, help="measuring window, s")
    parser.add_argument("--min-moves", type=int, default=0, metavar="N",
                        help="keep the window open past --duration until every room has "
                             "had N moves in it")
    parser.add_argument("--until-matches", type=int, default=0, metavar="N",
                        help="keep the window open past --duration until every room has "
                             "ended N matches in it (its host said rematch; the real "
                             "server only)")
    parser.add_argument("--window-cap", type=float, default=300.0,
                        help="with --min-moves or --until-matches: fail if the window's "
                             "goal is not reached in this many seconds")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds of play before the window (default 2 think + 1)")
    parser.add_argument("--idle-wait", type=float, default=2.0,
                        help="seconds all rooms sit connected and idle before the RSS read")
    parser.add_argument("--search", action="store_true",
                        help="find the largest room count whose p99 holds")
    parser.add_argument("--max-rooms", type=int, default=2000)
    parser.add_argument("--max-steps", type=int, default=8)
    parser.add_argument("--p99-ms", type=float, default=150.0)
    parser.add_argument("--confirm", type=int, default=1,
                        help="--search: measure a failing count this many times more; it "
                             "fails only if every run fails (other work on a shared machine "
                             "makes single spikes)")
    parser.add_argument("--no-floor", action="store_true",
                        help="skip the bare broadcast server")
    parser.add_argument("--plain-floor", action="store_true",
                        help="also the floor as a plain ASGI callable (no FastAPI)")
    parser.add_argument("--workers", type=int, default=1,
                        help="N > 1: 1 and then N server processes behind nginx with "
                             "PostgreSQL, in the same run (benchmarks/cluster_load.py)")
    parser.add_argument("--cpu-cap", type=float, default=None, metavar="CORES",
                        help="with --workers: each app process gets this share of a core "
                             "(benchmarks/cpucap.py)")
    parser.add_argument("--gc-probe", action="store_true",
                        help="log the server's garbage collections over 5 ms and count "
                             "those of the window (benchmarks/gcprobe)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--speed-seconds", type=float, default=SPEED_SECONDS,
                        help="each of the three runs that measure the machine's speed "
                             "(a test's tiny run: less)")
    parser.add_argument("--rules", type=json.loads, default=None,
                        help='the rooms\' rule set as JSON, e.g. \'{"preset": "standard", '
                             '"match": "deals:2"}\' (default: the server\'s)')
    parser.add_argument("--json", type=Path, default=None, help="write every result here")
    args = parser.parse_args(argv)
    try:
        args.rooms = [int(n) for n in args.rooms.split(",")]
    except ValueError:
        parser.error("--rooms: whole numbers separated by commas")
    if min(args.rooms) < 1 or args.duration <= 0 or args.think < 0 or args.max_rooms < 1:
        parser.error("--rooms, --duration and --max-rooms must be positive, --think not "
                     "negative")
    if args.min_moves < 0 or args.until_matches < 0 or args.window_cap < args.duration:
        parser.error("--min-moves and --until-matches must not be negative, --window-cap "
                     "not shorter than --duration")
    if args.workers < 1:
        parser.error("--workers: at least 1")
    if args.workers > 1 and args.search:
        parser.error("--workers: not with --search")
    if args.cpu_cap is not None and args.workers == 1:
        parser.error("--cpu-cap: with --workers N (the cap is for the processes behind nginx)")
    if args.warmup is None:
        args.warmup = 2 * args.think + 1
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.workers > 1:
        # Several processes behind nginx: cluster_load.py runs them, run as a program
        # (it imports this benchmark's modules, load_servers.py and load_points.py).
        rooms = ",".join(str(n) for n in args.rooms)
        cluster = ["--workers", str(args.workers), "--rooms", rooms, "--think", str(args.think),
                   "--duration", str(args.duration), "--warmup", str(args.warmup),
                   "--idle-wait", str(args.idle_wait), "--p99-ms", str(args.p99_ms),
                   "--seed", str(args.seed), "--min-moves", str(args.min_moves),
                   "--until-matches", str(args.until_matches),
                   "--window-cap", str(args.window_cap)]
        if args.rules is not None:
            cluster += ["--rules", json.dumps(args.rules)]
        if args.json is not None:
            cluster += ["--json", str(args.json)]
        if args.cpu_cap is not None:
            cluster += ["--cpu-cap", str(args.cpu_cap)]
        script = Path(__file__).with_name("cluster_load.py")
        return subprocess.run([sys.executable, str(script), *cluster], check=False).returncode
    out: dict[str, Any] = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform(),
                    **machine_speed(args.speed_seconds)},
        "think_s": args.think, "warmup_s": args.warmup, "duration_s": args.duration,
        "min_moves": args.min_moves, "until_matches": args.until_matches,
    }
    args.times_slower = out["machine"]["times_slower_than_reference"]
    with tempfile.TemporaryDirectory(prefix="amerikaner-load-") as tmp:
        if args.search:
            out["search"] = search(args, Path(tmp))
        else:
            out["points"] = [run_point(n, args, Path(tmp), floor=not args.no_floor)
                             for n in args.rooms]
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
