"""Replaying a finished deal in the browser: the HTTP routes (docs/records.md).

``GET /api/rooms/{code}/replay`` serves a deal of the room's current match (its deal log)
or of an earlier one (its stored record) to the room's players; ``POST /api/replay``
takes a game record file (docs/spec/GAME-RECORD.md) anyone has and serves one of its deals.  Both
answer ``DealReplay``: the table after every action, worked out by the engine
(``app.rules.replay_steps``) once ``replay_record`` (what ``amerikaner replay`` runs)
accepted the whole record, so the browser shows what the command reports.  A deal that is
not over is never shown (its hands are secret while it is played): the live match's
record is cut before it (``live_record.py``), so no line of it is in any answer.

That work (``replay_work.py``) runs in the replay pool's processes (``replay_pool.py``),
never on the event loop, which every room's frames and timers share.  Before an upload's
body is read, its client is admitted (``admitted``): at most ``replays_at_once`` replays
open and ``replays_per_minute`` asked per address (``429 rate_limited`` with
``Retry-After``), and a place in the pool's bounded queue (``503 unavailable``), so a
client that holds bodies or floods uploads costs a bounded memory and nobody's tables.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import APIRouter, Query, Request
from pydantic import JsonValue

from app.rooms.core.errors import NO_DATABASE, RoomError, unavailable
from app.rooms.core.wire_enums import LIMITS, ErrorCode
from app.rooms.store import StoreError
from app.rules.replay_steps import DealReplay
from app.web import audit
from app.web.guards import Guards

from .api import ROOM_ERRORS, SEAT_TOKEN_HEADER, errors, seat_token_check
from .live_record import finished_deals_record, refuse_deal_in_progress
from .registry import Registry
from .replay_pool import ReplayBusy, ReplayFailed, ReplayPool
from .replay_work import Outcome, record_replay, upload_replay

UPLOAD_PATH = "/api/replay"
UPLOAD_MAX = LIMITS["RECORD_BYTES_MAX"]  # main.py gives this route its own body limit

router = APIRouter()
DEAL = Query(ge=0, le=100_000, description="the deal's index in the match or record "
             "(void deals count; default: the first finished deal that was played)")


@router.get("/api/rooms/{code}/replay", operation_id="get_replay",
            responses=errors(401, 403, 429, *ROOM_ERRORS),
            openapi_extra=SEAT_TOKEN_HEADER)
async def get_replay(code: str, request: Request,
                     match: Annotated[int | None, Query(ge=1)] = None,
                     deal: Annotated[int | None, DEAL] = None) -> DealReplay:
    """Deal ``deal`` of the room's match ``match`` (default: the match now or last
    played), step by step; for the room's players, once that deal is over."""
    registry: Registry = request.app.state.registry
    room = await registry.require(code)
    seat_token_check(room, request, "a replay")
    state = room.core.state
    number = state.match_number if match is None else match
    if state.match is not None and number == state.match_number:
        # the deal in progress stays out of what goes over HTTP (live_record.py)
        refuse_deal_in_progress(state.match, deal)
        names = [s.player_name for s in state.seats]
        record: dict[str, JsonValue] | str | None = finished_deals_record(state.match, names)
    else:
        record = None
        if state.recorded_match > 0:
            try:  # the stored text: the replay worker decodes it
                record = await room.store.load_record_text(room.code, match)
            except StoreError:
                raise unavailable(NO_DATABASE) from None
        if record is None:
            raise RoomError(ErrorCode.NO_RECORD, f"this room has no match number {number} to "
                            "replay", 404)
        number = match if match is not None else state.recorded_match
    async with admitted(request):
        return await replayed(request, record_replay, record, deal, number)


@router.post(UPLOAD_PATH, operation_id="replay_record",
             responses=errors(400, 403, 404, 413, 422, 429, 503),
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": {
                     "type": "object",
                     "description": "a game record (docs/spec/GAME-RECORD.md)"}}}}})
async def post_replay(request: Request,
                      deal: Annotated[int | None, DEAL] = None) -> DealReplay:
    """Deal ``deal`` of the game record sent as the body, step by step.  The whole
    record must replay (as ``amerikaner replay`` checks it); nothing is kept."""
    async with admitted(request):  # before the body is read: a refusal costs nothing
        raw = await request.body()  # at most UPLOAD_MAX bytes: app.web.bodylimit cuts it off
        return await replayed(request, upload_replay, raw, deal)


@asynccontextmanager
async def admitted(request: Request) -> AsyncIterator[None]:
    """A replay's admission, held until it is answered: ``429 rate_limited`` (with
    ``Retry-After``) when its address has ``replays_at_once`` replays open or asked
    ``replays_per_minute`` in the last minute, ``503 unavailable`` when the pool's queue
    is full."""
    guards: Guards = request.app.state.guards
    pool: ReplayPool = request.app.state.replay_pool
    address = guards.address(request.scope)
    key = guards.key(address)
    if not guards.replays_open.acquire(key):
        limit = guards.replays_open.limit
        audit.refused("rate_limit", what="replays_open", address=address, limit=limit)
        raise RoomError(ErrorCode.RATE_LIMITED, f"at most {limit} replays at once from one "
                        "address: wait for the others' answers", 429, retry_after=1)
    try:
        wait = guards.replays.hit(key)
        if wait:
            limit = guards.replays.limit
            audit.refused("rate_limit", what="replay", address=address, limit=limit,
                          window=int(guards.replays.window))
            raise RoomError(ErrorCode.RATE_LIMITED, f"at most {limit} replays a minute from "
                            "one address: try again shortly", 429,
                            retry_after=math.ceil(wait))
        try:
            with pool.slot():
                yield
        except ReplayBusy:
            raise RoomError(ErrorCode.UNAVAILABLE, "the server is making as many replays as "
                            "it can at once: try again in a moment", 503,
                            retry_after=1) from None
    finally:
        guards.replays_open.release(key)


async def replayed(request: Request, work: Callable[..., Outcome], *args: object) -> DealReplay:
    """``work(*args)`` (``replay_work``'s) made in the replay pool, or its refusal."""
    pool: ReplayPool = request.app.state.replay_pool
    try:
        outcome: Outcome = await pool.run(work, *args)
    except ReplayFailed:
        raise RoomError(ErrorCode.UNAVAILABLE, "the replay could not be made (its worker "
                        "stopped): try again in a moment", 503) from None
    if outcome[0] == "error":
        _, code, message, status, params = outcome
        raise RoomError(code, message, status, params=params)
    return outcome[1]
