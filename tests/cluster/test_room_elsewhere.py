"""A process asked for a room that another live process serves (its store refuses the
lease) answers HTTP 503 with ``Retry-After``, the WebSocket handshake included (before
the upgrade, so that a proxy passes it on); once the room is free it loads it.  A real
server on loopback, with the SQLite store playing a shared one: no PostgreSQL needed."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Collection
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from rooms_harness import Client, ServerThread, create_room
from shared_helpers import HTTP

from app.main import create_app
from app.rooms.store.sqlite import SqliteStore
from app.settings import Settings


class SharedSqlite(SqliteStore):
    """A store "shared with other processes": rooms in ``elsewhere`` are theirs."""

    shared = True

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir)
        self.elsewhere: set[str] = set()
        self.let_go_done: set[str] = set()  # rooms let go before the call returned

    async def acquire(self, code: str) -> bool:
        return code not in self.elsewhere

    async def let_go(self, codes: Collection[str]) -> None:
        await asyncio.sleep(0)  # a round trip to the database
        self.let_go_done.update(codes)


def test_a_room_served_elsewhere_is_answered_503_until_it_is_free(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_delay=0.0)
    store = SharedSqlite(tmp_path)
    srv = ServerThread(settings)
    srv.app = create_app(settings, store)
    srv.server.config.app = srv.app
    with srv:
        room = create_room(srv.base)
        code = room["room"]
        assert code not in srv.registry.rooms  # a new room waits for the process it routes to
        assert code in store.let_go_done  # let go before the 201: no join beats it
        store.elsewhere.add(code)
        r = HTTP.get(f"{srv.base}/api/rooms/{code}")
        assert r.status_code == 503 and r.headers["retry-after"] == "1"
        assert r.json()["error"]["code"] == "unavailable"
        r = HTTP.post(f"{srv.base}/api/rooms/{code}/join", json={"name": "Bo"})
        assert r.status_code == 503 and r.headers["retry-after"] == "1"
        with pytest.raises(InvalidStatus) as refused:
            Client(srv.base, code, token=room["token"])
        assert refused.value.response.status_code == 503
        assert refused.value.response.headers["Retry-After"] == "1"
        store.elsewhere.discard(code)  # the other process let it go
        assert HTTP.get(f"{srv.base}/api/rooms/{code}").status_code == 200
        assert Client(srv.base, code, token=room["token"]).seat == 0
