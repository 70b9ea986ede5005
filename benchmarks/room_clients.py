"""The clients of benchmarks/rooms.py: seat 0 of each room over a real WebSocket, playing
a random legal action whenever its view says it is its turn (``ready`` after each deal,
``rematch`` after each match) and counting deals, changes, frames and latencies.
"""

from __future__ import annotations

import asyncio
import collections
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rooms"))

from rooms_harness import WS_MAX, my_turn, pick_action  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

RULES_JSON: dict[str, Any] = {"preset": "standard"}


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
