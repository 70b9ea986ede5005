"""The SQLite schema and its migrations, run when the store opens.

Version 1 (sessions 1 and 2) kept each room as one JSON row rewritten on every change,
plus the current match's deals.  Version 2 keeps an append-only log per room.  The
migration turns each version-1 room into a log: a checkpoint of the room, then its
current match's deals and actions, so that no stored room is lost.  Version 3 keeps the
log in its primary key's order (``WITHOUT ROWID``): a move's append writes one b-tree page
instead of two (the table and its key's index), a third less of the append's time
(benchmarks/move_cost.py); the migration copies the version-2 log over.  Version 4 adds
the clubs' tables (club_tables.py); the rooms' tables are unchanged.  Version 5
adds the clubs' par (``PAR_TABLES``: columns of ``club_matches`` and ``club_par``).
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import TypedDict

from app.rooms.core.frames import JsonObject
from app.rooms.core.records import Record, record_of_data

from .club_tables import PAR_TABLES
from .club_tables import TABLES as CLUB_TABLES

VERSION = 5

SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    checkpoint INTEGER NOT NULL          -- seq of the last checkpoint: load from there
);
CREATE TABLE IF NOT EXISTS log (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (code, seq)              -- a number taken twice fails: one writer per room
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    code TEXT NOT NULL,
    match_number INTEGER NOT NULL,
    record TEXT NOT NULL,
    finished_at REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (code, match_number)
);
"""


def current_version(db: sqlite3.Connection) -> int:
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "schema_version" in tables:
        row = db.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else 0
    if "rooms" in tables:
        return 1
    return 0


def migrate(db: sqlite3.Connection) -> None:
    """Bring the database to ``VERSION`` (an empty one, or any earlier version)."""
    version = current_version(db)
    if version == VERSION:
        return
    if version > VERSION:
        raise sqlite3.DatabaseError(
            f"the database is of schema version {version}, newer than this server's "
            f"{VERSION}: upgrade the server")
    db.execute("BEGIN IMMEDIATE")
    try:
        if version == 1:
            _from_v1(db)
        elif version == 2:
            _from_v2(db)
        else:
            _create(db)
        for statement in CLUB_TABLES:  # version 4 (IF NOT EXISTS: from any version)
            db.execute(statement)
        for statement in PAR_TABLES:  # version 5
            _execute_sqlite(db, statement)
        db.execute("DELETE FROM schema_version")
        db.execute("INSERT INTO schema_version(version) VALUES(?)", (VERSION,))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


ADD_COLUMN = re.compile(r"ALTER TABLE (\w+) ADD COLUMN IF NOT EXISTS (\w+)")


def _execute_sqlite(db: sqlite3.Connection, statement: str) -> None:
    """``statement``, whose ``ADD COLUMN IF NOT EXISTS`` (PostgreSQL's) SQLite lacks:
    such a column is added unless the table has it already."""
    found = ADD_COLUMN.match(statement.strip())
    if found is None:
        db.execute(statement)
        return
    table, column = found.groups()
    if column not in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}:
        db.execute(statement.replace(" IF NOT EXISTS", "", 1))


def _create(db: sqlite3.Connection) -> None:
    """The current tables, inside the caller's transaction (``executescript`` would
    commit it)."""
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


def _from_v2(db: sqlite3.Connection) -> None:
    """The log into a table without row ids; the other tables are unchanged."""
    db.execute("ALTER TABLE log RENAME TO log_v2")
    _create(db)
    db.execute("INSERT INTO log(code, seq, entry) SELECT code, seq, entry FROM log_v2")
    db.execute("DROP TABLE log_v2")


def _from_v1(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE rooms RENAME TO rooms_v1")
    db.execute("ALTER TABLE records RENAME TO records_v1")
    _create(db)
    db.execute("INSERT INTO records(code, match_number, record) "
               "SELECT code, match_number, record FROM records_v1")
    for code, data_text, updated in db.execute(
            "SELECT code, data, updated_at FROM rooms_v1").fetchall():
        data = json.loads(data_text)
        deals = [json.loads(r[0]) for r in db.execute(
            "SELECT deal FROM deals WHERE code=? AND match_number=? ORDER BY idx",
            (code, data.get("match_number", 0))).fetchall()]
        entries = v1_entries(data, deals)
        db.execute("INSERT INTO rooms(code, created_at, updated_at, checkpoint) "
                   "VALUES(?, ?, ?, 0)", (code, updated, updated))
        db.executemany("INSERT INTO log(code, seq, entry) VALUES(?, ?, ?)",
                       [(code, i, e.to_json()) for i, e in enumerate(entries)])
    db.execute("DROP TABLE rooms_v1")
    db.execute("DROP TABLE records_v1")
    db.execute("DROP TABLE deals")


class V1Deal(TypedDict):
    """A deal of a version-1 database's ``deals`` table."""

    dealer: int
    hands: list[list[str]]
    kitty: list[str]
    actions: list[JsonObject]


class V1Room(TypedDict, total=False):
    """A version-1 database's room row (what the migration reads of it)."""

    code: str
    practice: bool
    rules: JsonObject
    seats: list[JsonObject]
    host: int | None
    grace_seconds: int
    next_deal_pause: int
    chat: list[JsonObject]
    match_number: int
    recorded_match: int
    next_deal_at: float | None


def v1_entries(data: V1Room, deals: list[V1Deal]) -> list[Record]:
    """A version-1 room (its row and its current match's deals) as log records."""
    playing = int(data.get("match_number", 0)) > 0 and bool(deals)
    entries: list[Record] = [record_of_data({
        "k": "room", "code": data["code"], "practice": data["practice"],
        "rules": data["rules"], "seats": data["seats"], "host": data["host"],
        "grace_seconds": data["grace_seconds"], "next_deal_pause": data["next_deal_pause"],
        "chat": data.get("chat", []),
        "match_number": int(data.get("match_number", 0)) - (1 if playing else 0),
        "recorded_match": int(data.get("recorded_match", 0)), "game": 0,
    })]
    if not playing:
        return entries
    entries.append(record_of_data({"k": "match", "dealer": deals[0]["dealer"]}))
    for deal in deals:
        entries.append(record_of_data({"k": "deal", "dealer": deal["dealer"],
                                       "hands": deal["hands"], "kitty": deal["kitty"]}))
        entries.extend(record_of_data({"k": "act", **action}) for action in deal["actions"])
    if data.get("next_deal_at") is not None:
        entries.append(record_of_data({"k": "next_deal_at", "at": data["next_deal_at"]}))
    return entries
