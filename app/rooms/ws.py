"""The WebSocket endpoint ``/ws/{code}``: handshake checks, ``hello``, then a loop that
parses every message with its Pydantic model and hands it to the room.

Errors go to the sender only and change nothing; a change is committed once (saved,
then every connection gets its own view).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from app.settings import Settings

from . import flow, lobby, sessions
from .connections import Connection
from .errors import RoomError
from .messages import (
    ActionMessage,
    BadMessage,
    ChatIn,
    Hello,
    Leave,
    Ping,
    Ready,
    Rematch,
    RulesMessage,
    SeatBot,
    SettingsMessage,
    Start,
    error_message,
    parse_client_message,
)
from .registry import Registry
from .room import Room

log = logging.getLogger("amerikaner.rooms")

CLOSE_NO_HELLO, CLOSE_BAD_TOKEN, CLOSE_PRIVATE, CLOSE_NO_ROOM, CLOSE_FLOOD = (
    4400, 4401, 4403, 4404, 4429)
FLOOD_STRIKES = 50  # refused messages in a row before the connection is closed


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
                             settings: Settings) -> None:
    if not origin_allowed(ws, settings.origins):
        await ws.close(code=1008)  # before accept: the handshake is refused with 403
        return
    room = registry.get(code)
    await ws.accept()
    if room is None:
        await ws.send_json(error_message("room_not_found", "there is no room with this code"))
        await ws.close(CLOSE_NO_ROOM)
        return
    conn = Connection(ws, settings.send_queue, settings.send_timeout, settings.rate,
                      settings.burst)
    conn.start()
    bound: Room | None = None
    try:
        bound = await _hello(code, registry, conn, settings)
        if bound is not None:
            await _loop(bound, conn, settings)
    except WebSocketDisconnect:
        pass
    finally:
        # leave the room first: stopping the writer may take a while on a closing socket
        conn.closed = True
        if bound is not None and sessions.unbind(bound, conn) and not bound.closed:
            bound.commit()
        await conn.stop()


async def _receive(ws: WebSocket, conn: Connection | None = None) -> str | bytes:
    """The next frame's data; ``WebSocketDisconnect`` when the client goes or the server
    drops the connection (a client too slow to read is not waited for)."""
    if conn is None:
        message = await ws.receive()
    else:
        receiving: asyncio.Future[Any] = asyncio.ensure_future(ws.receive())
        waiting: set[asyncio.Future[Any]] = {receiving, conn.dropped}
        done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if receiving not in done:
            receiving.cancel()
            raise WebSocketDisconnect(conn.dropped.result())
        message = receiving.result()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else message.get("bytes") or b""


async def _hello(code: str, registry: Registry, conn: Connection,
                 settings: Settings) -> Room | None:
    """Wait for ``hello`` and bind the connection: the room it joined, or ``None``."""
    try:
        raw = await asyncio.wait_for(_receive(conn.ws), settings.hello_timeout)
    except TimeoutError:
        conn.send(error_message("hello_required", "say hello first"))
        await conn.finish(CLOSE_NO_HELLO)
        return None
    try:
        msg = parse_client_message(raw, settings.max_message_bytes)
    except BadMessage as exc:
        conn.send(error_message(exc.code, exc.message))
        await conn.finish(CLOSE_NO_HELLO)
        return None
    if not isinstance(msg, Hello):
        conn.send(error_message("hello_required", "the first message must be a hello"))
        await conn.finish(CLOSE_NO_HELLO)
        return None
    room = registry.get(code)  # again: the room may have left memory meanwhile
    if room is None:
        conn.send(error_message("room_not_found", "there is no room with this code"))
        await conn.finish(CLOSE_NO_ROOM)
        return None
    try:
        sessions.bind(room, conn, msg)
    except RoomError as exc:
        conn.send(error_message(exc.code, exc.message))
        close = {"bad_token": CLOSE_BAD_TOKEN, "private_room": CLOSE_PRIVATE}
        await conn.finish(close.get(exc.code, CLOSE_NO_HELLO))
        return None
    conn.send({"type": "welcome", "room": room.code, "seat": conn.seat,
               "version": room.version + 1})
    room.commit()  # the seat shows connected (or one more spectator); everyone hears it
    return room


async def _loop(room: Room, conn: Connection, settings: Settings) -> None:
    while not conn.closed:
        raw = await _receive(conn.ws, conn)
        if not conn.limiter.allow():
            if conn.limiter.strikes >= FLOOD_STRIKES:
                await conn.finish(CLOSE_FLOOD)
                return
            if conn.limiter.strikes == 1:
                conn.send(error_message("rate_limited", "slow down: too many messages"))
            continue
        if room.closed:
            conn.close(1001)
            return
        try:
            msg = parse_client_message(raw, settings.max_message_bytes)
            handle(room, conn, msg)
        except RoomError as exc:  # BadMessage included
            conn.send(error_message(exc.code, exc.message))


def handle(room: Room, conn: Connection, msg: Any) -> None:
    """One parsed message: apply it and commit, or raise ``RoomError``."""
    seat = conn.seat
    if isinstance(msg, Ping):
        conn.send({"type": "pong"})
        return
    if isinstance(msg, Hello):
        raise RoomError("already_hello", "this connection has said hello already")
    if isinstance(msg, ActionMessage):
        flow.play(room, seat, msg.version, msg.action)
    elif isinstance(msg, ChatIn):
        line = lobby.chat(room, seat, msg.text)
        room.commit()
        room.broadcast({"type": "chat", **line})
        return
    elif isinstance(msg, Ready):
        flow.ready(room, seat)
    elif isinstance(msg, Start):
        lobby.start(room, seat)
    elif isinstance(msg, RulesMessage):
        lobby.set_rules(room, seat, msg.rules)
    elif isinstance(msg, SeatBot):
        lobby.seat_bot(room, seat, msg.seat, msg.level)
    elif isinstance(msg, SettingsMessage):
        lobby.settings(room, seat, msg.grace_seconds, msg.next_deal_pause)
    elif isinstance(msg, Rematch):
        flow.rematch(room, seat)
    elif isinstance(msg, Leave):
        lobby.leave(room, seat)
    else:  # pragma: no cover - the parser knows every type
        raise RoomError("unknown_type", "unknown message")
    room.commit()
