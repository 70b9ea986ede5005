"""One WebSocket connection: its rate limit and its own bounded send queue.

The room never awaits a client: it puts frames in the connection's queue and a writer
task per connection sends them.  A connection whose queue overflows, or whose send stalls,
is dropped (it can reconnect and gets the full view again), so a slow or dead client never
holds up the room or anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time

import orjson
from starlette.websockets import WebSocket

from app.rooms.core.frames import Frame

log = logging.getLogger("amerikaner.rooms")

CLOSE_TOO_SLOW = 4408
_lingering: set[asyncio.Task[None]] = set()  # closes and writers still in progress
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

    def __init__(self, ws: WebSocket, queue_size: int, send_timeout: float,
                 rate: float, burst: int) -> None:
        self.ws = ws
        self.id = next(_ids)
        self.limiter = RateLimiter(rate, burst)
        self.closed = False
        # frames to send; an int is a close code: flush what came before, then close
        self._queue: asyncio.Queue[str | int] = asyncio.Queue(maxsize=queue_size)
        self._send_timeout = send_timeout
        self._writer: asyncio.Task[None] | None = None
        # Set when the server drops the connection.  A reader parked in ``receive`` (the
        # endpoint's task, ``receiving``) is then cancelled, so that it stops waiting for a
        # client it no longer serves: no task or future per received frame is needed.
        self.drop_code: int | None = None
        self.receiving: asyncio.Task[object] | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop())

    def send(self, frame: Frame) -> None:
        self.send_text(orjson.dumps(frame).decode())

    def send_text(self, text: str) -> None:
        """Queue one frame; never waits.  Overflow drops the connection."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("dropping a connection that fell %d frames behind", self._queue.maxsize)
            self.close(CLOSE_TOO_SLOW)

    def close(self, code: int = 1000) -> None:
        """Stop sending and close the socket (in the background)."""
        if self.closed:
            return
        self.closed = True
        self._drop(code)
        if self._writer is not None:
            self._writer.cancel()
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
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code), timeout=self._send_timeout)

    def close_after_flush(self, code: int) -> None:
        """Send what is queued (e.g. an error), then close; never waits."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(code)
        except asyncio.QueueFull:
            self.close(code)

    async def finish(self, code: int = 1000) -> None:
        """Flush what is queued (e.g. an error), then close, and wait for it."""
        self.close_after_flush(code)
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._writer), self._send_timeout)

    async def stop(self) -> None:
        """The connection ended: stop the writer (a send on a closing socket may not
        notice the cancellation until the closing handshake times out; do not wait)."""
        self.closed = True
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            await asyncio.wait({self._writer}, timeout=1.0)
            if not self._writer.done():
                _lingering.add(self._writer)
                self._writer.add_done_callback(_lingering.discard)

    async def _write_loop(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if isinstance(text, int):
                    self.closed = True
                    self._drop(text)
                    await self._close_socket(text)
                    return
                await asyncio.wait_for(self.ws.send_text(text), timeout=self._send_timeout)
        except asyncio.CancelledError:
            raise
        except Exception:
            # a send that stalls or fails: this client is gone or too slow
            if not self.closed:
                self.close(CLOSE_TOO_SLOW)
