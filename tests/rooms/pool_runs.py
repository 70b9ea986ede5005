"""A scenario against a real ``SearchPool`` in a test: the pool made, the scenario awaited
within ``WAIT``, the pool closed; and ``until``, a wait on a state the pool reaches by
events (tests/rooms/test_search_pool.py, test_par_queue.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from app.rooms.server.pool_stats import WaitObserver
from app.rooms.server.search_pool import SearchPool

T = TypeVar("T")
WAIT = 60.0  # generous: spawned workers import the app on a busy machine


def run(scenario: Callable[[SearchPool], Awaitable[T]], workers: int = 2,
        clock: Callable[[], float] = time.monotonic, on_wait: WaitObserver | None = None,
        ) -> T:
    async def main() -> T:
        pool = SearchPool(workers, clock=clock, on_wait=on_wait)
        try:
            return await asyncio.wait_for(scenario(pool), WAIT)
        finally:
            pool.close()
    return asyncio.run(main())


async def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (a state the pool reaches by events), checking each 10 ms."""
    while not condition():
        await asyncio.sleep(0.01)
