"""The PostgreSQL schema's migrations: from an empty database, from the previous version
with rooms in it (nothing lost, the new column used), several processes starting at
once, and a database newer than the server refused."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from store_records import save_of

from app.rooms.core.records import Chatted, Checkpoint
from app.rooms.store import StoredRoom
from app.rooms.store.postgres import PostgresStore
from app.rooms.store.postgres_schema import VERSION, SchemaTooNew, migrate

ROOM = Checkpoint(code="abcde", practice=False, rules={"preset": "standard"}, seats=[],
                  host=None, grace_seconds=0, next_deal_pause=0, match_number=0,
                  recorded_match=0, game=0)


def chat(text: str) -> Chatted:
    return Chatted(seat=None, name="Ann", text=text, at=0.0)


async def versions(url: str) -> list[int]:
    con = await asyncpg.connect(url)
    try:
        return [r[0] for r in await con.fetch("SELECT version FROM schema_version "
                                              "ORDER BY version")]
    finally:
        await con.close()


def test_an_empty_database_gets_every_version(database_url: str) -> None:
    async def scenario() -> None:
        # several processes starting at once: one migrates, the others find it done
        stores = await asyncio.gather(*(PostgresStore.connect(database_url) for _ in range(3)))
        assert await versions(database_url) == list(range(1, VERSION + 1))
        assert await stores[0].acquire("abcde")
        await stores[0].append("abcde", save_of(0, [ROOM], []))
        for store in stores:
            await store.close()

    asyncio.run(scenario())


def test_a_version_1_database_keeps_its_rooms(database_url: str) -> None:
    async def scenario() -> None:
        con = await asyncpg.connect(database_url)
        assert await migrate(con, target=1) == 0
        # a room written by a version-1 server: no owner column yet
        await con.execute("INSERT INTO rooms VALUES ('abcde', 1, 1, 0)")
        await con.executemany("INSERT INTO log(code, seq, entry) VALUES ('abcde', $1, $2)",
                              [(0, ROOM.to_json()), (1, chat("hi").to_json())])
        await con.execute("INSERT INTO records VALUES ('abcde', 1, '{\"r\":1}', 1)")
        await con.close()
        assert await versions(database_url) == [1]

        store = await PostgresStore.connect(database_url, owner="B")
        assert await versions(database_url) == list(range(1, VERSION + 1))
        assert await store.load("abcde") == StoredRoom(0, [ROOM, chat("hi")])
        assert await store.load_record("abcde") == {"r": 1}
        assert await store.acquire("abcde")
        await store.append("abcde", save_of(2, [chat("v2")], []))
        con = await asyncpg.connect(database_url)
        owners = [r[0] for r in await con.fetch("SELECT owner FROM log WHERE code='abcde' "
                                                "ORDER BY seq")]
        await con.close()
        assert owners == [None, None, "B"]  # v2 names the writer of each new entry
        await store.close()
        # opening it again changes nothing
        again = await PostgresStore.connect(database_url)
        assert await versions(database_url) == list(range(1, VERSION + 1))
        await again.close()

    asyncio.run(scenario())


def test_a_database_newer_than_the_server_is_refused(database_url: str) -> None:
    async def scenario() -> None:
        con = await asyncpg.connect(database_url)
        await migrate(con)
        await con.execute("INSERT INTO schema_version VALUES ($1, now())", VERSION + 1)
        await con.close()
        with pytest.raises(SchemaTooNew, match="upgrade the server"):
            await PostgresStore.connect(database_url)

    asyncio.run(scenario())
