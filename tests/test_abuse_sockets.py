"""Abuse tests of held sockets against real ``amerikaner serve`` processes (issue 9):
half-open connections from one address leave the server answering others, and
WebSockets count against the per-address socket cap until they close.

No test measures the machine's speed: a server's answer or close is waited for (``WAIT``
seconds at most) and what it means is read from causes (a socket still held).
"""

from __future__ import annotations

import contextlib
import json
import resource
import socket
import time
from collections.abc import Iterator

import pytest
from abuse_helpers import OTHER, WAIT, client_from, create, started_servers, wait_logged
from serve_process import ServeProcess
from websockets.sync.client import connect


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ServeProcess]]:
    """The servers of this module's tests (``half_open``: no request deadline, ``sockets``:
    four per address), stopped after its last test."""
    with started_servers(tmp_path_factory.mktemp("abuse"), ["half_open", "sockets"]) as started:
        yield started


def half_open(port: int, count: int) -> list[socket.socket]:
    """``count`` connections from 127.0.0.1 that each send half a request, then nothing."""
    socks: list[socket.socket] = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        socks.append(s)
        with contextlib.suppress(OSError):  # the server may have closed it already
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # no blank line: never done
    return socks


def test_half_open_connections_from_one_address_leave_the_server_answering_others(
        servers: dict[str, ServeProcess]) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1300:  # this test process holds the 1,100 client sockets
        if hard != resource.RLIM_INFINITY and hard < 1300:
            pytest.skip("needs 1,300 open files in the test process")
        resource.setrlimit(resource.RLIMIT_NOFILE, (1300, hard))
    # No request deadline: nothing but the per-address cap ever closes a half-open socket.
    # Without the cap the server, out of file descriptors while the test holds them all,
    # could never answer another client (the request below would fail after WAIT
    # seconds); with it, the answer comes however slow the machine is.
    srv = servers["half_open"]  # (1,024 open files)
    socks = half_open(srv.port, 1100)
    try:
        with client_from(OTHER) as other:
            assert other.get(f"{srv.base}/healthz").status_code == 200
        wait_logged(srv, "kind=connection address=127.0.0.1", 1100 - 64)
    finally:
        for s in socks:
            s.close()


def upgrade(base: str, path: str) -> socket.socket | None:
    """A WebSocket upgrade request to ``path`` on a raw socket: the socket, held open and
    silent (waiting to say hello), if the server let it in; ``None`` if it was refused (a
    503, or the connection closed or reset).  No answer within ``WAIT`` seconds fails.
    A raw socket, because websockets' sync client trips over its own assertion when the
    server resets it in the middle of its handshake."""
    host, port = base.removeprefix("http://").split(":")
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode()
    s = socket.create_connection((host, int(port)), timeout=WAIT)
    try:
        s.sendall(request)
        reply = s.recv(100)
    except (ConnectionResetError, BrokenPipeError):
        reply = b""  # reset while the request was still being sent
    except BaseException:
        s.close()
        raise
    if reply.startswith(b"HTTP/1.1 101"):
        return s
    s.close()
    assert reply == b"" or reply.startswith(b"HTTP/1.1 503"), reply
    return None


def hold(base: str, path: str, count: int) -> list[socket.socket]:
    """``count`` WebSockets let in and held open at once.  The server gives a closed
    socket's count back a moment after the client has closed it: until it has, one is
    refused, and all are let go and tried again (for ``WAIT`` seconds at most)."""
    deadline = time.monotonic() + WAIT
    while True:
        held: list[socket.socket] = []
        while len(held) < count and (s := upgrade(base, path)) is not None:
            held.append(s)
        if len(held) == count:
            return held
        for s in held:
            s.close()
        assert time.monotonic() < deadline, f"only {len(held)} let in: closed ones still count"
        time.sleep(0.05)


def test_websockets_count_against_the_socket_cap_until_they_close(
        servers: dict[str, ServeProcess]) -> None:
    srv = servers["sockets"]  # four per address, a long wait for hello
    url = srv.base.replace("http://", "ws://") + "/ws/" + "z" * 10
    for _ in range(10):  # each closes: its count is given back
        with connect(url, open_timeout=WAIT, close_timeout=WAIT) as ws:
            assert json.loads(ws.recv(WAIT))["code"] == "room_not_found"
    with client_from(OTHER) as other:  # (from elsewhere: 127.0.0.1 counts WebSockets only)
        code = create(other, srv.base).json()["room"]
    # ten came and went, yet four are let in: their counts were given back (a leak would
    # keep refusing, and the wait fail)
    held = hold(srv.base, f"/ws/{code}", 4)
    try:
        # four are open: a fifth is refused at once
        fifth = upgrade(srv.base, f"/ws/{code}")
        if fifth is not None:
            fifth.close()
        assert fifth is None, "a fifth socket from the address was let in"
        assert "kind=connection address=127.0.0.1 limit=4" in srv.output()
        with client_from(OTHER) as other:
            assert other.get(f"{srv.base}/healthz").status_code == 200
    finally:
        for s in held:
            s.close()
