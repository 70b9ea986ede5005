"""The soak of benchmarks/soak.py against one server (``Soak``): rooms opened, played in
waves and closed, the warm-up room, each round until its minutes (and, with
``--until-deals``, its deals) are over, and the RSS and live heap read all along.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import httpx  # noqa: E402
from procstat import rss_kib  # noqa: E402
from serve_process import ServeProcess  # noqa: E402
from soak_verdict import heap_verdict, mib, ms, say, verdict  # noqa: E402
from swarm import connect_rooms, create_rooms  # noqa: E402
from swarm_figures import Goal, Stats, SwarmConfig, percentile  # noqa: E402
from swarm_players import Room  # noqa: E402
from websockets.protocol import State  # noqa: E402

WARMUP_THINK = 0.01        # the warm-up room plays its match as fast as it can
SWEEP_S_MAX = 15.0         # the server sweeps idle rooms at most this far apart
EXPIRY_MARGIN_S = 30.0     # rooms must leave memory within idle + sweep + this
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
