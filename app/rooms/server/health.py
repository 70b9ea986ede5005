"""What ``/healthz`` says is wrong: each part of the server that cannot do its work now.

- ``store``: the store cannot write (a full disk, a read-only or locked file, a database
  gone).  Told by a write that changes nothing the rooms see and, with SQLite, claims new
  space on the disk (``RoomStore.probe``): at most once every ``PROBE_SECONDS`` while
  writes work, so that a load balancer polling ``/healthz`` costs the database one small
  write every few seconds at most, and at every ask while they fail, so that a store that
  came back is seen at once.
- ``saves``: rooms' saves failed in the last ``SAVE_FAILURE_SECONDS``: the store took
  the probe, perhaps, but not the rooms' changes (each such room broke off: its players
  heard ``unavailable``).  A lost lease (``LeaseLost``: another process serves the room)
  is not a failure.
- ``loop``: the event loop has run late for a while (app/web/loop_lag.py).
- ``search``: the search pool of the bots, hints and reviews is short of workers that
  could not be started (``SearchPool.problem``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from typing_extensions import TypedDict  # pydantic reads it (/healthz) on Python 3.11

from app.rooms.store import LeaseLost, RoomStore, StoreError
from app.web import metrics
from app.web.loop_lag import LoopLag

from .thinking import Thinkers

PROBE_SECONDS = 5.0
SAVE_FAILURE_SECONDS = 30.0  # a failed save is a problem this long after it failed


class Problems(TypedDict, total=False):
    """The parts that fail, each with what is wrong (``/healthz``, 503)."""

    store: str
    saves: str
    loop: str
    search: str


class HealthCheck:
    """The server's parts, asked by ``/healthz``."""

    def __init__(self, store: RoomStore, thinkers: Thinkers, loop: LoopLag,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.thinkers = thinkers
        self.loop = loop
        self.clock = clock  # tests move it by hand
        self._wrote_at: float | None = None  # when the last probe succeeded
        self._failed_saves: deque[float] = deque(maxlen=10_000)  # when, recent ones
        self._last_failure = ""

    def save_failed(self, exc: StoreError) -> None:
        """A room's save failed (app/rooms/server/runner.py's ``append``)."""
        if isinstance(exc, LeaseLost):
            return  # the fence did its work: the store is fine
        metrics.STORE_APPEND_FAILURES.inc()
        self._failed_saves.append(self.clock())
        self._last_failure = str(exc)

    async def problems(self) -> Problems:
        found: Problems = {}
        store = await self._store_problem()
        if store is not None:
            found["store"] = store
        saves = self._saves_problem()
        if saves is not None:
            found["saves"] = saves
        loop = self.loop.problem()
        if loop is not None:
            found["loop"] = loop
        search = self.thinkers.problem()
        if search is not None:
            found["search"] = search
        return found

    async def _store_problem(self) -> str | None:
        now = self.clock()
        if self._wrote_at is not None and now - self._wrote_at < PROBE_SECONDS:
            return None
        try:
            await self.store.probe()
        except StoreError as exc:
            self._wrote_at = None
            return f"the store cannot write: {exc}"
        self._wrote_at = now
        return None

    def _saves_problem(self) -> str | None:
        failed = self._failed_saves
        since = self.clock() - SAVE_FAILURE_SECONDS
        while failed and failed[0] <= since:
            failed.popleft()
        if not failed:
            return None
        saves = "a room's save" if len(failed) == 1 else f"{len(failed)} rooms' saves"
        return (f"{saves} failed in the last {SAVE_FAILURE_SECONDS:g} s (the last: "
                f"{self._last_failure})")
