"""uvicorn's WebSocket protocol, lighter for a connection that lives for hours.

uvicorn's ``websockets-sansio`` protocol (its default with the websockets library) keeps
the handshake's request and response, with all their headers, for the connection's whole
life though it never reads them again once the handshake is answered; at thousands of idle
sockets that is a few kilobytes each (``benchmarks/load.py``, memory per idle room).
``LeanWebSocketProtocol`` lets them go: the request once the ASGI scope is made from it
(the scope keeps the headers the app reads; websockets' parser holds on to the request
object itself, so its headers are emptied), the response once it is sent.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request


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
