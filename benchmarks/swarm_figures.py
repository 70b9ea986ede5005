"""What a run of benchmarks/swarm.py is told (``SwarmConfig``) and what it gathers and
reports (``Stats``, ``summarize``: the JSON object load.py reads)."""

from __future__ import annotations

import collections
import dataclasses
from typing import Any

SLOW_S = 0.1               # slow moves are counted per second of the window: stalls show


@dataclasses.dataclass
class SwarmConfig:
    base: str                      # http://127.0.0.1:PORT
    server_pid: int
    mode: str = "game"             # "game" (amerikaner serve) or "floor"
    rooms: int = 10
    think: float = 1.0             # seconds before a move, jittered by +-50 %
    warmup: float = 3.0            # seconds of play before the measuring window
    duration: float = 20.0         # the measuring window, seconds
    idle_wait: float = 2.0         # seconds connected and idle before the RSS is read
    seed: int = 2026
    rules: dict[str, Any] | None = None  # the rooms' rule set (None: the server's default)


class Stats:
    def __init__(self) -> None:
        self.window: tuple[float, float] = (float("inf"), float("inf"))  # perf_counter
        self.window_epoch = (0.0, 0.0)  # the same in time.time(), for the server's log
        self.latencies: list[float] = []
        self.slow: collections.Counter[int] = collections.Counter()  # second of the window
        self.moves = 0              # actions sent in the window that all four seats saw
        self.sent = 0               # actions sent in the window
        self.incomplete = 0         # of those, not seen by all four seats after the drain
        self.state_frames = 0
        self.state_bytes = 0
        self.errors: collections.Counter[str] = collections.Counter()
        self.closed: collections.Counter[str] = collections.Counter()
        self.swarm_errors: collections.Counter[str] = collections.Counter()
        # ready and rematch messages sent over the whole run (deals take about a minute
        # at a human pace, so a 20 s window rarely sees one)
        self.between_matches: collections.Counter[str] = collections.Counter()

    def in_window(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarize(cfg: SwarmConfig, stats: Stats, memory: dict[str, int], setup_s: float,
              elapsed: float, server_cpu: float, own_cpu: float,
              closed_early: dict[str, int]) -> dict[str, Any]:
    lat = sorted(stats.latencies)

    def ms(x: float) -> float:
        return round(1000 * x, 2)

    moves = stats.moves
    return {
        "mode": cfg.mode, "rooms": cfg.rooms, "sockets": 4 * cfg.rooms,
        "think_s": cfg.think, "seconds": round(elapsed, 2), "setup_s": round(setup_s, 1),
        "window_epoch": [round(t, 3) for t in stats.window_epoch],
        "moves": moves, "moves_per_s": round(moves / elapsed, 1),
        "actions_sent": stats.sent, "actions_incomplete": stats.incomplete,
        "latency_ms": {"p50": ms(percentile(lat, 0.5)) if lat else None,
                       "p99": ms(percentile(lat, 0.99)) if lat else None,
                       "max": ms(lat[-1]) if lat else None, "samples": len(lat)},
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_percent": round(100 * server_cpu / elapsed, 1),
        "server_cpu_ms_per_move": round(1000 * server_cpu / moves, 3) if moves else None,
        "swarm_cpu_percent": round(100 * own_cpu / elapsed, 1),
        "swarm_cpu_ms_per_move": round(1000 * own_cpu / moves, 3) if moves else None,
        "state_frame_bytes_mean": (round(stats.state_bytes / stats.state_frames)
                                   if stats.state_frames else 0),
        "memory_kib": {**memory, "per_idle_room": round(
            (memory["idle_rooms"] - memory["empty"]) / cfg.rooms, 1)},
        # moves over SLOW_S by the second of the window they were sent in: a few seconds
        # with many is a stall (a long GC, the machine busy elsewhere), spread is queueing
        "slow_moves_by_second": dict(sorted(stats.slow.items())),
        "ready_and_rematch_sent": dict(stats.between_matches),
        "errors": dict(stats.errors),
        "swarm_errors": dict(stats.swarm_errors),  # frames it failed on: the protocol moved?
        "sockets_closed_by_server": closed_early,
    }
