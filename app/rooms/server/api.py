"""The HTTP API of the rooms: create, join, public info, the record, the rules metadata.

Bodies are read and validated by the Pydantic models of ``messages.py``; every error is
``{"error": {"code", "message"}}`` with a fitting status.
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError

from app.rooms.core.effects import JoinRequest
from app.rooms.core.errors import RoomError
from app.rooms.core.frames import CreatedRoom, HttpErrorBody, JoinedRoom, PublicRoom
from app.rooms.core.messages import CreateRoomBody, JoinBody
from app.rooms.core.views import public_room
from app.rooms.store import StoreError
from app.web import audit
from app.web.guards import Guards

from .registry import Registry
from .rules_info import rules_info

M = TypeVar("M", bound=BaseModel)

router = APIRouter()


def error_response(code: str, message: str, status: int,
                   option: str | None = None) -> JSONResponse:
    body: HttpErrorBody = {"error": {"code": code, "message": message}}
    if option is not None:
        body["error"]["option"] = option
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
        raise RoomError("bad_request", message, 422) from None


@router.post("/api/rooms", status_code=201)
async def create_room(request: Request) -> JSONResponse:
    body = await _body(request, CreateRoomBody)
    refusal = _creation_limit(request)
    if refusal is not None:
        return refusal
    guards: Guards = request.app.state.guards
    creator = guards.key(guards.address(request.scope))
    room, token = await _registry(request).create(body.name, body.rules, body.practice,
                                                  creator, body.bot_level, body.bot_pace)
    created: CreatedRoom = {"room": room.code, "seat": 0, "token": token,
                            "url": f"/r/{room.code}"}
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
    response = error_response("rate_limited", f"at most {limit.limit} new rooms a minute "
                              "from one address: try again shortly", 429)
    response.headers["Retry-After"] = str(math.ceil(wait))
    return response


@router.post("/api/rooms/{code}/join")
async def join_room(code: str, request: Request) -> JoinedRoom:
    room = await _registry(request).require(code)
    body = await _body(request, JoinBody)
    step = await room.submit(JoinRequest(body.name, body.seat))
    assert step.reply is not None
    return step.reply


@router.get("/api/rooms/{code}")
async def get_room(code: str, request: Request) -> PublicRoom:
    return public_room((await _registry(request).require(code)).core)


@router.get("/api/rooms/{code}/record")
async def get_record(code: str, request: Request) -> dict[str, Any]:
    room = await _registry(request).require(code)
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or room.core.seat_for_token(token) is None:
        raise RoomError("unauthorized", "the record is for the players of this room: "
                        "send your seat token as Authorization: Bearer", 401)
    record = None
    if room.core.state.recorded_match > 0:
        try:
            record = await room.store.load_record(room.code)
        except StoreError:
            raise RoomError("unavailable", "the database does not answer; try again", 503) \
                from None
    if record is None:
        raise RoomError("match_not_over", "the record is ready when the match is over", 403)
    return record


@router.get("/api/rules")
async def get_rules() -> dict[str, Any]:
    return rules_info()


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    registry = _registry(request)
    if not await registry.store.ping():
        return error_response("unavailable", "the database does not answer", 503)
    return JSONResponse({"status": "ok", "rooms": len(registry.rooms),
                         "accepting_rooms": registry.accepting})
