"""Deal reviews: after a deal, a person may ask for a review of their own decisions in
it (the strong bot's choice at each and what it was worth, and the deal's double-dummy
result; app/bots/review.py).  It is computed off the event loop, only on request, and
kept with the room so that asking again, or from another tab, costs nothing.
"""

from __future__ import annotations

from typing import cast

from app.rules.record import deal_to_record

from .effects import AskReview, HintPayload, Send
from .errors import RoomError
from .frames import HintFrame, JsonObject, ReviewFrame, ReviewPayload
from .state import Draft, ReviewKey, Runtime
from .views import reviewable

KEEP = 32  # reviews kept per room (a review is a few kilobytes)


def ask(d: Draft, seat: int | None, index: int | None = None) -> None:
    """Review ``seat``'s decisions in deal ``index`` of the match (``None``: the last),
    sent when ready; at any time of the match, so a review asked late is never lost."""
    if seat is None:
        raise RoomError("not_seated", "a review is of your own decisions: take a seat")
    state, rt = d.state, d.rt
    match = state.match
    last = None if match is None else len(match.deals) - 1
    index = last if index is None else index
    if match is None or index is None or index not in reviewable(match):
        raise RoomError("wrong_phase", "a review is for a finished deal of this match")
    deal = match.deals[index]
    if index == last and state.seats[seat].takeover:
        raise RoomError("not_your_turn", "you did not play this deal")
    key = (state.match_number, index, seat)
    cached = rt.reviews.get(key)
    if cached is not None:
        d.emit(Send(rt.conns_of_seat(seat), frame(key, cached)))
    elif key not in rt.reviews_asked:
        rt.reviews_asked.add(key)
        record: JsonObject = deal_to_record(deal)
        hints = rt.hinted.get((key[0], key[1]))
        if hints:  # the practice hints this seat was given (only a practice table has any)
            record["hints"] = {str(i): cast(JsonObject, a) for i, a in hints.items()}
        d.emit(AskReview(seat, key[0], key[1], state.rules, record))


def ready(d: Draft, seat: int, match_number: int, deal: int, review: ReviewPayload) -> None:
    key = (match_number, deal, seat)
    rt = d.rt
    if "error" in review:
        # not kept: asking again tries again (the pool was busy, or the search failed)
        rt.reviews_asked.discard(key)
    else:
        _keep(rt, key, review)
    conns = rt.conns_of_seat(seat)
    if conns:
        d.emit(Send(conns, frame(key, review)))


def _keep(rt: Runtime, key: ReviewKey, review: ReviewPayload) -> None:
    rt.reviews_asked.discard(key)
    rt.reviews[key] = review
    while len(rt.reviews) > KEEP:
        del rt.reviews[next(iter(rt.reviews))]  # the oldest


def frame(key: ReviewKey, review: ReviewPayload) -> ReviewFrame:
    return {"type": "review", "match": key[0], "deal": key[1], "seat": key[2],
            "review": review}


def hint_ready(d: Draft, seat: int, game: int, hint: HintPayload) -> None:
    if game != d.state.game:
        return  # the table moved on: the hint answers an old question
    frame: HintFrame = {"type": "hint", "game": game, "seat": seat,
                        "action": hint["action"], "key": hint["key"],
                        "params": hint["params"]}
    d.rt.hint = frame
    match = d.state.match
    if match is not None and match.deal is not None:
        # the action this hint is for: the deal's next (a review reads it by that index)
        key = (d.state.match_number, len(match.deals) - 1)
        for old in [k for k in d.rt.hinted if k[0] != key[0]]:
            del d.rt.hinted[old]  # an earlier match's: no longer reviewable
        d.rt.hinted.setdefault(key, {})[match.deal.action_count] = hint["action"]
    conns = d.rt.conns_of_seat(seat)
    if conns:  # (kept for a connection that comes back: ``_resend_hint``)
        d.emit(Send(conns, frame))
