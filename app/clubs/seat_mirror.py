"""Who holds each seat of a room, folded from the room's own log as the store reads and
writes it (``SeatMirror``), so that the store can tell, inside the transaction that logs
a finished match, which seat tokens held its seats, without asking the room.

The fold follows the room's (app/rooms/core/state.py): a checkpoint sets every seat, a
seat record one, new rules cut or extend the seats.  A seat's holder as a match ends is
its person's token hash, unless a bot stands in for a takeover still pending (that person
played none of it: ``RoomState.holders``); a seat a bot played is nobody's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from app.bot_levels import DEFAULT_SEAT_BOT
from app.rooms.core.frames import MatchSummary
from app.rooms.core.records import Checkpoint, HistoryAdded, Record, RulesSet, SeatSet
from app.rules import RuleSet

log = logging.getLogger("amerikaner.clubs")


@dataclass(frozen=True, slots=True)
class SeatHolder:
    token_hash: str | None
    bot: str | None

    @property
    def holder(self) -> str | None:
        """The token hash that counts for this seat's match (``None``: nobody's)."""
        return None if self.bot is not None else self.token_hash


Seats = tuple[SeatHolder, ...]


@dataclass(frozen=True, slots=True)
class Finished:
    """A match that ended in these entries: its number and each seat's holder."""

    number: int
    holders: tuple[str | None, ...]
    bots: tuple[str | None, ...]  # the level of each seat nobody held (a bot's)
    summary: MatchSummary


def fold(seats: Seats | None, entries: Sequence[Record]) -> tuple[Seats | None,
                                                                   list[Finished]]:
    """The seats after ``entries`` (from ``seats``; ``None``: not known until a
    checkpoint), and the matches they finish with their holders."""
    finished: list[Finished] = []
    for entry in entries:
        match entry:
            case Checkpoint(seats=data):
                seats = tuple(SeatHolder(d.token_hash, d.bot) for d in data)
            case SeatSet(seat=index, data=data) if seats is not None and index < len(seats):
                seats = (*seats[:index], SeatHolder(data.token_hash, data.bot),
                         *seats[index + 1:])
            case RulesSet(rules=raw) if seats is not None:
                n = RuleSet.shared(raw).options.players
                seats = seats[:n] + tuple(SeatHolder(None, DEFAULT_SEAT_BOT)
                                       for _ in range(n - len(seats)))
            case HistoryAdded(match=summary):
                if seats is None:  # never expected: the store loaded or made every room
                    log.warning("match %d ended in a room whose seats the store does not "
                                "know: it counts in no club", summary["number"])
                    continue
                finished.append(Finished(
                    summary["number"], tuple(s.holder for s in seats),
                    tuple(s.bot if s.holder is None else None for s in seats), summary))
            case _:
                pass
    return seats, finished


# The records that change who holds a seat or end a match: a save of none of them (a
# move, the usual save) leaves the mirror as it is, and the store need not ask it (a
# played card's way through the code stays short: tests/rooms/test_card_way.py).
SEAT_RECORDS = (Checkpoint, SeatSet, RulesSet, HistoryAdded)


class SeatMirror:
    """The seats of each room this store has loaded or written, by room code."""

    def __init__(self) -> None:
        self._seats: dict[str, Seats] = {}

    def loaded(self, code: str, entries: Sequence[Record]) -> None:
        seats, _ = fold(None, entries)
        if seats is None:
            self._seats.pop(code, None)
        else:
            self._seats[code] = seats

    def ahead(self, code: str, entries: Sequence[Record]) -> tuple[Seats | None,
                                                                    list[Finished]]:
        """What ``entries`` would make of the room's seats, not kept yet (``written``
        keeps it once the store took them)."""
        return fold(self._seats.get(code), entries)

    def written(self, code: str, seats: Seats | None) -> None:
        if seats is not None:
            self._seats[code] = seats

    def forget(self, code: str) -> None:
        self._seats.pop(code, None)

    def __len__(self) -> int:
        return len(self._seats)
