"""Request bodies limited while they stream, for every route.

``BodyLimit`` is plain ASGI middleware: a declared ``Content-Length`` over the limit is
answered ``413`` before any of the body is read; otherwise the bytes are counted as the app
receives them, and the moment they pass the limit the app's read is cut short and the
client gets ``413 {"error": {"code": "too_large", ...}}`` with ``Connection: close`` (the
server stops reading the rest).  So no request ever holds more than the limit in memory.
A route that takes a larger body (a game record to replay) has its own limit by path
(``larger``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import audit, metrics
from .addresses import TrustedProxies, client_address

BODY_MAX = 16 * 1024


class BodyTooLarge(Exception):
    """Raised into the app by the counting ``receive``: the body passed the limit."""


def too_large_body(max_bytes: int) -> bytes:
    error = {"code": "too_large", "message": f"the body may be at most {max_bytes} bytes"}
    return json.dumps({"error": error}).encode()


class BodyLimit:
    """ASGI middleware: at most ``max_bytes`` of request body per HTTP request."""

    def __init__(self, app: ASGIApp, max_bytes: int = BODY_MAX,
                 trusted: TrustedProxies | None = None,
                 larger: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.trusted = trusted or TrustedProxies(())
        self.larger = dict(larger or {})  # path -> that route's own limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.max_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await self._refuse(scope, send, declared, limit)
            return
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except Exception as exc:  # ours are picked out below, others re-raised
            ours = _ours(exc)
            if ours is None:
                raise
            # too large: answer, unless the app answered before it read it all;
            # a disconnect: the client went away mid-body (or missed its deadline)
            if isinstance(ours, BodyTooLarge) and not started:
                await self._refuse(scope, send, received, limit)

    async def _refuse(self, scope: Scope, send: Send, size: int, limit: int) -> None:
        audit.refused("too_large", address=client_address(scope, self.trusted),
                      path=scope.get("path", ""), bytes=size, limit=limit)
        metrics.refused("too_large", "http")
        body = too_large_body(limit)
        await send({"type": "http.response.start", "status": 413, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def _ours(exc: BaseException) -> BaseException | None:
    """``exc`` if it is one of the endings this middleware handles (also when middleware
    on the way wrapped it in exception groups), else ``None``."""
    if isinstance(exc, BaseExceptionGroup):
        found = [_ours(e) for e in exc.exceptions]
        return found[0] if found and all(found) else None
    return exc if isinstance(exc, BodyTooLarge | ClientDisconnect) else None


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the HTTP parser refuses it before we get here
    return None
