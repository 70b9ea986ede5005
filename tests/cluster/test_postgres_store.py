"""The PostgreSQL store on a real server: the same contract as the SQLite store (appends
all or nothing and numbered, checkpoints, records, idle rooms forgotten), and room
ownership: one process at a time holds a room's lease, and every append is fenced.

No test here waits for a lease to run out by the clock, save one that polls for it: a
store that should stay alive holds a lease far longer than any test (``LONG``), and a
process that "stops renewing" is made dead by the test, which moves its heartbeat into
the past through its own connection (``lapse``).  The store's own clock (how long since
its last renewal) is a fake one where it matters."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from prometheus_client import REGISTRY

from app.rooms.store import StoredRoom, StoreError
from app.rooms.store.postgres import PostgresStore
from app.rooms.store.postgres_connection import redacted
from app.rooms.store.postgres_lease_sql import CHANNEL

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from store_records import chat, keeps_the_last_records, room, save_of, unwritable

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


def takeovers_counted() -> float:
    """``amerikaner_lease_takeovers_total`` of this process (app/web/metrics.py)."""
    return REGISTRY.get_sample_value("amerikaner_lease_takeovers_total") or 0.0


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


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


def test_a_room_let_go_is_free_when_let_go_returns(database_url: str) -> None:
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="B")
        for code in ("abcde", "fghij"):
            assert await a.acquire(code)
        await a.let_go(["abcde", "fghij"])
        assert await b.acquire("abcde") and await b.acquire("fghij")  # A is alive
        assert await a.renew() == set()  # A holds neither any more: none lost
        with pytest.raises(StoreError):  # and cannot write them
            await a.append("abcde", save_of(0, [room(1)], []))
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_refused_lease_is_not_asked_for_again_until_its_holder_lets_it_go(
        database_url: str) -> None:
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="B")
        assert await a.acquire("abcde")
        for _ in range(20):  # players knocking again and again, some at once
            assert not any(await asyncio.gather(*(b.acquire("abcde") for _ in range(3))))
        assert b.lease_queries == 1
        heard = b.notices_heard
        await a.let_go(["abcde"])  # A tells: B asks again, and takes it

        async def told() -> bool:
            return b.notices_heard > heard

        await eventually(told, "B never heard that A let the room go")
        assert await b.acquire("abcde") and b.lease_queries == 2
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_store_that_stops_hearing_asks_every_time_until_it_listens_again(
        database_url: str) -> None:
    """Its listening connection dies (the database restarted, a cut): what it remembers
    may be stale, so each request asks the database, until a renewal listens again."""
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="B")
        assert await a.acquire("abcde") and not await b.acquire("abcde")
        assert b._listener is not None
        await sql(database_url, "SELECT pg_terminate_backend($1)",
                  b._listener.get_server_pid())

        async def deaf() -> bool:
            return not b._listening()

        await eventually(deaf, "B never noticed its listener was gone")
        asked = b.lease_queries
        assert not await b.acquire("abcde") and not await b.acquire("abcde")
        assert b.lease_queries == asked + 2
        assert await b.renew() == set()

        async def listening() -> bool:
            return b._listening()

        await eventually(listening, "B never listened again")
        assert not await b.acquire("abcde") and not await b.acquire("abcde")
        assert b.lease_queries == asked + 3  # remembered again
        await a.let_go(["abcde"])

        async def taken() -> bool:  # heard on the new connection
            return await b.acquire("abcde")

        await eventually(taken, "B never heard that A let the room go")
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_reconnect_storm_after_a_death_costs_one_refused_lease_query(
        database_url: str) -> None:
    """A holder that dies (stops renewing: its heartbeat ends on the database's clock);
    16 sockets knock at the survivor until it takes the room: one query is refused (it
    says how long the dead holder's heartbeat holds) and one takes the room."""
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=1.0, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=3.0, owner="B")
        assert await a.acquire("abcde")  # A renews nothing from here: dead in 1 s
        attempts = 0
        taken = asyncio.Event()  # the room is loaded: requests find it in memory
        deadline = time.monotonic() + PATIENCE

        async def socket() -> None:
            nonlocal attempts
            while not taken.is_set():
                attempts += 1
                if await b.acquire("abcde"):
                    taken.set()
                    return
                assert time.monotonic() < deadline, "the lease never lapsed"
                await asyncio.sleep(0.01)

        await asyncio.gather(*(socket() for _ in range(16)))
        print(f"{attempts} attempts, {b.lease_queries} lease queries")  # pytest -s
        assert b.lease_queries <= 2 and attempts >= 16
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_one_process_at_a_time_serves_a_room_and_a_stale_one_cannot_write(
        database_url: str) -> None:
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="B")
        takeovers = takeovers_counted()
        assert await a.acquire("abcde") and await a.acquire("abcde")  # ours: again fine
        await a.append("abcde", save_of(0, [room(1)], []))
        assert not await b.acquire("abcde")  # A is alive and holds it
        with pytest.raises(StoreError):  # B never took it: fenced
            await b.append("abcde", save_of(1, [chat("b")], []))
        assert await a.renew() == set()
        # A stops renewing (paused, cut off, dead): its lease lapses and B takes the room
        await lapse(database_url, "A", b)
        assert takeovers_counted() == takeovers  # a free lease, ours again, refused: none
        assert await b.acquire("abcde")
        assert takeovers_counted() == takeovers + 1  # amerikaner_lease_takeovers_total
        with pytest.raises(StoreError):  # A's write comes too late: fenced
            await a.append("abcde", save_of(1, [chat("a")], []))
        await b.append("abcde", save_of(1, [chat("b")], []))
        assert await a.renew() == set()  # A already let it go when its write failed
        assert await a.acquire("fghij")
        assert await b.acquire("klmno")
        # B lets its rooms go when it closes: A may take them at once
        await b.close()
        assert await a.acquire("abcde") and await a.acquire("klmno")
        assert takeovers_counted() == takeovers + 1  # let go, not taken over
        assert await a.load("abcde") == StoredRoom(0, [room(1), chat("b")])
        await a.close()

    asyncio.run(scenario())


