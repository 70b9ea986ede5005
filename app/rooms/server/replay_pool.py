"""The worker processes where replays are made (``replay_work.py``), apart from the bots'
search pool (``search_pool.py``) so that nobody's uploads delay a table's bot moves.

Reading and replaying a record is pure Python: in a thread it would hold the interpreter's
lock and stall every room just as on the event loop (benchmarks/replay_offload.py measured
both), so it runs in processes of its own, spawned on the first replay (the server has
threads; a fork would copy their locks), that die with the server (Linux's parent-death
signal) and ignore Ctrl+C, which is the server's to handle.

The queue is bounded: at most ``workers + queue`` replays wait or run at once; one more is
refused at once with ``ReplayBusy`` (the route answers ``503`` with ``Retry-After``) rather
than waiting behind work it cannot see the end of.  A worker that dies fails the replays
it had (``ReplayFailed``) and the next replay starts a new pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypedDict, TypeVar

from .search_workers import die_with_parent

log = logging.getLogger("amerikaner.rooms")
T = TypeVar("T")

WARM = "app.rooms.server.replay_work"  # what a worker imports before its first job


class ReplayBusy(Exception):
    """Refused: as many replays wait or run as the queue holds."""


class ReplayFailed(Exception):
    """The worker making the replay died (or the server is stopping)."""


class ReplayPoolStats(TypedDict):
    workers: int          # processes the pool may run
    queue: int            # replays that may wait for one, beyond those running
    started: bool         # whether the processes have been started (on the first replay)
    pending: int          # replays waiting or running now
    done: int             # replays answered (made or refused by the rules) since start
    busy: int             # replays refused because the queue was full
    failed: int           # replays lost with their worker


def _worker_start(parent: int) -> None:
    """In a worker, before its first job: die with the server, leave Ctrl+C to it, and
    import the replay code now rather than during the first replay."""
    die_with_parent()
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)  # the server died before the signal was set
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    __import__(WARM)


class ReplayPool:
    """``workers`` processes, started on first use; ``with slot(): await run(fn, *args)``
    a job on one."""

    def __init__(self, workers: int, queue: int) -> None:
        if workers < 1:
            raise ValueError("a replay pool needs at least one worker")
        self.workers = workers
        self.queue = max(queue, 0)
        self._executor: ProcessPoolExecutor | None = None
        self._pending = 0
        self._done = self._busy = self._failed = 0
        self._closed = False

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """One replay's place, from before its upload is read until it is answered:
        ``ReplayBusy`` at once when as many are open as the pool may hold, so bodies held
        by uploads that wait cost at most ``workers + queue`` times the upload limit."""
        if self._closed:
            raise ReplayFailed("the server is stopping")
        if self._pending >= self.workers + self.queue:
            self._busy += 1
            raise ReplayBusy(f"{self._pending} replays are being made")
        self._pending += 1
        try:
            yield
        finally:
            self._pending -= 1

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a worker (within a ``slot``): its result; ``ReplayFailed``
        when the worker dies during it."""
        if self._closed:
            raise ReplayFailed("the server is stopping")
        executor = self._executor_now()
        try:
            result = await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            self._failed += 1
            self._forget(executor)
            raise ReplayFailed("the replay worker died") from None
        self._done += 1
        return result

    def _executor_now(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start, initargs=(os.getpid(),))
        return self._executor

    def _forget(self, executor: ProcessPoolExecutor) -> None:
        """A broken pool is dropped (its workers are gone); the next replay starts anew."""
        if self._executor is executor:
            log.warning("a replay worker died; new ones start with the next replay")
            self._executor = None
            executor.shutdown(wait=False, cancel_futures=True)

    def stats(self) -> ReplayPoolStats:
        return {"workers": self.workers, "queue": self.queue,
                "started": self._executor is not None, "pending": self._pending,
                "done": self._done, "busy": self._busy, "failed": self._failed}

    def close(self) -> None:
        """Stop the workers: replays waiting are cancelled, those running finish first."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # what waits is dropped; what runs is bounded (replay_work.py's caps) and ends
        executor.shutdown(wait=True, cancel_futures=True)
