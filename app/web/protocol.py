"""Slow and half-open HTTP clients, stopped where uvicorn reads the socket.

uvicorn gives a client as long as it likes to send a request (its keep-alive timeout is
reset by every byte), and ASGI middleware runs only once the headers are complete, so a
client sending a byte every few seconds, or half a request and then nothing, holds a
socket and a file descriptor for ever.  ``GuardedProtocol`` is uvicorn's httptools
protocol with two additions:

- a deadline: a request (head and body) must be complete within ``deadline`` seconds of
  the connection, or of the previous response on a kept-alive connection; else the
  connection is closed;
- a cap: at most ``per_address`` open sockets per client address (checked when the
  connection is made, kept while it lives, a WebSocket included); more are answered 503
  and closed.  A trusted proxy's own address is not capped (its clients are many).

``guarded_protocol(...)`` makes the class for ``uvicorn.Config(http=...)``.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from . import audit
from .addresses import TrustedProxies, address_key
from .limits import OpenCounter

_BUSY_TEXT = b"too many connections from this address"
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n"
         b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_BUSY_TEXT), _BUSY_TEXT))


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a request deadline and a per-address cap."""

    deadline: ClassVar[float] = 10.0
    open_sockets: ClassVar[OpenCounter] = OpenCounter(64)
    trusted: ClassVar[TrustedProxies] = TrustedProxies(())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._key: str | None = None  # the address counted, until released
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        if address is None or address in self.trusted:
            self._arm()
            return
        key = address_key(address)
        if not self.open_sockets.acquire(key):
            audit.refused("connection", address=address, limit=self.open_sockets.limit)
            transport.write(_BUSY)
            transport.close()
            return
        self._key = key
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        cycle = self.cycle
        if (self._timer is not None and cycle is not None and not cycle.more_body
                and not cycle.response_complete):
            self._disarm()  # the request is in: the app's time is not the client's

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # a kept-alive connection: the next request has its deadline too

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()
        # the socket now belongs to the WebSocket protocol: release when it closes
        ws = self.transport.get_protocol()
        ws_lost = ws.connection_lost
        key, self._key = self._key, None
        counter = self.open_sockets  # not ``self``: this HTTP protocol is done with and
        # should not live (with its parser and headers) as long as the WebSocket

        def lost(exc: Exception | None) -> None:
            if key is not None:
                counter.release(key)
            # The protocol holds this function, which holds the protocol: a cycle that
            # only a full collection would free (rare on a busy server, so every closed
            # WebSocket stayed in memory, with its transport and buffers, for minutes).
            ws.__dict__.pop("connection_lost", None)
            ws_lost(exc)

        ws.connection_lost = lost  # type: ignore[method-assign]

    def _arm(self) -> None:
        self._disarm()
        if self.deadline > 0:
            self._timer = self.loop.call_later(self.deadline, self._too_slow)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _release(self) -> None:
        if self._key is not None:
            self.open_sockets.release(self._key)
            self._key = None

    def _too_slow(self) -> None:
        self._timer = None
        if not self.transport.is_closing():
            audit.refused("slow_request", address=self.client[0] if self.client else "unknown",
                          deadline=self.deadline)
            self.transport.close()


def guarded_protocol(deadline: float, per_address: int,
                     trusted: TrustedProxies) -> type[GuardedProtocol]:
    """The protocol class for one server: its own deadline, cap and counter."""
    attrs = {"deadline": deadline, "open_sockets": OpenCounter(per_address),
             "trusted": trusted}
    return type("GuardedProtocol", (GuardedProtocol,), attrs)
