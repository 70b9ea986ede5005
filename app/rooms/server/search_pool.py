"""The worker processes where the searching bots, hints and reviews think, shared by every
room of a process so that no room or client can starve the others.

Four lanes: bot moves (a table waits for them), hints (a practice player waits for
them), reviews, and par (the clubs' deals played again by the bots, par_queue.py: no one
waits for it).  Bot moves and hints share the ``workers`` table workers, bot moves
first; a job is handed to a worker only when one is free, so the order holds for every
job still waiting, and hints never hold more than ``workers - 1`` of them: one is always
kept for the bots.  Reviews (seconds of CPU each) run only on ``review_workers`` workers of
their own, started with the first review, at a lower CPU priority (search_workers.py's
``REVIEW_NICE``): they neither hold a table's worker nor take a core a table's search
wants; par runs there too, only when no review waits.  Hints, reviews and par wait in a
fair queue (fair_queue.py): bounded per room and per client address (``PoolBusy`` beyond
the bound: the caller says so to the player), and taking turns among addresses, so one
client's reviews do not wait in front of everyone else's.

A bot move names the time by which it must have a worker (``start_within``); if none was
free by then it is given up with ``NoWorkerInTime`` and the caller decides the move
another way (thinking.py: the quick bot), so a table never waits long for the pool.

Each worker is a process of its own (search_workers.py), spawned, that dies with the
server (Linux's parent-death signal; no orphans after a SIGKILL of the server) and is
replaced at once when it dies (``WorkerLost`` for its job)
or overruns its job's hard limit (killed, then replaced). ``stats()`` is for /healthz,
with how long jobs waited for a worker, by lane (pool_stats.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar, cast

from .fair_queue import FairQueue, Job, Lane
from .pool_stats import PoolStats, PoolWaits, WaitObserver
from .search_workers import REVIEW_NICE, start_worker

T = TypeVar("T")

log = logging.getLogger("amerikaner.rooms")


class NoWorkerInTime(Exception):
    """A bot move found no free worker within its ``start_within``."""


class WorkerLost(Exception):
    """The worker died, or was killed for overrunning the job's hard limit."""


@dataclass(eq=False)
class _Worker:
    process: BaseProcess            # multiprocessing's spawned Process
    conn: Connection
    reviews: bool                   # a review worker (lower priority, reviews only)
    ready: bool = False             # its imports are done: it may be given jobs
    job: Job | None = None
    overrun: asyncio.TimerHandle | None = None


@dataclass
class _Counts:
    replaced: int = 0               # workers that died or were killed, and replaced
    no_worker_in_time: int = 0      # bot moves decided without the search


