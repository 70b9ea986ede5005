"""Abuse tests of what a stranger sends a real ``amerikaner serve`` process (issue 9): a
300 MB body refused while it streams, a deeply nested JSON frame, many distinct huge
bids, none of which costs the server memory or a traceback.

No test measures the machine's speed: a server's answer or close is waited for (``WAIT``
seconds at most) and what it means is read from causes (the server's log line for the
refusal).
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
from collections.abc import Iterator

import pytest
from abuse_helpers import WAIT, new_room, rss_kib, started_servers
from serve_process import ServeProcess
from shared_helpers import HTTP
from websockets.sync.client import connect


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ServeProcess]]:
    """The servers of this module's tests (``plain``: a generous message rate), stopped
    after its last test."""
    with started_servers(tmp_path_factory.mktemp("abuse"), ["plain"]) as started:
        yield started


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
