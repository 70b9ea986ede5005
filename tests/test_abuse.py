"""Abuse tests against real ``amerikaner serve`` processes (issue 9): what a stranger with
the address can try, each bounded to a few seconds.  Loopback has many addresses, so a
second client is 127.0.0.2."""

from __future__ import annotations

import contextlib
import json
import resource
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from serve_process import ServeProcess
from websockets.sync.client import connect

OTHER = "127.0.0.2"  # another client's address (loopback answers 127/8)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[list[ServeProcess]]:
    """The servers a test starts (with ``start``): all are stopped after the test."""
    started: list[ServeProcess] = []
    yield started
    for p in started:
        p.stop()


def start(started: list[ServeProcess], data: Path, env: dict[str, str] | None = None,
          max_files: int | None = None) -> ServeProcess:
    p = ServeProcess(data, env, max_files=max_files)
    started.append(p)
    return p.start()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def client_from(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=5)


def stream_body(port: int, head: bytes, chunk: bytes, total: int) -> tuple[bytes, int]:
    """Send ``head`` then ``chunk`` after ``chunk`` (``total`` bytes at most) until the
    server answers; its answer and the bytes of body sent."""
    sent = 0
    reply = b""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
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
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    srv = start(serve, tmp_path / "data")
    before = rss_kib(srv.pid)
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
    assert httpx.get(f"{srv.base}/healthz").status_code == 200
    assert "kind=too_large" in srv.output()


def create(client: httpx.Client, base: str, **headers: str) -> httpx.Response:
    return client.post(f"{base}/api/rooms", json={"name": "Ann"}, headers=headers)


