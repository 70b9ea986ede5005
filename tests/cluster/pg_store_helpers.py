"""Helpers for the PostgreSQL store's tests (tests/cluster/test_postgres_*.py): leases no
test outlives (``LONG``), statements through the test's own connection, a process's
lease made to lapse by moving its heartbeat into the past (``lapse``), and a poll for
what happens by itself.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from app.rooms.store.postgres import PostgresStore
from app.rooms.store.postgres_lease_sql import CHANNEL

LONG = 600.0  # a lease no test outlives: a store that renews nothing stays alive throughout
PATIENCE = 30.0  # seconds to wait for what happens by itself (a task, a lease's end)


async def sql(database_url: str, query: str, *args: object) -> Any:
    """One statement through the test's own connection; its first value."""
    con = await asyncpg.connect(database_url)
    try:
        return await con.fetchval(query, *args)
    finally:
        await con.close()


async def lapse(database_url: str, owner: str, *others: PostgresStore) -> None:
    """``owner`` stopped renewing long enough ago (paused, cut off, dead): its heartbeat
    is in the past, as it is once ``lease_seconds`` have gone by without a renewal.  The
    time went by for the other stores too: what they remember of its leases (refused
    until its heartbeat ends: lease_cache.py) is told to end, as the clock would, and the
    ``others`` have heard it when this returns."""
    await sql(database_url, "UPDATE processes SET expires_at = now() - interval '1 second' "
              "WHERE owner = $1", owner)
    heard = [o.notices_heard for o in others]
    await sql(database_url, f"SELECT pg_notify('{CHANNEL}', string_agg(code, ',')) "
              "FROM leases WHERE owner = $1", owner)

    async def told() -> bool:
        return all(o.notices_heard > n for o, n in zip(others, heard, strict=True))

    await eventually(told, "the notification never came")


async def eventually(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Poll ``check`` until it says ``True``; fail after ``PATIENCE`` seconds."""
    deadline = time.monotonic() + PATIENCE
    while not await check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)
