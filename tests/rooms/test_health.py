"""``/healthz`` says what is wrong, with a 503 (issues 24 and 36): a store that cannot
write, rooms' saves that failed lately, a search pool short of workers; and 200 again
once the part works.

The store's write probe runs at most every ``PROBE_SECONDS`` while writes work, and a
failed save is a problem for ``SAVE_FAILURE_SECONDS``: the tests move the health
check's clock by hand, so no step waits on the machine's speed.  The store is made to
fail for real: another connection holds the SQLite database in an exclusive transaction
(as a backup tool or a second process would), so that no write gets through; or the
data folder is on a small file system of its own (a tmpfs, mounted as root), filled to
the last byte.  The event loop's lag is tested in tests/test_loop_lag.py."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY
from rooms_harness import ServerThread, create_room
from shared_helpers import HTTP, FakeClock

from app.rooms.server.health import PROBE_SECONDS, SAVE_FAILURE_SECONDS
from app.rooms.store import LeaseLost, StoreError
from app.rooms.store.sqlite import DB_NAME, SPACE_FILE, SqliteStore


def health(base: str) -> tuple[int, dict[str, Any]]:
    r = HTTP.get(f"{base}/healthz", timeout=30)
    body: dict[str, Any] = r.json()
    return r.status_code, body


def failed_saves() -> float:
    return REGISTRY.get_sample_value("amerikaner_store_append_failures_total") or 0.0


def test_a_store_that_cannot_write_is_a_503_naming_it_until_it_can(
        make_server: Callable[..., ServerThread]) -> None:
    srv = make_server()
    clock = FakeClock(1000.0)
    srv.registry.health.clock = clock
    status, body = health(srv.base)
    assert status == 200 and body["status"] == "ok" and body["problems"] == {}, body
    counted = failed_saves()
    lock = sqlite3.connect(srv.settings.data_dir / DB_NAME, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")  # no write of the server's gets through
    try:
        # a room's save fails now: the sender hears it (the store's own check)
        r = HTTP.post(f"{srv.base}/api/rooms", json={"name": "Ann"}, timeout=30)
        assert r.status_code == 503, r.text
        assert failed_saves() == counted + 1
        # the last probe worked a moment ago: not asked again yet (a poller's cost),
        # but the failed save is told at once
        status, body = health(srv.base)
        assert status == 503 and set(body["problems"]) == {"saves"}, body
        assert "a room's save failed" in body["problems"]["saves"], body
        assert "locked" in body["problems"]["saves"], body
        clock.now += PROBE_SECONDS
        for _ in range(2):  # failing: asked at every request
            status, body = health(srv.base)
            assert status == 503 and body["status"] == "failing", body
            assert set(body["problems"]) == {"store", "saves"}, body
            assert "cannot write" in body["problems"]["store"], body
            assert "locked" in body["problems"]["store"], body
            assert body["rooms"] >= 0 and "search" in body  # the rest is still told
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    # at once, on the same clock: the store writes again; the failed save is still told
    status, body = health(srv.base)
    assert status == 503 and set(body["problems"]) == {"saves"}, body
    clock.now += SAVE_FAILURE_SECONDS - PROBE_SECONDS - 0.5  # not quite long enough
    assert set(health(srv.base)[1]["problems"]) == {"saves"}
    clock.now += 0.5
    status, body = health(srv.base)
    assert status == 200 and body["problems"] == {}, body
    create_room(srv.base)
    assert failed_saves() == counted + 1


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A file system of 4 MiB of its own (a tmpfs), unmounted after the test; skipped
    where this process may not mount one (not root, or a container without the right)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"a tmpfs cannot be mounted here: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        if subprocess.run(["umount", str(disk)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(disk)], check=True)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to its last byte with one file: its path."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out:  # unbuffered: nothing left to close
        try:
            while True:
                out.write(bytes(4096))
        except OSError as exc:
            assert exc.errno == 28, exc  # ENOSPC: full
    return filler


def test_the_probe_needs_new_space_on_a_full_disk(small_disk: Path) -> None:
    """A write that changes nothing fits in the log's old space on a full disk (issue
    36): the store's probe claims new space, and fails until some is freed."""
    import asyncio

    async def probe(store: SqliteStore) -> str | None:
        try:
            await store.probe()
        except Exception as exc:  # StoreError: what /healthz quotes
            return str(exc)
        return None

    async def run() -> None:
        store = SqliteStore(small_disk / "data")
        try:
            assert await probe(store) is None
            filler = fill(small_disk)
            # the write of the probe before issue 36 gets through: no sign of the disk
            store._writes.execute("UPDATE schema_version SET version = version")
            failed = await probe(store)
            assert failed is not None and "No space left on device" in failed, failed
            assert not (small_disk / "data" / SPACE_FILE).exists()  # nothing left over
            os.unlink(filler)
            assert await probe(store) is None
        finally:
            await store.close()

    asyncio.run(run())


def test_a_full_disk_is_a_503_naming_the_store_and_the_failed_saves(
        small_disk: Path, make_server: Callable[..., ServerThread]) -> None:
    srv = make_server(store=SqliteStore(small_disk / "data"), rooms_held=0)
    clock = FakeClock(1000.0)
    srv.registry.health.clock = clock
    assert health(srv.base)[0] == 200
    filler = fill(small_disk)
    # new rooms fit in the log's old space on disk for a while, if a checkpoint emptied
    # it (the sweep's, on a slow machine), then the log must grow: the disk says no
    for _ in range(200):
        r = HTTP.post(f"{srv.base}/api/rooms", json={"name": "Ann"}, timeout=30)
        if r.status_code != 201:
            break
    assert r.status_code == 503, r.text
    clock.now += PROBE_SECONDS
    status, body = health(srv.base)
    assert status == 503 and set(body["problems"]) == {"store", "saves"}, body
    assert "No space left on device" in body["problems"]["store"], body
    assert "full" in body["problems"]["saves"], body  # SQLite's "database or disk is full"
    os.unlink(filler)
    assert set(health(srv.base)[1]["problems"]) == {"saves"}  # the store writes again
    clock.now += SAVE_FAILURE_SECONDS
    assert health(srv.base)[0] == 200
    create_room(srv.base)


def test_a_lease_lost_to_another_process_is_no_failed_save(
        make_server: Callable[..., ServerThread]) -> None:
    """PostgreSQL's fence refusing a process's append (``LeaseLost``) is the store
    working: not counted; any other failed save is."""
    srv = make_server()
    counted = failed_saves()
    srv.registry.health.save_failed(LeaseLost("room abc: this process no longer holds "
                                              "the room's lease"))
    assert health(srv.base)[0] == 200 and failed_saves() == counted
    srv.registry.health.save_failed(StoreError("the write failed: disk I/O error"))
    status, body = health(srv.base)
    assert status == 503 and "disk I/O error" in body["problems"]["saves"], body
    assert failed_saves() == counted + 1


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
