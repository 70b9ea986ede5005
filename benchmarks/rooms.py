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
from rooms_harness import WS_MAX, create_room, my_turn, pick_action  # noqa: E402
from serve_process import ServeProcess  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from app.bots import BOT_LEVELS, choose_action, get_bot  # noqa: E402
from app.rules import Match, RuleSet, SeatView  # noqa: E402

RULES_JSON: dict[str, Any] = {"preset": "standard"}
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
ENGINE_MIN_S = 1.0                        # the baseline repeats its deals at least this long
ENGINE_BUDGET_S = 30.0                    # and never runs longer


# -- one room's client --------------------------------------------------------------------

class RoomStats:
    def __init__(self) -> None:
        self.deals = 0
        self.changes = 0
        self.actions = 0
        self.frames = 0
        self.frame_bytes = 0
        self.latencies: list[float] = []
        self.errors: collections.Counter[str] = collections.Counter()


class RoomClient:
    """Seat 0 of one room over a real WebSocket, playing random legal actions."""

    def __init__(self, base: str, code: str, token: str, seed: int) -> None:
        self.url = base.replace("http://", "ws://") + f"/ws/{code}"
        self.token = token
        self.rng = random.Random(seed)
        self.stats = RoomStats()
        self.ws: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.game = -1
        self._pending: tuple[float, int] | None = None  # (sent at, game it was sent on)
        self._done_keys: set[tuple[int, int]] = set()   # (match number, deal number) seen over
        self._rematched: set[int] = set()

    async def open(self, bots: str) -> None:
        """Connect, say hello and set the three other seats' bots (still in the lobby)."""
        self.ws = await connect(self.url, compression=None, max_size=2 * WS_MAX,
                                open_timeout=10, ping_interval=None)
        await self._send({"type": "hello", "token": self.token})
        while self.view is None:
            self._take(json.loads(await self.ws.recv()))
        for seat in range(1, len(self.view["room"]["seats"])):
            await self._send({"type": "seat_bot", "seat": seat, "level": bots})
        while any(s["bot"] != bots for s in self.view["room"]["seats"][1:]):
            self._take(json.loads(await self.ws.recv()))

    async def play(self, deadline: float) -> None:
        """Start the match and play until ``deadline`` (``time.perf_counter``)."""
        assert self.ws is not None
        await self._send({"type": "start"})
        while (left := deadline - time.perf_counter()) > 0:
            try:
                raw = await asyncio.wait_for(self.ws.recv(), left)
            except TimeoutError:
                break
            now = time.perf_counter()
            msg = json.loads(raw)
            if msg["type"] == "error":
                # a refused message (a forbidden random discard, say): decide again
                self.stats.errors[msg["code"]] += 1
                self._pending = None
            elif msg["type"] == "state":
                self.stats.frames += 1
                self.stats.frame_bytes += len(raw)
                pending = self._pending
                if pending is not None and msg["game"] > pending[1]:
                    self.stats.latencies.append(now - pending[0])
                    self._pending = None
                self._take(msg)
            else:
                continue
            await self._decide()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def _take(self, msg: dict[str, Any]) -> None:
        if msg["type"] != "state":
            return
        if self.version >= 0:
            self.stats.changes += msg["version"] - self.version
        self.version = msg["version"]
        self.game = msg["game"]
        self.view = msg["view"]

    async def _decide(self) -> None:
        view = self.view
        if view is None or self._pending is not None:
            return
        phase = view["phase"]
        match_number = view["room"]["match_number"]
        if phase in ("deal_over", "match_over"):
            key = (match_number, view["deal_number"])
            if key not in self._done_keys:
                self._done_keys.add(key)
                self.stats.deals += 1
                if phase == "deal_over":
                    await self._send({"type": "ready"})
            if phase == "match_over" and match_number not in self._rematched:
                self._rematched.add(match_number)
                await self._send({"type": "rematch"})
        elif my_turn(view):
            action = pick_action(view, self.rng)
            self._pending = (time.perf_counter(), self.game)
            await self._send({"type": "action", "game": self.game, "action": action})
            self.stats.actions += 1

    async def _send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(msg))


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


# -- the same in this process -------------------------------------------------------------

