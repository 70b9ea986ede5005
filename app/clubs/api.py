"""The HTTP routes of players and clubs (docs/spec/PROTOCOL.md, "Players and clubs").

A player is known by ``Authorization: Bearer K``; the key is read from the header only
(never a URL) and compared by its hash.  Refusals are ``RoomError`` with the clubs' codes
(errors.py).  A club's page is for its members: anyone else, whether the club exists or
not, hears ``404 club_not_found``.  The standings are computed in a thread (the replay
of new matches' records and the ratings' fold: standings.py, match_stats.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from app.rooms.core.errors import RoomError
from app.rooms.core.lobby import checked_name, checked_rules
from app.rooms.core.wire_enums import ErrorCode
from app.rooms.server.api import _body, error_response, errors, json_body
from app.settings import Settings
from app.web import audit, metrics
from app.web.guards import Guards
from app.web.limits import WindowLimit

from . import club_ops, players
from .auth import me, store_of
from .errors import (
    bad_device_code,
    bad_invite,
    club_not_found,
    no_season,
    not_club_host,
)
from .keys import DEVICE_CODE_SECONDS
from .match_stats import SeatStats, stats_of_record
from .page_reads import read_page
from .standings import RatingsMemo, club_tables
from .wire import (
    ClaimBody,
    ClubBody,
    ClubChangeBody,
    ClubCreated,
    ClubPage,
    DeviceCode,
    InviteRenewed,
    JoinClubBody,
    PlayerBody,
    PlayerExport,
    PlayerInfo,
    PlayerKey,
    SeasonOpened,
)

router = APIRouter()
log = logging.getLogger("amerikaner.clubs")
KEY_HEADER = {"parameters": [{
    "name": "Authorization", "in": "header", "required": False,
    "description": "Bearer K, K the player's key", "schema": {"type": "string"}}]}


@dataclass(frozen=True)
class ClubLimits:
    """Per address: players made, clubs made, device codes made and claimed a minute."""

    players: WindowLimit
    clubs: WindowLimit
    device_codes: WindowLimit

    @classmethod
    def from_settings(cls, s: Settings) -> ClubLimits:
        return cls(WindowLimit(s.players_per_minute, 60.0),
                   WindowLimit(s.clubs_per_minute, 60.0),
                   WindowLimit(s.device_codes_per_minute, 60.0))


def _limited(request: Request, limit: WindowLimit, what: str) -> JSONResponse | None:
    guards: Guards = request.app.state.guards
    address = guards.address(request.scope)
    wait = limit.hit(("clubs", what, guards.key(address)))
    if not wait:
        return None
    audit.refused("rate_limit", what=what, address=address, limit=limit.limit,
                  window=int(limit.window))
    response = error_response(ErrorCode.RATE_LIMITED, f"at most {limit.limit} of these a minute "
                              "from one address: try again shortly", 429)
    response.headers["Retry-After"] = str(math.ceil(wait))
    return response


def _limits(request: Request) -> ClubLimits:
    limits: ClubLimits | None = getattr(request.app.state, "club_limits", None)
    if limits is None:
        limits = request.app.state.club_limits = ClubLimits.from_settings(
            request.app.state.settings)
    return limits


# -- players ---------------------------------------------------------------------------


@router.post("/api/players", status_code=201, operation_id="create_player",
             openapi_extra=json_body(PlayerBody, {"name": "Ann"}),
             responses={201: {"model": PlayerKey}, **errors(400, 413, 422, 429, 503)})
async def create_player(request: Request) -> Response:
    body = await _body(request, PlayerBody)
    name = checked_name(body.name)
    refusal = _limited(request, _limits(request).players, "create_player")
    if refusal is not None:
        return refusal
    async with store_of(request).club_tx() as tx:
        player, key = await players.create(tx, name, time.time())
    metrics.PLAYERS_MADE.inc()
    answer: PlayerKey = {"player": player, "key": key, "name": name}
    return JSONResponse(answer, status_code=201, headers={"Cache-Control": "no-store"})


@router.get("/api/players/me", operation_id="get_me", openapi_extra=KEY_HEADER,
            responses=errors(401, 503))
async def get_me(request: Request) -> PlayerInfo:
    player, name = await me(request)
    async with store_of(request).club_tx() as tx:
        clubs = await players.clubs_of(tx, player)
        tables = await players.tables_of(tx, player)
    return {"player": player, "name": name, "clubs": clubs, "tables": tables}


@router.patch("/api/players/me", operation_id="rename_me",
              openapi_extra={**KEY_HEADER, **json_body(PlayerBody, {"name": "Ann B"})},
              responses=errors(400, 401, 413, 422, 503))
async def rename_me(request: Request) -> PlayerInfo:
    player, _ = await me(request)
    name = checked_name((await _body(request, PlayerBody)).name)
    async with store_of(request).club_tx() as tx:
        await players.rename(tx, player, name)
        clubs = await players.clubs_of(tx, player)
    return {"player": player, "name": name, "clubs": clubs}


@router.post("/api/players/me/device-code", operation_id="make_device_code",
             openapi_extra=KEY_HEADER, responses=errors(401, 429, 503))
async def make_device_code(request: Request) -> Response:
    player, _ = await me(request)
    refusal = _limited(request, _limits(request).device_codes, "device_code")
    if refusal is not None:
        return refusal
    async with store_of(request).club_tx() as tx:
        code = await players.device_code(tx, player, time.time())
    metrics.DEVICE_CODES.labels("made").inc()
    answer: DeviceCode = {"code": code, "expires_in": int(DEVICE_CODE_SECONDS)}
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


@router.post("/api/players/claim", operation_id="claim_device_code",
             openapi_extra=json_body(ClaimBody, {"code": "ABCD2345"}),
             responses={200: {"model": PlayerKey}, **errors(403, 413, 422, 429, 503)})
async def claim_device_code(request: Request) -> Response:
    body = await _body(request, ClaimBody)
    refusal = _limited(request, _limits(request).device_codes, "claim_device_code")
    if refusal is not None:
        return refusal
    async with store_of(request).club_tx() as tx:
        claimed = await players.claim(tx, body.code, time.time())
    if claimed is None:
        metrics.DEVICE_CODES.labels("refused").inc()
        raise bad_device_code()
    metrics.DEVICE_CODES.labels("claimed").inc()
    player, key, name = claimed
    answer: PlayerKey = {"player": player, "key": key, "name": name}
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


@router.get("/api/players/me/export", operation_id="export_me", openapi_extra=KEY_HEADER,
            responses=errors(401, 503))
async def export_me(request: Request) -> PlayerExport:
    player, _ = await me(request)
    # every club match of the player, read and decoded off the loop (as a club's page)
    return await store_of(request).club_read(lambda tx: players.export(tx, player))


@router.delete("/api/players/me", status_code=204, operation_id="delete_me",
               openapi_extra=KEY_HEADER, responses=errors(401, 503))
async def delete_me(request: Request) -> Response:
    player, _ = await me(request)
    async with store_of(request).club_tx() as tx:
        await players.delete(tx, player)
    log.info("player %s deleted themselves", player)  # the operator's trace: an id only
    return Response(status_code=204)


# -- clubs -----------------------------------------------------------------------------


@router.post("/api/clubs", status_code=201, operation_id="create_club",
             openapi_extra={**KEY_HEADER, **json_body(ClubBody, {"name": "Thursdays"})},
             responses={201: {"model": ClubCreated}, **errors(400, 401, 413, 422, 429, 503)})
async def create_club(request: Request) -> Response:
    player, _ = await me(request)
    name = checked_name((await _body(request, ClubBody)).name)
    refusal = _limited(request, _limits(request).clubs, "create_club")
    if refusal is not None:
        return refusal
    async with store_of(request).club_tx() as tx:
        club, invite = await club_ops.create(tx, player, name, time.time())
    metrics.CLUBS_MADE.inc()
    answer: ClubCreated = {"club": club, "invite": invite, "url": f"/c/{club}"}
    return JSONResponse(answer, status_code=201)


@router.post("/api/clubs/{club}/join", operation_id="join_club",
             openapi_extra={**KEY_HEADER, **json_body(JoinClubBody, {"invite": "..."})},
             responses=errors(401, 403, 413, 422, 503))
async def join_club(club: str, request: Request) -> PlayerInfo:
    player, name = await me(request)
    body = await _body(request, JoinClubBody)
    async with store_of(request).club_tx() as tx:
        if await club_ops.join(tx, club, player, body.invite, time.time()) is None:
            raise bad_invite()
        clubs = await players.clubs_of(tx, player)
    return {"player": player, "name": name, "clubs": clubs}


@router.post("/api/clubs/{club}/leave", status_code=204, operation_id="leave_club",
             openapi_extra=KEY_HEADER, responses=errors(401, 404, 422, 503))
async def leave_club(club: str, request: Request) -> Response:
    """Leave the club (a host's club passes to its longest-standing member); the club's
    matches stay, and its page is no longer yours to read."""
    player, _ = await me(request)
    async with store_of(request).club_tx() as tx:
        if await club_ops.member_club(tx, club, player) is None:
            raise club_not_found()
        await club_ops.leave(tx, club, player, time.time())
    return Response(status_code=204)


async def _host(request: Request, club: str) -> None:
    player, _ = await me(request)
    async with store_of(request).club_tx() as tx:
        found = await club_ops.member_club(tx, club, player)
    if found is None:
        raise club_not_found()
    if found[1] != player:
        raise not_club_host()


@router.patch("/api/clubs/{club}", operation_id="change_club",
              openapi_extra={**KEY_HEADER, **json_body(ClubChangeBody, {
                  "rules": {"preset": "guide", "target": 30}})},
              responses=errors(400, 401, 403, 404, 413, 422, 503))
async def change_club(club: str, request: Request) -> Response:
    """The host renames the club or sets the rules of its new tables (``POST /api/rooms``
    with ``club`` and no ``rules`` takes them)."""
    await _host(request, club)
    body = await _body(request, ClubChangeBody)
    name = None if body.name is None else checked_name(body.name)
    if body.rules is not None:
        checked_rules(body.rules)  # bad_rules (400) names the option
    async with store_of(request).club_tx() as tx:
        await club_ops.change(tx, club, name, body.rules, time.time())
    return Response(status_code=204)


@router.post("/api/clubs/{club}/invite", operation_id="renew_invite",
             openapi_extra=KEY_HEADER, responses=errors(401, 403, 404, 422, 503))
async def renew_invite(club: str, request: Request) -> InviteRenewed:
    await _host(request, club)
    async with store_of(request).club_tx() as tx:
        return {"invite": await club_ops.renew_invite(tx, club, time.time())}


@router.post("/api/clubs/{club}/season", operation_id="next_season",
             openapi_extra=KEY_HEADER, responses=errors(401, 403, 404, 422, 503))
async def next_season(club: str, request: Request) -> SeasonOpened:
    await _host(request, club)
    async with store_of(request).club_tx() as tx:
        return {"season": await club_ops.next_season(tx, club, time.time())}


@router.get("/api/clubs/{club}/record", operation_id="get_club_record",
            response_model=dict[str, Any], openapi_extra=KEY_HEADER,
            responses=errors(401, 404, 422, 503))
async def get_club_record(club: str, request: Request,
                          room: Annotated[str, Query(max_length=40)],
                          match: Annotated[int, Query(ge=1)]) -> Response:
    """The game record (docs/spec/GAME-RECORD.md) of one of the club's finished matches,
    for its members, as the club keeps it (it outlives the room)."""
    player, _ = await me(request)
    async with store_of(request).club_tx() as tx:
        if await club_ops.member_club(tx, club, player) is None:
            raise club_not_found()
        record = await club_ops.record_text(tx, club, room, match)
    if record is None:
        raise RoomError(ErrorCode.NO_RECORD, f"the club has no finished match {match} of room "
                        f"{room}", 404)
    return Response(record, media_type="application/json")


@router.get("/api/clubs/{club}", operation_id="get_club", openapi_extra=KEY_HEADER,
            responses=errors(401, 404, 422, 503))
async def get_club(club: str, request: Request,
                   season: Annotated[int | None, Query(ge=1)] = None) -> ClubPage:
    player, _ = await me(request)
    store = store_of(request)
    async with store.club_tx() as tx:
        found = await club_ops.member_club(tx, club, player)
        if found is None:
            raise club_not_found()
        name, host, invite, current = found
        shown = current if season is None else season
        if shown > current:
            raise no_season(shown)
        pending = await club_ops.records_without_stats(tx, club)
        club_rules = await club_ops.rules_of(tx, club)
    if pending:  # new matches: their contracts, from their records, once (off the loop)
        derived = await asyncio.to_thread(_derive, pending)
        async with store.club_tx() as tx:
            await club_ops.keep_stats(tx, derived)
    page = await read_page(store, club, shown, host)
    rows, members, seasons, names = page.matches, page.members, page.seasons, page.names
    memo: RatingsMemo = _memo(request)
    table, levels, changes = await asyncio.to_thread(club_tables, rows, names, memo,
                                                     (club, shown))
    ordered = sorted(rows, key=lambda m: m.key, reverse=True)
    return {"club": club, "name": name, "url": f"/c/{club}", "invite": invite,
            "rules": club_rules,
            "you_are_host": host == player, "season": shown, "current_season": current,
            "seasons": seasons, "members": members, "standings": table,
            "bot_levels": levels,
            "matches": [club_ops.club_match(m, names, changes) for m in ordered]}


def _derive(pending: list[tuple[str, int, str, str]]
            ) -> list[tuple[str, int, list[SeatStats]]]:
    """Each match's contracts by seat, from its record (match_stats.py)."""
    out = []
    for room_id, number, text, summary_text in pending:
        record = json.loads(text)
        summary = json.loads(summary_text)
        seats = len(summary.get("totals", []))
        out.append((room_id, number, stats_of_record(record, seats,
                                                      summary.get("from_deal"))))
    return out


def _memo(request: Request) -> RatingsMemo:
    memo: RatingsMemo | None = getattr(request.app.state, "ratings_memo", None)
    if memo is None:
        memo = request.app.state.ratings_memo = RatingsMemo()
    return memo
