"""The scripted players of benchmarks/load.py, in a process of their own: rooms of four
people on real WebSockets, acting at a human pace.

    python benchmarks/swarm.py '{"base": "http://127.0.0.1:8000", "rooms": 10, ...}'

(``SwarmConfig``'s fields as one JSON object; load.py starts it.)  It prints one JSON
object on stdout: the server's RSS before any room, with the rooms connected and idle,
and busy; then, over the measuring window, the moves, the latency from sending an action
until all four seats of the room hold a state that reflects it, the server's CPU (read
from ``/proc/PID/stat``) and the swarm's own CPU.

The window lasts ``duration`` seconds after ``warmup``; with ``min_moves`` or
``until_matches`` (load.py's ``--min-moves``, ``--until-matches``) it then stays open until
every room has had that many moves in it and its host said ``rematch`` that many times in
it, and after it the swarm waits until every action sent in it has reached all four seats
(or was refused), rather than a fixed time: what the window holds then follows from
events, on a machine of any speed.  A goal not reached within ``window_cap`` seconds of
window fails the run.

Mode ``game`` plays ``amerikaner serve``: create a room over HTTP, three joins, four
sockets say ``hello`` with their tokens, the host says ``start``.  Mode ``floor`` plays
benchmarks/floor_server.py: the same sockets and messages with no game behind them.

Each seat, when its view says it is its turn, waits a jittered think time and sends one
legal action (a discard: random cards of the hand, chosen again if refused); between deals
it sends ``ready`` and at the end of a match the host sends ``rematch``.  An action names
the ``game`` of the last state if the state frames carry one (the new protocol), else its
``version``.  Frames other than ``state`` and ``error`` are ignored.

A seat holds a state reflecting an action with its first state frame whose ``version`` is
newer than the sender's at sending and whose game part moved (``fingerprint``: phase,
turn, deal, auction, trick, tricks played; every action changes one of them).  The
``version`` grows with every change in both protocols, so this holds whether or not the
frames carry ``game``, and a change that is not a game action (a connection, a chat) is
not taken for the action.

Cheap by design, so that the swarm is not what saturates first: frames are read as bytes
and parsed by orjson (the standard library's json if orjson is missing), one timer per
seat's pending move, no validation.  Only loopback addresses.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's app, not the installed one
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rooms"))

import httpx  # noqa: E402
from procstat import cpu_seconds, rss_kib  # noqa: E402
from swarm_figures import Stats, SwarmConfig, reach, summarize, window_goal  # noqa: E402
from swarm_players import Room, Seat  # noqa: E402

SETUP_CONCURRENCY = 32     # rooms being created or connected at once


async def create_rooms(cfg: SwarmConfig, stats: Stats) -> list[Room]:
    """``cfg.rooms`` rooms of four seats with their tokens (nobody connected yet)."""
    rng = random.Random(cfg.seed)
    limit = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(i: int, http: httpx.AsyncClient) -> Room:
        if cfg.mode == "floor":
            room = Room(f"floor{i}", stats)
            tokens = [f"t{s}" for s in range(4)]
        else:
            async with limit:
                body: dict[str, Any] = {"name": "P0"}
                if cfg.rules is not None:
                    body["rules"] = cfg.rules
                r = await http.post("/api/rooms", json=body)
                r.raise_for_status()
                made = r.json()
                room = Room(made["room"], stats)
                tokens = [made["token"]]
                for s in range(1, 4):
                    r = await http.post(f"/api/rooms/{room.code}/join", json={"name": f"P{s}"})
                    r.raise_for_status()
                    tokens.append(r.json()["token"])
        room.seats = [Seat(room, s, tokens[s], s == 0, random.Random(rng.random()), cfg.think)
                      for s in range(4)]
        room.all_seats = (1 << len(room.seats)) - 1
        return room

    # No keep-alive: on a busy machine a pooled connection could sit idle past the server's
    # keep-alive time and be closed as it was reused (httpx.ReadError on a POST, which
    # cannot be retried blindly: it makes a room).
    async with httpx.AsyncClient(base_url=cfg.base, timeout=30,
                                 limits=httpx.Limits(max_keepalive_connections=0)) as http:
        return await asyncio.gather(*(one(i, http) for i in range(cfg.rooms)))


async def connect_rooms(cfg: SwarmConfig, rooms: list[Room]) -> None:
    """Every seat's socket open, hello said, first state received (seats one by one,
    so that the first is the host in the floor server too)."""
    ws_base = cfg.base.replace("http://", "ws://")
    limit = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(room: Room) -> None:
        async with limit:
            for seat in room.seats:
                got = asyncio.Event()
                await seat.open(f"{ws_base}/ws/{room.code}", got)
                await got.wait()

    await asyncio.gather(*(one(r) for r in rooms))


def quiet_collector() -> None:
    """No garbage collections in the swarm while it measures, so that its pauses are not
    counted as the server's latency.  With thousands of sockets its young generation holds
    every seat's latest view (a view replaced by the next one frees an older object, which
    CPython counts against the young generation's threshold), and its collections took 60
    to 140 ms every second or two, and a full one 300 to 400 ms: the slow moves came in
    bursts whatever the server did.  The swarm's garbage is freed by reference counting;
    what it makes in cycles over a run is small, and the swarm's own memory is printed."""
    gc.collect()
    gc.freeze()
    gc.disable()


