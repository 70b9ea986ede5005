"""Log records for the store tests (SQLite here, PostgreSQL in tests/cluster): the
stores read no more of a record than its kind, so small ones do."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

import pytest

from app.rooms.core.effects import Save
from app.rooms.core.frames import JsonObject
from app.rooms.core.records import Chatted, Checkpoint, Record
from app.rooms.store import RoomStore, StoreError


def room(n: int) -> Checkpoint:
    """A checkpoint record (the store reads no more of it than its kind)."""
    return Checkpoint(code=f"room{n}", practice=False, rules={"preset": "standard"}, seats=[],
                      host=None, grace_seconds=0, next_deal_pause=0, match_number=n,
                      recorded_match=0, game=0)


def chat(text: str) -> Chatted:
    return Chatted(seat=None, name="Ann", text=text, at=0.0)


def unwritable() -> Chatted:
    """A record that cannot be written (its text is no string)."""
    return Chatted.model_construct(seat=None, name="Ann", text=object(), at=0.0)


def save_of(first_seq: int, entries: list[Record],
            records: list[tuple[int, JsonObject]]) -> Save:
    """A save as the room makes it: flagged as a checkpoint when it starts with one."""
    return Save(first_seq, entries, records,
                checkpoint=bool(entries) and isinstance(entries[0], Checkpoint))


async def keeps_the_last_records(store: RoomStore,
                                 numbers: Callable[[str], Awaitable[list[int]]]) -> None:
    """A store keeping 3 records a room (``records_kept``): each append that adds one
    prunes the room's oldest in the same write, and only that room's; an append that
    fails prunes nothing.  ``numbers(code)``: the match numbers of the room's stored
    records, read beside the store."""
    assert await store.acquire("abcde") and await store.acquire("other")
    await store.append("abcde", save_of(0, [room(1)], []))
    await store.append("other", save_of(0, [room(1)], [(1, {"r": 1}), (2, {"r": 2})]))
    seq = 1
    for n in range(1, 7):  # a match's record comes with its last entries, or a checkpoint
        entries: list[Record] = [room(n)] if n % 2 else [chat(f"match {n}")]
        await store.append("abcde", save_of(seq, entries, [(n, {"r": n})]))
        seq += 1
        assert await numbers("abcde") == list(range(max(1, n - 2), n + 1))
        assert await store.load_record("abcde") == {"r": n}
        assert json.loads(await store.load_record_text("abcde", n) or "null") == {"r": n}
    assert await store.load_record_text("abcde", 99) is None
    assert await numbers("other") == [1, 2]  # another room's are its own
    with pytest.raises(StoreError):  # the last entry's number is taken: all of it fails
        await store.append("abcde", save_of(seq - 1, [chat("late")], [(7, {"r": 7})]))
    assert await numbers("abcde") == [4, 5, 6]
