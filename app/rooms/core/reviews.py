"""Deal reviews: after a deal, a person may ask for a review of their own decisions in
it (the strong bot's choice at each and what it was worth, and the deal's double-dummy
result; app/bots/review.py).  It is computed off the event loop, only on request, and
kept with the room so that asking again, or from another tab, costs nothing.

Any finished deal of this match may be reviewed at any time of it, and any of an earlier
match of the room (``view.room.history``, each with its ``reviewable`` deals): the room
no longer holds that match, so the adapter reads the deal from its stored record
(``AskEarlierReview``).  The double dummy is the same for every seat's review of a deal:
the first review that finds it leaves it with the room, and the next reviews of that deal
are handed it rather than solving it again.
"""

from __future__ import annotations

from typing import cast

from app.double_dummy import DoubleDummy
from app.rules.record import deal_to_record

from .effects import AskEarlierReview, AskReview, HintPayload, Send
from .errors import RoomError
from .frames import HintFrame, JsonObject, MatchSummary, ReviewFrame, ReviewPayload
from .state import DealKey, Draft, ReviewKey, RoomState, Runtime
from .views import reviewable
from .wire_enums import ErrorCode

KEEP = 32  # reviews kept per room (a review is a few kilobytes)
KEEP_DOUBLE_DUMMIES = 64  # deals' double dummies kept per room (a few bytes each)
HINTED_MATCHES = 3  # practice: the matches whose hints a review reads (this one included)


def ask(d: Draft, seat: int | None, index: int | None = None,
        match_number: int | None = None) -> None:
    """Review ``seat``'s decisions in deal ``index`` (``None``: the last) of match
    ``match_number`` (``None``: this one), sent when ready; at any time, so that a
    review asked late is never lost."""
    if seat is None:
        raise RoomError(ErrorCode.NOT_SEATED, "a review is of your own decisions: take a seat")
    state = d.state
    match = state.match
    if match is not None and match_number in (None, state.match_number):
        _ask_this_match(d, seat, index)
        return
    if match_number is None:
        raise RoomError(ErrorCode.WRONG_PHASE, "a review is for a finished deal of a match")
    summary = next((h for h in state.history if h["number"] == match_number), None)
    if summary is None:
        raise RoomError(ErrorCode.NO_RECORD,
                        f"this room has no finished match number {match_number} to review")
    deals = summary.get("reviewable", [])
    index = deals[-1] if index is None and deals else index
    if index is None or index not in deals:
        raise RoomError(ErrorCode.NO_DEAL, _no_deal(summary, index))
    if seat >= len(summary["players"]):
        raise RoomError(ErrorCode.NOT_SEATED, f"you had no seat in match {match_number}")
    _require_holder(state, match_number, seat)
    key = (match_number, index, seat)
    if _sent_or_asked(d, key):
        return
    hints = d.rt.hinted.get((match_number, index), {})
    d.emit(AskEarlierReview(seat, match_number, index,
                            {str(i): a for i, a in hints.items()},
                            d.rt.double_dummies.get((match_number, index))))


def _require_holder(state: RoomState, match_number: int, seat: int) -> None:
    """``not_your_match`` unless whoever asks holds ``seat`` as its person did when
    match ``match_number`` ended.

    A review shows the seat's hand and every decision in the deal: the seat's, not the
    room's.  Whoever held the seat as the match ended played it to its end (and from
    their first deal in it on, as the score sheet's ``from_deal`` says; the deals a bot
    played before them are reviewable as they are in the match now); someone who took
    the seat after the end, or a bot's seat, never did.  A person who left before the
    end is no longer in the room to ask.  The room knows each holder by their seat
    token's hash (``RoomState.holders``, noted as the match's summary is logged), the
    one thing that tells one person from the next in the same seat."""
    holders = state.holders.get(match_number)
    if holders is None:
        raise RoomError(ErrorCode.NOT_YOUR_MATCH, f"match {match_number} was played before "
                        "the room kept who held its seats: its reviews are closed")
    holder = holders[seat] if seat < len(holders) else None
    if holder is None or holder != state.seats[seat].token_hash:
        raise RoomError(ErrorCode.NOT_YOUR_MATCH, f"you did not play this seat in match "
                        f"{match_number}: a review is of your own decisions")


