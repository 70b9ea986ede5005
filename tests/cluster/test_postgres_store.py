"""The PostgreSQL store on a real server: the same contract as the SQLite store (appends
all or nothing and numbered, checkpoints, records, idle rooms forgotten), and room
ownership: one process at a time holds a room's lease, and every append is fenced."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from app.rooms.core.effects import Save
from app.rooms.store import StoredRoom, StoreError
from app.rooms.store.postgres import PostgresStore, redacted


def room(n: int) -> dict[str, Any]:
    return {"k": "room", "n": n}


def chat(text: str) -> dict[str, Any]:
    return {"k": "chat", "text": text}


def test_appends_are_all_or_nothing_and_numbered(database_url: str) -> None:
    async def scenario() -> None:
        store = await PostgresStore.connect(database_url)
        assert await store.acquire("abcde")
        await store.append("abcde", Save(0, [room(1), chat("a")], []))
        assert await store.exists("abcde") and not await store.exists("zzzzz")
        with pytest.raises(StoreError):  # entry 1 is taken: no part of this save is kept
            await store.append("abcde", Save(1, [chat("b"), chat("c")], [(1, {"r": 1})]))
        with pytest.raises(StoreError):  # the same, in the one-statement append
            await store.append("abcde", Save(1, [chat("b"), chat("c")], []))
        with pytest.raises(TypeError):  # cannot be written: nothing is
            await store.append("abcde", Save(2, [chat("x"), {"k": "bad", "v": object()}], []))
        assert await store.load("abcde") == StoredRoom(0, [room(1), chat("a")])
        assert await store.load_record("abcde") is None
        await store.append("abcde", Save(2, [chat("b")], [(1, {"r": 1})]))
        await store.append("abcde", Save(3, [chat("c"), chat("d")], []))
        assert await store.load("abcde") == StoredRoom(
            0, [room(1), chat("a"), chat("b"), chat("c"), chat("d")])
        assert await store.load_record("abcde") == {"r": 1}
        # a checkpoint: the log before it is no longer needed, loading starts there
        await store.append("abcde", Save(5, [room(2), chat("e")], [(2, {"r": 2})]))
        assert await store.load("abcde") == StoredRoom(5, [room(2), chat("e")])
        assert await store.load_record("abcde") == {"r": 2}  # the last match's
        assert await store.load("zzzzz") is None and await store.ping()
        await store.close()

    asyncio.run(scenario())


def test_idle_rooms_are_forgotten_unless_a_live_process_serves_them(database_url: str) -> None:
    async def scenario() -> None:
        store = await PostgresStore.connect(database_url)
        for code in ("older", "inuse"):
            assert await store.acquire(code)
            await store.append(code, Save(0, [room(1)], [(1, {"r": 1})]))
        store.release("older")
        await asyncio.sleep(0.2)  # the lease row goes in a moment, off the caller
        assert await store.forget_idle(older_than=0) == 0  # nothing is older than 1970
        assert await store.forget_idle(older_than=2**40) == 1  # "inuse" is leased
        assert await store.load("older") is None and not await store.exists("older")
        assert await store.load_record("older") is None
        assert await store.load("inuse") == StoredRoom(0, [room(1)])
        await store.maintain()
        await store.close()

    asyncio.run(scenario())


def test_one_process_at_a_time_serves_a_room_and_a_stale_one_cannot_write(
        database_url: str) -> None:
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=0.6, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=0.6, owner="B")
        assert await a.acquire("abcde") and await a.acquire("abcde")  # ours: again fine
        await a.append("abcde", Save(0, [room(1)], []))
        assert not await b.acquire("abcde")  # A is alive and holds it
        with pytest.raises(StoreError):  # B never took it: fenced
            await b.append("abcde", Save(1, [chat("b")], []))
        assert await a.renew() == set()
        # A stops renewing (paused, cut off, dead): its lease lapses and B takes the room
        time.sleep(0.7)
        assert await b.acquire("abcde")
        with pytest.raises(StoreError):  # A's write comes too late: fenced
            await a.append("abcde", Save(1, [chat("a")], []))
        await b.append("abcde", Save(1, [chat("b")], []))
        assert await a.renew() == set()  # A already let it go when its write failed
        assert await a.acquire("fghij")
        assert await b.acquire("klmno")
        # B lets its rooms go when it closes: A may take them at once
        await b.close()
        assert await a.acquire("abcde") and await a.acquire("klmno")
        assert await a.load("abcde") == StoredRoom(0, [room(1), chat("b")])
        await a.close()

    asyncio.run(scenario())


def test_a_lost_lease_is_reported_by_renew(database_url: str) -> None:
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=0.5, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=0.5, owner="B")
        assert await a.acquire("abcde") and await a.acquire("fghij")
        time.sleep(0.6)
        assert await b.acquire("abcde")
        assert await a.renew() == {"abcde"}  # "fghij" was not taken: renewed
        assert not await b.acquire("fghij")
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_store_that_cannot_reach_the_database_lets_its_rooms_go(database_url: str) -> None:
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=0.3, owner="A")
        assert await a.acquire("abcde")
        await a._pool.close()  # the database is gone for this process
        assert await a.renew() == set()  # a blip: try again
        assert not await a.ping()
        time.sleep(0.35)
        assert await a.renew() == {"abcde"}  # too long: another process may have it

    asyncio.run(scenario())


def test_the_password_never_reaches_the_log() -> None:
    assert redacted("postgresql://amerikaner:s3cret@db:5432/amerikaner") == \
        "postgresql://amerikaner:***@db:5432/amerikaner"
    assert redacted("postgresql://db/amerikaner") == "postgresql://db/amerikaner"
