"""The people of benchmarks/swarm.py: each ``Seat`` a real WebSocket acting a jittered
think time after its turn comes (a legal action, ``ready`` between deals, the host's
``rematch``), each ``Room`` telling when all four seats hold a state that reflects a
pending action (``fingerprint``), with frames read by orjson when it is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
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

from seat_moves import WS_MAX, my_turn, pick_action  # noqa: E402
from swarm_figures import SLOW_S, Stats  # noqa: E402
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
