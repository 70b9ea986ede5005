"""The clubs' par in the store, SQLite and PostgreSQL: a database of the version before par
(SQLite 4, PostgreSQL 3) with a counted club match migrates, and the match is found
without par; a match's deals are derived from its record; a process's lease on a match
keeps another process off it until it is given back; a deal's par written twice (two
processes) is one row, and the match is done when each of its deals has one."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from app.clubs import par_store
from app.rooms.store import RoomStore, postgres_schema
from app.rooms.store.club_tables import PAR_TABLES
from app.rooms.store.postgres import PostgresStore
from app.rooms.store.sqlite import DB_NAME, SqliteStore
from app.rooms.store.tx import Tx

NAMES = itertools.count()
ROW = ("INSERT INTO club_matches(room_id, match_number, club, room, season, finished_at, "
       "players, bots, summary, record) VALUES (?, 1, 'c1', 'abc', 1, 1.0, '[null, null, "
       "null, null]', '[]', ?, ?)")


def a_record(examples_dir: Path, deals: int = 1) -> dict[str, Any]:
    """An example game record of the spec with ``deals`` deals played to their end or
    more."""
    for path in sorted(examples_dir.glob("*.json")):
        record: dict[str, Any] = json.loads(path.read_text())
        if len(par_store.deals_of_record("c1", "r1", 1, record)[0]) >= deals:
            return record
    raise AssertionError(f"no example record with {deals} finished deals")


async def insert_match(tx: Tx, room_id: str, record: dict[str, Any]) -> None:
    await tx.execute(ROW, room_id, json.dumps({"totals": [0] * 4, "score_sheet": []}),
                     json.dumps(record))


def sqlite_at_version_4(data: Path, record: dict[str, Any]) -> None:
    """A database as the code before par left it, with a counted club match."""
    async def make() -> None:
        store = SqliteStore(data)
        async with store.club_tx() as tx:
            await insert_match(tx, "r1", record)
        await store.close()
    asyncio.run(make())
    db = sqlite3.connect(data / DB_NAME)
    with db:
        db.execute("DROP INDEX club_matches_par")
        for column in ("par_deals", "par_missing", "par_claim"):
            db.execute(f"ALTER TABLE club_matches DROP COLUMN {column}")
        db.execute("DROP TABLE club_par")
        db.execute("UPDATE schema_version SET version = 4")
    db.close()


async def postgres_at_version_3(url: str, record: dict[str, Any]) -> None:
    con = await asyncpg.connect(url)
    try:
        assert await postgres_schema.migrate(con, target=3) == 0
        await con.execute(ROW.replace("?", "$1", 1).replace("?", "$2", 1).replace("?", "$3"),
                          "r1", json.dumps({"totals": [0] * 4, "score_sheet": []}),
                          json.dumps(record))
    finally:
        await con.close()


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_par_rows_migrate_lease_and_write_once(
        database: str, tmp_path: Path, examples_dir: Path,
        request: pytest.FixtureRequest) -> None:
    record = a_record(examples_dir)
    url = ""
    if database == "postgres":
        url = request.getfixturevalue("postgres").create_database(f"par{next(NAMES)}")
        asyncio.run(postgres_at_version_3(url, record))
    else:
        sqlite_at_version_4(tmp_path, record)

    async def open_store(owner: str) -> RoomStore:
        if url:
            return await PostgresStore.connect(url, owner=owner)
        return SqliteStore(tmp_path)

    async def scenario() -> None:
        a = await open_store("A")  # migrates
        b = await open_store("B") if url else a  # (SQLite: one process's store)
        async with a.club_tx() as tx:
            assert await par_store.pending(tx, 100.0, 10) == [("r1", 1, "c1")]
            assert await par_store.claim(tx, "r1", 1, 100.0, 200.0)
        async with b.club_tx() as tx:  # leased: another process leaves it
            assert await par_store.pending(tx, 150.0, 10) == []
            assert not await par_store.claim(tx, "r1", 1, 150.0, 250.0)
            assert await par_store.pending(tx, 201.0, 10) == [("r1", 1, "c1")]  # lapsed
        async with a.club_tx() as tx:
            found = await par_store.record_and_done(tx, "r1", 1)
            assert found is not None and found[1:] == (False, set())
            jobs, deals = par_store.deals_of_record("c1", "r1", 1, json.loads(found[0]))
            assert [j.deal for j in jobs] == [d[0] for d in deals] and deals
            await par_store.keep_deals(tx, "r1", 1, deals)
            await par_store.release(tx, "r1", 1, 200.0)
        par = {"level": "easy", "seed": 1, "plays": 1, "seat_means": [1.0, 2.0, 3.0, 4.0],
               "play_points": [[1, 2, 3, 4]], "cpu_seconds": 0.0}
        for store in (a, b, a):  # a repeat, from either process, is the same row
            async with store.club_tx() as tx:
                await par_store.keep_par(tx, "c1", "r1", 1, deals[0][0], par, len(deals))
        async with b.club_tx() as tx:
            rows = await tx.fetch("SELECT deal, par FROM club_par")
            assert [(r[0], json.loads(r[1])) for r in rows] == [(deals[0][0], par)]
            left = await par_store.pending(tx, 100.0, 10)
            assert left == ([("r1", 1, "c1")] if len(deals) > 1 else [])
            for deal, _, _ in deals[1:]:
                await par_store.keep_par(tx, "c1", "r1", 1, deal, par, len(deals))
            assert await par_store.pending(tx, 100.0, 10) == []  # every deal has its par
        for store in {id(a): a, id(b): b}.values():
            await store.close()

    asyncio.run(scenario())


def test_the_par_statements_add_to_either_database() -> None:
    """The ALTERs are PostgreSQL's ``ADD COLUMN IF NOT EXISTS``, which SQLite runs as a
    plain ADD COLUMN only where the column is missing (sqlite_schema.py)."""
    assert all("IF NOT EXISTS" in s for s in PAR_TABLES)
