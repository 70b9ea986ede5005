"""What a layer above the store keeps from the rooms' logs, in the store's own writes.

A ``LogFolder`` is given to the store at the app's assembly (``RoomStore.folders``; the
clubs' ledger, app/clubs/ledger.py, by app/main.py).  The store shows
it every log it loads and every save that holds one of its ``kinds`` of records, and
writes what the folder makes of a save in the same transaction as the save's entries:
what the folder keeps is counted exactly once, whatever process dies when (a save not
committed wrote neither).  A save of none of its kinds (a move, the usual save) runs no
code of the folder's: the test of a played card's way (tests/rooms/test_card_way.py)
counts the files it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from app.rooms.core.frames import JsonObject
from app.rooms.core.records import Record

from .tx import Tx


class FoldedSave(Protocol):
    """What a folder makes of one save, before the store writes it."""

    @property
    def rows(self) -> bool:
        """It has rows to write with the save (the save then takes a transaction)."""

    async def write(self, tx: Tx, records: Sequence[tuple[int, JsonObject]],
                    now: float) -> None:
        """Write its rows in the save's transaction (``records``: the save's finished
        matches' records, by number)."""

    def kept(self) -> None:
        """The save is committed: keep the fold (and tell whoever waits for its rows)."""


class LogFolder(Protocol):
    """Folds each room's log as the store reads and writes it (see the module)."""

    kinds: tuple[type[Record], ...]  # the records it reads: a save of none skips it

    def loaded(self, code: str, entries: Sequence[Record]) -> None:
        """The room's log from its checkpoint, as the store loaded it."""

    def ahead(self, code: str, entries: Sequence[Record]) -> FoldedSave:
        """What the save of ``entries`` (one of ``kinds`` among them) makes."""

    def forget(self, code: str) -> None:
        """The room left this process."""