def engine_baseline(deals: int, bots: str, rng: random.Random) -> dict[str, Any]:
    """``deals`` scored deals by ``Match`` with the server run's players: a random bot in
    seat 0 (the client's stand-in), ``bots`` elsewhere; a finished match starts a new one.
    The deals are played again until ``ENGINE_MIN_S`` has passed (a few hundred deals take
    milliseconds, too short to time)."""
    rules = RuleSet.from_json(RULES_JSON)
    levels = ["random"] + [bots] * (rules.options.players - 1)
    players = [get_bot(level) for level in levels]
    match = Match(rules, rng)
    done = 0
    start = time.perf_counter()
    while (done % deals or time.perf_counter() - start < ENGINE_MIN_S) and (
            time.perf_counter() - start < ENGINE_BUDGET_S):
        if match.finished:
            match = Match(rules, rng)
        match.start_deal()
        while (seat := match.turn) is not None:
            match.apply(seat, players[seat].choose(SeatView(match, seat), rng))
        done += 1
    elapsed = time.perf_counter() - start
    return {"deals": done, "rounds": done / deals, "seconds": round(elapsed, 2),
            "deals_per_s": round(done / elapsed)}


def _timed(run: Callable[[], object], count: int, budget: float) -> float:
    """Mean milliseconds of ``run`` over at most ``count`` calls or ``budget`` seconds."""
    times = 0
    start = time.perf_counter()
    while times < count and time.perf_counter() - start < budget:
        run()
        times += 1
    return 1000 * (time.perf_counter() - start) / times


def in_process_costs(tmp: Path, rng: random.Random) -> dict[str, float]:
    """One change's costs on a mid-deal room: the save (one log entry), the views and
    frames of four seats, a bot's decision."""
    from app.rooms.core.effects import Save
    from app.rooms.core.records import Acted, Dealt, MatchBegun
    from app.rooms.core.room_core import RoomCore
    from app.rooms.core.state import Conn, Timing, evolve
    from app.rooms.core.views import state_sends
    from app.rooms.server.chance import chance_of
    from app.rooms.store.sqlite import SqliteStore
    from app.rules.cards import ids_of

    store = SqliteStore(tmp / "in_process")
    core, _, save = RoomCore.create("abcdefghjk", RuleSet.from_json(RULES_JSON), False,
                                    "Ann", 30, 10, Timing(0.0, 0.0), chance_of(rng))
    loop = asyncio.new_event_loop()
    loop.run_until_complete(store.append(core.code, save))
    state = core.state

    def deal() -> None:
        assert state.match is not None
        hands, kitty = state.chance.deal(state.rules)
        evolve(state, Dealt(dealer=state.match.dealer, hands=[ids_of(h) for h in hands],
                            kitty=ids_of(kitty)))

    evolve(state, MatchBegun(dealer=0))
    deal()
    match = state.match
    assert match is not None
    bot = get_bot("random")
    for _ in range(500):  # to mid-deal: some tricks played (a void deal is dealt again)
        seat = match.turn
        assert match.deal is not None
        if seat is None:
            deal()
            continue
        if match.deal.action_count >= 25:
            break
        evolve(state, Acted.of(seat, bot.choose(SeatView(match, seat), rng)))
    for i in range(len(state.seats)):
        core.conns[i] = Conn(i)
    entry = Acted(seat=1, play="KD")
    seq = [state.seq]

    def save_one() -> None:
        loop.run_until_complete(store.append(core.code, Save(seq[0], [entry], [])))
        seq[0] += 1

    def views() -> None:
        for send in state_sends(core.state, core.rt, []):
            json.dumps(send.frame, separators=(",", ":"))

    out = {"save": _timed(save_one, 2000, 2.0), "views_all_seats": _timed(views, 2000, 2.0)}
    loop.run_until_complete(store.close())
    loop.close()
    for level in BOT_LEVELS:
        out[f"bot_{level}"] = bot_decision_ms(level, random.Random(rng.random()))
    return {k: round(v, 3) for k, v in out.items()}


def bot_decision_ms(level: str, rng: random.Random, deals: int = 20,
                    budget: float = 2.0) -> float:
    """Mean milliseconds of a ``level`` decision over the positions of a few random deals."""
    rules = RuleSet.from_json(RULES_JSON)
    play = get_bot("random")
    thinking = 0.0
    decisions = 0
    start = time.perf_counter()
    match = Match(rules, rng)
    for _ in range(deals):
        if match.finished or time.perf_counter() - start > budget:
            break
        match.start_deal()
        while (seat := match.turn) is not None:
            view = SeatView(match, seat)
            t0 = time.perf_counter()
            choose_action(level, view, rng)
            thinking += time.perf_counter() - t0
            decisions += 1
            match.apply(seat, play.choose(view, rng))
    return 1000 * thinking / decisions


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
