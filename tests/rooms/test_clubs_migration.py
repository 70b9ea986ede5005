"""A database as today's main code leaves it (SQLite schema version 3: rooms, logs and
records, no clubs' tables) opens in this version (4): the clubs' tables are added, and
its room, in the middle of a match, plays on to its end."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable

import httpx
from rooms_harness import Client, ServerThread, act_until, create_room, join_room

from app.clubs.schema import TABLES
from app.rooms.store.sqlite_schema import VERSION


def test_a_version_3_database_migrates_and_its_room_plays_on(
        make_server: Callable[..., ServerThread]) -> None:
    first = make_server()
    room = create_room(first.base, rules={"preset": "guide", "target": 1})
    ann = Client(first.base, room["room"], room["token"])
    ann.send({"type": "start"})
    act_until(ann, lambda v: v["phase"] == "play", random.Random(1))
    data = first.settings.data_dir / "amerikaner.sqlite3"
    first.__exit__(None, None, None)
    db = sqlite3.connect(data)
    with db:  # back to version 3, as the code before the clubs left it
        for statement in TABLES:
            if statement.lstrip().startswith("CREATE TABLE"):
                db.execute("DROP TABLE " + statement.split()[5])
        db.execute("UPDATE schema_version SET version=3")
    db.close()

    second = make_server()
    ann = Client(second.base, room["room"], room["token"])
    assert ann.state is not None and ann.state["phase"] == "play"
    act_until(ann, lambda v: v["phase"] == "match_over", random.Random(2), timeout=120)
    db = sqlite3.connect(data)
    assert db.execute("SELECT version FROM schema_version").fetchone() == (VERSION,) == (4,)
    db.close()
    r = httpx.post(second.base + "/api/players", json={"name": "Cy"})
    assert r.status_code == 201
    join_room(second.base, room["room"], "Di")  # the room takes people as before
