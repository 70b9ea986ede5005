"""Deal reviews: after a deal, a person may ask for a review of their own decisions in
it (the strong bot's choice at each and what it was worth, and the deal's double-dummy
result; app/bots/review.py).  It is computed off the event loop, only on request, and
kept with the room so that asking again, or from another tab, costs nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from app.rules.record import deal_to_record

from .effects import AskReview, Send
from .errors import RoomError
from .frames import ReviewFrame

if TYPE_CHECKING:
    from .room import RoomCore

KEEP = 32  # reviews kept per room (a review is a few kilobytes)
Key = tuple[int, int, int]  # match number, deal index, seat


class ReviewCache:
    """The reviews made for this room, and the ones being made (runtime only)."""

    def __init__(self) -> None:
        self.done: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self.asked: set[Key] = set()

    def keep(self, key: Key, review: dict[str, Any]) -> None:
        self.asked.discard(key)
        self.done[key] = review
        while len(self.done) > KEEP:
            self.done.popitem(last=False)


def ask(room: RoomCore, seat: int | None) -> None:
    """Review ``seat``'s decisions in the last finished deal (sent when ready)."""
    if seat is None:
        raise RoomError("not_seated", "a review is of your own decisions: take a seat")
    state = room.state
    match = state.match
    deal = match.deal if match is not None else None
    if match is None or deal is None or not deal.over or deal.outcome == "void":
        raise RoomError("wrong_phase", "a review is for after a deal")
    if state.seats[seat].takeover:
        raise RoomError("not_your_turn", "you did not play this deal")
    key = (state.match_number, len(match.deals) - 1, seat)
    cached = room.reviews.done.get(key)
    if cached is not None:
        room.emit(Send(room.conns_of_seat(seat), frame(key, cached)))
    elif key not in room.reviews.asked:
        room.reviews.asked.add(key)
        room.emit(AskReview(seat, key[0], key[1], state.rules, deal_to_record(deal)))


def ready(room: RoomCore, seat: int, match_number: int, deal: int,
          review: dict[str, Any]) -> None:
    key = (match_number, deal, seat)
    if "error" in review:
        # not kept: asking again tries again (the pool was busy, or the search failed)
        room.reviews.asked.discard(key)
    else:
        room.reviews.keep(key, review)
    conns = room.conns_of_seat(seat)
    if conns:
        room.emit(Send(conns, frame(key, review)))


def frame(key: Key, review: dict[str, Any]) -> ReviewFrame:
    return {"type": "review", "match": key[0], "deal": key[1], "seat": key[2],
            "review": review}
