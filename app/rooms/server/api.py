"""The HTTP API of the rooms: create, join, public info, the record, the rules metadata.

Bodies are read and validated by the Pydantic models of ``messages.py``; every error is
``{"error": {"code", "message"}}`` with a fitting status.  The OpenAPI schema
(``/api/openapi.json``) is FastAPI's, told here what it cannot see: the bodies read by
hand (``openapi_extra``) and every answer, errors included (``responses``).  The
protocol's JSON Schema (``/api/protocol.schema.json``) is the generated file
``app/static/protocol.schema.json``.
"""

from __future__ import annotations

import functools
import math
import sys
from pathlib import Path
from typing import Annotated, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, JsonValue, ValidationError, with_config
from typing_extensions import TypedDict

from app.clubs import auth as club_auth
from app.rooms.core.effects import JoinRequest
from app.rooms.core.errors import NO_DATABASE, RoomError, unavailable
from app.rooms.core.frames import (
    CreatedRoom,
    HttpError,
    HttpErrorBody,
    JoinedRoom,
    PublicRoom,
    wire_text,
)
from app.rooms.core.messages import CreateRoomBody, JoinBody
from app.rooms.core.views import public_room
from app.rooms.core.wire_enums import ErrorCode
from app.rooms.store import StoreError
from app.rules.wire import FORBID
from app.runtime import memory
from app.runtime.allocator import current as current_allocator
from app.web import audit, metrics
from app.web.guards import Guards

from .health import Problems
from .pool_stats import PoolStats
from .registry import Registry
from .rules_info import rules_info
from .runner import RoomRunner

M = TypeVar("M", bound=BaseModel)

router = APIRouter()

# What each error status means on this API (docs/protocol.md, "HTTP errors").
ERROR_STATUSES = {
    400: "bad_rules, bad_name, bad_level, bad_record, bad_json: the request is understood "
         "but does not work",
    401: "unauthorized: no valid seat token; no_player: no valid player key",
    403: "private_room, match_not_over, deal_not_over; bad_invite, not_club_host, "
         "bad_device_code",
    404: "room_not_found, no_record, no_deal, club_not_found, no_season (or not_found: "
         "an unknown path)",
    405: "method_not_allowed",
    409: "seat_taken, bad_seat, no_free_seat",
    413: "too_large: the body is over 16 KiB (a record to replay: over 1 MiB); "
         "too_much_work: a record to replay holds too many deals or actions",
    422: "bad_request: the body is not JSON or not of the right shape",
    429: "rate_limited (with Retry-After): too many rooms or replays asked, or replays "
         "open, from one address; too_many_rooms",
    500: "room_damaged: the room's saved state does not load",
    503: "unavailable (with Retry-After): shutting down, the database fails, too many "
         "rooms, or the replays' queue is full",
}
# any route that names a room; 422: FastAPI's own parameter checks, answered in our shape
ROOM_ERRORS = (404, 422, 500, 503)
# a route that reads a seat's token from the Authorization header itself
SEAT_TOKEN_HEADER: dict[str, JsonValue] = {"parameters": [{
    "name": "Authorization", "in": "header", "required": False,
    "description": "Bearer T, T the token of a seat of this room",
    "schema": {"type": "string"}}]}


def errors(*statuses: int) -> dict[int | str, dict[str, object]]:
    """``responses`` for the OpenAPI schema: these statuses answer ``HttpErrorBody``."""
    return {s: {"model": HttpErrorBody, "description": ERROR_STATUSES[s]} for s in statuses}


def json_error(status: int) -> dict[str, JsonValue]:
    """A ``responses`` entry for a route whose own answers are not JSON (the pages): its
    errors are (``HttpErrorBody``, declared by the API's routes)."""
    schema: JsonValue = {"$ref": "#/components/schemas/HttpErrorBody"}
    return {"description": ERROR_STATUSES[status],
            "content": {"application/json": {"schema": schema}}}


