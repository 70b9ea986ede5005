"""The shared store: PostgreSQL through an asyncpg pool, for several server processes.

The same log as the SQLite store (``rooms``, ``log``, ``records``; see
``postgres_schema.py``; its SQL in ``postgres_log_sql.py``), plus room ownership (its
SQL in ``postgres_lease_sql.py``): a process serves a room only while it holds the room's
lease, a row ``(code, owner)`` in ``leases``, and a lease holds while its owner is alive:
its row in ``processes`` has an ``expires_at`` in the future, on the database's clock (so
the machines' clocks do not matter).

- ``acquire`` takes a lease that is free, ours, or held by a process that is not alive,
  atomically.
- Every append is fenced: one statement locks the lease row *only if this process still
  owns it* and inserts the entries only then (plus the ``(code, seq)`` primary key), so a
  process that lost a room (paused, cut off, presumed dead) can never write to it again:
  a takeover changes the owner under the same row lock.
- ``renew`` (every ``lease_seconds / 3``) extends this process's heartbeat, one row
  however many rooms it serves, and reads which of its rooms another process took; after
  ``lease_seconds`` without a successful renewal every room counts as lost (another
  process may have taken them).  A dead process's rooms can be taken after at most
  ``lease_seconds``.
- ``release`` lets a room go at once (a task deletes the row, unless the room was taken
  again meanwhile), ``let_go`` the same awaited; ``close`` lets them all go.  Each tells
  the other processes (``NOTIFY``), which remember a refused lease until its holder's
  heartbeat ends or they hear it was let go (lease_cache.py): players reconnecting again
  and again to a room being taken over cost one query, not one each.

asyncpg was chosen by measurement (docs/scaling.md, ``benchmarks/pg_drivers.py``).  Every
call is awaited on the event loop, never blocking it; a pool bounds the connections (their
time limits, and which errors are the database's: ``postgres_connection.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Collection, Coroutine
from typing import Any

import asyncpg
from pydantic import JsonValue

from app.rooms.core.effects import Save
from app.rooms.core.frames import JsonObject
from app.settings import Settings
from app.web import metrics

from . import LeaseLost, StoredRoom, StoreError, T, record_of_text, stored_room
from .folders import FoldedSave, LogFolder
from .lease_cache import HeldElsewhere
from .postgres_connection import (
    COMMAND_TIMEOUT,
    CONNECT_TIMEOUT,
    DB_ERRORS,
    failures,
    new_owner_id,
    redacted,
)
from .postgres_lease_sql import ACQUIRE, CHANNEL, HEARTBEAT, LET_GO, LET_GO_ALL, UNSERVED
from .postgres_log_sql import APPEND, CHECKPOINT, LOAD, PRUNE_RECORDS, SAVE_RECORD
from .postgres_schema import VERSION, migrate
from .tx import PgTx, Tx

log = logging.getLogger("amerikaner.store")


def _dumps(value: JsonValue) -> str:
    return json.dumps(value, separators=(",", ":"))


class PostgresStore:
    shared = True  # several processes use one database: rooms move between them by lease

    def __init__(self, pool: asyncpg.Pool, url: str, lease_seconds: float,
                 owner: str | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 records_kept: int = Settings.records_kept) -> None:
        self._pool = pool
        self.records_kept = records_kept  # per room, the last matches' (0: every one)
        # This process's clock, for how long ago the leases were last renewed (the
        # leases themselves run on the database's clock); tests move it by hand.
        self._clock = clock
        self.owner = owner or new_owner_id()
        self.lease_seconds = lease_seconds
        self.renew_every: float | None = lease_seconds / 3
        self.description = f"PostgreSQL at {redacted(url)} (as {self.owner})"
        self._held: set[str] = set()
        self._releasing: set[str] = set()
        self._lease_lock = asyncio.Lock()
        self._flushing: asyncio.Task[None] | None = None
        self._renewed_at = clock()
        # rooms other live processes hold, as far as we know (lease_cache.py); used
        # only while we hear the notifications of rooms let go
        self._elsewhere = HeldElsewhere(lease_seconds, clock)
        self._url = url
        self._listener: asyncpg.Connection | None = None
        self._relisten: asyncio.Task[None] | None = None
        # notifications of rooms let go (a refusal read across one is not remembered)
        self.notices_heard = 0
        self.lease_queries = 0  # lease statements sent (a count for tests and diagnostics)
        self.folders: list[LogFolder] = []  # given at the app's assembly (folders.py)

    @classmethod
    async def connect(cls, url: str, lease_seconds: float = 3.0, pool_size: int = 10,
                      owner: str | None = None,
                      clock: Callable[[], float] = time.monotonic,
                      records_kept: int = Settings.records_kept) -> PostgresStore:
        """Open the pool and bring the schema up to date.  Raises ``StoreError``."""
        if lease_seconds <= 0:
            raise StoreError("AMERIKANER_LEASE_SECONDS must be a positive number of seconds")
        with failures(f"cannot open {redacted(url)}"):
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size,
                                             command_timeout=COMMAND_TIMEOUT,
                                             timeout=CONNECT_TIMEOUT)
        owner = owner or new_owner_id()
        try:
            async with pool.acquire() as con:
                was = await migrate(con)
                await con.execute(HEARTBEAT, owner, lease_seconds)
        except BaseException:
            await pool.close()
            raise
        store = cls(pool, url, lease_seconds, owner, clock, records_kept)
        await store._listen()
        if was != VERSION:
            log.info("database schema migrated from version %d to %d", was, VERSION)
        return store

    @contextlib.asynccontextmanager
    async def _con(self, what: str) -> AsyncIterator[asyncpg.Connection]:
        with failures(what):
            async with self._pool.acquire(timeout=CONNECT_TIMEOUT) as con:
                yield con

    async def close(self) -> None:
        """Let every room go (other processes may take them at once), close the pool."""
        if self._flushing is not None:
            with contextlib.suppress(Exception):
                await self._flushing
        with contextlib.suppress(StoreError):
            async with self._con("release the leases") as con, con.transaction():
                await con.execute(LET_GO_ALL, self.owner)
                await con.execute("DELETE FROM processes WHERE owner = $1", self.owner)
        self._held.clear()
        if self._relisten is not None:
            self._relisten.cancel()
            with contextlib.suppress(BaseException):
                await self._relisten
        if self._listener is not None:
            with contextlib.suppress(*DB_ERRORS):
                await self._listener.close(timeout=CONNECT_TIMEOUT)
        await self._pool.close()

    async def _listen(self) -> None:
        """Hear which rooms other processes let go (a connection of its own, outside the
        pool); without it, refusals are not remembered (lease_cache.py)."""
        self._elsewhere.clear()  # what was let go while we did not listen is not known
        try:
            con = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT)
            await con.add_listener(CHANNEL, self._let_go_elsewhere)
        except DB_ERRORS as exc:
            log.warning("not listening for rooms let go (%s): every request for a room "
                        "another process holds asks the database", exc)
            return
        self._listener = con

    async def _listen_again(self) -> None:
        if self._listener is not None:
            self._listener.terminate()  # closed already, or deaf
            self._listener = None
        await self._listen()

    def _listening(self) -> bool:
        return self._listener is not None and not self._listener.is_closed()

    def _let_go_elsewhere(self, con: object, pid: int, channel: str, payload: str) -> None:
        self.notices_heard += 1
        self._elsewhere.forget(payload.split(","))

    # -- leases ------------------------------------------------------------------------

    async def acquire(self, code: str) -> bool:
        async with self._lease_lock:  # (so a burst of requests for one room asks once)
            if code in self._held:
                return True  # taken by a request just before this one
            if code in self._elsewhere and self._listening():
                return False  # refused a moment ago; its holder has not let it go since
            self._releasing.discard(code)
            return await self._take(code)

    async def _take(self, code: str) -> bool:
        async with self._con(f"room {code}: take the lease") as con:
            notices = self.notices_heard
            self.lease_queries += 1
            row = await con.fetchrow(ACQUIRE, code, self.owner)
            assert row is not None
            if row["took"]:
                self._held.add(code)
                self._elsewhere.forget([code])
                if row["previous"] not in (None, self.owner):
                    metrics.LEASE_TAKEOVERS.inc()  # its process died, or stopped renewing
                return True
            if self.notices_heard == notices:  # else it may have been let go meanwhile
                self._elsewhere.refused(code, row["holder_left"])
            return False

    def release(self, code: str) -> None:
        """Let the room go now (the row is deleted in a moment, off this call), so that
        the process its code is routed to may take it at once."""
        self._held.discard(code)
        for folder in self.folders:
            folder.forget(code)
        self._releasing.add(code)
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(self._flush_releases())

    async def let_go(self, codes: Collection[str]) -> None:
        """``release``, awaited: the rows are gone when this returns (or, if the database
        fails, left to the background's next try)."""
        codes = set(codes)
        self._held -= codes
        for code in codes:
            for folder in self.folders:
                folder.forget(code)
        async with self._lease_lock:
            codes -= self._held  # not those taken again meanwhile
            try:
                async with self._con("let rooms go") as con:
                    await con.execute(LET_GO, self.owner, list(codes))
                return
            except StoreError as exc:
                # the codes named: an operator (and a test) can tell which rooms may now
                # be served off their process for a while
                log.warning("rooms %s could not be let go at once (%s); trying again",
                            " ".join(sorted(codes)[:20]), exc)
        for code in codes:
            self.release(code)

    async def _flush_releases(self) -> None:
        while True:  # rooms let go while a DELETE runs are taken by the next round
            async with self._lease_lock:
                codes = self._releasing - self._held  # not those taken again meanwhile
                self._releasing = set()
                if not codes:
                    return
                try:
                    async with self._con("let rooms go") as con:
                        await con.execute(LET_GO, self.owner, list(codes))
                except StoreError as exc:  # they lapse by themselves
                    log.warning("rooms could not be let go at once (%s)", exc)
                    return

    async def renew(self) -> set[str]:
        if not self._listening() and (self._relisten is None or self._relisten.done()):
            # the database restarted, or the connection broke: listen again, off the
            # heartbeat (a connect may take longer than a lease)
            self._relisten = asyncio.get_running_loop().create_task(self._listen_again())
        async with self._lease_lock:
            started = self._clock()
            held = set(self._held)
            try:
                async with self._con("renew the leases") as con:
                    await con.execute(HEARTBEAT, self.owner, self.lease_seconds)
                    rows = await con.fetch("SELECT code FROM leases WHERE owner = $1 AND "
                                           "code = ANY($2::text[])", self.owner, list(held))
            except StoreError as exc:
                if self._clock() - self._renewed_at < self.lease_seconds:
                    log.warning("the leases could not be renewed (%s); trying again", exc)
                    return set()
                log.error("the leases could not be renewed for %.1f s: every room of this "
                          "process is let go (%s)", self._clock() - self._renewed_at, exc)
                self._held -= held
                return held
            self._renewed_at = started
            lost = held - {r["code"] for r in rows}
            self._held -= lost
            return lost

    # -- writing -----------------------------------------------------------------------

    async def append(self, code: str, save: Save) -> None:
        texts = [e.to_json() for e in save.entries]
        records = [(code, n, _dumps(r), time.time()) for n, r in save.records]
        now = time.time()
        # what the folders make of it (inline: a move, the usual save, runs no code of
        # theirs; folders.py)
        folded: list[FoldedSave] = [f.ahead(code, save.entries) for f in self.folders
                                    if any(isinstance(e, f.kinds) for e in save.entries)]
        async with self._con(f"room {code}: the write failed") as con:
            if not save.checkpoint and not records and not any(f.rows for f in folded):
                # one round trip
                held = await con.fetchval(APPEND, code, self.owner, save.first_seq, texts,
                                          now)
            else:
                async with con.transaction():
                    if save.checkpoint:
                        await con.execute(CHECKPOINT, code, now, save.first_seq)
                    held = await con.fetchval(APPEND, code, self.owner, save.first_seq,
                                              texts, now)
                    if not held:
                        raise LeaseLost(f"room {code}: this process no longer holds the "
                                         "room's lease")
                    if save.checkpoint:
                        await con.execute("DELETE FROM log WHERE code = $1 AND seq < $2",
                                          code, save.first_seq)
                    await con.executemany(SAVE_RECORD, records)
                    if records and self.records_kept:  # the oldest make way, in this write
                        await con.execute(PRUNE_RECORDS, code, self.records_kept)
                    # the folders' rows (a club room's finished match: its club's), in
                    # this transaction
                    for f in folded:
                        await f.write(PgTx(con), save.records, now)
        if not held:
            self._held.discard(code)
            raise LeaseLost(f"room {code}: this process no longer holds the room's lease")
        for f in folded:
            f.kept()

    @contextlib.asynccontextmanager
    async def club_tx(self) -> AsyncIterator[Tx]:
        """A transaction for the clubs (app/clubs) on a pooled connection."""
        async with self._con("the clubs' query failed") as con, con.transaction():
            yield PgTx(con)

    async def club_read(self, query: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """The clubs' reads on a pooled connection (awaited: the loop only waits)."""
        async with (self._con("the clubs' query failed") as con,
                    con.transaction(readonly=True)):
            return await query(PgTx(con))

    async def probe(self) -> None:
        # this process's own heartbeat row, written over with itself: a new row version
        # and its WAL record, and no other process's row locked.  The disk is the
        # database server's, out of this process's sight (no space to claim, as SQLite's
        # probe does): a full one fails the writes that need new space there (a WAL
        # segment, a table's page), this one or the rooms' appends, which /healthz
        # counts ("saves")
        async with self._con("the write probe failed") as con:
            await con.execute("UPDATE processes SET expires_at = expires_at "
                              "WHERE owner = $1", self.owner)

    async def forget_idle(self, older_than: float) -> int:
        """Rooms untouched since ``older_than`` and served by no live process."""
        async with self._con("forget idle rooms") as con, con.transaction():
            codes = [r["code"] for r in await con.fetch(
                f"DELETE FROM rooms WHERE updated_at < $1 AND {UNSERVED} RETURNING code",
                older_than)]
            for table in ("log", "records", "leases", "club_rooms", "room_players"):
                await con.execute(f"DELETE FROM {table} WHERE code = ANY($1::text[])", codes)
        return len(codes)

    async def maintain(self) -> None:
        """Forget processes dead for an hour, and their leases."""
        async with self._con("clean the leases") as con, con.transaction():
            await con.execute("DELETE FROM processes WHERE expires_at < now() - interval "
                              "'1 hour'")
            await con.execute("DELETE FROM leases l WHERE NOT EXISTS (SELECT 1 FROM "
                              "processes p WHERE p.owner = l.owner)")

    async def shrink(self) -> None:
        """Nothing to give back: the database's caches are in its own processes."""

    # -- reading -----------------------------------------------------------------------

    async def ping(self) -> bool:
        try:
            async with self._con("ping") as con:
                await con.fetchval("SELECT 1")
        except StoreError:
            return False
        return True

    async def exists(self, code: str) -> bool:
        async with self._con(f"room {code}: read") as con:
            return bool(await con.fetchval("SELECT 1 FROM rooms WHERE code = $1", code))

    async def load(self, code: str) -> StoredRoom | None:
        async with self._con(f"room {code}: read") as con:
            rows = await con.fetch(LOAD, code)
        if not rows:
            return None
        stored = stored_room(code, rows[0]["checkpoint"],
                             [(r["seq"], r["entry"]) for r in rows if r["seq"] is not None])
        for folder in self.folders:
            folder.loaded(code, stored.entries)
        return stored

    async def load_record(self, code: str, match: int | None = None) -> JsonObject | None:
        return record_of_text(await self.load_record_text(code, match))

    async def load_record_text(self, code: str, match: int | None = None) -> str | None:
        async with self._con(f"room {code}: read the record") as con:
            text = await con.fetchval("SELECT record FROM records WHERE code = $1 AND "
                                      "($2::int IS NULL OR match_number = $2) "
                                      "ORDER BY match_number DESC LIMIT 1", code, match)
        return None if text is None else str(text)
