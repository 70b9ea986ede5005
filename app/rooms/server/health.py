"""What ``/healthz`` says is wrong: each part of the server that cannot do its work now.

- ``store``: the store cannot write (a full disk, a read-only or locked file, a database
  gone).  Told by a write that changes nothing (``RoomStore.probe``): at most once every
  ``PROBE_SECONDS`` while writes work, so that a load balancer polling ``/healthz`` costs
  the database one small write every few seconds at most, and at every ask while they
  fail, so that a store that came back is seen at once.  A failed save of a room shows
  at the next probe.
- ``search``: the search pool of the bots, hints and reviews is short of workers that
  could not be started (``SearchPool.problem``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from typing_extensions import TypedDict  # pydantic reads it (/healthz) on Python 3.11

from app.rooms.store import RoomStore, StoreError

from .thinking import Thinkers

PROBE_SECONDS = 5.0


class Problems(TypedDict, total=False):
    """The parts that fail, each with what is wrong (``/healthz``, 503)."""

    store: str
    search: str


class HealthCheck:
    """The server's parts, asked by ``/healthz``."""

    def __init__(self, store: RoomStore, thinkers: Thinkers,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.thinkers = thinkers
        self.clock = clock  # tests move it by hand
        self._wrote_at: float | None = None  # when the last probe succeeded

    async def problems(self) -> Problems:
        found: Problems = {}
        store = await self._store_problem()
        if store is not None:
            found["store"] = store
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
