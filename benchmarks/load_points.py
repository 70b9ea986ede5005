"""One room count of benchmarks/load.py (the real server, then the floors), whether its
p99 holds, the ``--search`` for the largest count that holds, and the printed line of
each point.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from load_servers import FLOORS, run_floor, run_real


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
