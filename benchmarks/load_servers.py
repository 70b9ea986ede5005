"""The servers benchmarks/load.py measures and how: the real ``amerikaner serve`` (its
environment for scripted players, its garbage collections with ``--gc-probe``) and the
bare broadcast floor (benchmarks/floor_server.py), each played by a swarm of
benchmarks/swarm.py in another process, bounded in time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
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
