"""The PostgreSQL schema and its migrations, run when a server process starts.

Each version is a list of statements applied in one transaction, after the ones before it;
``schema_version`` says which have run.  Processes starting at the same time take a
transaction-level advisory lock first, so exactly one of them migrates and the others
then find the work done.  A database newer than the server is refused (upgrade the
server first).

- v1: ``rooms`` (one row per room: where its log starts), ``log`` (the append-only log,
  one row per accepted change, numbered per room: a number taken twice fails), ``records``
  (finished matches), ``processes`` (each server process's heartbeat: alive until
  ``expires_at``), ``leases`` (which process serves a room: valid while that process is
  alive).
- v2: ``log.owner`` (the process that wrote each entry: one owner per room at a time can
  be checked in the log), and an index on ``rooms.updated_at`` for ``forget_idle``.
- v3: the clubs' tables (club_tables.py); the rooms' tables are unchanged.
- v4: the clubs' par (``PAR_TABLES``: columns of ``club_matches`` and ``club_par``).
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol

from .club_tables import PAR_TABLES
from .club_tables import TABLES as CLUB_TABLES

MIGRATION_LOCK = 0x616D6572  # any constant of our own: "amer"

MIGRATIONS: list[list[str]] = [
    [  # v1
        """CREATE TABLE rooms (
            code text PRIMARY KEY,
            created_at double precision NOT NULL,
            updated_at double precision NOT NULL,
            checkpoint bigint NOT NULL
        )""",
        """CREATE TABLE log (
            code text NOT NULL,
            seq bigint NOT NULL,
            entry text NOT NULL,
            PRIMARY KEY (code, seq)
        )""",
        """CREATE TABLE records (
            code text NOT NULL,
            match_number integer NOT NULL,
            record text NOT NULL,
            finished_at double precision NOT NULL,
            PRIMARY KEY (code, match_number)
        )""",
        """CREATE TABLE processes (
            owner text PRIMARY KEY,
            expires_at timestamptz NOT NULL
        )""",
        """CREATE TABLE leases (
            code text PRIMARY KEY,
            owner text NOT NULL
        )""",
        "CREATE INDEX leases_owner ON leases (owner)",
    ],
    [  # v2
        "ALTER TABLE log ADD COLUMN owner text",
        "CREATE INDEX rooms_updated_at ON rooms (updated_at)",
    ],
    CLUB_TABLES,  # v3
    PAR_TABLES,  # v4
]
VERSION = len(MIGRATIONS)


class Connection(Protocol):
    """What the migrations need of an asyncpg connection."""

    async def execute(self, query: str, *args: object) -> str: ...

    async def fetchval(self, query: str, *args: object) -> int | bool | None: ...

    def transaction(self) -> AbstractAsyncContextManager[object]: ...


class SchemaTooNew(RuntimeError):
    pass


async def current_version(con: Connection) -> int:
    exists = await con.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    version = await con.fetchval("SELECT max(version) FROM schema_version")
    return int(version or 0)


async def migrate(con: Connection, target: int = VERSION) -> int:
    """Bring the database to version ``target`` (tests stop at an older one); the
    version it was at."""
    async with con.transaction():
        await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await con.execute("CREATE TABLE IF NOT EXISTS schema_version "
                          "(version integer PRIMARY KEY, applied_at timestamptz NOT NULL)")
        found = await current_version(con)
        if found > VERSION:
            raise SchemaTooNew(f"the database is of schema version {found}, newer than "
                               f"this server's {VERSION}: upgrade the server")
        for version in range(found + 1, target + 1):
            for statement in MIGRATIONS[version - 1]:
                await con.execute(statement)
            await con.execute("INSERT INTO schema_version VALUES ($1, now())", version)
    return found
