"""Room ownership in the PostgreSQL store on a real server: one process at a time holds a
room's lease, and every append is fenced; a room let go is free at once, a refused lease
is not asked for again until its holder lets it go (nor a dead holder's room by a storm
of reconnects), a lost lease is reported, and a store that cannot reach the database
lets its rooms go.

No test here waits for a lease to run out by the clock, save one that polls for it: a
store that should stay alive holds a lease far longer than any test (``LONG``), and a
process that "stops renewing" is made dead by the test, which moves its heartbeat into
the past through its own connection (``lapse``).  The store's own clock (how long since
its last renewal) is a fake one where it matters.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from app.rooms.store import StoredRoom, StoreError
from app.rooms.store.postgres import PostgresStore

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from pg_store_helpers import LONG, PATIENCE, eventually, lapse, sql
from shared_helpers import FakeClock
from store_records import chat, room, save_of


def takeovers_counted() -> float:
    """``amerikaner_lease_takeovers_total`` of this process (app/web/metrics.py)."""
    return REGISTRY.get_sample_value("amerikaner_lease_takeovers_total") or 0.0



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
