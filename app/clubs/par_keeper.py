"""Par for the clubs' finished matches: each deal played again by the bot
(app/bots/par.py) in the search pool's lowest lane (app/rooms/server/par_queue.py), and
kept in the store (par_store.py).

When it runs: ``wake()`` after a club match is counted (the clubs' ledger tells:
ledger.py), at the server's start, and from the registry's sweep (``PAR_SCAN_SECONDS``):
each scan takes up to ``limit`` matches whose par is not all made, the oldest first, and hands
their deals without par to the queue.  A deal the queue refuses (``ParBusy``: the club has
a backlog) or that fails (``ParFailed``) waits for a later scan; nothing is lost at a
restart, since what is missing is read from the store.

In a cluster (PostgreSQL): a process takes a match's lease (``club_matches.par_claim``,
``claim_seconds``) before making its par, so one process makes a given match's par; a
process that dies leaves its lease to lapse, and another takes the match then.  Should two
ever make the same deal (a lease lapsed under a very slow server), the second write
changes nothing, and par is reproducible anyway (the same deal, the same par).

Nothing heavy on the event loop: a match's deals are derived from its record (a replay)
in a thread, once per scan of the match.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import orjson

from app.bots.par import Par
from app.rooms.server.par_queue import ParBusy, ParFailed, ParJob, ParQueue
from app.rooms.store import RoomStore

from . import par_store

log = logging.getLogger("amerikaner.clubs")

CLAIM_SECONDS = 3600.0   # a match's par lease: a match's deals at nice 10, then some
SCAN_LIMIT = 20          # matches taken per scan
PAR_SCAN_SECONDS = 60.0  # the sweep scans at most this often


class ParKeeper:
    """Makes and keeps the par of the clubs' matches in ``store`` through ``queue``."""

    def __init__(self, store: RoomStore, queue: ParQueue, *,
                 claim_seconds: float = CLAIM_SECONDS, limit: int = SCAN_LIMIT) -> None:
        self.store = store
        self.queue = queue
        self.claim_seconds = claim_seconds
        self.limit = limit
        self._scan: asyncio.Task[None] | None = None
        self._again = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._last_scan = 0.0
        self._held: dict[tuple[str, int], float] = {}  # matches leased: until when
        self.stored = 0  # deals whose par this process wrote

    def wake(self) -> None:
        """Scan soon (one scan at a time: a wake during a scan runs one more after it)."""
        if self._scan is not None and not self._scan.done():
            self._again = True
            return
        self._scan = asyncio.get_running_loop().create_task(self._scans())

    def sweep(self) -> None:
        """The registry's sweep: a scan if none ran for ``PAR_SCAN_SECONDS``."""
        if time.monotonic() - self._last_scan >= PAR_SCAN_SECONDS:
            self.wake()

    async def _scans(self) -> None:
        while True:
            self._again = False
            self._last_scan = time.monotonic()
            try:
                await self.scan()
            except Exception:
                log.exception("the clubs' par scan failed")
            if not self._again:
                return

    async def scan(self) -> int:
        """Hand the deals without par of up to ``limit`` matches to the queue; how many."""
        now = time.time()
        async with self.store.club_tx() as tx:
            todo = await par_store.pending(tx, now, self.limit)
        handed = 0
        busy: set[str] = set()
        for room_id, number, club in todo:
            if club in busy:
                continue
            until = now + self.claim_seconds
            async with self.store.club_tx() as tx:
                if not await par_store.claim(tx, room_id, number, now, until):
                    continue  # another process makes it
            self._held[(room_id, number)] = until
            try:
                jobs, wanted = await self._jobs(club, room_id, number)
            except BaseException:
                await self._release(room_id, number, until)
                raise
            made: list[tuple[ParJob, asyncio.Future[Par]]] = []
            for job in jobs:
                try:
                    made.append((job, self.queue.submit(job)))
                except ParBusy:
                    busy.add(club)  # the rest later: the club's backlog is full
                    break
            handed += len(made)
            task = asyncio.get_running_loop().create_task(
                self._keep(club, room_id, number, until, made, wanted))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return handed

    async def _jobs(self, club: str, room_id: str, number: int
                    ) -> tuple[list[ParJob], int]:
        """The match's deals without a par, and how many of its deals get one (kept in
        its row the first time)."""
        async with self.store.club_tx() as tx:
            found = await par_store.record_and_done(tx, room_id, number)
        if found is None:
            return [], 0
        text, derived, done = found
        jobs, deals = await asyncio.to_thread(
            lambda: par_store.deals_of_record(club, room_id, number, orjson.loads(text)))
        if not derived:
            async with self.store.club_tx() as tx:
                await par_store.keep_deals(tx, room_id, number, deals)
        return [j for j in jobs if j.deal not in done], len(deals)

    async def _keep(self, club: str, room_id: str, number: int, until: float,
                    made: list[tuple[ParJob, asyncio.Future[Par]]], wanted: int) -> None:
        """Write each deal's par as it comes, then give the match's lease back."""
        try:
            for job, future in made:
                try:
                    par = await future
                except ParFailed:
                    continue  # a later scan asks again
                async with self.store.club_tx() as tx:
                    await par_store.keep_par(tx, club, room_id, number, job.deal,
                                             par.to_json(), wanted)
                self.stored += 1
        finally:
            await self._release(room_id, number, until)

    async def settled(self) -> None:
        """Return once the scan and the writes under way are done (tests, a drain)."""
        while (self._scan is not None and not self._scan.done()) or self._tasks:
            await asyncio.gather(*([self._scan] if self._scan else []), *self._tasks,
                                 return_exceptions=True)

    async def _release(self, room_id: str, number: int, until: float) -> None:
        self._held.pop((room_id, number), None)
        with contextlib.suppress(Exception):
            async with self.store.club_tx() as tx:
                await par_store.release(tx, room_id, number, until)

    async def start(self) -> None:
        """At the server's start: a store of this process alone (SQLite) holds no live
        lease (the last process's are void), then a scan for what is missing."""
        if not self.store.shared:
            with contextlib.suppress(Exception):
                async with self.store.club_tx() as tx:
                    await par_store.release_all(tx)
        self.wake()

    async def close(self) -> None:
        """Stop, and give back the leases held (another process, or this server's next
        start, makes those matches' par)."""
        for task in [*self._tasks, *([self._scan] if self._scan else [])]:
            task.cancel()
        for (room_id, number), until in list(self._held.items()):
            await self._release(room_id, number, until)
