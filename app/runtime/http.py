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

What pays for it is not a speed figure but a bound: without it a client trickling a byte
every few seconds holds a socket for ever; tests/test_abuse_deadline.py (slow clients)
and tests/test_abuse_sockets.py (half-open ones, the cap per address) hold the
behaviour, and tests/test_runtime_uvicorn.py fails, naming what moved, when the locked
uvicorn changes what this class relies on (only public names of ``HttpToolsProtocol``:
no ``_name`` of uvicorn's).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.web import audit
from app.web.addresses import TrustedProxies, address_key
from app.web.limits import OpenCounter

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
        self.guard_key: str | None = None  # the address counted, until released
        self.deadline_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        if address is None or address in self.trusted:
            self.arm_deadline()
            return
        key = address_key(address)
        if not self.open_sockets.acquire(key):
            audit.refused("connection", address=address, limit=self.open_sockets.limit)
            transport.write(_BUSY)
            transport.close()
            return
        self.guard_key = key
        self.arm_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm_deadline()
        self.release_address()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        cycle = self.cycle
        if (self.deadline_timer is not None and cycle is not None and not cycle.more_body
                and not cycle.response_complete):
            self.disarm_deadline()  # the request is in: the app's time is not the client's

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self.arm_deadline()  # a kept-alive connection: the next request has its deadline too

    def handle_websocket_upgrade(self) -> None:
        self.disarm_deadline()
        super().handle_websocket_upgrade()
        # the socket now belongs to the WebSocket protocol: release when it closes
        ws = self.transport.get_protocol()
        ws_lost = ws.connection_lost
        key, self.guard_key = self.guard_key, None
        counter = self.open_sockets  # not ``self``: this HTTP protocol is done with and
        # should not live (with its parser and headers) as long as the WebSocket

        def lost(exc: Exception | None) -> None:
            if key is not None:
                counter.release(key)
            # The protocol holds this function, which holds the protocol: a cycle that
            # only a full collection would free (rare on a busy server, so every closed
            # WebSocket stayed in memory, with its transport and buffers, for minutes).
            # Deleting the instance's attribute brings the class's method back.
            del ws.connection_lost
            ws_lost(exc)

        ws.connection_lost = lost  # type: ignore[method-assign]

    def arm_deadline(self) -> None:
        self.disarm_deadline()
        if self.deadline > 0:
            self.deadline_timer = self.loop.call_later(self.deadline, self.too_slow)

    def disarm_deadline(self) -> None:
        if self.deadline_timer is not None:
            self.deadline_timer.cancel()
            self.deadline_timer = None

    def release_address(self) -> None:
        if self.guard_key is not None:
            self.open_sockets.release(self.guard_key)
            self.guard_key = None

    def too_slow(self) -> None:
        self.deadline_timer = None
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
