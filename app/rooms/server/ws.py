"""The WebSocket endpoint ``/ws/{code}``: handshake checks and ``hello``; then the bound
connection hands its messages to the room (app/rooms/server/connection.py).

Thin by design: refusals (``RoomError``) become an error frame to the sender only, and
nothing changed.  A room that another server
process serves is refused before the upgrade, with HTTP 503 and ``Retry-After``, so that
a proxy passes the handshake to the next process (or the client comes back).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.rooms.core.effects import Connect, Disconnect
from app.rooms.core.errors import RoomError
from app.rooms.core.frames import error_frame
from app.rooms.core.messages import Hello
from app.rooms.core.wire_enums import CloseCode, ErrorCode
from app.settings import Settings
from app.web import audit, metrics
from app.web.guards import Guards

from .connection import Connection, DirectSend, parse_client_message
from .registry import Registry, RoomElsewhere
from .runner import RoomRunner

log = logging.getLogger("amerikaner.rooms")

# What a refused hello's error code closes the socket with.
HELLO_CLOSE: dict[str, CloseCode] = {
    ErrorCode.BAD_TOKEN: CloseCode.BAD_TOKEN,
    ErrorCode.PRIVATE_ROOM: CloseCode.PRIVATE,
    ErrorCode.ROOM_NOT_FOUND: CloseCode.NO_ROOM,
    ErrorCode.UNAVAILABLE: CloseCode.TRY_AGAIN,
    ErrorCode.ROOM_DAMAGED: CloseCode.TRY_AGAIN,
    ErrorCode.TOO_MANY_CONNECTIONS: CloseCode.CROWDED,
}
RETRY_AFTER = "1"  # seconds, on a 503


def origin_allowed(ws: WebSocket, extra: tuple[str, ...]) -> bool:
    """Same host and port as the request, or a configured origin; none: not a browser."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if origin in extra:
        return True
    host = ws.headers.get("host", "")
    return bool(host) and urlsplit(origin).netloc.lower() == host.lower()


async def websocket_endpoint(ws: WebSocket, code: str, registry: Registry,
                             settings: Settings, guards: Guards,
                             direct: DirectSend | None = None) -> None:
    """One room's WebSocket from handshake to close; ``direct``, where the server offers
    it (app/runtime/websocket.py), writes frames straight to the socket."""
    address = guards.address(ws.scope)
    if not origin_allowed(ws, settings.origins):
        audit.refused("origin", address=address, origin=ws.headers.get("origin"))
        await ws.close(code=CloseCode.POLICY)  # before accept: the handshake is refused with 403
        return
    if await _served_elsewhere(ws, code, registry):
        return
    key = guards.key(address)
    if not guards.ws_per_address.acquire(key):
        audit.refused("websocket", address=address, limit=settings.ws_per_address)
        await ws.close(code=CloseCode.TRY_AGAIN)  # before accept: refused with 403; try again later
        return
    seat_key: tuple[str, int] | None = None
    runner: RoomRunner | None = None
    conn: Connection | None = None
    accepted = False
    try:
        await ws.accept()
        accepted = True
        metrics.WEBSOCKETS.inc()
        conn = Connection(ws, settings, key, address, direct)
        runner, seat_key = await _hello(code, registry, conn, settings, guards, address)
        if runner is not None:
            await conn.serve(runner)
    except WebSocketDisconnect:
        pass
    finally:
        if accepted:
            metrics.WEBSOCKETS.dec()
        guards.ws_per_address.release(key)
        if seat_key is not None:
            guards.ws_per_seat.release(seat_key)
        if conn is not None:
            if conn.drop_code is not None:  # we close it: let the last frames and the close out
                await conn.flushed()
            # leave the room first: stopping the writer may take a while on a closing socket
            conn.closed = True
            if runner is not None:
                runner.detach(conn)
                with contextlib.suppress(RoomError):
                    await runner.submit(Disconnect(conn.id))
            await conn.stop()


async def _served_elsewhere(ws: WebSocket, code: str, registry: Registry) -> bool:
    """Whether another process serves the room: then the handshake was refused with 503
    (or, on a server without WebSocket denial responses, closed with 1013).  Other
    refusals are left to the hello, as the protocol says."""
    try:
        await registry.get(code)
    except RoomElsewhere as exc:
        if "websocket.http.response" in ws.scope.get("extensions", {}):
            await ws.send_denial_response(JSONResponse(
                {"error": {"code": exc.code, "message": exc.message}}, status_code=503,
                headers={"Retry-After": RETRY_AFTER}))
        else:
            await ws.accept()
            await ws.close(code=CloseCode.TRY_AGAIN)
        return True
    except RoomError:
        pass
    return False


async def _refuse(conn: Connection, exc: RoomError, close: int) -> None:
    metrics.refused(exc.code, "ws")
    conn.send(error_frame(exc.code, exc.message, exc.option, exc.reason, exc.params))
    await conn.finish(close)


async def _hello(code: str, registry: Registry, conn: Connection, settings: Settings,
                 guards: Guards, address: str) -> tuple[RoomRunner | None, tuple[str, int] | None]:
    """Wait for ``hello`` and bind the connection: the room it joined (``None``: refused)
    and the seat it counts against.  An unknown room is refused at once, before the hello
    (docs/protocol.md)."""
    try:
        runner = await registry.require(code)
    except RoomError as exc:
        await _refuse(conn, exc, HELLO_CLOSE.get(exc.code, CloseCode.NO_HELLO))
        return None, None
    try:  # not wait_for: a client gone before its hello would leave a cycle
        async with asyncio.timeout(settings.hello_timeout):
            raw = await conn.receive()
    except TimeoutError:
        await _refuse(conn, RoomError(ErrorCode.HELLO_REQUIRED, "say hello first"),
                      CloseCode.NO_HELLO)
        return None, None
    seat_key: tuple[str, int] | None = None
    try:
        msg = parse_client_message(raw, settings.max_message_bytes)
        if not isinstance(msg, Hello):
            raise RoomError(ErrorCode.HELLO_REQUIRED, "the first message must be a hello")
        if runner.closed:  # it broke off while we waited: the registry loads it afresh
            runner = await registry.require(code)
        seat = runner.core.seat_for_token(msg.token) if msg.token is not None else None
        if seat is not None:
            seat_key = (runner.code, seat.index)
            if not guards.ws_per_seat.acquire(seat_key):
                seat_key = None
                audit.refused("websocket_seat", address=address, room=runner.code,
                              limit=settings.ws_per_seat)
                raise RoomError(ErrorCode.TOO_MANY_CONNECTIONS, "this seat has too many open "
                                "connections: close a tab", 429)
        runner.attach(conn)
        try:
            await runner.submit(Connect(conn.id, msg))
        except RoomError:
            runner.detach(conn)
            raise
    except RoomError as exc:
        if seat_key is not None:
            guards.ws_per_seat.release(seat_key)
        await _refuse(conn, exc, HELLO_CLOSE.get(exc.code, CloseCode.NO_HELLO))
        return None, None
    return runner, seat_key
