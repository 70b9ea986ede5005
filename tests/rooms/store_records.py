"""Log records for the store tests (SQLite here, PostgreSQL in tests/cluster): the
stores read no more of a record than its kind, so small ones do."""

from __future__ import annotations

from app.rooms.core.effects import Save
from app.rooms.core.frames import JsonObject
from app.rooms.core.records import Chatted, Checkpoint, Record


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
