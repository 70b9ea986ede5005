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
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app

from app.serve import WS_MAX_SIZE

SEATS = 4


class FloorRoom:
    def __init__(self) -> None:
        self.sockets: list[WebSocket] = []
        self.version = 0
        self.game = 0
        self.turn: int | None = None


def make_app(frame_bytes: int) -> FastAPI:
    app = FastAPI()
    rooms: dict[str, FloorRoom] = {}
    base = len(_frame(0, 0, 0, 0, ""))
    refused = json.dumps({"type": "error", "code": "stale_version",
                          "message": "name the game of the last state"})
    padding = "x" * max(0, frame_bytes - base)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.websocket("/ws/{code}")
    async def ws_endpoint(ws: WebSocket, code: str) -> None:
        await ws.accept()
        room = rooms.setdefault(code, FloorRoom())
        if len(room.sockets) >= SEATS:
            await ws.close(4409)
            return
        room.sockets.append(ws)
        try:
            while True:
                msg = json.loads(await ws.receive_text())
                kind = msg.get("type")
                if kind == "action" and msg.get("game") != room.game:
                    await ws.send_text(refused)
                    continue
                room.version += 1
                if kind == "start":
                    room.turn = 0
                    room.game += 1
                elif kind == "action" and room.turn is not None:
                    room.turn = (room.turn + 1) % SEATS
                    room.game += 1
                for seat, sock in enumerate(list(room.sockets)):
                    await sock.send_text(
                        _frame(room.version, room.game, room.turn, seat, padding))
        except WebSocketDisconnect:
            pass
        finally:
            room.sockets.remove(ws)
            if not room.sockets:
                rooms.pop(code, None)

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
    args = parser.parse_args()
    uvicorn.run(make_app(args.frame_bytes), host="127.0.0.1", port=args.port,
                ws_per_message_deflate=False, ws_max_size=WS_MAX_SIZE, log_level="warning",
                proxy_headers=True, server_header=False, timeout_graceful_shutdown=5)


if __name__ == "__main__":
    main()
