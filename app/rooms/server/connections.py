"""One WebSocket connection: its rate limit, and sending that never makes the room wait.

A frame is sent at once when the socket takes it, which is nearly always: the send
completes without ever suspending, so it needs no task, queue or wake-up of its own.  Only
when the client reads too slowly (the transport is paused) does a send have to wait; then
that send is finished by a drain task, and frames behind it wait in a bounded backlog.  A
connection whose backlog overflows, or whose send stalls for ``send_timeout``, is dropped
(it can reconnect and gets the full view again), so a slow or dead client never holds up
the room or anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketState

from app.rooms.core.frames import Frame

from .eager import DONE, resume, start

log = logging.getLogger("amerikaner.rooms")

CLOSE_TOO_SLOW = 4408
_lingering: set[asyncio.Task[None]] = set()  # closes and drains still in progress
_ids = itertools.count(1)


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    __slots__ = ("burst", "last", "rate", "strikes", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()
        self.strikes = 0  # messages refused in a row

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.strikes = 0
            return True
        self.strikes += 1
        return False


class Connection:
    """A client connection, known to its room by ``id``."""

    __slots__ = ("_backlog", "_direct", "_drain", "_limit", "_send_timeout", "address",
                 "closed", "drop_code", "id", "limiter", "receiving", "ws")

    def __init__(self, ws: WebSocket, queue_size: int, send_timeout: float,
                 rate: float, burst: int,
                 direct: Callable[[bytes], bool] | None = None) -> None:
        self.ws = ws
        # The client's address as the per-address limits count it (the search pool's
        # bound on hints and reviews); set by the endpoint.
        self.address = ""
        # Writes a text frame straight to the socket when it can go at once (uvicorn with
        # app.web.wsprotocol's protocol), past the ASGI send; None elsewhere (tests' servers).
        self._direct = direct
        self.id = next(_ids)
        self.limiter = RateLimiter(rate, burst)
        self.closed = False
        self._limit = queue_size
        self._send_timeout = send_timeout
        # Frames (JSON, UTF-8) and a close code (int) waiting behind a send that had to
        # wait; ``None`` while nothing waits, so the next frame goes at once.
        self._backlog: deque[bytes | int] | None = None
        self._drain: asyncio.Task[None] | None = None
        # Set when the server drops the connection.  A reader parked in ``receive`` (the
        # endpoint's task, ``receiving``) is then cancelled, so that it stops waiting for a
        # client it no longer serves: no task or future per received frame is needed.
        self.drop_code: int | None = None
        self.receiving: asyncio.Task[object] | None = None

    def send(self, frame: Frame) -> None:
        self.send_encoded(orjson.dumps(frame))

    def send_encoded(self, data: bytes) -> None:
        """Send one frame (its JSON text, UTF-8) now, or queue it behind a send that waits;
        never waits itself.  A backlog over the limit drops the connection."""
        self._put(data)

    def close_after_flush(self, code: int) -> None:
        """Send what is queued (e.g. an error), then close; never waits."""
        self._put(code)

    def _put(self, item: bytes | int) -> None:
        if self.closed:
            return
        backlog = self._backlog
        if backlog is not None:
            if len(backlog) >= self._limit:
                log.info("dropping a connection that fell %d frames behind", self._limit)
                self.close(CLOSE_TOO_SLOW)
            else:
                backlog.append(item)
            return
        if isinstance(item, int):
            self.closed = True
            self._drop(item)
            coro = self._close_socket(item)
        elif self._direct is not None and self._direct(item):
            return
        else:
            coro = self.ws.send_text(item.decode())
        try:
            waiting = start(coro)  # as far as it goes: nearly always to its end
        except Exception:  # the client is gone
            self.close(CLOSE_TOO_SLOW)
            return
        if waiting is DONE:
            return
        self._backlog = deque()
        self._drain = asyncio.get_running_loop().create_task(self._finish(coro, waiting))

    async def _finish(self, coro: Coroutine[Any, Any, None], waiting: object) -> None:
        """Finish a send that had to wait, then send the backlog, in order, each within
        ``send_timeout``; a client that does not keep up is dropped."""
        try:
            async with asyncio.timeout(self._send_timeout):
                await resume(coro, waiting)
            while self._backlog:
                item = self._backlog.popleft()
                if isinstance(item, int):
                    self.closed = True
                    self._drop(item)
                    await self._close_socket(item)
                    return
                async with asyncio.timeout(self._send_timeout):
                    await self.ws.send_text(item.decode())
            self._backlog = None
        except asyncio.CancelledError:
            coro.close()
            raise
        except Exception:
            coro.close()
            if not self.closed:
                self.close(CLOSE_TOO_SLOW)

    def close(self, code: int = 1000) -> None:
        """Stop sending and close the socket (in the background)."""
        if self.closed:
            return
        self.closed = True
        self._drop(code)
        if self._drain is not None:
            self._drain.cancel()
        task = asyncio.get_running_loop().create_task(self._close_socket(code))
        _lingering.add(task)
        task.add_done_callback(_lingering.discard)

    def _drop(self, code: int) -> None:
        if self.drop_code is None:
            self.drop_code = code
        reader = self.receiving
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()

    async def _close_socket(self, code: int) -> None:
        ws = self.ws
        if WebSocketState.DISCONNECTED in (ws.application_state, ws.client_state):
            return  # closed already (a send that failed, the client's own close)
        # The close itself lets nothing out: an exception ending wait_for's inner task
        # would stay in the task, and its traceback would keep wait_for's frame and so the
        # task, a cycle holding the whole connection until a full collection.  (wait_for,
        # not asyncio.timeout: this may run eagerly, outside any task; eager.py.)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_close_quietly(ws, code), timeout=self._send_timeout)

    async def finish(self, code: int = 1000) -> None:
        """Flush what is queued (e.g. an error), then close, and wait for it."""
        self.close_after_flush(code)
        await self.flushed()

    async def flushed(self) -> None:
        """Wait, at most ``send_timeout``, for a send that had to wait and what is queued
        behind it (a close included); never raises."""
        drain = self._drain
        if drain is not None and not drain.done():
            await asyncio.wait({drain}, timeout=self._send_timeout)

    async def stop(self) -> None:
        """The connection ended: stop sending (a send on a closing socket may not notice
        the cancellation until the closing handshake times out; do not wait)."""
        self.closed = True
        drain = self._drain
        if drain is not None and not drain.done():
            drain.cancel()
            await asyncio.wait({drain}, timeout=1.0)
            if not drain.done():
                _lingering.add(drain)
                drain.add_done_callback(_lingering.discard)


async def _close_quietly(ws: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):  # the socket closed under us: nothing to do
        await ws.close(code)
