"""Memory soak (issue #10): does the server's memory come back near its start after rooms
end and leave memory?  Ten minutes by default; not run in CI.

    python benchmarks/soak.py                          # 300 rooms, 10 minutes, 1 s think
    python benchmarks/soak.py --minutes 1 --rooms 50 --json soak.json

A real ``amerikaner serve`` (loopback, a temporary data folder, load.py's ``SERVER_ENV``)
runs with ``AMERIKANER_IDLE_SECONDS`` small (``--idle-seconds``, 5), so that a room leaves
memory a few seconds after its last socket closes.  The players are benchmarks/swarm.py's
rooms and seats, in this process: rooms of four people on real WebSockets acting
``--think`` seconds (jittered +-50 %) after their turn comes, short matches (``--rules``,
two deals by default) that the host restarts with ``rematch``.

1. the server's RSS empty (no room yet);
2. one warm-up room plays a whole match fast, its sockets close, it leaves memory: the RSS
   then (``warm``) is what the end is compared with (the code paths of a match are loaded);
3. ``--rooms`` rooms play for ``--minutes``; every ``--wave`` seconds the oldest
   ``--churn`` share of them close their sockets (they leave memory ``--idle-seconds``
   later) and as many new rooms are created, so that rooms come and go all along; the RSS
   every ``--sample`` seconds (60) and its peak (read every second);
4. every socket closed: the RSS; then ``/healthz`` is polled until it says no room is in
   memory (a bounded wait), ``--settle`` seconds more, and the final RSS.

The server's live heap is read empty, warm and after each round: ``heap_bytes`` of
``/healthz`` (the C library's bytes in use) when the server runs on ``malloc`` (its
default, app/runtime/allocator.py), else ``allocated_blocks`` (Python's own allocator's blocks).
After the rooms left it should be back at the warm figure (within ``--tolerance-pct``, or
1 MiB, or 5,000 blocks), or something leaks.  The RSS need not come back so far: an
allocator keeps pages that still hold a live object, and Python's own returns a 1 MiB
arena to the system only once every block in it is free (``AMERIKANER_ALLOCATOR=pymalloc``
through ``--server-env`` shows how much that keeps).

The final RSS is printed as a ratio and a difference against the empty and the warm RSS,
with a verdict: memory came back if the final RSS is within ``--tolerance-pct`` (10 %) of
the warm RSS or within ``--tolerance-mib`` (5 MiB) of it, whichever is larger.  Also the
moves played (actions all four seats saw), their latency and the rooms created in all.
``--rounds N`` plays steps 3 and 4 N times and prints what each round added: what is
bounded (the engine's and the views' caches fill as moves are played, SQLite's page cache,
the allocator's high-water mark) may stay after the first round but should not grow with
the next; a leak does.

``--until-deals N`` ends each round on events rather than on the clock alone: it lasts
``--minutes`` and then until N deals have ended in it (the seats said ``ready`` 4 N times)
and, with ``--churn``, at least one wave has come; past ``--minutes`` no further wave
closes rooms, so that the rooms playing live to end their deals however slow the machine.
A round that has not reached that in ``--round-cap`` seconds fails the run.
tests/test_soak_benchmark.py uses it, so that what it checks follows from events.

Everything is bounded in time (the whole run has a deadline; on any failure the server is
stopped, and the players die with this process) and only loopback addresses are used.
``--server-env KEY=VALUE`` (repeatable) passes more environment to the server, to try an
allocator setting, say.  ``--json PATH`` writes every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402
from load import SERVER_ENV  # noqa: E402
from procstat import rss_kib  # noqa: E402
from serve_process import ServeProcess  # noqa: E402
from swarm import Room, connect_rooms, create_rooms  # noqa: E402
from swarm_figures import Goal, Stats, SwarmConfig, percentile  # noqa: E402
from websockets.protocol import State  # noqa: E402

WARMUP_THINK = 0.01        # the warm-up room plays its match as fast as it can
# the live heap's tolerance: a few hundred kilobytes of small objects, or 1 MiB
HEAP_TOLERANCE = {"blocks": 5_000, "KiB": 1_024}
SWEEP_S_MAX = 15.0         # the server sweeps idle rooms at most this far apart
EXPIRY_MARGIN_S = 30.0     # rooms must leave memory within idle + sweep + this
SETUP_S_MIN, SETUP_S_PER_ROOM = 60.0, 0.1  # allowance to create and connect rooms
MIB = 1024
READY_PER_DEAL = 4         # a room's four seats each say ready when a deal ends
EVENT_POLL_S = 0.05        # past --minutes, how often a round looks at its deal count


class Soak:
    """One server, the rooms playing it, and the memory figures gathered so far."""

    def __init__(self, args: argparse.Namespace, server: ServeProcess) -> None:
        self.args = args
        self.base = server.base
        self.pid = server.pid
        self.stats = self.counting_stats()
        # No keep-alive: a pooled connection idle past uvicorn's keep-alive time is closed by
        # the server, and reusing it as it closes raised httpx.ReadError mid-run.
        self.http = httpx.AsyncClient(base_url=self.base, timeout=10,
                                      limits=httpx.Limits(max_keepalive_connections=0))
        self.created = 0
        self.memory: dict[str, Any] = {"samples": []}
        self.heap_seen: dict[str, Any] = {}  # the server's live heap (/healthz)
        self.peak = 0
        self.warmup: dict[str, Any] = {}

    @staticmethod
    def counting_stats() -> Stats:
        stats = Stats()
        stats.window = (0.0, float("inf"))  # every move of the run counts, not a window
        return stats

    def rss(self) -> int:
        kib = rss_kib(self.pid)
        self.peak = max(self.peak, kib)
        return kib

    async def watch_peak(self) -> None:
        while True:
            self.rss()
            await asyncio.sleep(1.0)

    async def health(self) -> dict[str, Any]:
        r = await self.http.get("/healthz")
        r.raise_for_status()
        health: dict[str, Any] = r.json()
        return health

    async def rooms_in_memory(self) -> int:
        rooms: int = (await self.health())["rooms"]
        return rooms

    async def heap(self) -> int:
        """The server's live heap, which a leak grows (the RSS also keeps the allocator's
        free space), in ``self.heap_seen["unit"]``: KiB on ``malloc``, else blocks."""
        health = await self.health()
        if health.get("allocator") == "malloc" and health.get("heap_bytes") is not None:
            self.heap_seen["unit"] = "KiB"
            return int(health["heap_bytes"]) // 1024
        self.heap_seen["unit"] = "blocks"
        blocks: int = health["allocated_blocks"]
        return blocks

    async def open_rooms(self, n: int, think: float, stats: Stats) -> list[Room]:
        """``n`` new rooms of four, connected, playing."""
        cfg = SwarmConfig(base=self.base, server_pid=self.pid, rooms=n, think=think,
                          seed=self.args.seed + self.created, rules=self.args.rules)
        rooms = await create_rooms(cfg, stats)
        self.created += n
        await connect_rooms(cfg, rooms)
        for room in rooms:
            for seat in room.seats:
                seat.active = True
        for room in rooms:
            await room.seats[0]._send({"type": "start"})
        return rooms

    @staticmethod
    async def close_rooms(rooms: list[Room]) -> None:
        seats = [s for r in rooms for s in r.seats]
        for seat in seats:
            seat.active = False
        await asyncio.gather(*(asyncio.wait_for(s.close(), 5) for s in seats),
                             return_exceptions=True)

    async def wait_expired(self) -> dict[str, Any]:
        """Poll ``/healthz`` until no room is in memory (bounded), then settle."""
        t0 = time.monotonic()
        bound = self.args.idle_seconds + min(SWEEP_S_MAX, self.args.idle_seconds) \
            + EXPIRY_MARGIN_S
        left = await self.rooms_in_memory()
        while left and time.monotonic() - t0 < bound:
            await asyncio.sleep(0.25)
            left = await self.rooms_in_memory()
        waited = time.monotonic() - t0
        await asyncio.sleep(self.args.settle)
        return {"seconds": round(waited, 1), "rooms_left": left}

    async def warm_up(self) -> None:
        stats = self.counting_stats()
        # the match is over when its host says rematch: an event, awaited (bounded)
        goal = stats.goal = Goal(1, 0, 1)
        [room] = await self.open_rooms(1, WARMUP_THINK, stats)
        t0 = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(goal.reached.wait(), self.args.warmup_bound)
        played = time.monotonic() - t0
        await self.close_rooms([room])
        expiry = await self.wait_expired()
        self.memory["warm"] = self.rss()
        self.heap_seen["warm"] = await self.heap()
        self.warmup = {"moves": stats.moves, "seconds": round(played, 1),
                       "match_over": bool(stats.between_matches["rematch"]),
                       "expiry": expiry}
        say(f"after a warm-up room: {mib(self.memory['warm'])} ({stats.moves} moves in "
            f"{self.warmup['seconds']} s, match "
            f"{'over' if self.warmup['match_over'] else 'NOT over'}, left memory in "
            f"{expiry['seconds']} s)")

    async def sample(self, t0: float, live: list[Room], round_: int) -> None:
        row = {"round": round_ + 1, "t_s": round(time.monotonic() - t0), "rss_kib": self.rss(),
               "rooms_playing": len(live), "rooms_in_memory": await self.rooms_in_memory(),
               "moves": self.stats.moves}
        self.memory["samples"].append(row)
        say(f"  {row['t_s']:5} s  RSS {mib(row['rss_kib'])}  rooms playing "
            f"{row['rooms_playing']}, in memory {row['rooms_in_memory']}, moves {row['moves']}")

    async def soak_round(self, round_: int, churn: int) -> dict[str, Any]:
        """``--rooms`` rooms play for ``--minutes`` in waves (with ``--until-deals``, then
        until their deals ended), then leave memory."""
        a = self.args
        t_setup = time.monotonic()
        live = await self.open_rooms(a.rooms, a.think, self.stats)
        t0 = time.monotonic()
        say(f"round {round_ + 1} of {a.rounds}: {a.rooms} rooms playing (set up in "
            f"{t0 - t_setup:.1f} s); every {a.wave:g} s {churn} close and {churn} new come")
        end = t0 + 60 * a.minutes
        ready0 = self.stats.between_matches["ready"]
        waves = 0

        def deals_ended() -> int:
            return (self.stats.between_matches["ready"] - ready0) // READY_PER_DEAL

        def events_due() -> bool:
            """--until-deals: the deals (and, with churn, a wave) this round awaits."""
            return bool(a.until_deals) and (deals_ended() < a.until_deals
                                            or (churn > 0 and waves == 0))

        next_wave, next_sample = t0 + a.wave, t0 + a.sample
        while (now := time.monotonic()) < end or events_due():
            if a.until_deals and now - t0 > a.round_cap:
                raise RuntimeError(
                    f"round {round_ + 1}: {deals_ended()} of {a.until_deals} deals ended and "
                    f"{waves} waves came in --round-cap {a.round_cap:g} s")
            wake = min(next_wave, next_sample, end if now < end else now + EVENT_POLL_S)
            await asyncio.sleep(max(0.0, wake - now))
            now = time.monotonic()
            # past --minutes only the first wave still comes: the rooms playing then
            # live on until they end their deals
            if now >= next_wave and (now < end or (events_due() and not waves)) and churn:
                leaving, live = live[:churn], live[churn:]
                await self.close_rooms(leaving)
                live += await self.open_rooms(churn, a.think, self.stats)
                next_wave += a.wave
                waves += 1
            if now >= next_sample and (now < end or events_due()):
                await self.sample(t0, live, round_)  # the sample at the end comes below
                next_sample += a.sample
        soak_s = time.monotonic() - t0
        deals = deals_ended()
        await self.sample(t0, live, round_)
        for room in live:
            for seat in room.seats:
                seat.active = False
        await asyncio.sleep(min(2.0, 0.5 + a.think))  # the last actions land
        dropped = sum(s.ws is not None and s.ws.state is not State.OPEN
                      for r in live for s in r.seats)
        await self.close_rooms(live)
        await asyncio.sleep(1.0)
        closed = self.rss()
        say(f"every socket closed: {mib(closed)}, rooms in memory "
            f"{await self.rooms_in_memory()}")
        expiry = await self.wait_expired()
        expired = self.rss()
        heap = await self.heap()
        say(f"rooms left memory ({expiry['rooms_left']} left after {expiry['seconds']} s, "
            f"then {a.settle:g} s): {mib(expired)}, live heap {heap:,} "
            f"{self.heap_seen['unit']} (after the warm-up room {self.heap_seen['warm']:,})")
        return {"seconds": round(soak_s, 1), "waves": waves, "deals_ended": deals,
                "sockets_closed": closed,
                "rooms_expired": expired, "heap_expired": heap, "expiry": expiry,
                "playing_sockets_closed_by_server": dropped}

    async def play(self) -> dict[str, Any]:
        a = self.args
        self.memory["empty"] = self.rss()
        self.heap_seen["empty"] = await self.heap()
        say(f"empty: {mib(self.memory['empty'])}, live heap {self.heap_seen['empty']:,} "
            f"{self.heap_seen['unit']}")
        await self.warm_up()
        peak_task = asyncio.get_running_loop().create_task(self.watch_peak())
        churn = max(1, round(a.churn * a.rooms)) if a.churn > 0 else 0
        rounds = [await self.soak_round(k, churn) for k in range(a.rounds)]
        peak_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await peak_task
        last = rounds[-1]
        self.memory.update(sockets_closed=last["sockets_closed"],
                           rooms_expired=last["rooms_expired"], peak=self.peak,
                           after_each_round=[r["rooms_expired"] for r in rounds])
        self.heap_seen.update(rooms_expired=last["heap_expired"],
                              after_each_round=[r["heap_expired"] for r in rounds])
        say(f"peak {mib(self.peak)}; after each round "
            f"{', '.join(mib(r['rooms_expired']) for r in rounds)}")
        lat = sorted(self.stats.latencies)
        return {"memory_kib": self.memory, "final": verdict(self.memory, a),
                "heap": self.heap_seen, "live_heap": heap_verdict(self.heap_seen, a),
                "rounds": rounds, "expiry": last["expiry"], "warmup": self.warmup,
                "moves": self.stats.moves, "seconds": sum(r["seconds"] for r in rounds),
                "latency_ms": {"p50": ms(percentile(lat, 0.5)) if lat else None,
                               "p99": ms(percentile(lat, 0.99)) if lat else None,
                               "max": ms(lat[-1]) if lat else None},
                "rooms_created": self.created, "churn_per_wave": churn,
                "ready_and_rematch_sent": dict(self.stats.between_matches),
                "errors": dict(self.stats.errors),
                "swarm_errors": dict(self.stats.swarm_errors),
                "playing_sockets_closed_by_server": sum(
                    r["playing_sockets_closed_by_server"] for r in rounds)}


def verdict(memory: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The final RSS against the empty and the warm one; did it come back?"""
    final, empty, warm = memory["rooms_expired"], memory["empty"], memory["warm"]
    tolerance = max(args.tolerance_pct / 100 * warm, args.tolerance_mib * MIB)
    back = final - warm <= tolerance
    out = {"ratio_to_empty": round(final / empty, 3), "diff_to_empty_kib": final - empty,
           "ratio_to_warm": round(final / warm, 3), "diff_to_warm_kib": final - warm,
           "rule": f"final RSS at most max({args.tolerance_pct:g} % of the warm RSS, "
                   f"{args.tolerance_mib:g} MiB) above the RSS after the warm-up room",
           "tolerance_kib": round(tolerance), "came_back": back}
    after = memory["after_each_round"]
    if len(after) > 1:  # a leak grows with every round; an allocator's high-water mark not
        out["last_round_growth_kib"] = after[-1] - after[-2]
        say(f"the last round added {signed_mib(after[-1] - after[-2])} to the one before "
            f"(the first added {signed_mib(after[0] - warm)} to the warm RSS)")
    say(f"final RSS {mib(final)}: {out['ratio_to_empty']}x the empty RSS "
        f"({signed_mib(final - empty)}), {out['ratio_to_warm']}x the warm RSS "
        f"({signed_mib(final - warm)})")
    say(f"rule: {out['rule']} (tolerance {mib(out['tolerance_kib'])})")
    say(f"memory came back near its start: {'YES' if back else 'NO'}")
    return out