def test_a_lost_lease_is_reported_by_renew(database_url: str) -> None:
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="B")
        assert await a.acquire("abcde") and await a.acquire("fghij")
        await lapse(database_url, "A", b)
        assert await b.acquire("abcde")
        assert await a.renew() == {"abcde"}  # "fghij" was not taken: renewed
        assert not await b.acquire("fghij")  # the renewal made A alive again
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_lease_lapses_by_itself_once_its_process_stops_renewing(database_url: str) -> None:
    """The heartbeat's own expiry, on the database's clock: nothing but time passes."""
    async def scenario() -> None:
        a = await PostgresStore.connect(database_url, lease_seconds=0.5, owner="A")
        b = await PostgresStore.connect(database_url, lease_seconds=LONG, owner="B")
        assert await a.acquire("abcde")
        await a.append("abcde", save_of(0, [room(1)], []))

        async def taken() -> bool:
            return await b.acquire("abcde")

        await eventually(taken, "A's lease never lapsed")  # A renews nothing meanwhile
        with pytest.raises(StoreError):  # fenced
            await a.append("abcde", save_of(1, [chat("a")], []))
        await a.close()
        await b.close()

    asyncio.run(scenario())


def test_a_store_that_cannot_reach_the_database_lets_its_rooms_go(database_url: str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        a = await PostgresStore.connect(database_url, lease_seconds=3.0, owner="A",
                                        clock=clock)
        assert await a.acquire("abcde")
        clock.now = 10.0
        assert await a.renew() == set()  # renewed: the next deadline is 3 s from here
        await a._pool.close()  # the database is gone for this process
        clock.now = 12.9
        assert await a.renew() == set()  # a blip: try again
        assert not await a.ping()
        clock.now = 13.0
        assert await a.renew() == {"abcde"}  # too long: another process may have it

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
