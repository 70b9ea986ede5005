"""The PostgreSQL store on a real server: the same contract as the SQLite store (appends
all or nothing and numbered, checkpoints, records, idle rooms forgotten unless a live
process serves them), a password that never reaches the log, and the write probe. Room
ownership (leases and fencing) is in tests/cluster/test_postgres_leases.py.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import asyncpg
import pytest

from app.rooms.store import StoredRoom, StoreError
from app.rooms.store.postgres import PostgresStore
from app.rooms.store.postgres_connection import redacted

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from pg_store_helpers import LONG, eventually, sql
from store_records import chat, keeps_the_last_records, room, save_of, unwritable


def test_appends_are_all_or_nothing_and_numbered(database_url: str) -> None:
    async def scenario() -> None:
        store = await PostgresStore.connect(database_url)
        assert await store.acquire("abcde")
        await store.append("abcde", save_of(0, [room(1), chat("a")], []))
        assert await store.exists("abcde") and not await store.exists("zzzzz")
        with pytest.raises(StoreError):  # entry 1 is taken: no part of this save is kept
            await store.append("abcde", save_of(1, [chat("b"), chat("c")], [(1, {"r": 1})]))
        with pytest.raises(StoreError):  # the same, in the one-statement append
            await store.append("abcde", save_of(1, [chat("b"), chat("c")], []))
        with pytest.raises(ValueError):  # cannot be written: nothing is
            await store.append("abcde", save_of(2, [chat("x"), unwritable()], []))
        assert await store.load("abcde") == StoredRoom(0, [room(1), chat("a")])
        assert await store.load_record("abcde") is None
        await store.append("abcde", save_of(2, [chat("b")], [(1, {"r": 1})]))
        await store.append("abcde", save_of(3, [chat("c"), chat("d")], []))
        assert await store.load("abcde") == StoredRoom(
            0, [room(1), chat("a"), chat("b"), chat("c"), chat("d")])
        assert await store.load_record("abcde") == {"r": 1}
        # a checkpoint: the log before it is no longer needed, loading starts there
        await store.append("abcde", save_of(5, [room(2), chat("e")], [(2, {"r": 2})]))
        assert await store.load("abcde") == StoredRoom(5, [room(2), chat("e")])
        assert await store.load_record("abcde") == {"r": 2}  # the last match's
        assert await store.load_record("abcde", 1) == {"r": 1}  # an earlier match's
        assert await store.load_record("abcde", 3) is None
        assert await store.load("zzzzz") is None and await store.ping()
        await store.close()

    asyncio.run(scenario())


def test_idle_rooms_are_forgotten_unless_a_live_process_serves_them(database_url: str) -> None:
    async def scenario() -> None:
        # alive for the whole test: "inuse" stays served, however slow the machine
        store = await PostgresStore.connect(database_url, lease_seconds=LONG)
        for code in ("older", "inuse"):
            assert await store.acquire(code)
            await store.append(code, save_of(0, [room(1)], [(1, {"r": 1})]))
        store.release("older")

        async def let_go() -> bool:  # the lease row goes in a moment, off the caller
            left = await sql(database_url, "SELECT count(*) FROM leases WHERE code = $1",
                             "older")
            return bool(left == 0)

        await eventually(let_go, "the released lease row stayed")
        assert await store.forget_idle(older_than=0) == 0  # nothing is older than 1970
        assert await store.forget_idle(older_than=2**40) == 1  # "inuse" is leased
        assert await store.load("older") is None and not await store.exists("older")
        assert await store.load_record("older") is None
        assert await store.load("inuse") == StoredRoom(0, [room(1)])
        await store.maintain()
        await store.close()

    asyncio.run(scenario())


def test_the_password_never_reaches_the_log() -> None:
    assert redacted("postgresql://amerikaner:s3cret@db:5432/amerikaner") == \
        "postgresql://amerikaner:***@db:5432/amerikaner"
    assert redacted("postgresql://db/amerikaner") == "postgresql://db/amerikaner"


def test_a_room_keeps_the_records_of_its_last_matches(database_url: str) -> None:
    async def numbers(code: str) -> list[int]:
        con = await asyncpg.connect(database_url)
        try:
            return [r["match_number"] for r in await con.fetch(
                "SELECT match_number FROM records WHERE code = $1 ORDER BY match_number",
                code)]
        finally:
            await con.close()

    async def scenario() -> None:
        store = await PostgresStore.connect(database_url, lease_seconds=LONG, records_kept=3)
        await keeps_the_last_records(store, numbers)
        await store.close()
        store = await PostgresStore.connect(database_url, lease_seconds=LONG, records_kept=0)
        assert await store.acquire("abcde")  # 0: every record is kept
        await store.append("abcde", save_of(8, [chat("x")], [(9, {"r": 9})]))
        assert await numbers("abcde") == [4, 5, 6, 9]
        await store.close()

    asyncio.run(scenario())


def test_the_write_probe_fails_while_the_database_refuses_writes(database_url: str) -> None:
    """/healthz's probe (``probe``): a database turned read-only (a failover to a replica,
    an operator's switch) fails it with ``StoreError``; writable again, it passes."""
    base, name = database_url.rsplit("/", 1)
    admin = f"{base}/postgres"  # the switch is made from another database
    reconnect = ("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                 "WHERE datname = $1 AND pid <> pg_backend_pid()")

    async def probes(store: PostgresStore) -> list[bool]:
        """Three probes (the first may meet a connection the test just ended)."""
        out = []
        for _ in range(3):
            try:
                await store.probe()
                out.append(True)
            except StoreError:
                out.append(False)
        return out

    async def scenario() -> None:
        store = await PostgresStore.connect(database_url, lease_seconds=LONG)
        await store.probe()
        await sql(admin, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        await sql(admin, reconnect, name)
        assert await probes(store) == [False] * 3
        with pytest.raises(StoreError, match="read-only"):
            await store.probe()
        await sql(admin, f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
        await sql(admin, reconnect, name)
        assert (await probes(store))[-1]
        await store.close()

    asyncio.run(scenario())
