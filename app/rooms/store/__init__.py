"""Where rooms last: an append-only log of each room's accepted changes, and the records
of finished matches, behind one small interface (``RoomStore``).

A change counts as accepted only once ``append`` returned; an ``append`` that raises
``StoreError`` may or may not have been written, so the room that made it is reloaded
from the store before it takes another change.  ``sqlite.py`` is the embedded default
for one process; ``postgres.py`` is shared by several processes, which take turns at a
room by lease: a process serves a room only while it holds the room's lease, and an
append from a process that no longer holds it fails (the fence).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from app.rooms.core.effects import Save
from app.rooms.core.frames import JsonObject
from app.rooms.core.records import Record, RestoreError, record_of_json

from .folders import LogFolder
from .tx import Tx

T = TypeVar("T")


class StoreError(Exception):
    """The store did not take a write, or cannot be read now."""


class LeaseLost(StoreError):
    """The append of a process that no longer holds the room's lease (PostgreSQL's
    fence): the store works, another process serves the room now.  Not a failed save
    for /healthz (app/rooms/server/health.py), which counts the others."""


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room's log from its last checkpoint: entries ``first_seq``, ``first_seq + 1``..."""

    first_seq: int
    entries: list[Record]


def stored_room(code: str, checkpoint: object, rows: Sequence[tuple[object, object]]
                ) -> StoredRoom:
    """The log read from a store: the room's checkpoint number and its ``(seq, entry)``
    rows from there, in order.  ``RestoreError`` unless they are a log: the checkpoint a
    number, the rows numbered from it without a gap (a lost entry would have the room
    replay wrong, then fail every write on a number taken), each entry a record."""
    if not isinstance(checkpoint, int) or isinstance(checkpoint, bool):
        raise RestoreError(f"room {code}: its checkpoint is {checkpoint!r}, not a number")
    numbers = [seq for seq, _ in rows]
    if numbers != list(range(checkpoint, checkpoint + len(rows))):
        raise RestoreError(f"room {code}: the log from its checkpoint {checkpoint} is "
                           f"not numbered from there without a gap")
    return StoredRoom(checkpoint, [record_of_json(entry) for _, entry in rows])


class RoomStore(Protocol):
    """What the rooms need of a database.  Every method may raise ``StoreError``."""

    description: str  # for the log: where the data lives (never a password)
    shared: bool  # other processes use this store too: rooms are created for them to load
    renew_every: float | None  # seconds between ``renew`` calls; None: leases never lapse

    async def acquire(self, code: str) -> bool:
        """Take the room for this process before loading or creating it; ``False``:
        another live process serves it."""

    def release(self, code: str) -> None:
        """This process no longer serves the room (it left memory): let others take it
        (at once, or when the lease lapses)."""

    async def let_go(self, codes: Collection[str]) -> None:
        """Let these rooms go now and return when others can take them (a new room before
        its creation is answered, the rooms of a process that drains).  Never raises: if
        the store fails, they go as ``release`` lets them go."""

    async def renew(self) -> set[str]:
        """Keep this process's rooms; the codes it lost (their rooms must leave memory at
        once: their next append would fail anyway)."""

    # the layers above that keep rows of their own from the rooms' logs, written in the
    # saves' transactions (folders.py; the clubs' ledger, given at the app's assembly)
    folders: list[LogFolder]

    async def append(self, code: str, save: Save) -> None:
        """Append ``save.entries`` (numbered from ``save.first_seq``; a number taken
        already fails) and ``save.records``, in one transaction; with them the rows the
        ``folders`` make of them (a club room's finished match: app/clubs/ledger.py)."""

    def club_tx(self) -> AbstractAsyncContextManager[Tx]:
        """A transaction for the clubs' queries (tx.py)."""

    async def club_read(self, query: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """``query(tx)``, reads only, off the event loop where the store's queries run on
        it (SQLite: in the reading thread, on one snapshot): a club's page reads every
        match of a season and every par of them (benchmarks/club_page_reads.py)."""

    async def load(self, code: str) -> StoredRoom | None:
        """The room's log from its last checkpoint, ``None`` if there is no such room;
        ``RestoreError`` (records.py) if what is stored is not a log (``stored_room``)."""

    async def exists(self, code: str) -> bool: ...

    async def load_record(self, code: str, match: int | None = None) -> JsonObject | None:
        """The record of the room's finished match number ``match`` (``None``: the last
        one), or ``None`` if there is none."""

    async def load_record_text(self, code: str, match: int | None = None) -> str | None:
        """``load_record``'s record as the JSON text stored, to be served as it is (a
        long match's record, decoded and encoded again, took 0.1 s of the event loop)."""

    async def ping(self) -> bool: ...

    async def probe(self) -> None:
        """A real write that changes nothing the rooms see: ``StoreError`` if the store
        cannot write now (a full disk, a read-only or locked file, a database gone).
        Where the store can tell, it must need new space on the disk, as the rooms'
        appends do (SQLite: a write already fits in the log's old space; sqlite.py).
        /healthz asks it (app/rooms/server/health.py, at most every few seconds)."""

    async def forget_idle(self, older_than: float) -> int:
        """Forget rooms untouched since ``older_than`` (epoch seconds); how many."""

    async def maintain(self) -> None:
        """Periodic housekeeping (off the event loop where it may take time)."""

    async def shrink(self) -> None:
        """Give back the memory of caches: no room is in memory (they fill again as
        rooms come)."""

    async def close(self) -> None: ...


def record_of_text(text: str | None) -> JsonObject | None:
    """A stored record's text read back (``load_record``), ``None`` when there is none."""
    if text is None:
        return None
    record: JsonObject = json.loads(text)
    return record