def held_by_its_holder(state: RoomState, match_number: int, seat: int) -> bool:
    """Whether ``seat`` is held now by whoever held it as match ``match_number`` ended
    (always for the match now: its reviews are the seat's now)."""
    if match_number == state.match_number and state.match is not None:
        return True
    holders = state.holders.get(match_number)
    return (holders is not None and seat < len(holders) and holders[seat] is not None
            and holders[seat] == state.seats[seat].token_hash)


def _no_deal(summary: MatchSummary, index: int | None) -> str:
    n = summary["number"]
    if "reviewable" not in summary:
        return f"match {n} was played before earlier matches could be reviewed"
    if index is None:
        return f"match {n} has no played deal to review"
    return f"match {n} has no played deal {index + 1} to review"


def _ask_this_match(d: Draft, seat: int, index: int | None) -> None:
    state, rt = d.state, d.rt
    match = state.match
    assert match is not None
    last = len(match.deals) - 1
    index = last if index is None else index
    if index not in reviewable(match):
        if 0 <= index <= last and not match.deals[index].over:
            raise RoomError(ErrorCode.WRONG_PHASE, "a review is for a finished deal: this one is "
                            "being played")
        raise RoomError(ErrorCode.NO_DEAL, f"this match has no played deal {index + 1} to review")
    if index == last and state.seats[seat].takeover:
        raise RoomError(ErrorCode.NOT_YOUR_TURN, "you did not play this deal")
    key = (state.match_number, index, seat)
    if _sent_or_asked(d, key):
        return
    record: JsonObject = deal_to_record(match.deals[index])
    hints = rt.hinted.get((key[0], key[1]))
    if hints:  # the practice hints this seat was given (only a practice table has any)
        record["hints"] = {str(i): cast(JsonObject, a) for i, a in hints.items()}
    d.emit(AskReview(seat, key[0], key[1], state.rules, record,
                     rt.double_dummies.get((key[0], key[1]))))


def _sent_or_asked(d: Draft, key: ReviewKey) -> bool:
    """Send the review kept for ``key``, or note it asked; whether it needs no work."""
    rt = d.rt
    cached = rt.reviews.get(key)
    if cached is not None:
        d.emit(Send(rt.conns_of_seat(key[2]), frame(key, cached)))
        return True
    if key in rt.reviews_asked:
        return True  # on its way
    rt.reviews_asked.add(key)
    return False


def ready(d: Draft, seat: int, match_number: int, deal: int, review: ReviewPayload) -> None:
    key = (match_number, deal, seat)
    rt = d.rt
    if "error" in review:
        # not kept: asking again tries again (the pool was busy, or the search failed)
        rt.reviews_asked.discard(key)
    else:
        _keep(rt, key, review)
        tricks, first = review["double_dummy"], review["double_dummy_from_trick"]
        if tricks is not None and first is not None:
            _keep_double_dummy(rt, (match_number, deal), DoubleDummy(tricks, first))
    conns = rt.conns_of_seat(seat)
    if conns and held_by_its_holder(d.state, match_number, seat):
        # (an earlier match's review asked by its holder, who left before it came: kept
        # for them, not sent to whoever has the seat now)
        d.emit(Send(conns, frame(key, review)))


def _keep_double_dummy(rt: Runtime, key: DealKey, found: DoubleDummy) -> None:
    old = rt.double_dummies.get(key)
    if old is not None and old.from_trick <= found.from_trick:
        return  # the one kept is as good (from the first lead, or from an earlier trick)
    rt.double_dummies[key] = found
    while len(rt.double_dummies) > KEEP_DOUBLE_DUMMIES:
        del rt.double_dummies[next(iter(rt.double_dummies))]  # the oldest


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
        for old in [k for k in d.rt.hinted if k[0] <= key[0] - HINTED_MATCHES]:
            del d.rt.hinted[old]  # a match long gone: bounded memory
        d.rt.hinted.setdefault(key, {})[match.deal.action_count] = hint["action"]
    conns = d.rt.conns_of_seat(seat)
    if conns:  # (kept for a connection that comes back: ``_resend_hint``)
        d.emit(Send(conns, frame))
