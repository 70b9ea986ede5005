"""A member's review of their own play in a deal of one of the club's finished matches,
from the club page (``POST /api/clubs/{club}/review?room=R&match=N&deal=D``).

The deal is read from the club's copy of the match's record (``club_matches``), so the
review works once the room is gone (expired, or the server restarted) as well as while
it lives. It is the table's review (app/bots/review.py: the strong bot's choice at each
of your decisions, what it was worth, and the deal's double-dummy result) of the seat
the player held as the match ended, made on the search pool's review lane and bounded
per address as a table's reviews are (``{"error", "busy"}`` when the pool is full). A
deal a bot played before the player took the seat is not theirs to review.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, cast

import orjson
from fastapi import APIRouter, Query, Request

from app.rooms.core.errors import RoomError
from app.rooms.core.frames import JsonObject, MatchSummary, ReviewFrame
from app.rooms.core.wire_enums import ErrorCode
from app.rooms.server import thinking
from app.rooms.server.api import errors
from app.rooms.server.thinking import Thinkers
from app.rooms.store.tx import Tx, fetchone
from app.web.guards import Guards

from . import club_ops
from .api import KEY_HEADER
from .auth import me, store_of
from .errors import club_not_found

router = APIRouter()


@router.post("/api/clubs/{club}/review", operation_id="review_club_deal",
             openapi_extra=KEY_HEADER,
             responses={200: {"model": ReviewFrame}, **errors(401, 403, 404, 422, 503)})
async def review_club_deal(club: str, request: Request,
                           room: Annotated[str, Query(max_length=40)],
                           match: Annotated[int, Query(ge=1)],
                           deal: Annotated[int, Query(ge=0, le=1000)]) -> ReviewFrame:
    """Your decisions in deal ``deal`` (its index in the match's record, the replay's
    deal) of the club's match ``match`` of room ``room``, reviewed by the strong bot."""
    player = (await me(request))[0]
    async with store_of(request).club_tx() as tx:
        if await club_ops.member_club(tx, club, player) is None:
            raise club_not_found()
        row = await _match(tx, club, room, match)
    if row is None:
        raise RoomError(ErrorCode.NO_RECORD, f"the club has no finished match {match} of room "
                        f"{room}", 404)
    players, summary, text = row
    if player not in players:
        raise RoomError(ErrorCode.NOT_SEATED, f"you had no seat in match {match} of room "
                        f"{room}", 403)
    seat = players.index(player)
    reviewable = summary.get("reviewable", [])
    if deal not in reviewable:
        raise RoomError(ErrorCode.NO_DEAL, f"match {match} has no deal {deal + 1} to review "
                        f"(its deals: {', '.join(str(d + 1) for d in reviewable)})", 404)
    from_row = summary.get("from_deal", [])
    if reviewable.index(deal) < (from_row[seat] if seat < len(from_row) else 0):
        raise RoomError(ErrorCode.NOT_SEATED, f"a bot played your seat in deal {deal + 1}: "
                        "it is not yours to review", 403)
    record = await asyncio.to_thread(json.loads, text)  # (a match's record: off the loop)
    dealt = thinking.deal_of_record(cast(JsonObject, record), deal)
    if dealt is None:
        raise RoomError(ErrorCode.NO_RECORD, f"the record of match {match} holds no deal "
                        f"{deal + 1}", 404)
    rules, data = dealt
    guards: Guards = request.app.state.guards
    thinkers: Thinkers = request.app.state.registry.thinkers
    review = await thinkers.review(rules, data, seat, room, guards.address(request.scope))
    return {"type": "review", "match": match, "deal": deal, "seat": seat, "review": review}


async def _match(tx: Tx, club: str, room: str, match: int
                 ) -> tuple[list[str | None], MatchSummary, str] | None:
    """The players by seat, the summary and the record text of the club's match (the
    latest, should the code have served two of the club's rooms: as record_text)."""
    row = await fetchone(tx, "SELECT players, summary, record FROM club_matches WHERE "
                             "club = ? AND room = ? AND match_number = ? "
                             "ORDER BY finished_at DESC LIMIT 1", club, room, match)
    if row is None:
        return None
    players: list[str | None] = orjson.loads(str(row[0]))
    summary: MatchSummary = orjson.loads(str(row[1]))
    return players, summary, str(row[2])
