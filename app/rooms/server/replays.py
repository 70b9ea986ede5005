"""Replaying a finished deal in the browser: the HTTP routes (docs/records.md).

``GET /api/rooms/{code}/replay`` serves a deal of the room's current match (its deal log)
or of an earlier one (its stored record) to the room's players; ``POST /api/replay``
takes a game record file (docs/spec/GAME-RECORD.md) anyone has and serves one of its deals.  Both
answer ``DealReplay``: the table after every action, worked out by the engine
(``app.rules.replay_steps``) once ``replay_record`` (what ``amerikaner replay`` runs)
accepted the whole record, so the browser shows what the command reports.  A deal that is
not over is never shown (its hands are secret while it is played): the live match's
record is cut before it (``live_record.py``), so no line of it is in any answer.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from app.replay_command import parse_record
from app.rooms.core.errors import NO_DATABASE, RoomError, unavailable
from app.rooms.core.wire_enums import LIMITS, ErrorCode
from app.rooms.store import StoreError
from app.rules.record import RecordError, replay_record
from app.rules.replay import record_rules
from app.rules.replay_steps import DealReplay, ReplayDealLine, deal_replay

from .api import ROOM_ERRORS, SEAT_TOKEN_HEADER, errors, seat_token_check
from .connection import MAX_DEPTH, json_depth
from .live_record import finished_deals_record, refuse_deal_in_progress
from .registry import Registry

UPLOAD_PATH = "/api/replay"
UPLOAD_MAX = LIMITS["RECORD_BYTES_MAX"]  # main.py gives this route its own body limit

router = APIRouter()
DEAL = Query(ge=0, le=100_000, description="the deal's index in the match or record "
             "(void deals count; default: the first finished deal that was played)")


@router.get("/api/rooms/{code}/replay", operation_id="get_replay",
            responses=errors(401, 403, *ROOM_ERRORS),
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
        record: dict[str, Any] | None = finished_deals_record(state.match, names)
    else:
        record = None
        if state.recorded_match > 0:
            try:
                record = await room.store.load_record(room.code, match)
            except StoreError:
                raise unavailable(NO_DATABASE) from None
        if record is None:
            raise RoomError("no_record", f"this room has no match number {number} to "
                            "replay", 404)
        number = match if match is not None else state.recorded_match
    return replay_of(record, deal, number)


@router.post(UPLOAD_PATH, operation_id="replay_record",
             responses=errors(400, 403, 404, 413, 422),
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": {
                     "type": "object",
                     "description": "a game record (docs/spec/GAME-RECORD.md)"}}}}})
async def post_replay(request: Request,
                      deal: Annotated[int | None, DEAL] = None) -> DealReplay:
    """Deal ``deal`` of the game record sent as the body, step by step.  The whole
    record must replay (as ``amerikaner replay`` checks it); nothing is kept."""
    raw = await request.body()  # at most UPLOAD_MAX bytes: app.web.bodylimit cuts it off
    return replay_of(read_upload(raw), deal, None)


def read_upload(raw: bytes) -> object:
    """The JSON of an uploaded record: no deeper than any frame (``bad_json``), then read
    as ``amerikaner replay`` reads a file (``bad_record``)."""
    if not raw.strip():
        raise RoomError(ErrorCode.BAD_RECORD, "send a game record file (JSON) as the body")
    text = raw.decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") > MAX_DEPTH and json_depth(text) > MAX_DEPTH:
        raise RoomError(ErrorCode.BAD_JSON, f"the file nests deeper than {MAX_DEPTH} levels: "
                        "it is not a game record")
    try:
        return parse_record(raw)
    except RecordError as exc:
        raise RoomError(ErrorCode.BAD_RECORD, exc.message) from None


def replay_of(record: object, deal: int | None, match: int | None) -> DealReplay:
    """Deal ``deal`` of ``record`` as ``DealReplay``, or the precise refusal: the record
    does not replay (``bad_record``, with where), it has no such deal (``no_deal``), the
    deal is not over (``deal_not_over``)."""
    line = replay_record(record)
    if line["ok"] is not True:
        error = line["error"]
        where = []
        if error["deal"] is not None:
            where.append(f"deal {error['deal'] + 1}")
        if error["action"] is not None:
            where.append(f"action {error['action'] + 1}")
        prefix = f"{', '.join(where)}: " if where else ""
        raise RoomError(ErrorCode.BAD_RECORD, f"this record does not replay: {prefix}"
                        f"{error['message']}")
    assert isinstance(record, dict)  # replay_record accepted it
    lines: list[ReplayDealLine] = line["deals"]
    if not lines:
        raise RoomError(ErrorCode.NO_DEAL, "this record holds no deal yet", 404)
    if deal is None:
        deal = _first_shown(lines)
    if deal >= len(lines):
        raise RoomError(ErrorCode.NO_DEAL, f"there is no deal {deal + 1}: this record holds "
                        f"{len(lines)}", 404)
    if lines[deal]["outcome"] == "incomplete":
        raise RoomError(ErrorCode.DEAL_NOT_OVER, "this deal is still being played: its "
                        "replay is ready when it is over", 403)
    return deal_replay(record, lines, record_rules(record), deal, match)


def _first_shown(lines: list[ReplayDealLine]) -> int:
    """The deal shown when none is asked for: the first that was played out, else the
    first that is over, else the first."""
    over = [i for i, d in enumerate(lines) if d["outcome"] != "incomplete"]
    played = [i for i in over if lines[i]["outcome"] != "void"]
    return (played or over or [0])[0]
