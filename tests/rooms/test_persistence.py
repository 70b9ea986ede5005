"""The SQLite store on a real file: appends are all or nothing and numbered (a number
taken twice fails, the store stays usable), a checkpoint forgets the log before it,
records are kept (the last ``records_kept`` a room), idle rooms are forgotten with their
logs and records."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from store_records import chat, keeps_the_last_records, room, save_of, unwritable

from app.rooms.store import StoredRoom, StoreError
from app.rooms.store.sqlite import DB_NAME, SqliteStore


def test_appends_are_all_or_nothing_and_numbered(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = SqliteStore(tmp_path)
        await store.append("abcde", save_of(0, [room(1), chat("a")], []))
        assert await store.exists("abcde") and not await store.exists("zzzzz")
        with pytest.raises(StoreError):  # entry 1 is taken: no part of this save is kept
            await store.append("abcde", save_of(1, [chat("b"), chat("c")], [(1, {"r": 1})]))
        with pytest.raises(ValueError):  # cannot be written: nothing is
            await store.append("abcde", save_of(2, [chat("x"), unwritable()], []))
        assert await store.load("abcde") == StoredRoom(0, [room(1), chat("a")])
        assert await store.load_record("abcde") is None
        await store.append("abcde", save_of(2, [chat("b")], [(1, {"r": 1})]))
        assert await store.load("abcde") == StoredRoom(0, [room(1), chat("a"), chat("b")])
        assert await store.load_record("abcde") == {"r": 1}
        # a checkpoint: the log before it is no longer needed, loading starts there
        await store.append("abcde", save_of(3, [room(2), chat("d")], [(2, {"r": 2})]))
        assert await store.load("abcde") == StoredRoom(3, [room(2), chat("d")])
        assert await store.load_record("abcde") == {"r": 2}  # the last match's
        assert await store.load_record("abcde", 1) == {"r": 1}  # an earlier match's
        assert await store.load_record("abcde", 3) is None
        assert await store.load("zzzzz") is None and await store.ping()
        await store.close()

    asyncio.run(scenario())


def test_idle_rooms_are_forgotten_with_their_logs_and_records(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = SqliteStore(tmp_path)
        await store.append("older", save_of(0, [room(1)], [(1, {"r": 1})]))
        assert await store.forget_idle(older_than=0) == 0  # nothing is older than 1970
        assert await store.forget_idle(older_than=2**40) == 1
        assert await store.load("older") is None and not await store.exists("older")
        assert await store.load_record("older") is None
        await store.append("older", save_of(0, [room(2)], []))  # the store still writes
        assert await store.load("older") == StoredRoom(0, [room(2)])
        await store.maintain()
        await store.close()

    asyncio.run(scenario())


def test_moves_and_reads_leave_no_objects_and_start_no_threads(tmp_path: Path) -> None:
    """Every move is saved: what a save leaves in memory stays there wherever the
    allocator put it, and keeps that memory from ever going back to the system
    (benchmarks/soak.py).  ``Connection.execute`` kept a weak reference to a new cursor
    per statement until its next clean-up, 200 cursors on; the loop's default thread pool
    started reading threads as reads came, in the middle of play."""
    import gc
    import threading
    import weakref

    def weak_references() -> int:  # type(): a dead proxy raises on isinstance
        return sum(type(o) is weakref.ReferenceType for o in gc.get_objects())

    def threads() -> set[threading.Thread]:  # not idents: an ended thread's is reused
        return set(threading.enumerate())

    async def scenario() -> tuple[list[str], int, int]:
        before = threads()
        store = SqliteStore(tmp_path)
        new = [t.name for t in threading.enumerate() if t not in before]
        assert any(n.startswith("sqlite-read") for n in new), new  # its thread, from the start
        await store.append("abcde", save_of(0, [room(1)], []))
        await store.load("abcde")
        running, refs = threads(), weak_references()
        for seq in range(1, 181):  # fewer than 200: no clean-up hides them
            await store.append("abcde", save_of(seq, [chat(f"{seq}")], []))
            if seq % 20 == 0:
                assert await store.exists("abcde")
                assert (await store.load("abcde")) is not None
        started = [t.name for t in threading.enumerate() if t not in running]
        refs_after = weak_references()
        await store.close()
        return started, refs, refs_after

    started, refs, refs_after = asyncio.run(scenario())
    # the loop's default pool names its threads asyncio_N (threads of other tests may
    # come and go meanwhile: only the pool's count)
    assert not [n for n in started if n.startswith("asyncio")], "reads started threads"
    # before: one per save and read (207); other tests' threads may make a few meanwhile
    assert refs_after - refs < 60, f"{refs_after - refs} weak references more"


def test_a_room_that_leaves_memory_leaves_nothing_in_the_store(tmp_path: Path) -> None:
    """The store remembers when it last wrote a room's time of use (at most once a minute);
    a room that leaves memory takes that with it, and its next save writes the time."""
    async def scenario() -> None:
        store = SqliteStore(tmp_path)
        await store.append("abcde", save_of(0, [room(1)], []))
        assert "abcde" in store._touched
        store.release("abcde")
        assert "abcde" not in store._touched
        await store.append("abcde", save_of(1, [chat("a")], []))
        assert "abcde" in store._touched  # written again: the room is in use
        await store.close()

    asyncio.run(scenario())


def test_the_store_gives_its_caches_back_and_goes_on(tmp_path: Path) -> None:
    """``shrink`` (no room in memory) empties both connections' page caches; the store
    reads and writes as before."""
    async def scenario() -> None:
        store = SqliteStore(tmp_path)
        for seq in range(50):
            await store.append("abcde", save_of(seq, [room(1) if seq == 0 else chat(f"{seq}")],
                                             []))
        await store.shrink()
        await store.append("abcde", save_of(50, [chat("after")], []))
        loaded = await store.load("abcde")
        assert loaded is not None and len(loaded.entries) == 51
        await store.close()

    asyncio.run(scenario())


def test_a_room_keeps_the_records_of_its_last_matches(tmp_path: Path) -> None:
    async def numbers(code: str) -> list[int]:
        db = sqlite3.connect(tmp_path / DB_NAME)
        try:
            return [r[0] for r in db.execute(
                "SELECT match_number FROM records WHERE code=? ORDER BY match_number",
                (code,))]
        finally:
            db.close()

    async def scenario() -> None:
        store = SqliteStore(tmp_path, records_kept=3)
        await keeps_the_last_records(store, numbers)
        await store.close()
        store = SqliteStore(tmp_path, records_kept=0)  # 0: every record is kept
        await store.append("abcde", save_of(8, [chat("x")], [(9, {"r": 9})]))
        assert await numbers("abcde") == [4, 5, 6, 9]
        await store.close()

    asyncio.run(scenario())