def test_one_address_cannot_create_more_rooms_a_minute_than_allowed(
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    srv = start(serve, tmp_path / "data", env={"AMERIKANER_ROOMS_PER_MINUTE": "3"})
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
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    srv = start(serve, tmp_path / "data", env={"AMERIKANER_ROOMS_HELD": "2",
                                               "AMERIKANER_MAX_ROOMS": "3"})
    with client_from("127.0.0.1") as one, client_from(OTHER) as other:
        made = [create(one, srv.base) for _ in range(2)]
        assert [r.status_code for r in made] == [201, 201]
        refused = create(one, srv.base)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_rooms"
        assert create(other, srv.base).status_code == 201  # everyone else still can
        # the memory cap counts every room however it came (three now): a fourth makes the
        # idle one that waited longest give way, and the health check says rooms come in
        health = httpx.get(srv.base + "/healthz").json()
        assert health["rooms"] == 3 and health["accepting_rooms"] is True
        # the server runs on malloc (app/allocator.py): its live heap is glibc's bytes in use
        assert health["allocator"] == "malloc" and health["heap_bytes"] > 1_000_000
        assert health["allocated_blocks"] == 0  # Python's own allocator is not in use
        assert create(other, srv.base).status_code == 201
        assert httpx.get(srv.base + "/healthz").json()["rooms"] == 3
        # the room that gave way is still there: loading it back makes another give way
        code = made[0].json()["room"]
        assert httpx.get(f"{srv.base}/api/rooms/{code}").status_code == 200
        assert httpx.get(srv.base + "/healthz").json()["rooms"] == 3
    assert "kind=rooms_held address=127.0.0.1" in srv.output()


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    srv = start(serve, tmp_path / "data", env={"AMERIKANER_ROOMS_PER_MINUTE": "2",
                                               "AMERIKANER_TRUSTED_PROXIES": "127.0.0.1"})
    with client_from("127.0.0.1") as proxy:
        a = {"X-Forwarded-For": "198.51.100.7"}
        b = {"X-Forwarded-For": "203.0.113.9, 198.51.100.8"}  # the proxy appended the last
        assert [create(proxy, srv.base, **a).status_code for _ in range(3)] == [201, 201, 429]
        assert create(proxy, srv.base, **b).status_code == 201
    assert "address=198.51.100.7" in srv.output()


def half_open(port: int, count: int) -> list[socket.socket]:
    """``count`` connections from 127.0.0.1 that each send half a request, then nothing."""
    socks: list[socket.socket] = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        socks.append(s)
        with contextlib.suppress(OSError):  # the server may have closed it already
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # no blank line: never done
    return socks


def test_half_open_connections_from_one_address_leave_the_server_answering_others(
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1300:  # this test process holds the 1,100 client sockets
        if hard != resource.RLIM_INFINITY and hard < 1300:
            pytest.skip("needs 1,300 open files in the test process")
        resource.setrlimit(resource.RLIMIT_NOFILE, (1300, hard))
    # a long request deadline: the per-address cap alone must keep the server answering
    srv = start(serve, tmp_path / "data", max_files=1024,
                env={"AMERIKANER_REQUEST_DEADLINE": "60", "AMERIKANER_LOG_LEVEL": "warning"})
    socks = half_open(srv.port, 1100)
    try:
        with client_from(OTHER) as other:
            t0 = time.monotonic()
            r = other.get(f"{srv.base}/healthz", timeout=1)
            assert r.status_code == 200 and time.monotonic() - t0 < 1
        assert srv.output().count("kind=connection address=127.0.0.1") >= 1100 - 64
    finally:
        for s in socks:
            s.close()


def test_a_request_not_complete_within_the_deadline_is_closed(
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    srv = start(serve, tmp_path / "data", env={"AMERIKANER_REQUEST_DEADLINE": "1"})
    with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as s:
        t0 = time.monotonic()
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        for _ in range(3):  # a byte now and then does not keep it open
            time.sleep(0.3)
            s.sendall(b"X")
        assert s.recv(100) == b""  # closed, with nothing said
        assert 0.9 < time.monotonic() - t0 < 3
    with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # complete: answered
        reply = b""
        while not reply.endswith(b"}"):
            reply += s.recv(4096)
        assert reply.startswith(b"HTTP/1.1 200")
        t0 = time.monotonic()  # kept alive: the next request has its deadline too
        s.sendall(b"GET /healthz HTTP/1.1\r\n")
        assert s.recv(100) == b""
        assert 0.9 < time.monotonic() - t0 < 3
    assert "kind=slow_request" in srv.output()


def upgrade_refused(base: str, path: str) -> bool:
    """Whether a WebSocket upgrade request to ``path`` gets a 503 or a closed socket."""
    host, port = base.removeprefix("http://").split(":")
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode()
    with socket.create_connection((host, int(port)), timeout=5) as s:
        try:
            s.sendall(request)
            reply = s.recv(100)
        except OSError:
            return True  # reset
    return reply == b"" or reply.startswith(b"HTTP/1.1 503")


def test_websockets_count_against_the_socket_cap_until_they_close(
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    srv = start(serve, tmp_path / "data", env={"AMERIKANER_CONNECTIONS_PER_ADDRESS": "4"})
    url = srv.base.replace("http://", "ws://") + "/ws/" + "z" * 10
    for _ in range(10):  # each closes: its count is given back
        with connect(url) as ws:
            assert json.loads(ws.recv(5))["code"] == "room_not_found"
    time.sleep(0.2)
    code = httpx.post(f"{srv.base}/api/rooms", json={"name": "Ann"}).json()["room"]
    time.sleep(0.2)
    url = srv.base.replace("http://", "ws://") + f"/ws/{code}"
    with contextlib.ExitStack() as held:
        for _ in range(4):  # silent, waiting to say hello
            held.enter_context(connect(url))
        # refused at once: a 503, or a reset if the request was still being sent.  A raw
        # socket, because websockets' sync client trips over its own assertion when the
        # server resets it in the middle of its handshake.
        assert upgrade_refused(srv.base, f"/ws/{code}")
        assert "kind=connection address=127.0.0.1 limit=4" in srv.output()
        with client_from(OTHER) as other:
            assert other.get(f"{srv.base}/healthz").status_code == 200


def test_a_nested_json_frame_gets_bad_json_and_the_socket_stays_open(
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    srv = start(serve, tmp_path / "data")
    room = httpx.post(f"{srv.base}/api/rooms", json={"name": "Ann"}).json()
    url = srv.base.replace("http://", "ws://") + f"/ws/{room['room']}"
    nested = "[" * 2000 + "]" * 2000  # 4 KB: deeper than Python's parser can go
    with connect(url) as ws:
        ws.send(nested)  # before hello
        assert json.loads(ws.recv(5))["code"] == "bad_json"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": room["token"]}))
        assert json.loads(ws.recv(5))["type"] == "welcome"
        ws.recv(5)  # the state
        for frame in (nested, '{"type": "chat", "text": ' + "[" * 40 + "]" * 40 + "}"):
            ws.send(frame)  # after hello: refused, and the socket stays open
            assert json.loads(ws.recv(5))["code"] == "bad_json"
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(5)) == {"type": "pong"}
    assert "Traceback" not in srv.output()


def test_many_distinct_huge_bids_leave_the_memory_flat(
        tmp_path: Path, serve: list[ServeProcess]) -> None:
    """Every numeric bid is range-checked before anything is kept: 20,000 distinct bids
    of up to 4,000 digits (40 MB sent) cost the server next to nothing (each would have
    kept about 2 KB before)."""
    srv = start(serve, tmp_path / "data", env={"AMERIKANER_RATE": "100000",
                                               "AMERIKANER_BURST": "100000",
                                               "AMERIKANER_FLOOD_WINDOW": "0"})
    room = httpx.post(f"{srv.base}/api/rooms", json={"name": "Ann"}).json()
    url = srv.base.replace("http://", "ws://") + f"/ws/{room['room']}"
    with connect(url, max_size=2**20) as ws:
        ws.send(json.dumps({"type": "hello", "token": room["token"]}))
        ws.recv(5)
        ws.recv(5)
        ws.send(json.dumps({"type": "start"}))

        def bids(count: int, start: int) -> None:
            for first in range(start, start + count, 40):  # reading the refusals as we go
                for i in range(first, first + 40):
                    digits = 4000 if i % 2 else 30
                    ws.send('{"type":"action","game":1,"action":{"bid":'
                            + str(10 ** (digits - 1) + i) + "}}")
                refused = 0
                while refused < 40:  # (the state frames of the start come first)
                    frame = json.loads(ws.recv(30))
                    if frame["type"] == "error":
                        assert frame["code"] == "bad_action"
                        refused += 1

        bids(2000, 0)  # warm up: whatever the first messages allocate
        before = rss_kib(srv.pid)
        bids(18000, 2000)
        grown = rss_kib(srv.pid) - before
    assert grown < 5 * 1024, f"the server grew by {grown} KiB"
