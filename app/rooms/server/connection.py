"""One WebSocket connection bound to its room: what it receives (its limits, parsing,
``ping``, then the room's runner) and what it sends (never making the room wait).

Reading a frame: its JSON is parsed with bounds first (``parse_json``): a nesting depth
limit, and every way a parse can fail (bad syntax, bad UTF-8, ``RecursionError`` in the
parser, numbers too long for ``int``) answered by one ``BadMessage`` with code
``bad_json``, never a traceback.  The depth is checked before parsing: a frame with fewer
brackets than the limit cannot be too deep (the common case costs two ``str.count``);
otherwise the brackets outside string literals are counted (json_depth.py).  Then the
value must be one of app/rooms/core/messages.py's models.

Receiving: the connection's own task (the endpoint's, app/rooms/server/ws.py) reads one
message at a time and awaits its handling, so a connection's messages reach the room in
order.  A flood (more than the window allows, counted before the rate limit) closes the
connection; a message over the rate limit is refused, with one warning a streak.
Refusals (``RoomError``) become an error frame to the sender only, and nothing changed.

Sending: a frame goes to the socket at once when the socket takes it, which is nearly
always (``direct``: app/runtime/websocket.py; it needs no task, queue or wake-up).
Otherwise, and on a server without that protocol, a drain task sends it through the ASGI
``send``, and frames behind it wait in a bounded backlog.  A connection whose backlog
overflows, or whose send stalls for ``send_timeout``, is dropped (it can reconnect and
gets the full view again), so a slow or dead client never holds up the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
import time
from collections import deque
from collections.abc import Callable

import orjson
from pydantic import JsonValue, ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from app.rooms.core.effects import Received
from app.rooms.core.errors import RoomError
from app.rooms.core.frames import Frame, error_frame
from app.rooms.core.messages import CLIENT_TYPES, Hello, Ping, RoomMessage, client_adapter
from app.rooms.core.wire_enums import CloseCode, ErrorCode
from app.settings import Settings
from app.web import audit, metrics

from .json_depth import MAX_DEPTH, json_depth
from .runner import RoomRunner

log = logging.getLogger("amerikaner.rooms")

DirectSend = Callable[[bytes], bool]  # writes a text frame at once, or says it cannot
_lingering: set[asyncio.Task[None]] = set()  # closes and drains still in progress
_ids = itertools.count(1)


class BadMessage(RoomError):
    """An inbound message that is not one of ours; ``code`` goes on the wire."""


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


class FloodGuard:
    """One connection's inbound messages: ``note()`` says ``False`` once more than
    ``limit`` arrived within ``window`` seconds (the connection should be closed).

    Counted are all messages, accepted or refused, so a flood paced to slip through the
    token bucket between refusals is caught too.  Memory: the timestamps of the window's
    messages, at most ``limit + 1``."""

    __slots__ = ("_clock", "_times", "limit", "window")

    def __init__(self, limit: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._times: deque[float] = deque(maxlen=limit + 1)

    @classmethod
    def for_rate(cls, rate: float, burst: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> FloodGuard:
        """The guard for a connection limited to ``rate`` messages a second with bursts of
        ``burst``: twice what the rate allows over the window, plus a burst."""
        return cls(max(1, math.ceil(2 * rate * window) + burst), window, clock)

    def note(self) -> bool:
        """Count one message; ``True`` while within the limit."""
        now = self._clock()
        times = self._times
        times.append(now)
        # only the window's messages are kept: a connection that lives for hours holds a
        # few timestamps, not the last ``limit`` of them
        since = now - self.window
        while times[0] < since:
            times.popleft()
        return len(times) <= self.limit


# -- reading a frame -------------------------------------------------------------------


def parse_json(frame: str | bytes, max_depth: int = MAX_DEPTH) -> JsonValue:
    """The value of one JSON text, or ``BadMessage`` (``bad_json``) saying what is wrong."""
    if isinstance(frame, bytes | bytearray):
        try:
            frame = bytes(frame).decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage(ErrorCode.BAD_JSON, "that message is not UTF-8 text") from None
    too_deep = f"that message nests deeper than {max_depth} levels"
    if frame.count("[") + frame.count("{") > max_depth and json_depth(frame) > max_depth:
        raise BadMessage(ErrorCode.BAD_JSON, too_deep)
    try:
        value: JsonValue = json.loads(frame)
    except RecursionError:
        raise BadMessage(ErrorCode.BAD_JSON, too_deep) from None
    except ValueError:  # JSONDecodeError, and integers too long to convert
        raise BadMessage(ErrorCode.BAD_JSON, "that message is not JSON") from None
    return value


def parse_client_message(text: str | bytes, max_bytes: int) -> Hello | RoomMessage | Ping:
    """The model for one inbound frame, or ``BadMessage`` saying precisely what is wrong."""
    if isinstance(text, bytes):
        raise BadMessage(ErrorCode.BAD_MESSAGE, "send JSON text frames, not binary")
    if len(text.encode()) > max_bytes:
        raise BadMessage(ErrorCode.TOO_LARGE, f"a message may be at most {max_bytes} bytes")
    data = parse_json(text)  # bounded: too deep a nesting is refused before parsing
    if not isinstance(data, dict):
        raise BadMessage(ErrorCode.BAD_MESSAGE, "a message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        raise BadMessage(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind!r}; "
                         f"one of {', '.join(CLIENT_TYPES)}")
    try:
        return client_adapter.validate_python(data)
    except ValidationError as exc:
        raise BadMessage(ErrorCode.BAD_MESSAGE, _describe(exc, kind)) from None


def _describe(exc: ValidationError, kind: str) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"][1:]) or "message"
    if err["type"] == "extra_forbidden":
        return f"{kind}: {loc} is not a field of this message"
    if err["type"] == "missing":
        return f"{kind}: {loc} is missing"
    return f"{kind}: {loc}: {err['msg']}"


class Connection:
    """A client connection, known to its room by ``id``."""

    __slots__ = ("_backlog", "_direct", "_drain", "address", "audit_address", "closed",
                 "closing", "drop_code", "flood", "id", "limiter", "max_bytes", "queue_size",
                 "receiving", "runner", "send_timeout", "ws")

    def __init__(self, ws: WebSocket, settings: Settings, address: str = "",
                 audit_address: str = "", direct: DirectSend | None = None) -> None:
        self.ws = ws
        self.id = next(_ids)
        # The client's address as the per-address limits count it (the search pool's
        # bound on hints and reviews), and as the audit log names it.
        self.address = address
        self.audit_address = audit_address
        self.runner: RoomRunner | None = None  # the room, once the hello bound it
        self.max_bytes = settings.max_message_bytes
        self.limiter = RateLimiter(settings.rate, settings.burst)
        self.flood = FloodGuard.for_rate(settings.rate, settings.burst,
                                         settings.flood_window)
        self.queue_size = settings.send_queue
        self.send_timeout = settings.send_timeout
        self.closed = False
        # A close waits in the backlog behind a send: nothing more is queued or handled
        # (a flood's later messages would otherwise each queue a frame and overflow it).
        self.closing = False
        # Writes a text frame straight to the socket when it can go at once (uvicorn with
        # app/runtime/websocket.py's protocol); None elsewhere: every frame by the drain.
        self._direct = direct
        # Frames (JSON, UTF-8) and a close code (int) waiting behind a send that had to
        # wait; ``None`` while nothing waits, so the next frame goes at once.
        self._backlog: deque[bytes | int] | None = None
        self._drain: asyncio.Task[None] | None = None
        # Set when the server drops the connection.  A reader parked in ``receive`` (the
        # endpoint's task, ``receiving``) is then cancelled, so that it stops waiting for a
        # client it no longer serves: no task or future per received frame is needed.
        self.drop_code: int | None = None
        self.receiving: asyncio.Task[object] | None = None

    # -- receiving --------------------------------------------------------------------

    async def receive(self) -> str | bytes:
        """The next frame's data; ``WebSocketDisconnect`` when the client goes or the
        server drops the connection (a client too slow to read is not waited for:
        dropping it cancels this wait)."""
        if self.drop_code is not None:
            raise WebSocketDisconnect(self.drop_code)
        task = self.receiving = asyncio.current_task()
        try:
            message = await self.ws.receive()
        except asyncio.CancelledError:
            if self.drop_code is None or task is None or task.uncancel():
                raise  # not our drop: a real cancellation
            raise WebSocketDisconnect(self.drop_code) from None
        finally:
            self.receiving = None
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        return text if text is not None else message.get("bytes") or b""

    async def serve(self, runner: RoomRunner) -> None:
        """Hand the connection's messages to ``runner``, one at a time, until it ends
        (``WebSocketDisconnect``)."""
        self.runner = runner
        while not self.closed:
            await self.handle(await self.receive())

    async def handle(self, raw: str | bytes) -> None:
        """One message: refused to its sender, passed to the room, or the connection
        closed (a flood, a room that broke off).  Lets no exception out."""
        runner = self.runner
        if self.closed or self.closing or runner is None:
            return
        if not self.flood.note():  # too many messages over the window: a flood, not a burst
            audit.refused("flood", address=self.audit_address, room=runner.code)
            self.close_after_flush(CloseCode.FLOOD)
            return
        if not self.limiter.allow():
            metrics.refused(ErrorCode.RATE_LIMITED, "ws")
            if self.limiter.strikes == 1:
                self.send(error_frame(ErrorCode.RATE_LIMITED, "slow down: too many messages"))
            return
        try:
            msg = parse_client_message(raw, self.max_bytes)
            if isinstance(msg, Ping):
                self.send({"type": "pong"})
                return
            if isinstance(msg, Hello):
                raise BadMessage(ErrorCode.ALREADY_HELLO, "this connection has said hello already")
            await runner.submit(Received(self.id, msg))
        except RoomError as exc:  # BadMessage included
            if runner.closed and exc.code == ErrorCode.UNAVAILABLE:
                # The room broke off (its error and close, 1013, are on their way) or was
                # handed over (1012): this message was not taken; the client comes back.
                self.close_after_flush(runner.close_code)
                return
            metrics.refused(exc.code, "ws")
            self.send(error_frame(exc.code, exc.message, exc.option, exc.reason, exc.params))
        except Exception:  # a bug: this connection ends, the room and the server go on
            log.exception("room %s: a message failed", runner.code)
            self.close_after_flush(CloseCode.FAILED)

    # -- sending ----------------------------------------------------------------------

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
        if self.closed or self.closing:
            return
        backlog = self._backlog
        if backlog is not None:
            if len(backlog) >= self.queue_size:
                log.info("dropping a connection that fell %d frames behind", self.queue_size)
                self.close(CloseCode.TOO_SLOW)
            else:
                backlog.append(item)
                self.closing = isinstance(item, int)
            return
        if isinstance(item, int):
            self.closed = True  # nothing more is sent or handled; the drain closes
            self._drop(item)
        elif self._direct is not None and self._direct(item):
            return
        # A send that has to wait (or the close): the drain finishes it, and what comes
        # meanwhile waits behind it, in order.
        self._backlog = deque((item,))
        drain = self._drain = asyncio.get_running_loop().create_task(self._send_backlog())
        drain.add_done_callback(self._drain_ended)

    async def _send_backlog(self) -> None:
        """Send the backlog, in order, each frame within ``send_timeout``; a client that
        does not keep up is dropped."""
        backlog = self._backlog
        assert backlog is not None
        try:
            while backlog:
                item = backlog.popleft()
                if isinstance(item, int):
                    self.closed = True
                    self._drop(item)
                    await self._close_socket(item)
                    return
                async with asyncio.timeout(self.send_timeout):
                    await self.ws.send_text(item.decode())
            self._backlog = None
        except Exception:  # the client is gone, or too slow
            if not self.closed:
                self.close(CloseCode.TOO_SLOW)

    def _drain_ended(self, drain: asyncio.Task[None]) -> None:
        # A cancelled drain keeps its CancelledError, whose traceback holds the drain's
        # frame and so the connection: without the connection's link back to the task no
        # cycle is left to wait for a full collection (tests/rooms/test_memory.py).
        if self._drain is drain:
            self._drain = None

    def close(self, code: int = 1000) -> None:
        """Stop sending and close the socket (in the background)."""
        if self.closed:
            return
        self.closed = True
        self._drop(code)
        drain = self._drain
        if drain is not None and drain is not asyncio.current_task():
            drain.cancel()
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
        # The close itself lets nothing out (a socket closed under us: nothing to do).
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.send_timeout):
                await ws.close(code)

    async def finish(self, code: int = 1000) -> None:
        """Flush what is queued (e.g. an error), then close, and wait for it."""
        self.close_after_flush(code)
        await self.flushed()

    async def flushed(self) -> None:
        """Wait, at most ``send_timeout``, for a send that had to wait and what is queued
        behind it (a close included); never raises."""
        drain = self._drain
        if drain is not None and not drain.done():
            await asyncio.wait({drain}, timeout=self.send_timeout)

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
