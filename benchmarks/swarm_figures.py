"""What a run of benchmarks/swarm.py is told (``SwarmConfig``) and what it gathers and
reports (``Stats``, ``summarize``: the JSON object load.py reads); ``Goal``: the events
that close a measuring window that ends on events rather than on the clock."""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import time
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
    # load.py --min-moves, --until-matches: the window lasts ``duration`` and then until
    # every room has had this many moves in it and its host said ``rematch`` this many
    # times in it (0, 0: the window is ``duration`` alone), at most ``window_cap`` seconds
    min_moves: int = 0
    until_matches: int = 0
    window_cap: float = 300.0


class Goal:
    """The events that close an event-driven window: every room has had ``moves`` of the
    actions sent in the window reach all four seats, and its host has said ``rematch``
    ``matches`` times in it (``reached``); then, the window closed, every action sent in
    it has reached all four seats or was refused (``drained``).  A window of wall time
    holds whatever a machine manages in it, which a busy machine makes next to nothing;
    these events come on any machine, sooner or later."""

    def __init__(self, rooms: int, moves: int, matches: int) -> None:
        self.moves = moves
        self.matches = matches
        self.rooms = rooms
        self.counts: dict[str, list[int]] = {}  # room code: [moves, matches] in the window
        self.short = rooms                      # rooms that have not reached the goal
        self.outstanding = 0                    # sent in the window, not landed or refused
        self.closed = False
        self.reached = asyncio.Event()
        self.drained = asyncio.Event()
        if not rooms or (moves <= 0 and matches <= 0):
            self.reached.set()

    def sent(self) -> None:
        self.outstanding += 1

    def moved(self, room: str) -> None:
        """An action sent in the window reached all four seats of ``room``."""
        self.outstanding -= 1
        self._count(room, 0)
        self._check_drained()

    def refused(self, actions: int) -> None:
        """The server refused ``actions`` sent in the window: they will never land."""
        self.outstanding -= actions
        self._check_drained()

    def rematched(self, room: str) -> None:
        """The host of ``room`` said ``rematch`` in the window: a match ended in it."""
        self._count(room, 1)

    def close(self) -> None:
        self.closed = True
        self._check_drained()

    def _count(self, room: str, which: int) -> None:
        if self.closed:
            return
        counts = self.counts.setdefault(room, [0, 0])
        before = self._done(counts)
        counts[which] += 1
        if not before and self._done(counts):
            self.short -= 1
            if not self.short:
                self.reached.set()

    def _done(self, counts: list[int]) -> bool:
        return counts[0] >= self.moves and counts[1] >= self.matches

    def _check_drained(self) -> None:
        if self.closed and self.outstanding <= 0:
            self.drained.set()

    def fewest(self) -> list[int]:
        """The fewest moves and the fewest matches of any room in the window so far."""
        counts = [*self.counts.values()] + [[0, 0]] * (self.rooms - len(self.counts))
        return [min((c[0] for c in counts), default=0), min((c[1] for c in counts), default=0)]

    def figures(self) -> dict[str, Any]:
        fewest = self.fewest()
        return {"min_moves": self.moves, "until_matches": self.matches,
                "fewest_moves": fewest[0], "fewest_matches": fewest[1]}


def window_goal(cfg: SwarmConfig) -> Goal | None:
    """The events that end the window (``None``: ``cfg.duration`` alone ends it).  The
    floor has no game, so no match ever ends there: only moves count."""
    matches = cfg.until_matches if cfg.mode == "game" else 0
    if cfg.min_moves <= 0 and matches <= 0:
        return None
    return Goal(cfg.rooms, cfg.min_moves, matches)


async def reach(goal: Goal, start: float, cfg: SwarmConfig) -> None:
    """Wait for the window's goal; past ``cfg.window_cap`` seconds of window, fail."""
    try:
        await asyncio.wait_for(goal.reached.wait(),
                               max(0.0, start + cfg.window_cap - time.perf_counter()))
    except TimeoutError:
        fewest = goal.fewest()
        raise RuntimeError(
            f"the window's goal was not reached in {cfg.window_cap:g} s: {goal.short} of "
            f"{cfg.rooms} rooms had not had {goal.moves} moves and {goal.matches} matches "
            f"in it (the fewest: {fewest[0]} moves, {fewest[1]} matches)") from None


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
        self.goal: Goal | None = None  # the window ends on events (None: on the clock)

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
        # the events that closed the window (None: it was ``duration`` seconds)
        "window_goal": stats.goal.figures() if stats.goal is not None else None,
    }
