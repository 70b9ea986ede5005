"""The request deadline against slow requests (issue 9): a real ``amerikaner serve``
process closes a request not complete in time, and on an event loop whose clock the test
moves the deadline is pinned to run from the connection and from each answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from abuse_helpers import WAIT, started_servers
from serve_process import ServeProcess
from uvicorn.server import ServerState

from app.runtime.http import GuardedProtocol, guarded_protocol
from app.web.addresses import TrustedProxies


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ServeProcess]]:
    """The servers of this module's tests (a one-second request deadline), stopped
    after its last test."""
    with started_servers(tmp_path_factory.mktemp("abuse"), ["deadline"]) as started:
        yield started


def until_closed(s: socket.socket, trickle: bytes = b"") -> bytes:
    """Read ``s`` until the server closes it (a reset too: its close may cross a byte on
    the way); what it said.  ``trickle``: sent whenever nothing came for a moment, as a
    slow client keeps its request going.  Still open after ``WAIT`` seconds: fails."""
    said = b""
    deadline = time.monotonic() + WAIT
    s.settimeout(0.1)
    while True:
        try:
            data = s.recv(4096)
        except TimeoutError:  # nothing yet: a byte now and then, and wait on
            assert time.monotonic() < deadline, "the server kept the request open"
            if trickle:
                with contextlib.suppress(OSError):  # closed meanwhile: recv says so next
                    s.sendall(trickle)
            continue
        except ConnectionResetError:
            return said
        if not data:
            return said
        said += data


def answered(port: int) -> socket.socket:
    """A connection whose complete request got its answer (kept alive).  One the server
    closed first, the client having stalled past the deadline before sending a byte (a
    very busy machine), is replaced by another."""
    deadline = time.monotonic() + WAIT
    while True:
        s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        reply = b""
        with contextlib.suppress(OSError):
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            while not reply.endswith(b"}") and (data := s.recv(4096)):
                reply += data
        if reply:
            assert reply.startswith(b"HTTP/1.1 200"), reply[:200]
            return s
        s.close()
        assert time.monotonic() < deadline, "no complete request was answered"


def test_a_request_not_complete_within_the_deadline_is_closed(
        servers: dict[str, ServeProcess]) -> None:
    """A real server closes a request that never completes although bytes keep coming,
    and on a kept-alive connection the next one too; each close is the deadline's (its
    log line, written before the close).  How long the deadline is, and from when, is
    pinned on a stopped clock below."""
    srv = servers["deadline"]  # one second
    with socket.create_connection(("127.0.0.1", srv.port), timeout=WAIT) as s:
        with contextlib.suppress(OSError):  # (closed already if this client stalled)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        # a byte now and then does not keep it open (were it an idle timeout, the bytes
        # would keep it open for ever): closed, with nothing said
        assert until_closed(s, trickle=b"X") == b""
    assert srv.output().count("kind=slow_request") == 1
    with answered(srv.port) as s:  # a complete request is answered
        closes = srv.output().count("kind=slow_request")
        with contextlib.suppress(OSError):
            s.sendall(b"GET /healthz HTTP/1.1\r\n")
        # kept alive: the next request has its deadline too (uvicorn's own keep-alive
        # timeout stops at its first byte, and is longer)
        assert until_closed(s) == b""
    assert srv.output().count("kind=slow_request") == closes + 1


class StoppedClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock moves only when the test moves it (``advance``): the
    request deadline's timer (``loop.call_later``) fires by this clock, never the
    machine's."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock, then run what is due (a pass of the loop runs due timers)."""
        self.now += seconds
        self.run_until_complete(asyncio.sleep(0))


class HeldTransport(asyncio.Transport):
    """The server's end of one connection as its protocol sees it: what the server wrote
    to it, and whether it closed it."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("192.0.2.7", 40000),
                "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def test_the_request_deadline_runs_from_the_connection_and_from_each_answer(
        caplog: pytest.LogCaptureFixture) -> None:
    """app/runtime/http.py on a stopped clock: a request has the deadline (2 s here) from
    the connection, bytes trickling in do not reset it; once complete, the app's time is
    not the client's; a kept-alive connection's next request has it again, from the
    answer.  Closed with nothing said, and one ``slow_request`` line each."""
    loop = StoppedClockLoop()
    answer = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await answer.wait()  # the app takes its time (the clock moves meanwhile)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    protocol = guarded_protocol(2.0, 4, TrustedProxies(()))
    config = uvicorn.Config(app, log_config=None, proxy_headers=False, lifespan="off")
    state = ServerState()

    def connect() -> tuple[GuardedProtocol, HeldTransport]:
        server_end = protocol(config=config, server_state=state, app_state={}, _loop=loop)
        transport = HeldTransport()
        server_end.connection_made(transport)
        return server_end, transport

    caplog.set_level(logging.WARNING, logger="amerikaner.audit")
    try:
        slow, slow_end = connect()  # half a request, then a header line every 0.5 s
        slow.data_received(b"GET /healthz HTTP/1.1\r\n")
        for _ in range(3):
            loop.advance(0.5)
            slow.data_received(b"X-Slow: 1\r\n")
        loop.advance(0.375)
        assert not slow_end.closed  # 1.875 s after the connection: still open
        loop.advance(0.125)
        assert slow_end.closed and not slow_end.written  # 2 s: closed, nothing said
        assert caplog.text.count("kind=slow_request") == 1

        kept, kept_end = connect()
        loop.advance(1.5)
        kept.data_received(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # in time
        loop.advance(10)
        assert not kept_end.closed  # the app's 10 s are not the client's
        answer.set()
        loop.run_until_complete(asyncio.wait(set(state.tasks)))  # answered at 11.5 s
        assert kept_end.written.startswith(b"HTTP/1.1 200")
        loop.advance(1.875)
        kept.data_received(b"GET /healthz HTTP/1.1\r\n")  # the next, half of it
        assert not kept_end.closed
        loop.advance(0.125)
        assert kept_end.closed  # 2 s after the answer (not after its first byte)
        assert kept_end.written.endswith(b"ok")  # nothing said after the answer
        assert caplog.text.count("kind=slow_request") == 2
    finally:
        loop.close()
