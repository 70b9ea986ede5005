"""A bound connection's messages, from the socket to its room: the flood guard and the rate
limit, parsing, ``ping``, then the room's runner.  Refusals (``RoomError``) become an
error frame to the sender only, and nothing changed.

Where the server's protocol hands messages over as they arrive (app/web/wsprotocol.py)
and the store writes without waiting (SQLite), a message is handled right there, inline
(``receive``): its handling never suspends, so it needs no queue, no task wake-up and no
coroutines parked per connection between messages, and uvicorn does not pause and resume
reading the socket around every message.  Should a handling suspend all the same, a task
finishes it and handles the messages that came meanwhile, in order.  Elsewhere (a store
that waits for a database server, or another server) the connection's own task reads and
awaits ``handle`` for each message.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Coroutine
from typing import Any

from app.rooms.core.effects import Received
from app.rooms.core.errors import RoomError
from app.rooms.core.frames import error_frame
from app.rooms.core.messages import BadMessage, Hello, Ping, parse_client_message
from app.settings import Settings
from app.web import audit
from app.web.guards import Guards

from .connections import Connection
from .eager import DONE, resume, start
from .runner import CLOSE_TRY_AGAIN, RoomRunner

log = logging.getLogger("amerikaner.rooms")

CLOSE_FLOOD, CLOSE_FAILED = 4429, 1011
BACKLOG_LIMIT = 64  # messages waiting behind a handling that suspended: then a flood


class Session:
    """One connection bound to its room: what it sends goes to ``receive`` (inline) or
    ``handle`` (awaited by the connection's task)."""

    __slots__ = ("_backlog", "_worker", "address", "conn", "flood", "max_bytes", "runner")

    def __init__(self, runner: RoomRunner, conn: Connection, settings: Settings,
                 guards: Guards, address: str) -> None:
        self.runner = runner
        self.conn = conn
        self.address = address
        self.max_bytes = settings.max_message_bytes
        self.flood = guards.flood_guard()
        # messages that came while a handling was suspended; None while none is
        self._backlog: deque[str | bytes] | None = None
        self._worker: asyncio.Task[None] | None = None

    def receive(self, raw: str | bytes) -> None:
        """Handle a message now, unless one before it is still being handled; never waits."""
        if self.conn.closed:
            return
        backlog = self._backlog
        if backlog is not None:
            if len(backlog) >= BACKLOG_LIMIT:
                self._flooded()
            else:
                backlog.append(raw)
            return
        coro = self.handle(raw)
        waiting = start(coro)  # handle() lets no exception out
        if waiting is not DONE:
            self._backlog = deque()
            self._worker = asyncio.get_running_loop().create_task(self._finish(coro, waiting))

    async def _finish(self, coro: Coroutine[Any, Any, None], waiting: object) -> None:
        """Finish a handling that suspended, then the messages that came meanwhile."""
        await resume(coro, waiting)
        while self._backlog:
            await self.handle(self._backlog.popleft())
        self._backlog = None

    def stop(self) -> None:
        """The connection ended: nothing more is handled."""
        if self._worker is not None and not self._worker.done():
            self._worker.cancel()

    async def handle(self, raw: str | bytes) -> None:
        """One message: refused to its sender, passed to the room, or the connection
        closed (a flood, a room that broke off).  Lets no exception out."""
        conn = self.conn
        if conn.closed:
            return
        if not self.flood.note():  # too many messages over the window: a flood, not a burst
            self._flooded()
            return
        if not conn.limiter.allow():
            if conn.limiter.strikes == 1:
                conn.send(error_frame("rate_limited", "slow down: too many messages"))
            return
        runner = self.runner
        try:
            msg = parse_client_message(raw, self.max_bytes)
            if isinstance(msg, Ping):
                conn.send({"type": "pong"})
                return
            if isinstance(msg, Hello):
                raise BadMessage("already_hello", "this connection has said hello already")
            await runner.submit(Received(conn.id, msg))
        except RoomError as exc:  # BadMessage included
            if runner.closed and exc.code == "unavailable":
                # The room broke off: its error and close (1013) are on their way.
                conn.close_after_flush(CLOSE_TRY_AGAIN)
                return
            conn.send(error_frame(exc.code, exc.message, exc.option))
        except Exception:  # a bug: this connection ends, the room and the server go on
            log.exception("room %s: a message failed", runner.code)
            conn.close_after_flush(CLOSE_FAILED)

    def _flooded(self) -> None:
        audit.refused("flood", address=self.address, room=self.runner.code)
        self.conn.close_after_flush(CLOSE_FLOOD)