class SearchPool:
    """``workers`` processes, started on first use; ``await run(...)`` a job on one."""

    def __init__(self, workers: int, warm: tuple[str, ...] = (),
                 clock: Callable[[], float] = time.monotonic,
                 on_wait: WaitObserver | None = None, review_workers: int = 1,
                 review_nice: int = REVIEW_NICE) -> None:
        """``workers``: the bots' and hints' processes; ``review_workers``: the reviews',
        ``review_nice`` steps of niceness below the server; ``warm``: modules each worker
        imports before it takes jobs; ``clock``: what the queue waits are measured with
        (a test's own, to know them exactly); ``on_wait(lane, seconds)``: told each job's
        wait too (pool_stats.py)."""
        if workers < 1 or review_workers < 1:
            raise ValueError("a search pool needs at least one worker of each kind")
        self.workers = workers
        self.review_workers = review_workers
        self._review_nice = review_nice
        self._reviews_started = False  # review workers are started with the first review
        self._warm = warm
        self._context = multiprocessing.get_context("spawn")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pool: list[_Worker] = []
        self._bots: deque[Job] = deque()
        self._queue = FairQueue()  # hints, reviews and par
        self._counts = _Counts()
        self._clock = clock
        self._waits = PoolWaits(on_wait=on_wait)
        self._closed = False
        self._spawn_failure: str | None = None  # why the last worker could not start

    # -- asking -------------------------------------------------------------------------

    async def run(self, lane: Lane, fn: Callable[..., T], *args: object, room: str,
                  address: str = "", hard: float, start_within: float | None = None) -> T:
        """``fn(*args)`` on a worker; its result, or the exception that ended it (the
        worker's own exceptions come back as ``RuntimeError`` with their text).  After
        ``close`` it fails at once: nothing would ever take the job."""
        if self._closed:
            raise WorkerLost("the server is stopping")
        loop = self._start()
        self._fill()  # workers that could not be started are tried again
        job = Job(lane, fn, args, room, address, hard, loop.create_future(), self._clock())
        if lane is Lane.BOT:
            self._bots.append(job)
            if start_within is not None:
                job.expiry = loop.call_later(start_within, self._expire, job)
        else:
            self._queue.admit(job)
            if lane >= Lane.REVIEW and not self._reviews_started:
                self._reviews_started = True
                self._fill()
        self._dispatch()
        status, value = await job.future
        if status == "error":
            raise RuntimeError(value)
        return cast(T, value)  # what fn returned, across the pipe

    def _expire(self, job: Job) -> None:
        """A bot move that still has no worker: the table will not wait for one."""
        if job in self._bots:
            self._bots.remove(job)
            self._counts.no_worker_in_time += 1
            if not job.future.done():
                job.future.set_exception(NoWorkerInTime("no search worker was free in time"))

    # -- handing jobs to workers --------------------------------------------------------

    def _next_assignment(self) -> tuple[_Worker, Job] | None:
        """A free worker and the job it should take now, if any."""
        for worker in self._pool:
            if worker.ready and worker.job is None:
                job = self._next_job(worker)
                if job is not None:
                    return worker, job
        return None

    def _next_job(self, worker: _Worker) -> Job | None:
        """The job ``worker`` (free) should take next, if any."""
        if worker.reviews:  # par only when no review waits: the lowest lane
            return self._queue.take_turn(Lane.REVIEW) or self._queue.take_turn(Lane.PAR)
        if self._bots:
            return self._bots.popleft()
        hints = sum(1 for w in self._pool if w.job is not None and w.job.lane is Lane.HINT)
        if hints >= max(1, self.workers - 1):
            return None  # with two or more workers, the last free one is kept for the bots
        return self._queue.take_turn(Lane.HINT)

    def _dispatch(self) -> None:
        if self._closed:
            return
        loop = self._start()
        while True:
            found = self._next_assignment()
            if found is None:
                return
            worker, job = found
            if job.future.done():  # its asker gave up (a room that left memory)
                continue
            if job.expiry is not None:
                job.expiry.cancel()
            self._waits.record(job.lane.name.lower(), self._clock() - job.admitted)
            try:
                worker.conn.send((job.fn, job.args))
            except (OSError, ValueError):  # the worker just died: its reader replaces it
                worker.job = job
                continue
            worker.job = job
            worker.overrun = loop.call_later(job.hard, self._overran, worker)

    def _finished(self, worker: _Worker, reply: tuple[str, object]) -> None:
        if reply[0] == "ready":
            worker.ready = True
            self._dispatch()
            return
        job = worker.job
        worker.job = None
        if worker.overrun is not None:
            worker.overrun.cancel()
            worker.overrun = None
        if job is not None and not job.future.done():
            job.future.set_result(reply)
        self._dispatch()

    def _overran(self, worker: _Worker) -> None:
        job = worker.job
        log.warning("a search worker overran its job's %.1f s (%s): killed and replaced",
                    job.hard if job else 0.0, job.lane.name.lower() if job else "?")
        with contextlib.suppress(OSError):
            worker.process.kill()  # its reader sees the pipe close: _exited replaces it

    def _exited(self, worker: _Worker) -> None:
        # Its reader has stopped reading, so only now may the pipe close: closed under a
        # reader, recv() would read a handle of None, or a reused descriptor.
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker not in self._pool:
            return
        self._pool.remove(worker)
        if worker.overrun is not None:
            worker.overrun.cancel()
        job = worker.job
        if job is not None and not job.future.done():
            job.future.set_exception(WorkerLost("the search worker died during the job"))
        worker.process.join(timeout=0)
        if self._closed:
            return
        self._counts.replaced += 1
        log.warning("a search worker ended (exit code %s); a new one is started",
                    worker.process.exitcode)
        self._fill()
        self._dispatch()

    # -- the processes ------------------------------------------------------------------

    def _start(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._fill()
        return self._loop

    def _count(self, reviews: bool) -> int:
        return sum(1 for w in self._pool if w.reviews == reviews)

    def _short(self) -> list[bool]:
        """A kind (review worker or not) for each worker missing."""
        reviews = self.review_workers if self._reviews_started else 0
        return ([False] * (self.workers - self._count(False))
                + [True] * (reviews - self._count(True)))

    def _fill(self) -> None:
        """Start workers up to ``workers`` (and ``review_workers``, once reviews are
        asked for).  One that cannot start (no memory, no process left to the user)
        leaves the pool short: ``problem`` says so (/healthz), and the next job tries
        again."""
        for reviews in self._short():
            if self._closed:
                return
            try:
                self._spawn(reviews)
            except OSError as exc:
                if self._spawn_failure is None:
                    log.error("a search worker could not be started: %s", exc)
                self._spawn_failure = f"{type(exc).__name__}: {exc}"
                return
            self._spawn_failure = None

    def _spawn(self, reviews: bool) -> None:
        process, conn = start_worker(self._context, self._warm,
                                     self._review_nice if reviews else 0)
        worker = _Worker(process, conn, reviews)
        self._pool.append(worker)
        threading.Thread(target=self._read, args=(worker,), daemon=True,
                         name="search-reader").start()

    def _read(self, worker: _Worker) -> None:
        """A thread per worker: its replies, then its end, back on the event loop."""
        loop = self._loop
        assert loop is not None
        while True:
            try:
                reply = worker.conn.recv()
            except (EOFError, OSError):
                break
            if not self._call(loop, self._finished, worker, reply):
                break
        if not self._call(loop, self._exited, worker):  # no loop left to close it
            with contextlib.suppress(OSError):
                worker.conn.close()

    @staticmethod
    def _call(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: object) -> bool:
        try:
            loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed: the server is ending
            return False
        return True

    def problem(self) -> str | None:
        """What keeps the pool from doing its work, for /healthz; ``None``: nothing (a
        pool not started yet has nothing wrong with it)."""
        if self._loop is None or self._closed or not self._short():
            return None
        tables, reviews = self._count(False), self._count(True)
        if tables < self.workers:
            running = f"{tables} of {self.workers} search workers running"
        else:
            running = f"{reviews} of {self.review_workers} review workers running"
        return f"{running}: a new one could not be started ({self._spawn_failure})"

    def stats(self) -> PoolStats:
        """The pool at a glance (``/healthz``)."""
        running = [w.job.lane for w in self._pool if w.job is not None]
        return {
            "workers": self.workers,
            "review_workers": self.review_workers,
            "alive": sum(1 for w in self._pool if w.process.is_alive()),
            "ready": sum(1 for w in self._pool if w.ready),
            "started": self._loop is not None,
            "running": {"bot": running.count(Lane.BOT), "hint": running.count(Lane.HINT),
                        "review": running.count(Lane.REVIEW),
                        "par": running.count(Lane.PAR)},
            "waiting": {"bot": len(self._bots), "hint": self._queue.waiting(Lane.HINT),
                        "review": self._queue.waiting(Lane.REVIEW),
                        "par": self._queue.waiting(Lane.PAR)},
            "replaced": self._counts.replaced,
            "no_worker_in_time": self._counts.no_worker_in_time,
            "refused": self._queue.refused,
            "queue_wait": self._waits.summary(),
        }

    def close(self) -> None:
        """Stop every worker now; what waits or runs ends with ``WorkerLost``."""
        self._closed = True
        for job in [*self._bots, *self._queue.jobs()]:
            if not job.future.done():
                job.future.set_exception(WorkerLost("the server is stopping"))
        self._bots.clear()
        self._queue.clear()  # (their futures failed above: nothing waits on them)
        for worker in self._pool:
            if worker.job is not None and not worker.job.future.done():
                worker.job.future.set_exception(WorkerLost("the server is stopping"))
            with contextlib.suppress(OSError):
                worker.process.kill()
        for worker in self._pool:  # each reader sees its pipe end and closes it (_exited)
            worker.process.join(timeout=2)
        self._pool.clear()