async def run(cfg: SwarmConfig) -> dict[str, Any]:
    pid = cfg.server_pid
    stats = Stats()
    memory = {"empty": rss_kib(pid)}
    t0 = time.perf_counter()
    rooms = await create_rooms(cfg, stats)
    await connect_rooms(cfg, rooms)
    setup_s = time.perf_counter() - t0
    quiet_collector()
    await asyncio.sleep(cfg.idle_wait)
    memory["idle_rooms"] = rss_kib(pid)
    seats = [s for r in rooms for s in r.seats]
    for seat in seats:
        seat.active = True
    for room in rooms:
        await room.seats[0]._send({"type": "start"})
    start = time.perf_counter() + cfg.warmup
    goal = stats.goal = window_goal(cfg)
    # an event-driven window stays open until its goal is reached; it ends below
    stats.window = (start, start + cfg.duration if goal is None else float("inf"))
    await asyncio.sleep(cfg.warmup)
    cpu0, own0, epoch0 = cpu_seconds(pid), time.process_time(), time.time()
    await asyncio.sleep(max(0.0, start + cfg.duration - time.perf_counter()))
    if goal is not None:
        await reach(goal, start, cfg)
        stats.window = (start, time.perf_counter())
        goal.close()
    server_cpu, own_cpu = cpu_seconds(pid) - cpu0, time.process_time() - own0
    stats.window_epoch = (epoch0, time.time())
    elapsed = time.perf_counter() - start
    memory["busy"] = rss_kib(pid)
    swarm_rss = rss_kib(os.getpid())
    for seat in seats:
        seat.active = False
    if goal is None:
        await asyncio.sleep(min(2.0, 0.5 + cfg.think))  # the window's last actions land
    else:  # every action of the window lands (or is refused); what has not is counted
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(goal.drained.wait(), cfg.window_cap)
    closed_early = dict(stats.closed)
    # sent in the window and not seen by all four seats: lost or still on their way
    stats.incomplete = sum(stats.in_window(p.sent) for r in rooms for p in r.pending)
    await asyncio.gather(*(asyncio.wait_for(s.close(), 5) for s in seats),
                         return_exceptions=True)
    gc.enable()
    return {**summarize(cfg, stats, memory, setup_s, elapsed, server_cpu, own_cpu,
                        closed_early), "swarm_rss_kib": swarm_rss}


def main() -> int:
    cfg = SwarmConfig(**json.loads(sys.argv[1]))
    if not cfg.base.startswith("http://127.0.0.1:"):
        raise SystemExit("the swarm only plays servers on 127.0.0.1")
    try:
        import uvloop
        runner = asyncio.Runner(loop_factory=uvloop.new_event_loop)
    except ImportError:  # pragma: no cover
        runner = asyncio.Runner()
    with runner:
        out = runner.run(run(cfg))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
