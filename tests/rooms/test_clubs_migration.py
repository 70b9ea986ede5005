"""A database as today's main code leaves it (SQLite schema version 3, PostgreSQL version
2: rooms, logs and records, no clubs' tables) opens in this version (SQLite 4,
PostgreSQL 3): the clubs' tables are added, and its room, in the middle of a match,
plays on to its end; players and clubs work on it."""

from __future__ import annotations

import asyncio
import itertools
import random
import sqlite3
from collections.abc import Callable

import asyncpg
import pytest
from rooms_harness import Client, ServerThread, act_until, create_room, join_room
from shared_helpers import HTTP

from app.rooms.store import postgres_schema, sqlite_schema
from app.rooms.store.club_tables import PAR_TABLES, TABLES

NAMES = itertools.count()
CLUB_TABLES = [s.split()[5] for s in TABLES + PAR_TABLES
               if s.lstrip().startswith("CREATE TABLE")]


async def back_to_postgres_2(url: str) -> list[int]:
    con = await asyncpg.connect(url)
    try:
        for table in CLUB_TABLES:
            await con.execute(f"DROP TABLE {table}")
        await con.execute("DELETE FROM schema_version WHERE version > 2")
        return [r[0] for r in await con.fetch("SELECT version FROM schema_version")]
    finally:
        await con.close()


async def postgres_versions(url: str) -> list[int]:
    con = await asyncpg.connect(url)
    try:
        return [r[0] for r in await con.fetch("SELECT version FROM schema_version "
                                              "ORDER BY version")]
    finally:
        await con.close()


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_an_older_database_migrates_and_its_room_plays_on(
        database: str, make_server: Callable[..., ServerThread],
        request: pytest.FixtureRequest) -> None:
    url = ""
    if database == "postgres":
        url = request.getfixturevalue("postgres").create_database(f"mig{next(NAMES)}")
    first = make_server(database_url=url)
    room = create_room(first.base, rules={"preset": "guide", "target": 1})
    ann = Client(first.base, room["room"], room["token"])
    ann.send({"type": "start"})
    act_until(ann, lambda v: v["phase"] == "play", random.Random(1))
    data = first.settings.data_dir / "amerikaner.sqlite3"
    first.__exit__(None, None, None)
    if url:  # back to version 2, as the code before the clubs left it
        assert sorted(asyncio.run(back_to_postgres_2(url))) == [1, 2]
    else:  # back to version 3
        db = sqlite3.connect(data)
        with db:
            for table in CLUB_TABLES:
                db.execute("DROP TABLE " + table)
            db.execute("UPDATE schema_version SET version=3")
        db.close()

    second = make_server(database_url=url)
    ann = Client(second.base, room["room"], room["token"])
    assert ann.state is not None and ann.state["phase"] == "play"
    act_until(ann, lambda v: v["phase"] == "match_over", random.Random(2), timeout=120)
    if url:
        assert asyncio.run(postgres_versions(url)) == [1, 2, 3, 4] == list(
            range(1, postgres_schema.VERSION + 1))
    else:
        db = sqlite3.connect(data)
        assert db.execute("SELECT version FROM schema_version").fetchone() == (
            sqlite_schema.VERSION,) == (5,)
        db.close()
    r = HTTP.post(second.base + "/api/players", json={"name": "Cy"})
    assert r.status_code == 201
    made = HTTP.post(second.base + "/api/clubs", json={"name": "Thursdays"},
                     headers={"Authorization": f"Bearer {r.json()['key']}"})
    assert made.status_code == 201
    join_room(second.base, room["room"], "Di")  # the room takes people as before
