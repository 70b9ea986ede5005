"""The embedded store: SQLite in ``data_dir/amerikaner.sqlite3`` (stdlib ``sqlite3``).

Appends run on the event loop, so saves keep the order of changes and cost no thread
hop: in WAL mode with ``synchronous=NORMAL`` an append is a small insert well under a
millisecond, and a short busy timeout bounds how long another process holding the file
can stall the loop (the append then fails and the room is reloaded later).  WAL
checkpoints, which may wait on the disk, are taken off the loop (``maintain``); so are
reads, on a connection of their own.

The write probe of /healthz (``probe``) claims new space on the database's disk: no
write to the database is sure to need any, since its log (the WAL) is written over from
its start after each checkpoint and keeps its size on disk, so that on a full disk a
write that changes nothing, or a row's insert, fits in space the file already has while
the rooms' appends fail as soon as the log must grow.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Collection, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import orjson
from pydantic import JsonValue

from app.rooms.core.effects import Save
from app.rooms.core.frames import JsonObject
from app.settings import DB_NAME as DB_NAME  # the store's name of its file, re-exported
from app.settings import Settings

from . import StoredRoom, StoreError, record_of_text, stored_room
from .folders import FoldedSave, LogFolder
from .sqlite_schema import migrate
from .tx import SqliteTx, Tx, run_now

BUSY_TIMEOUT_MS = 10      # how long an append waits for another process's lock
READ_BUSY_TIMEOUT_MS = 2000
SPACE_FILE = DB_NAME + "-space"  # the probe's file, beside the database
# The space the probe claims: more than the rooms' appends add to the log between two
# checkpoints of a busy server (a move's entry is a page, 4 KiB; a match's record tens of
# KiB), so that a disk that passes can take the appends until the next probe.
SPACE_BYTES = 1 << 20
TOUCH_SECONDS = 60.0  # a room's last use is written at most once a minute (for retention)
T = TypeVar("T")
# A room keeps the records of its last ``records_kept`` finished matches.
PRUNE_RECORDS = """DELETE FROM records WHERE code=? AND match_number NOT IN (
    SELECT match_number FROM records WHERE code=? ORDER BY match_number DESC LIMIT ?)"""


def _dumps(value: JsonValue) -> str:
    try:
        return orjson.dumps(value).decode()  # every move is saved: the fast encoder
    except TypeError:  # what orjson does not take (an int key, a huge int): the slow one
        return json.dumps(value, separators=(",", ":"))


def claim_space(path: Path, size: int) -> None:
    """Have the file system give ``size`` new bytes to a file at ``path``, then give
    them back (the file goes): ``StoreError`` if it cannot (a full disk, or over quota).
    ``posix_fallocate`` reserves the blocks without writing them (where the file system
    cannot, the C library writes a byte in each block); where there is none, or it is
    refused as such (not a full disk), zeros are written."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            try:
                os.posix_fallocate(fd, 0, size)
            except AttributeError:  # macOS
                os.write(fd, bytes(size))
            except OSError as exc:
                if exc.errno not in (errno.EINVAL, errno.EOPNOTSUPP, errno.ENOSYS):
                    raise
                os.write(fd, bytes(size))
        finally:
            os.close(fd)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
    except OSError as exc:
        raise StoreError(f"the disk cannot take {size // 1024} KiB more at {path.parent}: "
                         f"{exc.strerror or exc}") from exc


