"""Where hints, reviews and par wait for a search worker (search_pool.py takes them from
here): bounded, and fair among the clients that ask.

Each room and each client address may have at most ``PER_ROOM`` and ``PER_ADDRESS`` of
them waiting or running at once; one more is refused with ``PoolBusy`` (the caller says
so to the player), so that no table or client can fill the queue.  Among addresses they
take turns: the address served longest ago (or never) goes first, so one client's many
reviews do not wait in front of everyone else's single ones.

Bot moves do not wait here: a table waits for them, so they go before every lane, in the
pool's own line, and are given up when no worker was free in time.  This is bookkeeping
on the event loop's thread only: no processes, no clock.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum

# Hints and reviews waiting or running at once, at most: per room, per client address.
PER_ROOM = 2
PER_ADDRESS = 4


class Lane(IntEnum):
    """What a job is for; a lower value is served first."""

    BOT = 0
    HINT = 1
    REVIEW = 2
    PAR = 3


class PoolBusy(Exception):
    """Refused: this room or address has as many hints or reviews waiting as allowed."""


@dataclass(eq=False)
class Job:
    """One call of a function on a search worker, from the asking to its reply."""

    lane: Lane
    fn: Callable[..., object]
    args: tuple[object, ...]
    room: str
    address: str
    hard: float                     # seconds it may run before its worker is killed
    future: asyncio.Future[tuple[str, object]]  # the worker's reply: ("ok", result)
    admitted: float                 # the pool's clock when it was asked for
    expiry: asyncio.TimerHandle | None = None   # a bot move's "no worker in time"


class FairQueue:
    """The hints, reviews and par waiting for a worker: per lane, per address (taking
    turns), each address's in arrival order."""

    def __init__(self) -> None:
        self._waiting: dict[Lane, dict[str, deque[Job]]] = {
            Lane.HINT: {}, Lane.REVIEW: {}, Lane.PAR: {}}
        # Waiting or running, for the bounds: a job counts until its future is done.
        self._per_room: dict[str, int] = {}
        self._per_address: dict[str, int] = {}
        self._served: dict[str, int] = {}  # address -> turn it was last served (while busy)
        self._turn = 0
        self.refused = 0                # jobs over a room's or address's bound

    def admit(self, job: Job) -> None:
        """Queue ``job``, or refuse it with ``PoolBusy`` if its room or address is at its
        bound."""
        if (self._per_room.get(job.room, 0) >= PER_ROOM
                or self._per_address.get(job.address, 0) >= PER_ADDRESS):
            self.refused += 1
            raise PoolBusy("too many hints or reviews are being made for this table; "
                           "ask again in a moment")
        self._per_room[job.room] = self._per_room.get(job.room, 0) + 1
        self._per_address[job.address] = self._per_address.get(job.address, 0) + 1
        self._waiting[job.lane].setdefault(job.address, deque()).append(job)
        job.future.add_done_callback(lambda _: self._release(job))

    def _release(self, job: Job) -> None:
        for counter, key in ((self._per_room, job.room), (self._per_address, job.address)):
            left = counter.get(key, 0) - 1
            if left > 0:
                counter[key] = left
            else:
                counter.pop(key, None)
        if job.address not in self._per_address:
            self._served.pop(job.address, None)  # nothing of it left: forget it

    def take_turn(self, lane: Lane) -> Job | None:
        """The next job of ``lane``: the address served longest ago (or never) goes
        first, so one client's many jobs take turns with everyone else's single ones."""
        by_address = self._waiting[lane]
        if not by_address:
            return None
        address = min(by_address, key=lambda a: self._served.get(a, -1))
        jobs = by_address[address]
        job = jobs.popleft()
        if not jobs:
            del by_address[address]
        self._turn += 1
        self._served[address] = self._turn
        return job

    def waiting(self, lane: Lane) -> int:
        """How many jobs of ``lane`` wait for a worker."""
        return sum(len(q) for q in self._waiting[lane].values())

    def clear(self) -> None:
        """Forget every waiting job (the pool is closing)."""
        for by_address in self._waiting.values():
            by_address.clear()

    def jobs(self) -> Iterator[Job]:
        """Every job waiting, lane by lane."""
        for by_address in self._waiting.values():
            for jobs in by_address.values():
                yield from jobs
