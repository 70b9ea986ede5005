"""SQLite persistence (stdlib ``sqlite3``): nothing acknowledged is ever lost.

Every accepted change is written before anyone is told about it (write-ahead): the room
row (seats with token hashes, rules, settings, chat, version) and the deals of the
current match in the game record's shape.  A finished deal is never written again, so one
save costs one small row update plus the current deal (a few KB).  WAL mode with
``synchronous=NORMAL`` keeps a save well under a millisecond, cheap enough to do on the
event loop, which also keeps the order of saves the order of changes.  Finished matches
are kept as whole records for the download.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS deals (
    code TEXT NOT NULL,
    match_number INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    deal TEXT NOT NULL,
    PRIMARY KEY (code, match_number, idx)
);
CREATE TABLE IF NOT EXISTS records (
    code TEXT NOT NULL,
    match_number INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (code, match_number)
);
"""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Store:
    """The database in ``data_dir/amerikaner.sqlite3``; one connection, used under a lock."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / "amerikaner.sqlite3"
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def ping(self) -> bool:
        try:
            with self._lock:
                self._db.execute("SELECT 1").fetchone()
            return True
        except sqlite3.Error:
            return False

    # -- writing -----------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction under the lock: committed at the end, rolled back on any error
        (so the shared connection is never left inside a failed transaction)."""
        with self._lock:
            db = self._db
            db.execute("BEGIN")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def save(self, code: str, data: dict[str, Any], match_number: int,
             deals: list[tuple[int, dict[str, Any]]]) -> None:
        """Write the room row and these deals (index, record-shaped deal) in one transaction."""
        with self._transaction() as db:
            db.execute("INSERT INTO rooms(code, data, updated_at) VALUES(?, ?, ?) "
                       "ON CONFLICT(code) DO UPDATE SET data=excluded.data, "
                       "updated_at=excluded.updated_at",
                       (code, _dumps(data), time.time()))
            db.executemany("INSERT OR REPLACE INTO deals(code, match_number, idx, deal) "
                           "VALUES(?, ?, ?, ?)",
                           [(code, match_number, i, _dumps(d)) for i, d in deals])

    def save_record(self, code: str, match_number: int, record: dict[str, Any]) -> None:
        """Keep a finished match's record; its deals rows are no longer needed."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO records(code, match_number, record) "
                       "VALUES(?, ?, ?)", (code, match_number, _dumps(record)))
            db.execute("DELETE FROM deals WHERE code=? AND match_number<?",
                       (code, match_number))

    def delete_idle(self, older_than: float) -> int:
        """Forget rooms untouched since ``older_than`` (epoch seconds)."""
        with self._transaction() as db:
            codes = [r[0] for r in db.execute(
                "SELECT code FROM rooms WHERE updated_at < ?", (older_than,))]
            for code in codes:
                for table in ("rooms", "deals", "records"):
                    db.execute(f"DELETE FROM {table} WHERE code=?", (code,))
        return len(codes)

    # -- reading -----------------------------------------------------------------------

    def exists(self, code: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM rooms WHERE code=?", (code,)).fetchone()
        return row is not None

    def load(self, code: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The room row and the deals of its current match, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT data FROM rooms WHERE code=?", (code,)).fetchone()
            if row is None:
                return None
            data = json.loads(row[0])
            rows = self._db.execute(
                "SELECT deal FROM deals WHERE code=? AND match_number=? ORDER BY idx",
                (code, data.get("match_number", 0))).fetchall()
        return data, [json.loads(r[0]) for r in rows]

    def load_record(self, code: str) -> dict[str, Any] | None:
        """The record of the room's last finished match."""
        with self._lock:
            row = self._db.execute(
                "SELECT record FROM records WHERE code=? ORDER BY match_number DESC LIMIT 1",
                (code,)).fetchone()
        return None if row is None else json.loads(row[0])