class SqliteStore:
    """One writing connection used on the event loop; one reading connection used in
    worker threads under a lock.  One process: every room is always this process's."""

    shared = False
    renew_every: float | None = None

    def __init__(self, data_dir: Path,
                 records_kept: int = Settings.records_kept) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.records_kept = records_kept  # per room, the last matches' (0: every one)
        self.path = data_dir / DB_NAME
        self.description = f"SQLite at {self.path}"
        self._db = self._connect(BUSY_TIMEOUT_MS)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints in maintain()
        migrate(self._db)
        self._reader = self._connect(READ_BUSY_TIMEOUT_MS)
        # One cursor per connection, for every statement: ``Connection.execute`` makes a
        # cursor each time and keeps a weak reference to it until its next clean-up, 200
        # cursors on.  Those references, made on every move, stayed scattered over the
        # allocator's arenas, which then could not be given back (benchmarks/soak.py).
        self._writes = self._db.cursor()
        self._reads = self._reader.cursor()
        self._read_lock = threading.Lock()
        # Reads run in one thread of their own, started now: the loop's default pool
        # starts its threads as reads first come, in the middle of play, and a thread's
        # objects live for good wherever the allocator put them then.
        self._read_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-read")
        self._read_thread.submit(int).result()
        self._touched: dict[str, float] = {}  # room -> when its updated_at was last written
        self.folders: list[LogFolder] = []  # given at the app's assembly (folders.py)

    def _connect(self, busy_ms: int) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(f"PRAGMA busy_timeout={busy_ms}")
        return db

    async def close(self) -> None:
        self._db.close()
        with self._read_lock:
            self._reader.close()
        self._read_thread.shutdown(wait=False)

    # -- leases: one process owns everything ---------------------------------------------

    async def acquire(self, code: str) -> bool:
        return True

    def release(self, code: str) -> None:
        # The room left memory: its touch time goes with it (kept, it stayed in memory up
        # to a minute longer, where rooms that played had been).
        self._touched.pop(code, None)
        for folder in self.folders:
            folder.forget(code)

    async def let_go(self, codes: Collection[str]) -> None:
        for code in codes:
            self.release(code)

    async def renew(self) -> set[str]:
        return set()

    # -- writing -----------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Cursor]:
        """One write transaction, rolled back on any error (the shared connection is
        never left inside a failed transaction); every sqlite error is a StoreError."""
        db = self._writes
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"the database is busy or unwritable: {exc}") from exc
        try:
            yield db
            db.execute("COMMIT")
        except BaseException as exc:
            if self._db.in_transaction:
                db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"the write failed: {exc}") from exc
            raise

    async def append(self, code: str, save: Save) -> None:
        now = time.time()
        touch = save.checkpoint or now - self._touched.get(code, 0.0) > TOUCH_SECONDS
        # what the folders make of it (inline: a move, the usual save, runs no code of
        # theirs; folders.py)
        folded: list[FoldedSave] = [f.ahead(code, save.entries) for f in self.folders
                                    if any(isinstance(e, f.kinds) for e in save.entries)]
        if len(save.entries) == 1 and not (touch or save.records
                                           or any(f.rows for f in folded)):
            # the usual save, a move: one statement is its own transaction (autocommit)
            try:
                self._writes.execute("INSERT INTO log(code, seq, entry) VALUES(?, ?, ?)",
                                     (code, save.first_seq, save.entries[0].to_json()))
            except sqlite3.Error as exc:
                raise StoreError(f"the write failed: {exc}") from exc
            for f in folded:
                f.kept()
            return
        with self._transaction() as db:
            db.executemany("INSERT INTO log(code, seq, entry) VALUES(?, ?, ?)",
                           [(code, save.first_seq + i, e.to_json())
                            for i, e in enumerate(save.entries)])
            if save.checkpoint:
                db.execute("INSERT INTO rooms(code, created_at, updated_at, checkpoint) "
                           "VALUES(?, ?, ?, ?) ON CONFLICT(code) DO UPDATE SET "
                           "updated_at=excluded.updated_at, checkpoint=excluded.checkpoint",
                           (code, now, now, save.first_seq))
                db.execute("DELETE FROM log WHERE code=? AND seq<?", (code, save.first_seq))
            elif touch:
                db.execute("UPDATE rooms SET updated_at=? WHERE code=?", (now, code))
            if save.records:
                db.executemany("INSERT OR REPLACE INTO records(code, match_number, record, "
                               "finished_at) VALUES(?, ?, ?, ?)",
                               [(code, n, _dumps(r), now) for n, r in save.records])
                if self.records_kept:  # the room's oldest records make way, in this write
                    db.execute(PRUNE_RECORDS, (code, code, self.records_kept))
            # the folders' rows (a club room's finished match: its club's), in this write
            for f in folded:
                await f.write(SqliteTx(db), save.records, now)
        for f in folded:
            f.kept()
        if touch:
            self._touched[code] = now

    @asynccontextmanager
    async def club_tx(self) -> AsyncIterator[Tx]:
        """A write transaction for the clubs (app/clubs), on the event loop as appends
        are: their queries touch a few rows by key."""
        with self._transaction() as db:
            yield SqliteTx(db)

    async def club_read(self, query: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """The clubs' reads in the reading thread, on one snapshot (``SqliteTx`` never
        suspends: the query runs to its end there)."""
        def run(db: sqlite3.Cursor) -> T:
            db.execute("BEGIN")
            try:
                return run_now(query(SqliteTx(db)))
            finally:
                db.execute("ROLLBACK")

        return await self._read(run)

    async def probe(self) -> None:
        # the one row of a table of our own, written over with itself: a page to the WAL,
        # which fails on a lock, a read-only file or a database gone, but not on a full
        # disk (it fits in the WAL's old space): then new space, off the loop
        with self._transaction() as db:
            db.execute("UPDATE schema_version SET version = version")
        await asyncio.get_running_loop().run_in_executor(
            self._read_thread, claim_space, self.path.with_name(SPACE_FILE), SPACE_BYTES)

    async def forget_idle(self, older_than: float) -> int:
        with self._transaction() as db:
            codes = [r[0] for r in db.execute(
                "SELECT code FROM rooms WHERE updated_at < ?", (older_than,))]
            for code in codes:  # (a club's matches stay: club_matches)
                for table in ("rooms", "log", "records", "club_rooms", "room_players"):
                    db.execute(f"DELETE FROM {table} WHERE code=?", (code,))
        return len(codes)

    async def maintain(self) -> None:
        cutoff = time.time() - TOUCH_SECONDS  # rooms not written to lately: forget when
        self._touched = {c: t for c, t in self._touched.items() if t > cutoff}
        await self._read(lambda db: db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())

    async def shrink(self) -> None:
        # each connection's page cache (up to 2 MiB): after 300 rooms, 3 MiB of the heap
        self._writes.execute("PRAGMA shrink_memory")
        await self._read(lambda db: db.execute("PRAGMA shrink_memory").fetchall())

    # -- reading -----------------------------------------------------------------------

    async def _read(self, query: Callable[[sqlite3.Cursor], T]) -> T:
        def run() -> T:
            with self._read_lock:
                try:
                    return query(self._reads)
                except sqlite3.Error as exc:
                    raise StoreError(f"the database cannot be read: {exc}") from exc

        return await asyncio.get_running_loop().run_in_executor(self._read_thread, run)

    async def ping(self) -> bool:
        try:
            await self._read(lambda db: db.execute("SELECT 1").fetchone())
        except StoreError:
            return False
        return True

    async def exists(self, code: str) -> bool:
        row = await self._read(
            lambda db: db.execute("SELECT 1 FROM rooms WHERE code=?", (code,)).fetchone())
        return row is not None

    async def load(self, code: str) -> StoredRoom | None:
        def query(db: sqlite3.Cursor) -> tuple[object, list[tuple[object, object]]] | None:
            row = db.execute("SELECT checkpoint FROM rooms WHERE code=?", (code,)).fetchone()
            if row is None:
                return None
            rows = db.execute("SELECT seq, entry FROM log WHERE code=? AND seq>=? "
                              "ORDER BY seq", (code, row[0])).fetchall()
            return row[0], rows

        found = await self._read(query)
        if found is None:
            return None
        stored = stored_room(code, *found)
        for folder in self.folders:
            folder.loaded(code, stored.entries)
        return stored

    async def load_record(self, code: str, match: int | None = None) -> JsonObject | None:
        return record_of_text(await self.load_record_text(code, match))

    async def load_record_text(self, code: str, match: int | None = None) -> str | None:
        row = await self._read(lambda db: db.execute(
            "SELECT record FROM records WHERE code=? AND (? IS NULL OR match_number=?) "
            "ORDER BY match_number DESC LIMIT 1", (code, match, match)).fetchone())
        return None if row is None else str(row[0])