def heap_verdict(heap: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The live heap after the rooms left against the one after the warm-up room: what a
    leak grows, whatever the allocator keeps of its high-water mark."""
    final, warm, unit = heap["rooms_expired"], heap["warm"], heap["unit"]
    tolerance = max(args.tolerance_pct / 100 * warm, HEAP_TOLERANCE[unit])
    back = final - warm <= tolerance
    say(f"live heap: {final:,} {unit} after the rooms left, {final - warm:+,} against the "
        f"warm-up room's {warm:,} (tolerance {tolerance:,.0f}): came back: "
        f"{'YES' if back else 'NO'}")
    return {"unit": unit, "diff_to_warm": final - warm, "tolerance": round(tolerance),
            "came_back": back}


def say(line: str) -> None:
    print(line, flush=True)


def mib(kib: float) -> str:
    return f"{kib / MIB:.1f} MiB"


def signed_mib(kib: float) -> str:
    return f"{kib / MIB:+.1f} MiB"


def ms(seconds: float) -> float:
    return round(1000 * seconds, 2)


def deadline_s(args: argparse.Namespace) -> float:
    """The whole run's bound: warm-up, set-ups, the soak, two expiries, margins."""
    waves = int(60 * args.minutes / args.wave) + 1
    created = args.rooms + waves * max(1, round(args.churn * args.rooms))
    expiry = args.idle_seconds + SWEEP_S_MAX + EXPIRY_MARGIN_S + args.settle + 5
    soak_s = max(60 * args.minutes, args.round_cap if args.until_deals else 0)
    per_round = soak_s + expiry + SETUP_S_MIN + SETUP_S_PER_ROOM * created
    return float(args.warmup_bound + expiry + args.rounds * per_round + 60)


async def soak(args: argparse.Namespace, server: ServeProcess) -> dict[str, Any]:
    runner = Soak(args, server)
    try:
        async with asyncio.timeout(deadline_s(args)):
            return await runner.play()
    finally:
        await runner.http.aclose()


def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    env = {**SERVER_ENV, "AMERIKANER_IDLE_SECONDS": str(args.idle_seconds),
           "AMERIKANER_MAX_ROOMS": str(max(2000, 3 * args.rooms)), **args.server_env}
    server = ServeProcess(tmp / "data", env)
    server.start()
    try:
        try:
            import uvloop
            loop = asyncio.Runner(loop_factory=uvloop.new_event_loop)
        except ImportError:  # pragma: no cover
            loop = asyncio.Runner()
        with loop:
            return loop.run(soak(args, server))
    except BaseException:
        print(f"server output:\n{server.stop()[-4000:]}", file=sys.stderr)
        raise
    finally:
        server.stop()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the soak")
    parser.add_argument("--rooms", type=int, default=300, help="rooms playing at once")
    parser.add_argument("--rounds", type=int, default=1,
                        help="soaks one after the other, each ending with every room out "
                             "of memory: a leak grows round after round, memory the "
                             "allocator keeps after its peak does not")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a person waits before acting, jittered +-50%%")
    parser.add_argument("--wave", type=float, default=30.0,
                        help="seconds between waves of rooms leaving and coming")
    parser.add_argument("--churn", type=float, default=0.2,
                        help="share of the rooms that leave (and come) in each wave; 0: none")
    parser.add_argument("--sample", type=float, default=60.0,
                        help="seconds between RSS samples during the soak")
    parser.add_argument("--idle-seconds", type=float, default=5.0,
                        help="the server's AMERIKANER_IDLE_SECONDS: a room nobody is "
                             "connected to leaves memory after this")
    parser.add_argument("--settle", type=float, default=2.0,
                        help="seconds after the rooms left memory before the final RSS")
    parser.add_argument("--warmup-bound", type=float, default=60.0,
                        help="seconds the warm-up room may take to finish its match")
    parser.add_argument("--until-deals", type=int, default=0, metavar="N",
                        help="each round goes on past --minutes until N deals ended in it "
                             "(and, with --churn, a wave came)")
    parser.add_argument("--round-cap", type=float, default=600.0,
                        help="with --until-deals: fail if a round has not reached its deals "
                             "in this many seconds")
    parser.add_argument("--tolerance-pct", type=float, default=10.0)
    parser.add_argument("--tolerance-mib", type=float, default=5.0)
    parser.add_argument("--rules", type=json.loads,
                        default={"preset": "standard", "match": "deals:2"},
                        help="the rooms' rule set as JSON (default: standard, two deals)")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="more environment for the server (repeatable)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, default=None, help="write every figure here")
    args = parser.parse_args(argv)
    if (args.minutes <= 0 or args.rooms < 1 or args.rounds < 1 or args.wave <= 0 or args.sample <= 0
            or args.think < 0 or not 0 <= args.churn <= 1 or args.idle_seconds <= 0
            or args.until_deals < 0 or args.round_cap <= 0):
        parser.error("--minutes, --rooms, --rounds, --wave, --sample, --idle-seconds and "
                     "--round-cap must be positive, --think and --until-deals not negative, "
                     "--churn between 0 and 1")
    if args.until_deals and args.round_cap < 60 * args.minutes:
        parser.error("--round-cap: not shorter than --minutes")
    try:
        args.server_env = dict(kv.split("=", 1) for kv in args.server_env)
    except ValueError:
        parser.error("--server-env: KEY=VALUE")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out: dict[str, Any] = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform()},
        "load_average_before": os.getloadavg()[0],
        "settings": {k: (str(v) if isinstance(v, Path) else v)
                     for k, v in vars(args).items() if k != "json"},
    }
    with tempfile.TemporaryDirectory(prefix="amerikaner-soak-") as tmp:
        out.update(run(args, Path(tmp)))
    say(f"moves played {out['moves']} (p50 {out['latency_ms']['p50']} ms, p99 "
        f"{out['latency_ms']['p99']} ms); rooms created in all {out['rooms_created']}; "
        f"load average before {out['load_average_before']:.2f}")
    for key in ("errors", "swarm_errors", "playing_sockets_closed_by_server"):
        if out[key]:
            say(f"  {key.replace('_', ' ')}: {out[key]}")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())  # Ctrl-C: the finally blocks stop the server all the same
