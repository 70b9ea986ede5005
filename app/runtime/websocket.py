"""uvicorn's WebSocket protocol, lighter for a connection that lives for hours, and a
way to write a frame that can go at once without the ASGI ``send``'s round.

uvicorn's ``websockets-sansio`` protocol (its default with the websockets library) keeps
the handshake's request and response, with all their headers, for the connection's whole
life though it never reads them again once the handshake is answered; at thousands of idle
sockets that is a few kilobytes each.  ``LeanWebSocketProtocol`` lets them go: the request
once the ASGI scope is made from it (the scope keeps the headers the app reads;
websockets' parser holds on to the request object itself, so its headers are emptied),
the response once it is sent.

It also lets the rooms write a frame straight to the socket (``send_text_now``): a server
sends every seat a frame per move, and the ASGI ``send`` costs a message dict, a
coroutine, a task to run it in (the room does not wait for its sends) and an event's wait
each time, for what is nearly always one write.

What pays for it (docs/performance.md, "The runtime tuning"): ``python
benchmarks/load.py --rooms 250 --duration 15`` held 90.0 to 91.4 KiB per idle room of
four sockets with it and 109.5 KiB with uvicorn's own protocol (2026-12-03), and 0.50 to
0.60 ms of server CPU a move against 0.66 (one run, a saturated machine).
tests/test_runtime_uvicorn.py fails, naming what moved, when the locked uvicorn or
websockets change what this class relies on (public names only: no ``_name`` of theirs).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState, ProtocolError
from websockets.http11 import Request
from websockets.protocol import State


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` that drops the handshake once it is done with."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        self.request: Any = None  # copied into self.scope
        # websockets' parser keeps the request in a generator's frame for good: empty it
        event.headers.clear()

    def start_keepalive(self) -> None:
        # called right after the handshake's response went out, and only then
        super().start_keepalive()
        self.response: Any = None

    def send_text_now(self, data: bytes) -> bool:
        """Write one text frame (UTF-8 ``data``) to the socket if it can go at once: what
        the ASGI ``send`` does for a ``websocket.send`` once the handshake is done, without
        the message dict, the coroutine and the wait it needs for the rare case.  ``False``
        (nothing written) when the socket is not open for frames or the peer reads too
        slowly (writing paused); the caller then uses the ASGI ``send``, which waits or
        says what is wrong."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or self.initial_response is not None or not self.writable.is_set()):
            return False
        conn = self.conn
        if (conn.state is not State.OPEN or conn.expect_continuation_frame or conn.writes
                or conn.extensions):
            # not a plain open connection (a compression extension, something queued):
            # the library's own path, which knows what to do
            try:
                conn.send_text(data)
            except (InvalidState, ProtocolError):
                return False
            self.transport.write(b"".join(conn.data_to_send()))
            return True
        # A server's frame is not masked and, with no extension, is a header and the
        # payload: what websockets' Frame.serialize makes, without its frame object, its
        # checks of what is fixed here and its three copies of the payload.
        self.transport.write(_text_header(len(data)) + data)
        return True


def _text_header(length: int) -> bytes:
    """The header of one final, unmasked text frame of ``length`` bytes (RFC 6455 5.2)."""
    if length < 126:
        return _SHORT_HEADERS[length]
    if length < 65536:
        return struct.pack("!BBH", _FIN_TEXT, 126, length)
    return struct.pack("!BBQ", _FIN_TEXT, 127, length)


_FIN_TEXT = 0x81  # FIN, opcode 1 (text)
_SHORT_HEADERS = [bytes((_FIN_TEXT, n)) for n in range(126)]


def lean_protocol(send: object) -> LeanWebSocketProtocol | None:
    """The protocol behind an ASGI ``send`` if it is ours (the ``send`` uvicorn hands the
    app is a method of its protocol), else ``None``."""
    owner = getattr(send, "__self__", None)
    return owner if isinstance(owner, LeanWebSocketProtocol) else None


def direct_send(send: object) -> Callable[[bytes], bool] | None:
    """Where the ASGI ``send`` is our protocol's, its ``send_text_now``; else ``None``."""
    protocol = lean_protocol(send)
    return protocol.send_text_now if protocol is not None else None
