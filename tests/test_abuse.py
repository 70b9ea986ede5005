"""Abuse tests against real ``amerikaner serve`` processes (issue 9): what a stranger with
the address can try.  Loopback has many addresses, so a second client is 127.0.0.2.

No test measures the machine's speed: a server's answer or close is waited for (``WAIT``
seconds at most, plenty on a busy machine) and what it means is read from causes (the
server's log line for the refusal, a socket still held), while the request deadline's
timing is pinned on an event loop whose clock the test moves."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from serve_process import ServeProcess
from shared_helpers import HTTP
from uvicorn.server import ServerState
from websockets.sync.client import connect

from app.runtime.http import GuardedProtocol, guarded_protocol
from app.web.addresses import TrustedProxies

OTHER = "127.0.0.2"  # another client's address (loopback answers 127/8)
PROXY = "127.0.0.3"  # a reverse proxy's address, trusted where a test says so
PLAYER = "127.0.0.4"  # a player's, whose rooms no limit under test counts
WAIT = 30.0  # seconds an answer, a close or a log line may take before the test fails


# The servers of this module, by the settings their tests need; tests that need the same
# settings share one (a server start costs some 2 s of CPU), each test making its own rooms
# and its own connections, and reading its own log lines.  A test whose counts or limits
# another test's requests would move has a server of its own.
SERVERS: dict[str, tuple[dict[str, str], int | None]] = {
    # three rooms a minute per address, PROXY a trusted proxy (127.0.0.1 is not), and a
    # generous message rate for the huge bids (the body, JSON depth and bid checks under
    # test depend on none of these; their tests make rooms from an address of their own)
    "plain": ({"AMERIKANER_ROOMS_PER_MINUTE": "3", "AMERIKANER_TRUSTED_PROXIES": PROXY,
               "AMERIKANER_RATE": "100000", "AMERIKANER_BURST": "100000",
               "AMERIKANER_FLOOD_WINDOW": "0"}, None),
    "held": ({"AMERIKANER_ROOMS_HELD": "2", "AMERIKANER_MAX_ROOMS": "3"}, None),
    # No request deadline: nothing but the per-address cap ever closes a half-open socket.
    "half_open": ({"AMERIKANER_REQUEST_DEADLINE": "0", "AMERIKANER_LOG_LEVEL": "warning"},
                  1024),
    "deadline": ({"AMERIKANER_REQUEST_DEADLINE": "1"}, None),
    # (held sockets wait for their hello for as long as the test takes)
    "sockets": ({"AMERIKANER_CONNECTIONS_PER_ADDRESS": "4",
                 "AMERIKANER_HELLO_TIMEOUT": "600"}, None),
}


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ServeProcess]]:
    """Every server of ``SERVERS``, started at once (their starts overlap) and stopped
    after the module's last test.  None may have logged a traceback by then (the whole
    log: stopped, a server can write no more)."""
    root = tmp_path_factory.mktemp("abuse")
    started = {name: ServeProcess(root / name, env, max_files=max_files)
               for name, (env, max_files) in SERVERS.items()}
    try:
        for p in started.values():
            p.launch()
        for p in started.values():
            p.wait_ready()
        yield started
    finally:
        logs = {name: p.stop() for name, p in started.items()}
    assert "Traceback" not in logs["plain"], logs["plain"]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def client_from(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=WAIT)


def wait_logged(srv: ServeProcess, text: str, count: int = 1) -> int:
    """How often ``text`` is in the server's log, once it is there ``count`` times at least
    (polled, for ``WAIT`` seconds at most)."""
    deadline = time.monotonic() + WAIT
    while (n := srv.output().count(text)) < count:
        assert time.monotonic() < deadline, f"{text!r} logged {n} times, not {count}"
        time.sleep(0.05)
    return n


def stream_body(port: int, head: bytes, chunk: bytes, total: int) -> tuple[bytes, int]:
    """Send ``head`` then ``chunk`` after ``chunk`` (``total`` bytes at most) until the
    server answers; its answer and the bytes of body sent."""
    sent = 0
    reply = b""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as s:
        s.sendall(head)
        with contextlib.suppress(OSError):  # the server closes once it has answered
            while sent < total:
                readable, _, _ = select.select([s], [], [], 0)
                if readable:
                    break
                s.sendall(chunk)
                sent += len(chunk)
        with contextlib.suppress(OSError):  # the reset after the answer
            while data := s.recv(65536):
                reply += data
    return reply, sent


def test_a_300_mb_body_is_refused_while_it_streams_and_costs_no_memory(
        servers: dict[str, ServeProcess]) -> None:
    srv = servers["plain"]
    before, logged = rss_kib(srv.pid), srv.output().count("kind=too_large")
    total = 300 * 1024 * 1024
    piece = b"x" * 65536
    heads = {  # declared up front, and streamed without a declared size
        "content-length": (f"Content-Length: {total}\r\n", piece),
        "chunked": ("Transfer-Encoding: chunked\r\n", b"10000\r\n" + piece + b"\r\n"),
    }
    for how, (header, chunk) in heads.items():
        head = (f"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"{header}\r\n").encode()
        reply, sent = stream_body(srv.port, head, chunk, total)
        status, _, rest = reply.partition(b"\r\n")
        assert status.startswith(b"HTTP/1.1 413"), (how, reply[:200])
        assert b'"code": "too_large"' in rest and b"connection: close" in rest.lower(), how
        assert sent < 32 * 1024 * 1024, (how, sent)  # refused long before the end
    grown = rss_kib(srv.pid) - before
    assert grown < 5 * 1024, f"the server grew by {grown} KiB"
    assert HTTP.get(f"{srv.base}/healthz", timeout=WAIT).status_code == 200
    # (logged before each 413 was sent)
    assert srv.output().count("kind=too_large") == logged + 2


def create(client: httpx.Client, base: str, **headers: str) -> httpx.Response:
    return client.post(f"{base}/api/rooms", json={"name": "Ann"}, headers=headers)


def new_room(srv: ServeProcess) -> dict[str, Any]:
    """A room made by ``PLAYER``: its room code and host token."""
    with client_from(PLAYER) as player:
        made = create(player, srv.base)
    assert made.status_code == 201, made.text
    room: dict[str, Any] = made.json()
    return room


def test_one_address_cannot_create_more_rooms_a_minute_than_allowed(
        servers: dict[str, ServeProcess]) -> None:
    # (the limit's window is the server's minute: the five requests below take a
    # fraction of it on any machine; the window's arithmetic is tested on a fake clock,
    # tests/test_web.py)
    srv = servers["plain"]  # three a minute
    with client_from("127.0.0.1") as one, client_from(OTHER) as other:
        assert [create(one, srv.base).status_code for _ in range(3)] == [201] * 3
        refused = create(one, srv.base)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        # an X-Forwarded-For from an untrusted peer is not believed
        assert create(one, srv.base, **{"X-Forwarded-For": "198.51.100.7"}).status_code == 429
        assert create(other, srv.base).status_code == 201  # everyone else still can
    assert "kind=rate_limit what=create_room address=127.0.0.1" in srv.output()


def test_one_address_cannot_hold_more_rooms_than_allowed_and_the_cap_counts_loaded_rooms(
        servers: dict[str, ServeProcess]) -> None:
    srv = servers["held"]
    with client_from("127.0.0.1") as one, client_from(OTHER) as other:
        made = [create(one, srv.base) for _ in range(2)]
        assert [r.status_code for r in made] == [201, 201]
        refused = create(one, srv.base)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_rooms"
        assert create(other, srv.base).status_code == 201  # everyone else still can
        # the memory cap counts every room however it came (three now): a fourth makes the
        # idle one that waited longest give way, and the health check says rooms come in
        health = HTTP.get(srv.base + "/healthz").json()
        assert health["rooms"] == 3 and health["accepting_rooms"] is True
        # the server runs on malloc (app/runtime/allocator.py): its live heap is glibc's
        # bytes in use
        assert health["allocator"] == "malloc" and health["heap_bytes"] > 1_000_000
        assert health["allocated_blocks"] == 0  # Python's own allocator is not in use
        assert create(other, srv.base).status_code == 201
        assert HTTP.get(srv.base + "/healthz").json()["rooms"] == 3
        # the room that gave way is still there: loading it back makes another give way
        code = made[0].json()["room"]
        assert HTTP.get(f"{srv.base}/api/rooms/{code}").status_code == 200
        assert HTTP.get(srv.base + "/healthz").json()["rooms"] == 3
    assert "kind=rooms_held address=127.0.0.1" in srv.output()


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(
        servers: dict[str, ServeProcess]) -> None:
    srv = servers["plain"]  # three a minute, PROXY trusted
    with client_from(PROXY) as proxy:
        a = {"X-Forwarded-For": "198.51.100.7"}
        b = {"X-Forwarded-For": "203.0.113.9, 198.51.100.8"}  # the proxy appended the last
        assert [create(proxy, srv.base, **a).status_code
                for _ in range(4)] == [201, 201, 201, 429]
        assert create(proxy, srv.base, **b).status_code == 201
    assert "address=198.51.100.7" in srv.output()
    assert f"address={PROXY}" not in srv.output()  # the proxy itself is never limited


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


def test_a_nested_json_frame_gets_bad_json_and_the_socket_stays_open(
        servers: dict[str, ServeProcess]) -> None:
    srv = servers["plain"]  # (its whole log is read for tracebacks once it has stopped)
    room = new_room(srv)
    url = srv.base.replace("http://", "ws://") + f"/ws/{room['room']}"
    nested = "[" * 2000 + "]" * 2000  # 4 KB: deeper than Python's parser can go
    with connect(url, open_timeout=WAIT) as ws:
        ws.send(nested)  # before hello
        assert json.loads(ws.recv(WAIT))["code"] == "bad_json"
    with connect(url, open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": room["token"]}))
        assert json.loads(ws.recv(WAIT))["type"] == "welcome"
        ws.recv(WAIT)  # the state
        for frame in (nested, '{"type": "chat", "text": ' + "[" * 40 + "]" * 40 + "}"):
            ws.send(frame)  # after hello: refused, and the socket stays open
            assert json.loads(ws.recv(WAIT))["code"] == "bad_json"
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(WAIT)) == {"type": "pong"}
    assert "Traceback" not in srv.output()  # and none after the close: see ``servers``


def test_many_distinct_huge_bids_leave_the_memory_flat(
        servers: dict[str, ServeProcess]) -> None:
    """Every numeric bid is range-checked before anything is kept: 20,000 distinct bids
    of up to 4,000 digits (40 MB sent) cost the server next to nothing (each would have
    kept about 2 KB before)."""
    srv = servers["plain"]  # (a generous message rate)
    room = new_room(srv)
    url = srv.base.replace("http://", "ws://") + f"/ws/{room['room']}"
    with connect(url, max_size=2**20, open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": room["token"]}))
        ws.recv(WAIT)
        ws.recv(WAIT)
        ws.send(json.dumps({"type": "start"}))

        def bids(count: int, start: int) -> None:
            for first in range(start, start + count, 40):  # reading the refusals as we go
                for i in range(first, first + 40):
                    digits = 4000 if i % 2 else 30
                    ws.send('{"type":"action","game":1,"action":{"bid":'
                            + str(10 ** (digits - 1) + i) + "}}")
                refused = 0
                while refused < 40:  # (the state frames of the start come first)
                    frame = json.loads(ws.recv(WAIT))
                    if frame["type"] == "error":
                        assert frame["code"] == "bad_action"
                        refused += 1

        bids(2000, 0)  # warm up: whatever the first messages allocate
        before = rss_kib(srv.pid)
        bids(18000, 2000)
        grown = rss_kib(srv.pid) - before
    assert grown < 5 * 1024, f"the server grew by {grown} KiB"
