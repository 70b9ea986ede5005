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

from app.web import audit
from app.web.guards import Guards

from .errors import RoomError
from .messages import CreateRoomBody, JoinBody
from .registry import Registry
from .rules_info import rules_info
from .views import public_room

M = TypeVar("M", bound=BaseModel)

router = APIRouter()


def error_response(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


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
    room, token = _registry(request).create(body.name, body.rules, body.practice)
    return JSONResponse({"room": room.code, "seat": 0, "token": token,
                         "url": f"/r/{room.code}"}, status_code=201)


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
async def join_room(code: str, request: Request) -> dict[str, Any]:
    from .lobby import join

    room = _registry(request).require(code)
    body = await _body(request, JoinBody)
    seat, token, takeover = join(room, body.name, body.seat)
    room.commit()
    return {"seat": seat, "token": token, "takeover": takeover}


@router.get("/api/rooms/{code}")
async def get_room(code: str, request: Request) -> dict[str, Any]:
    return public_room(_registry(request).require(code))


@router.get("/api/rooms/{code}/record")
async def get_record(code: str, request: Request) -> dict[str, Any]:
    room = _registry(request).require(code)
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or room.seat_for_token(token) is None:
        raise RoomError("unauthorized", "the record is for the players of this room: "
                        "send your seat token as Authorization: Bearer", 401)
    record = room.store.load_record(room.code) if room.record_available else None
    if record is None:
        raise RoomError("match_not_over", "the record is ready when the match is over", 403)
    return record


@router.get("/api/rules")
async def get_rules() -> dict[str, Any]:
    return rules_info()


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    registry = _registry(request)
    if not registry.store.ping():
        return error_response("unavailable", "the database does not answer", 503)
    return JSONResponse({"status": "ok", "rooms": len(registry.rooms)})
