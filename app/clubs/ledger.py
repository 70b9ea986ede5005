"""A finished match of a club room, counted exactly once: the club's match row is
written by the store in the same transaction as the log entries that record the finished
match (``HistoryAdded``), keyed by (room id, match number), so that

- a process that dies before the commit wrote neither: the room, loaded again (here or
  by another process), finds its match finished and unrecorded and records it again,
  and the row with it;
- a process that dies after the commit wrote both: nothing is recorded twice;
- the same row offered twice (a repeat) changes nothing (``ON CONFLICT DO NOTHING``).

The players are those whose seat tokens held the seats as the match ended
(seat_mirror.py) and were bound to a player as they were taken (``room_players``): a
seat a bot played all match, or a person who never gave a key, counts for nobody.

The store knows nothing of the clubs: ``ClubLedger`` is the store's log folder
(app/rooms/store/folders.py) that the app gives it at its assembly (``keep_clubs``, from
app/main.py); the store writes the folder's rows in the save's
transaction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.rooms.core.frames import JsonObject
from app.rooms.core.records import Record
from app.rooms.store import RoomStore
from app.rooms.store.tx import Tx, fetchone
from app.web import metrics

from .seat_mirror import SEAT_RECORDS, Finished, SeatMirror, Seats

INSERT_MATCH = """INSERT INTO club_matches(room_id, match_number, club, room, season,
    finished_at, players, bots, summary, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (room_id, match_number) DO NOTHING"""


async def count_finished(tx: Tx, code: str, finished: Sequence[Finished],
                         records: Sequence[tuple[int, JsonObject]], now: float) -> int:
    """Write the club's row of each match in ``finished`` (none if the room is no club's);
    how many rows are new."""
    if not finished:
        return 0
    room = await fetchone(tx, "SELECT r.club, r.room_id, c.season FROM club_rooms r "
                              "JOIN clubs c ON c.id = r.club WHERE r.code = ?", code)
    if room is None:
        return 0
    club, room_id, season = room
    rows = await tx.fetch("SELECT token_hash, player FROM room_players WHERE code = ?", code)
    bound = {str(r[0]): str(r[1]) for r in rows}
    by_number = dict(records)
    added = 0
    for match in finished:
        players = [bound.get(h) if h is not None else None for h in match.holders]
        record = by_number.get(match.number, {})
        added += await tx.execute(
            INSERT_MATCH, room_id, match.number, club, code, int(season), float(now),
            json.dumps(players), json.dumps(list(match.bots)),
            json.dumps(match.summary, separators=(",", ":")),
            json.dumps(record, separators=(",", ":")))
    if added:  # the club is in use: kept from retention (club_ops.forget_idle)
        await tx.execute("UPDATE clubs SET updated_at = ? WHERE id = ?", float(now), club)
    return added


@dataclass
class _LedgerSave:
    """A save that changes who holds a room's seats or ends a match (``FoldedSave``)."""

    ledger: ClubLedger
    code: str
    seats: Seats | None
    finished: list[Finished]
    counted: int = 0

    @property
    def rows(self) -> bool:
        return bool(self.finished)

    async def write(self, tx: Tx, records: Sequence[tuple[int, JsonObject]],
                    now: float) -> None:
        self.counted = await count_finished(tx, self.code, self.finished, records, now)

    def kept(self) -> None:
        if self.seats is not None:
            self.ledger.seats.written(self.code, self.seats)
        metrics.CLUB_MATCHES.inc(self.counted)
        if self.counted and self.ledger.on_counted is not None:
            self.ledger.on_counted()


class ClubLedger:
    """The store's log folder for the clubs: folds who holds the seats of the rooms in
    use (seat_mirror.py) and writes each club room's finished match in the transaction
    that logs it; ``on_counted`` is told after a write that counted one (its par is due:
    par_keeper.py)."""

    kinds: tuple[type[Record], ...] = SEAT_RECORDS

    def __init__(self, on_counted: Callable[[], None] | None = None) -> None:
        self.seats = SeatMirror()
        self.on_counted = on_counted

    def loaded(self, code: str, entries: Sequence[Record]) -> None:
        self.seats.loaded(code, entries)

    def ahead(self, code: str, entries: Sequence[Record]) -> _LedgerSave:
        seats, finished = self.seats.ahead(code, entries)
        return _LedgerSave(self, code, seats, finished)

    def forget(self, code: str) -> None:
        self.seats.forget(code)


def keep_clubs(store: RoomStore, on_counted: Callable[[], None] | None = None
               ) -> ClubLedger:
    """Give ``store`` the clubs' ledger (in place of one it had: a store serves one
    app at a time)."""
    ledger = ClubLedger(on_counted)
    store.folders[:] = [f for f in store.folders if not isinstance(f, ClubLedger)]
    store.folders.append(ledger)
    return ledger
