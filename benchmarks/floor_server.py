"""The floor of benchmarks/load.py: a bare FastAPI WebSocket broadcast server with no game.

    python benchmarks/floor_server.py --port 8001 --frame-bytes 2200

``/ws/{code}``: the first four sockets of a code form a room (seats in connection order).
Every message a socket sends is parsed (as the real server parses its messages) and
answered by one ``state`` frame to each of the room's sockets, of about ``--frame-bytes``
bytes, in the shape the swarm reads (``version``, ``view.turn``, ``view.you``,
``view.legal``, ``view.hand``): after ``start`` and every action the turn passes to the
next seat.  That is the work a rooms server cannot avoid per move (one message in, four
frames out) and nothing else: no rules, no storage, no views.

The frames are those of the new protocol (``game``, the number of game changes, and
``events``); an action must name the current ``game`` or it is refused (an ``error``
frame, nothing changes), so every run also checks the swarm's side of that protocol
while ``amerikaner serve`` still speaks the old one (``version``).

Served by uvicorn with the settings of ``amerikaner serve`` (app/serve.py): no per-message
deflate, the same maximum frame size, warnings-only logs, on 127.0.0.1 only.
``--plain-asgi`` serves the same floor as a plain ASGI callable instead of a FastAPI route,
to show what the framework costs per connection (memory above all).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app

from app.serve import WS_MAX_SIZE

SEATS = 4
REFUSED = json.dumps({"type": "error", "code": "stale_game",
                      "message": "name the game of the last state"})
Send = Callable[[str], Awaitable[None]]
Scope = dict[str, Any]
AsgiReceive = Callable[[], Awaitable[dict[str, Any]]]
AsgiSend = Callable[[dict[str, Any]], Awaitable[None]]


class FloorRoom:
    """Up to four sockets (their send functions, in seat order) and the turn."""

    def __init__(self, padding: str) -> None:
        self.padding = padding
        self.sockets: list[Send] = []
        self.version = 0
        self.game = 0
        self.turn: int | None = None

    async def receive(self, text: str, sender: Send) -> None:
        """One message in: a refusal to its sender, or a frame to every socket."""
        msg = json.loads(text)
        kind = msg.get("type")
        if kind == "action" and msg.get("game") != self.game:
            await sender(REFUSED)
            return
        self.version += 1
        if kind == "start":
            self.turn = 0
            self.game += 1
        elif kind == "action" and self.turn is not None:
            self.turn = (self.turn + 1) % SEATS
            self.game += 1
        for seat, send in enumerate(list(self.sockets)):
            await send(_frame(self.version, self.game, self.turn, seat, self.padding))


class Rooms:
    def __init__(self, frame_bytes: int) -> None:
        self.rooms: dict[str, FloorRoom] = {}
        self.padding = "x" * max(0, frame_bytes - len(_frame(0, 0, 0, 0, "")))

    def join(self, code: str, send: Send) -> FloorRoom | None:
        room = self.rooms.setdefault(code, FloorRoom(self.padding))
        if len(room.sockets) >= SEATS:
            return None
        room.sockets.append(send)
        return room

    def leave(self, code: str, room: FloorRoom, send: Send) -> None:
        room.sockets.remove(send)
        if not room.sockets:
            self.rooms.pop(code, None)


def make_app(frame_bytes: int) -> FastAPI:
    """The floor as a FastAPI app, like the rooms server."""
    app = FastAPI()
    rooms = Rooms(frame_bytes)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.websocket("/ws/{code}")
    async def ws_endpoint(ws: WebSocket, code: str) -> None:
        await ws.accept()
        room = rooms.join(code, ws.send_text)
        if room is None:
            await ws.close(4409)
            return
        try:
            while True:
                await room.receive(await ws.receive_text(), ws.send_text)
        except WebSocketDisconnect:
            pass
        finally:
            rooms.leave(code, room, ws.send_text)

    return app


def make_plain_app(frame_bytes: int) -> Callable[[Scope, AsgiReceive, AsgiSend],
                                                 Awaitable[None]]:
    """The floor as a plain ASGI callable: what the framework costs per connection."""
    rooms = Rooms(frame_bytes)

    async def app(scope: Scope, receive: AsgiReceive, send: AsgiSend) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
        elif scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": b'{"status":"ok"}'})
        elif scope["type"] == "websocket":
            await plain_socket(scope["path"].rsplit("/", 1)[-1], receive, send)

    async def plain_socket(code: str, receive: AsgiReceive, send: AsgiSend) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})

        async def send_text(text: str) -> None:
            await send({"type": "websocket.send", "text": text})

        room = rooms.join(code, send_text)
        if room is None:
            await send({"type": "websocket.close", "code": 4409})
            return
        try:
            while (event := await receive())["type"] == "websocket.receive":
                await room.receive(event.get("text") or "", send_text)
        finally:
            rooms.leave(code, room, send_text)

    return app


def _frame(version: int, game: int, turn: int | None, seat: int, padding: str) -> str:
    mine = turn == seat
    view: dict[str, Any] = {
        "phase": "play", "you": seat, "turn": turn,
        "legal": [{"play": "AS"}] if mine else [], "hand": ["AS", "KS"], "pad": padding}
    return json.dumps({"type": "state", "version": version, "game": game, "events": [],
                       "view": view}, separators=(",", ":"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--frame-bytes", type=int, default=2200)
    parser.add_argument("--plain-asgi", action="store_true",
                        help="serve a plain ASGI callable instead of the FastAPI app")
    args = parser.parse_args()
    app: Any = (make_plain_app if args.plain_asgi else make_app)(args.frame_bytes)
    uvicorn.run(app, host="127.0.0.1", port=args.port,
                ws_per_message_deflate=False, ws_max_size=WS_MAX_SIZE, log_level="warning",
                proxy_headers=True, server_header=False, timeout_graceful_shutdown=5)


if __name__ == "__main__":
    main()
