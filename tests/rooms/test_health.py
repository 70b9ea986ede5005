"""``/healthz`` says what is wrong, with a 503 (issue 24): a store that cannot write, a
search pool short of workers; and 200 again once the part works.

The store's write probe runs at most every ``PROBE_SECONDS`` while writes work: the test
moves the health check's clock by hand, so no step waits on the machine's speed.  The
store is made to fail for real: another connection holds the SQLite database in an
exclusive transaction (as a backup tool or a second process would), so that no write
gets through, as on a full disk."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from rooms_harness import ServerThread, create_room

from app.rooms.server.health import PROBE_SECONDS
from app.rooms.store.sqlite import DB_NAME


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def health(base: str) -> tuple[int, dict[str, Any]]:
    r = httpx.get(f"{base}/healthz", timeout=30)
    body: dict[str, Any] = r.json()
    return r.status_code, body


def test_a_store_that_cannot_write_is_a_503_naming_it_until_it_can(
        make_server: Callable[..., ServerThread]) -> None:
    srv = make_server()
    clock = FakeClock()
    srv.registry.health.clock = clock
    status, body = health(srv.base)
    assert status == 200 and body["status"] == "ok" and body["problems"] == {}, body
    lock = sqlite3.connect(srv.settings.data_dir / DB_NAME, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")  # no write of the server's gets through
    try:
        # a room's save fails now: the sender hears it (the store's own check)
        r = httpx.post(f"{srv.base}/api/rooms", json={"name": "Ann"}, timeout=30)
        assert r.status_code == 503, r.text
        # the last probe worked a moment ago: not asked again yet (a poller's cost)
        assert health(srv.base)[0] == 200
        clock.now += PROBE_SECONDS
        for _ in range(2):  # failing: asked at every request
            status, body = health(srv.base)
            assert status == 503 and body["status"] == "failing", body
            assert set(body["problems"]) == {"store"}, body
            assert "cannot write" in body["problems"]["store"], body
            assert "locked" in body["problems"]["store"], body
            assert body["rooms"] >= 0 and "search" in body  # the rest is still told
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    status, body = health(srv.base)  # at once, on the same clock: it writes again
    assert status == 200 and body["problems"] == {}, body
    create_room(srv.base)


def test_a_broken_search_pool_is_a_503_naming_it(
        make_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch) -> None:
    """The endpoint's side (the pool's own ``problem`` is tested in test_search_pool.py,
    with worker processes that cannot be started)."""
    srv = make_server()
    problem = "0 of 3 search workers running: a new one could not be started (OSError)"
    monkeypatch.setattr(srv.registry.thinkers, "problem", lambda: problem)
    status, body = health(srv.base)
    assert status == 503 and body["problems"] == {"search": problem}, body
    monkeypatch.undo()
    status, body = health(srv.base)
    assert status == 200 and body["problems"] == {}, body
