"""A stop that loses no table: uvicorn's server, draining the rooms before it shuts down.

On SIGTERM (or SIGINT) uvicorn stops listening, closes every connection (WebSockets with
1012) and waits for them, and only then runs the app's shutdown, which let the rooms'
leases go: players who reconnected at once met a room still held by a process that
served it no more, and waited for their retries.  ``DrainingServer`` first hands the
rooms over (``Registry.drain``: the step in flight saved, the leases let go, then the
sockets closed with 1012), while the process still answers, so that requests for its rooms
are passed on (503) and the next process takes them at once; then uvicorn's own shutdown.
``uvicorn.Server.shutdown`` is public; tests/test_runtime_uvicorn.py checks its shape.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Awaitable, Callable

import uvicorn

log = logging.getLogger("amerikaner")


class DrainingServer(uvicorn.Server):
    """``uvicorn.Server`` that awaits ``drain()`` before it shuts down."""

    def __init__(self, config: uvicorn.Config, drain: Callable[[], Awaitable[None]]) -> None:
        super().__init__(config)
        self.drain = drain

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await self.drain()
        except Exception:  # the rooms' leases still go at the app's shutdown
            log.exception("the rooms could not be handed over before stopping")
        await super().shutdown(sockets)