def json_body(model: type[BaseModel], example: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """``openapi_extra`` for a route that reads ``model`` itself (``_body``): the request
    body FastAPI cannot see."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})  # the enums (BotPace): written out where they are used
    media: JsonValue = {"schema": _inline(schema, defs), "example": example}
    return {"requestBody": {"required": True, "content": {"application/json": media}}}


def _inline(schema: JsonValue, defs: dict[str, JsonValue]) -> JsonValue:
    """``schema`` with each ``$ref`` to ``defs`` replaced by what it names (the bodies
    hold no recursive type, so this ends)."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return _inline(defs[ref.rsplit("/", 1)[1]], defs)
        return {k: _inline(v, defs) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_inline(v, defs) for v in schema]
    return schema


# What a client does next with a new seat (OpenAPI links, followed by stateful testing).
ROOM_LINK = {"code": "$response.body#/room"}
CREATED_LINKS = {
    "GetRoom": {"operationId": "get_room", "parameters": ROOM_LINK},
    "JoinRoom": {"operationId": "join_room", "parameters": ROOM_LINK},
    "GetRecord": {"operationId": "get_record", "parameters": {
        **ROOM_LINK, "header.Authorization": "Bearer {$response.body#/token}"}},
}
JOINED_LINKS = {
    "GetRoom": {"operationId": "get_room", "parameters": {"code": "$request.path.code"}},
    "GetRecord": {"operationId": "get_record", "parameters": {
        "code": "$request.path.code", "header.Authorization": "Bearer {$response.body#/token}"}},
}


@with_config(FORBID)
class Health(TypedDict):
    status: str               # "ok" (200), or "failing" (503): ``problems`` says what
    problems: Problems        # each part that fails (store, search): what is wrong
    rooms: int
    accepting_rooms: bool     # False: new rooms are refused (too many in memory)
    # what a leak grows (the process's RSS also keeps an allocator's free space): memory
    # blocks of Python's own allocator (sys.getallocatedblocks(); 0 when the server runs
    # on malloc) and bytes in use in the C library's heap (glibc; null elsewhere)
    allocated_blocks: int
    heap_bytes: int | None
    allocator: str            # "malloc" or "pymalloc" (app/runtime/allocator.py)
    search: PoolStats         # the worker processes of the searching bots (search_pool.py)


def error_response(code: ErrorCode, message: str, status: int, option: str | None = None,
                   params: dict[str, str | int] | None = None) -> JSONResponse:
    metrics.refused(code, "http")
    error: HttpError = {"code": code, "message": wire_text(message)}  # may echo the client
    if option is not None:
        error["option"] = wire_text(option)
    if params:  # (the facts the message states, for a client in another language)
        error["params"] = params
    body: HttpErrorBody = {"error": error}
    return JSONResponse(body, status_code=status)


def _registry(request: Request) -> Registry:
    registry: Registry = request.app.state.registry
    return registry


async def _body(request: Request, model: type[M]) -> M:
    raw = await request.body()  # at most BODY_MAX bytes: app.web.bodylimit cuts it off
    try:
        return model.model_validate_json(raw or b"null")
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "body"
        if err["type"] == "json_invalid":
            message = "the body is not JSON"
        elif err["type"] == "missing":
            message = f"{where} is missing"
        elif err["type"] == "extra_forbidden":
            message = f"{where} is not a field here"
        else:
            message = f"{where}: {err['msg']}"
        raise RoomError(ErrorCode.BAD_REQUEST, message, 422) from None


@router.post("/api/rooms", status_code=201, operation_id="create_room",
             openapi_extra=json_body(CreateRoomBody, {"name": "Ann", "rules": {
                 "preset": "guide", "target": 30}, "bot_level": "heuristic"}),
             responses={201: {"model": CreatedRoom, "links": CREATED_LINKS},
                        **errors(400, 401, 404, 413, 422, 429, 503)})
async def create_room(request: Request) -> JSONResponse:
    body = await _body(request, CreateRoomBody)
    # a key: the seat is the player's; a club's table: the club's rules unless given
    player, club_rules = await club_auth.club_for_room(request, body.club)
    refusal = _creation_limit(request)
    if refusal is not None:
        return refusal
    guards: Guards = request.app.state.guards
    creator = guards.key(guards.address(request.scope))
    registry = _registry(request)
    rules = body.rules if body.rules is not None else club_rules
    code, token = await registry.create(body.name, rules, body.practice,
                                        creator, body.bot_level, body.bot_pace)
    try:
        await club_auth.bind_room(registry.store, code, token, player, body.club)
    except StoreError:
        raise unavailable(NO_DATABASE) from None
    created: CreatedRoom = {"room": code, "seat": 0, "token": token, "url": f"/r/{code}"}
    return JSONResponse(created, status_code=201)


def _creation_limit(request: Request) -> JSONResponse | None:
    """``429 rate_limited`` (with Retry-After) once this client created its rooms of the
    minute, else ``None`` (and the room is counted)."""
    guards: Guards = request.app.state.guards
    limit = guards.room_creation
    address = guards.address(request.scope)
    wait = limit.hit(guards.key(address))
    if not wait:
        return None
    audit.refused("rate_limit", what="create_room", address=address, limit=limit.limit,
                  window=int(limit.window))
    response = error_response(ErrorCode.RATE_LIMITED, f"at most {limit.limit} new rooms a minute "
                              "from one address: try again shortly", 429)
    response.headers["Retry-After"] = str(math.ceil(wait))
    return response


@router.post("/api/rooms/{code}/join", operation_id="join_room",
             openapi_extra=json_body(JoinBody, {"name": "Bo", "seat": 2}),
             responses={200: {"model": JoinedRoom, "links": JOINED_LINKS},
                        **errors(400, 403, 409, 413, *ROOM_ERRORS)})
async def join_room(code: str, request: Request) -> JoinedRoom:
    room = await _registry(request).require(code)
    body = await _body(request, JoinBody)
    step = await room.submit(JoinRequest(body.name, body.seat))
    assert step.reply is not None
    try:
        await club_auth.bind_seat(request, room.code, step.reply["token"])
    except StoreError:
        raise unavailable(NO_DATABASE) from None
    return step.reply


@router.get("/api/rooms/{code}", operation_id="get_room", responses=errors(*ROOM_ERRORS))
async def get_room(code: str, request: Request) -> PublicRoom:
    core = (await _registry(request).require(code)).core
    return public_room(core.state, core.rt)


@router.get("/api/rooms/{code}/record", operation_id="get_record",
            response_model=dict[str, object], responses=errors(401, 403, *ROOM_ERRORS),
            openapi_extra=SEAT_TOKEN_HEADER)
async def get_record(code: str, request: Request,
                     match: Annotated[int | None, Query(ge=1)] = None) -> Response:
    """The game record (docs/spec/GAME-RECORD.md) of the room's last finished match, or of its
    finished match number ``match``; for the room's players.  Served as the store holds
    its text: decoding and encoding it again on the event loop took 0.1 s for the
    longest match (1,000 deals, 1.2 MB)."""
    room = await _registry(request).require(code)
    seat_token_check(room, request, "the record")
    record = None
    if room.core.state.recorded_match > 0:
        try:
            record = await room.store.load_record_text(room.code, match)
        except StoreError:
            raise unavailable(NO_DATABASE) from None
    if record is None and match is not None:
        raise RoomError(ErrorCode.NO_RECORD, f"this room has no finished match number {match}", 404)
    if record is None:
        raise RoomError(ErrorCode.MATCH_NOT_OVER, "the record is ready when the match is over", 403)
    return Response(record, media_type="application/json")


def seat_token_check(room: RoomRunner, request: Request, what: str) -> None:
    """``401 unauthorized`` unless the request carries a seat token of ``room`` as
    ``Authorization: Bearer T`` (``what``: what is refused, for the message)."""
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or room.core.seat_for_token(token) is None:
        raise RoomError(ErrorCode.UNAUTHORIZED, f"{what} is for the players of this room: "
                        "send your seat token as Authorization: Bearer", 401)


@router.get("/api/rules", operation_id="get_rules")
async def get_rules() -> dict[str, object]:
    return rules_info()


PROTOCOL_SCHEMA = Path(__file__).resolve().parents[2] / "static" / "protocol.schema.json"


@functools.cache
def _protocol_schema() -> bytes:
    return PROTOCOL_SCHEMA.read_bytes()


@router.get("/api/protocol.schema.json", operation_id="get_protocol_schema",
            response_class=Response, responses={200: {
                "description": "The JSON Schema of every WebSocket message and frame and "
                               "HTTP body (generated by python -m app.rooms.contract_gen)",
                "content": {"application/json": {"schema": {"type": "object"}}}}})
async def get_protocol_schema() -> Response:
    return Response(_protocol_schema(), media_type="application/json")


@router.get("/healthz", operation_id="healthz",
            responses={200: {"model": Health},
                       503: {"model": Health, "description": "a part of the server fails: "
                             "problems names each (the store cannot write, rooms' saves "
                             "failed lately, the event loop runs late, the search pool "
                             "is short of workers)"}})
async def healthz(request: Request) -> JSONResponse:
    registry = _registry(request)
    problems = await registry.health.problems()
    health: Health = {"status": "failing" if problems else "ok", "problems": problems,
                      "rooms": len(registry.rooms), "accepting_rooms": registry.accepting,
                      "allocated_blocks": sys.getallocatedblocks(),
                      "heap_bytes": memory.heap_bytes(), "allocator": current_allocator(),
                      "search": registry.thinkers.stats()}
    return JSONResponse(health, status_code=503 if problems else 200)
