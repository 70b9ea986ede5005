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
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's app, not the installed one
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rooms"))

import httpx  # noqa: E402
from procstat import cpu_seconds, rss_kib  # noqa: E402
from seat_moves import WS_MAX, my_turn, pick_action  # noqa: E402
from swarm_figures import SLOW_S, Stats, SwarmConfig, reach, summarize, window_goal  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

try:
    import orjson

    loads: Callable[[bytes], Any] = orjson.loads
    dumps: Callable[[Any], bytes] = orjson.dumps
except ImportError:  # pragma: no cover - the swarm is slower, the figures still hold
    loads = json.loads

    def dumps(obj: Any) -> bytes:
        return json.dumps(obj, separators=(",", ":")).encode()

SETUP_CONCURRENCY = 32     # rooms being created or connected at once
REFUSALS_PER_TURN = 50     # a seat that keeps being refused gives the turn up
ACTION_REFUSALS = ("illegal_bid", "illegal_discard", "illegal_lead", "illegal_play",
                   "stale_game", "bad_action", "not_your_turn",
                   "stale_version")  # stale_version: servers from before the `game` counter


def fingerprint(view: dict[str, Any]) -> tuple[Any, ...]:
    """The game part of a view that every action moves (a bid, a discard, a card)."""
    g = view.get
    return (g("phase"), g("turn"), g("deal_number"), len(g("auction") or ()),
            len(g("trick") or ()), g("tricks_played"), g("redeal"))


class Pending:
    """An action on its way: when it was sent, on which version, what the game was."""

    __slots__ = ("done", "fp", "seat", "sent", "version")

    def __init__(self, seat: int, sent: float, version: int, fp: tuple[Any, ...]) -> None:
        self.seat = seat
        self.sent = sent
        self.version = version
        self.fp = fp
        self.done = 0  # bit mask of the seats that hold a state reflecting it


class Room:
    def __init__(self, code: str, stats: Stats) -> None:
        self.code = code
        self.stats = stats
        self.seats: list[Seat] = []
        self.pending: list[Pending] = []
        self.all_seats = 0

    def landed(self, seat: Seat, version: int, view: dict[str, Any]) -> None:
        """A state frame reached ``seat``: which pending actions does it reflect?"""
        if not self.pending:
            return
        fp = fingerprint(view)
        bit = 1 << seat.index
        now = time.perf_counter()
        for p in list(self.pending):
            if version > p.version and fp != p.fp and not p.done & bit:
                p.done |= bit
                if p.done == self.all_seats:
                    self.pending.remove(p)
                    if self.stats.in_window(p.sent):
                        self.stats.moves += 1
                        if self.stats.goal is not None:
                            self.stats.goal.moved(self.code)
                        self.stats.latencies.append(now - p.sent)
                        if now - p.sent > SLOW_S:
                            second = int(p.sent - self.stats.window[0])
                            self.stats.slow[second] += 1


class Seat:
    """One person: a socket, the last state, a timer for its next move."""

    def __init__(self, room: Room, index: int, token: str, host: bool,
                 rng: random.Random, think: float) -> None:
        self.room = room
        self.index = index
        self.token = token
        self.host = host
        self.rng = rng
        self.think = think
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.game: int | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.acted_on = -2       # the version this seat last acted on
        self.refusals = 0
        self.done_keys: set[tuple[int, int]] = set()  # (match, deal) it said ready for
        self.rematched: set[int] = set()
        self.active = False

    async def open(self, url: str, first_state: asyncio.Event) -> None:
        self.ws = await connect(url, compression=None, max_size=2 * WS_MAX,
                                open_timeout=30, ping_interval=None, close_timeout=2)
        await self.ws.send(dumps({"type": "hello", "token": self.token}), text=True)
        asyncio.get_running_loop().create_task(self.read(first_state))

    async def read(self, first_state: asyncio.Event) -> None:
        assert self.ws is not None
        stats = self.room.stats
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                try:
                    self.take(raw, first_state)
                except Exception as exc:  # a frame the swarm does not understand: counted
                    stats.swarm_errors[f"{type(exc).__name__}: {str(exc)[:60]}"] += 1
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            stats.closed[str(code)] += 1
            first_state.set()

    def take(self, raw: bytes, first_state: asyncio.Event) -> None:
        msg = loads(raw)
        kind = msg.get("type")
        if kind == "state":
            stats = self.room.stats
            stats.state_frames += 1
            stats.state_bytes += len(raw)
            self.version = msg["version"]
            self.game = msg.get("game")
            self.view = view = msg["view"]
            first_state.set()
            self.room.landed(self, self.version, view)
            self.consider(self.think)
        elif kind == "error":
            self.refused(msg.get("code", "?"))

    def refused(self, code: str) -> None:
        self.room.stats.errors[code] += 1
        if code in ACTION_REFUSALS and self.acted_on >= 0:
            stats = self.room.stats
            if stats.goal is not None:  # refused: they will never land
                stats.goal.refused(sum(p.seat == self.index and stats.in_window(p.sent)
                                       for p in self.room.pending))
            self.room.pending = [p for p in self.room.pending if p.seat != self.index]
            self.acted_on = -2
            self.refusals += 1
            if self.refusals < REFUSALS_PER_TURN:
                self.consider(0.0)  # choose again (another discard, say), at once

    def consider(self, think: float) -> None:
        """Arm the timer if this state asks something of this seat."""
        if not self.active or self.timer is not None or self.view is None:
            return
        if self.acted_on == self.version:
            return  # our action is on its way; its state will come
        if self._next_message(dry=True) is not None:
            delay = think * (0.5 + self.rng.random()) if think else 0.0
            self.timer = asyncio.get_running_loop().call_later(delay, self.fire)

    def fire(self) -> None:
        self.timer = None
        if not self.active or self.ws is None or self.acted_on == self.version:
            return
        msg = self._next_message(dry=False)
        if msg is not None:
            asyncio.get_running_loop().create_task(self._send(msg))

    def _next_message(self, dry: bool) -> dict[str, Any] | None:
        """What this seat would send now on its last view (``None``: nothing)."""
        view = self.view
        assert view is not None
        phase = view["phase"]
        if phase == "deal_over" or phase == "match_over":
            key = ((view.get("room") or {}).get("match_number", 0), view.get("deal_number", 0))
            if phase == "deal_over" and key not in self.done_keys:
                if not dry:
                    self.done_keys.add(key)
                    self.room.stats.between_matches["ready"] += 1
                return {"type": "ready"}
            number = key[0]
            if phase == "match_over" and self.host and number not in self.rematched:
                if not dry:
                    self.rematched.add(number)
                    stats = self.room.stats
                    stats.between_matches["rematch"] += 1
                    if stats.goal is not None and stats.in_window(time.perf_counter()):
                        stats.goal.rematched(self.room.code)
                return {"type": "rematch"}
            return None
        if not my_turn(view):
            self.refusals = 0
            return None
        if dry:
            return {}
        msg: dict[str, Any] = {"type": "action", "action": pick_action(view, self.rng)}
        if self.game is not None:
            msg["game"] = self.game
        else:
            msg["version"] = self.version
        now = time.perf_counter()
        self.acted_on = self.version
        self.room.pending.append(Pending(self.index, now, self.version, fingerprint(view)))
        if self.room.stats.in_window(now):
            self.room.stats.sent += 1
            if self.room.stats.goal is not None:
                self.room.stats.goal.sent()
        return msg

    async def _send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(dumps(msg), text=True)

    async def close(self) -> None:
        self.active = False
        if self.timer is not None:
            self.timer.cancel()
        if self.ws is not None:
            await self.ws.close()


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
