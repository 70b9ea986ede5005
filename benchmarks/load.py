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
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402
from serve_process import ServeProcess, free_port  # noqa: E402

SERVER_ENV = {
    "AMERIKANER_HOST": "127.0.0.1",
    "AMERIKANER_RATE": "1000",             # scripted people never trip the rate limit
    "AMERIKANER_BURST": "1000",
    "AMERIKANER_NEXT_DEAL_PAUSE": "60",    # the next deal starts when all four are ready
    "AMERIKANER_LOG_LEVEL": "warning",     # no access log lines on the measured loop
    "AMERIKANER_ROOMS_PER_MINUTE": "0",    # every scripted person comes from 127.0.0.1:
    "AMERIKANER_ROOMS_HELD": "0",          # no per-address limits
    "AMERIKANER_CONNECTIONS_PER_ADDRESS": "0",
    "AMERIKANER_WS_PER_ADDRESS": "0",
}
FLOORS = (("floor", False), ("plain", True))  # FastAPI route; plain ASGI (--plain-floor)
SETUP_S_PER_ROOM = 0.1                     # the swarm's allowance to create and connect
SETUP_S_MIN = 60.0
FLOOR_START_S = 60.0                       # the floor server answers /healthz within this


def swarm_run(base: str, pid: int, mode: str, rooms: int, args: argparse.Namespace
              ) -> dict[str, Any]:
    """Run benchmarks/swarm.py against one server; its JSON result."""
    cfg = {"base": base, "server_pid": pid, "mode": mode, "rooms": rooms,
           "think": args.think, "warmup": args.warmup, "duration": args.duration,
           "idle_wait": args.idle_wait, "seed": args.seed, "rules": args.rules,
           "min_moves": args.min_moves, "until_matches": args.until_matches,
           "window_cap": args.window_cap}
    # a window ended by events lasts at most the cap, and so does the wait for its last
    # actions after it
    window = (2 * args.window_cap if args.min_moves or args.until_matches
              else args.duration)
    bound = (SETUP_S_MIN + SETUP_S_PER_ROOM * rooms + args.idle_wait + args.warmup
             + window + 30)
    proc = subprocess.run([sys.executable, str(HERE / "swarm.py"), json.dumps(cfg)],
                          capture_output=True, text=True, timeout=bound, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"the swarm failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def run_real(rooms: int, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    env = {**SERVER_ENV, "AMERIKANER_MAX_ROOMS": str(max(2000, 2 * rooms))}
    if args.gc_probe:
        env["PYTHONPATH"] = str(HERE / "gcprobe")
    server = ServeProcess(tmp / f"data-{rooms}-{time.monotonic_ns()}", env)
    server.start()
    proc = server.proc
    assert proc is not None
    log = ""
    try:
        result = swarm_run(server.base, proc.pid, "game", rooms, args)
    except BaseException:
        print(f"server output:\n{server.stop()[-4000:]}", file=sys.stderr)
        raise
    finally:
        log = server.stop()
        if proc.returncode not in (0, -15):
            print(f"the server exited with {proc.returncode}:\n{log[-4000:]}",
                  file=sys.stderr)
    if args.gc_probe:
        result["gc_pauses"] = gc_pauses(log, result["window_epoch"])
    return result


def gc_pauses(log: str, window: list[float]) -> dict[str, Any]:
    """The server's collections over 5 ms in the window (benchmarks/gcprobe), by generation:
    how many, their total and the longest, in ms; and ``over_50ms``: [second of the window
    it ended in, generation, ms] of the long ones, to set beside ``slow_moves_by_second``."""
    out: dict[str, Any] = {}
    long: list[list[float]] = []
    for line in log.splitlines():
        if not line.startswith("GCPROBE "):
            continue
        _, at, generation, ms = line.split()
        if window[0] <= float(at) <= window[1]:
            g = out.setdefault(f"gen{generation}", {"count": 0, "total_ms": 0.0, "max_ms": 0.0})
            g["count"] += 1
            g["total_ms"] = round(g["total_ms"] + float(ms), 1)
            g["max_ms"] = max(g["max_ms"], float(ms))
            if float(ms) > 50:
                long.append([int(float(at) - window[0]), int(generation), float(ms)])
    if long:
        out["over_50ms"] = long
    return out


def answers(base: str, proc: subprocess.Popen[bytes]) -> bool:
    """Whether the server ``proc`` at ``base`` answers ``/healthz`` within FLOOR_START_S
    (generous: a busy machine is slow); ``False`` if it ends or never answers.  One client
    for every poll: httpx.get makes a client each time, whose TLS context alone costs
    some 20 ms of CPU."""
    deadline = time.monotonic() + FLOOR_START_S
    with httpx.Client(timeout=1) as http:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if http.get(f"{base}/healthz").status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    return False


def run_floor(rooms: int, frame_bytes: int, args: argparse.Namespace, tmp: Path,
              plain: bool = False) -> dict[str, Any]:
    port = free_port()
    log_path = tmp / f"floor-{port}.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "floor_server.py"), "--port", str(port),
             "--frame-bytes", str(frame_bytes), *(["--plain-asgi"] if plain else [])],
            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        if not answers(base, proc):
            raise RuntimeError(f"the floor server did not start:\n{log_path.read_text()}")
        return swarm_run(base, proc.pid, "floor", rooms, args)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_point(rooms: int, args: argparse.Namespace, tmp: Path, floor: bool
              ) -> dict[str, Any]:
    """One room count: the real server, then (``floor``) the bare broadcast server."""
    point: dict[str, Any] = {"rooms": rooms, "load_average_before": os.getloadavg()[0],
                             "real": run_real(rooms, args, tmp)}
    frame = point["real"]["state_frame_bytes_mean"] or 2000
    real_ms = point["real"]["server_cpu_ms_per_move"]
    for name, plain in FLOORS:
        if not floor or (plain and not args.plain_floor):
            continue
        point[name] = run_floor(rooms, frame, args, tmp, plain)
        floor_ms = point[name]["server_cpu_ms_per_move"]
        if real_ms and floor_ms:
            point[f"real_over_{name}_cpu_per_move"] = round(real_ms / floor_ms, 2)
    slower = getattr(args, "times_slower", None)
    if real_ms and slower:
        point["real_cpu_ms_per_move_on_reference"] = round(real_ms / slower, 3)
    print_point(point, args.p99_ms)
    return point


