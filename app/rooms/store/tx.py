"""One small transaction interface over both stores, so that every query of the layers
above that keep tables of their own (the clubs, app/clubs) is written once: SQL with
``?`` placeholders (PostgreSQL's ``$1``... are made from them), rows as tuples.

SQLite's transactions run on the event loop on the store's writing connection, as its
appends do (each query of the clubs touches a handful of rows by key; the one that reads
a club's matches reads no record text); PostgreSQL's on a pooled connection, awaited.
A SQLite transaction must not wait on anything but its own queries (``SqliteTx`` never
suspends): a room's append, run meanwhile on the same connection, would land inside it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol, TypeVar

Row = tuple[Any, ...]
T = TypeVar("T")


class Tx(Protocol):
    """A transaction of the store (or, for reads, a connection)."""

    async def execute(self, sql: str, *args: object) -> int:
        """Run ``sql``; how many rows it changed."""

    async def fetch(self, sql: str, *args: object) -> list[Row]: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None: ...


async def fetchone(tx: Tx, sql: str, *args: object) -> Row | None:
    rows = await tx.fetch(sql, *args)
    return rows[0] if rows else None


class SqliteTx:
    """A ``Tx`` on a SQLite cursor (inside a transaction the store opened)."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    async def execute(self, sql: str, *args: object) -> int:
        return self._cursor.execute(sql, args).rowcount

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        return [tuple(r) for r in self._cursor.execute(sql, args).fetchall()]

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        self._cursor.executemany(sql, rows)


def run_now(query: Coroutine[Any, Any, T]) -> T:
    """Run ``query``, a coroutine of ``SqliteTx`` queries (which never suspend), to its
    end in this thread (the store's reading thread: ``club_read``)."""
    try:
        query.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    query.close()
    raise RuntimeError("a SQLite query of the clubs waited on something else")


_PLACEHOLDER = re.compile(r"\?")


def pg_sql(sql: str) -> str:
    """``sql`` with its ``?`` numbered as PostgreSQL wants them (no query of the clubs
    holds a ``?`` in a string)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


class PgTx:
    """A ``Tx`` on an asyncpg connection."""

    def __init__(self, con: Any) -> None:
        self._con = con

    async def execute(self, sql: str, *args: object) -> int:
        status: str = await self._con.execute(pg_sql(sql), *args)
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        return [tuple(r) for r in await self._con.fetch(pg_sql(sql), *args)]

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        await self._con.executemany(pg_sql(sql), rows)
