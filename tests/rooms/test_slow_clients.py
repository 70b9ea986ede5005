"""A slow or dead client never stalls a room: its own bounded queue overflows and it is
dropped, while everyone else's messages flow."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
from collections.abc import Callable
from typing import Any

from rooms_harness import Client, ServerThread, create_room, join_room
from starlette.websockets import WebSocketState

from app.rooms.core.wire_enums import CloseCode
from app.rooms.server.connection import Connection
from app.settings import Settings


def chat_starting(prefix: str) -> Callable[[dict[str, Any]], bool]:
    """A wait_for predicate: the state frame telling of the chat line that starts with
    ``prefix``."""
    return lambda m: m["type"] == "state" and any(
        e["type"] == "chat" and str(e["text"]).startswith(prefix) for e in m["events"])


def raw_websocket(port: int, path: str) -> socket.socket:
    """A WebSocket handshake by hand, on a socket with a tiny receive buffer that the
    test then never reads: a client that has stopped reading."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def masked_text_frame(text: str) -> bytes:
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


def test_a_client_that_stops_reading_is_dropped_and_the_room_goes_on(
        make_server: Callable[..., ServerThread]) -> None:
    """Nothing is timed: a send may wait far longer than the test (``send_timeout``), so
    the silent client can only be dropped by its backlog overflowing, and a room that
    waited for it would hold Ann's chat lines back for good (her waits fail after 20 s)."""
    srv = make_server(send_queue=8, send_timeout=600.0, rate=1000, burst=1000)
    room = create_room(srv.base)
    code = room["room"]
    bo_token = join_room(srv.base, code, "Bo")["token"]
    ann = Client(srv.base, code, token=room["token"])
    silent = raw_websocket(srv.port, f"/ws/{code}")
    silent.sendall(masked_text_frame(json.dumps({"type": "hello", "token": bo_token})))
    ann.wait_state(lambda v: v["room"]["seats"][1]["connected"])
    # ~12 KB of state per chat line: enough to fill the kernel's buffers (up to 4 MB)
    for i in range(700):
        ann.send({"type": "chat", "text": f"{i:03d} " + "la" * 90})
        ann.wait_for(chat_starting(f"{i:03d}"))
    view = ann.wait_state(lambda v: not v["room"]["seats"][1]["connected"])
    assert not view["room"]["seats"][1]["connected"]
    silent.close()


def test_connection_queue_overflow_closes_with_4408() -> None:
    class StuckSocket:
        closed_with: int | None = None
        application_state = client_state = WebSocketState.CONNECTED

        def __init__(self) -> None:
            self.closing = asyncio.Event()

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()  # never returns: a dead peer

        async def close(self, code: int = 1000) -> None:
            self.closed_with = code
            self.closing.set()

    async def scenario() -> tuple[bool, int | None]:
        ws = StuckSocket()
        conn = Connection(ws, Settings(send_queue=4, send_timeout=600))  # type: ignore[arg-type]
        for i in range(10):
            conn.send_encoded(f"frame {i}".encode())  # never waits, whatever the peer does
        closed = conn.closed  # at once, by the overflow: no timeout could have done it
        await asyncio.wait_for(ws.closing.wait(), 30)  # the close goes out in the background
        await conn.stop()
        return closed, ws.closed_with

    closed, code = asyncio.run(scenario())
    assert closed and code == CloseCode.TOO_SLOW


def test_frames_go_at_once_and_in_order_and_a_send_that_waits_keeps_them_in_order() -> None:
    class SlowSocket:
        application_state = client_state = WebSocketState.CONNECTED

        def __init__(self) -> None:
            self.sent: list[str] = []
            self.open = asyncio.Event()
            self.open.set()
            self.closed_with: int | None = None
            self.closing = asyncio.Event()
            self.sending = 0       # sends under way now
            self.most_at_once = 0  # sends ever under way together

        def write_now(self, data: bytes) -> bool:
            """The server protocol's direct write: only while the client reads."""
            if self.open.is_set():
                self.sent.append(data.decode())
            return self.open.is_set()

        async def send_text(self, text: str) -> None:
            self.sending += 1
            self.most_at_once = max(self.most_at_once, self.sending)
            try:
                await self.open.wait()  # returns at once while the client reads
                self.sent.append(text)
            finally:
                self.sending -= 1

        async def close(self, code: int = 1000) -> None:
            self.closed_with = code
            self.closing.set()

    async def scenario() -> tuple[list[str], list[str], list[str], int | None, int]:
        ws = SlowSocket()
        conn = Connection(ws, Settings(send_queue=8, send_timeout=600),  # type: ignore[arg-type]
                          direct=ws.write_now)
        conn.send_encoded(b"a")
        conn.send_encoded(b"b")
        at_once = list(ws.sent)  # sent without any task running
        ws.open.clear()  # the client stops reading: the next send has to wait
        for text in "cdef":
            conn.send_encoded(text.encode())
        conn.close_after_flush(4000)
        waiting = list(ws.sent)  # "c" waits for the client, the rest behind it
        ws.open.set()  # it reads again: the rest follows, in order, then the close
        await asyncio.wait_for(ws.closing.wait(), 30)
        return at_once, waiting, ws.sent, ws.closed_with, ws.most_at_once

    at_once, waiting, sent, closed, most_at_once = asyncio.run(scenario())
    assert at_once == ["a", "b"]
    assert waiting == ["a", "b"]
    assert sent == ["a", "b", "c", "d", "e", "f"] and closed == 4000
    assert most_at_once == 1  # one send at a time: the backlog waits its turn