def holds(point: dict[str, Any], p99_ms: float) -> bool:
    real = point["real"]
    p99 = real["latency_ms"]["p99"]
    return p99 is not None and p99 < p99_ms and not real["sockets_closed_by_server"]


def search(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """Doubling, then bisection: the largest room count whose p99 holds."""
    good: int | None = None
    bad: int | None = None
    n = args.rooms[0]
    steps: list[dict[str, Any]] = []
    while len(steps) < args.max_steps and n >= 1:
        point = run_point(n, args, tmp, floor=False)
        ok = holds(point, args.p99_ms)
        for _ in range(args.confirm):
            if ok:
                break
            print(f"      measuring {n} rooms again (other work on the machine?)")
            point = run_point(n, args, tmp, floor=False)
            ok = holds(point, args.p99_ms)
        steps.append({"rooms": n, "holds": ok, "p99_ms": point["real"]["latency_ms"]["p99"],
                      "moves_per_s": point["real"]["moves_per_s"],
                      "server_cpu_percent": point["real"]["server_cpu_percent"],
                      "swarm_cpu_percent": point["real"]["swarm_cpu_percent"]})
        if ok:
            good = n
        else:
            bad = n
        if good is not None and good >= args.max_rooms:
            break
        if bad is None:
            assert good is not None
            n = min(2 * good, args.max_rooms)
        elif good is None:
            n = bad // 2
        elif bad - good <= max(10, good // 10):  # close enough for a shared machine
            break
        else:
            n = (good + bad) // 2
    print(f"search: the largest count whose p99 stays under {args.p99_ms:g} ms: "
          f"{f'{good} rooms' if good is not None else 'none'}"
          f"{'' if bad is not None else ' (no failing count found)'}")
    return {"largest_holding": good, "smallest_failing": bad, "steps": steps}


def print_point(point: dict[str, Any], p99_ms: float) -> None:
    for name in ("real", "floor", "plain"):
        r = point.get(name)
        if r is None:
            continue
        lat = r["latency_ms"]
        mem = r["memory_kib"]
        extra = ""
        if r["slow_moves_by_second"]:
            slow = r["slow_moves_by_second"]
            extra += (f" | moves over 100 ms in {len(slow)} of {round(r['seconds'])} s"
                      f" (most {max(slow.values())} in one second)")
        if "gc_pauses" in r:
            gens = {k: v for k, v in r["gc_pauses"].items() if k.startswith("gen")}
            extra += f" | GC pauses over 5 ms {gens or 'none'}"
        goal = r.get("window_goal")
        if goal:
            extra += (f" | the window closed on events (every room {goal['fewest_moves']}+ "
                      f"moves, {goal['fewest_matches']}+ matches)")
        if r["actions_incomplete"]:
            extra += f" | {r['actions_incomplete']} actions not seen by all four"
        if r["swarm_errors"]:
            extra += f" | THE SWARM FAILED ON FRAMES {r['swarm_errors']}"
        if r["errors"]:
            extra += f" | refused {r['errors']}"
        if r["sockets_closed_by_server"]:
            extra += f" | closed by the server {r['sockets_closed_by_server']}"
        print(f"{name:5} rooms {r['rooms']:5} sockets {r['sockets']:5} | "
              f"{r['moves_per_s']:7.1f} moves/s | p50 {lat['p50']} p99 {lat['p99']} "
              f"max {lat['max']} ms | server {r['server_cpu_ms_per_move']} ms CPU/move, "
              f"{r['server_cpu_percent']} % of a core | swarm {r['swarm_cpu_percent']} % | "
              f"RSS empty {mem['empty'] / 1024:.1f} MiB, +{mem['per_idle_room']} KiB per idle "
              f"room, busy {mem['busy'] / 1024:.1f} MiB | frame {r['state_frame_bytes_mean']} B"
              f"{extra}", flush=True)
    if "real_cpu_ms_per_move_on_reference" in point:
        print(f"      server CPU per move scaled to the reference machine: "
              f"{point['real_cpu_ms_per_move_on_reference']} ms", flush=True)
    for name, _ in FLOORS:
        if f"real_over_{name}_cpu_per_move" in point:
            print(f"      server CPU per move, real / {name}: "
                  f"{point[f'real_over_{name}_cpu_per_move']}", flush=True)
    print(f"      load average before: {point['load_average_before']:.2f}", flush=True)
    if "floor" not in point:
        verdict = "holds" if holds(point, p99_ms) else "does not hold"
        print(f"      p99 under {p99_ms:g} ms: {verdict}", flush=True)


# benchmarks/engine.py's ``engine`` figure on the machine of the figures in
# docs/performance.md and docs/scaling.md (2026-11-30): machines differ by a factor of
# three here, and a CPU time in milliseconds means little without the machine's speed
REFERENCE_ENGINE_DEALS = 17_211


# each of the three runs of ``machine_speed`` (``--speed-seconds``); the tests' tiny runs
# take 0.02 s, which still gives a figure, but one that moves more from run to run
SPEED_SECONDS = 0.5


def machine_speed(seconds: float = SPEED_SECONDS) -> dict[str, float]:
    """This machine's speed against the reference: the engine's random deals per CPU
    second of this process (best of three runs of ``seconds``), and how many times slower
    than the reference machine that is."""
    from engine import engine_deals

    rng = random.Random(1)
    deals = max(engine_deals(seconds, rng) for _ in range(3))
    slower = REFERENCE_ENGINE_DEALS / deals
    print(f"machine: {deals:,.0f} engine deals per CPU second (the reference machine of "
          f"docs/performance.md: {REFERENCE_ENGINE_DEALS:,}): {slower:.2f} times slower",
          flush=True)
    return {"engine_deals_per_cpu_s": round(deals), "times_slower_than_reference":
            round(slower, 2)}


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
        # Several processes behind nginx: cluster_load.py runs them.  It is run as a
        # program, not imported, because it imports this module (the swarm's runner).
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
