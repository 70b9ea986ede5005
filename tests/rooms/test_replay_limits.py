"""What one replay may cost (app/rooms/server/replays.py, replay_work.py, replay_pool.py):
the per-address limits and the pool's bounded queue refuse an upload before its body is
read, a record over the work cap is refused by name, and a lone surrogate is a bad record
answered on a connection that stays open.  Loopback has many addresses: 127.0.0.2 and
127.0.0.3 are other clients.  Every wait is for an event (the pool's count of open
replays, an answer), with a generous deadline as a failure guard only."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from long_record import long_record
from room_fixtures import make_settings
from rooms_harness import ServerThread

from app.rooms.core.errors import RoomError
from app.rooms.core.wire_enums import LIMITS
from app.rooms.server.replay_work import check_work
from app.rooms.server.rules_example import example_record

WAIT = 60.0
Response = tuple[int, dict[str, str], Any]


def small_record() -> bytes:
    return json.dumps(example_record()).encode()


def open_upload(port: int, address: str, length: int, body: bytes = b"") -> socket.socket:
    """A connection from ``address`` that sent an upload's head (``Content-Length:
    length``) and ``body``, the first bytes of its body."""
    s = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=(address, 0))
    s.sendall(b"POST /api/replay HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
              + f"Content-Length: {length}\r\n\r\n".encode() + body)
    return s


def answer(s: socket.socket) -> Response:
    """The next answer on ``s``: its status, headers (lower case) and JSON body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, f"the server closed the connection; got {data!r}"
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (h.split(":", 1) for h in lines[1:])}
    size = int(headers.get("content-length", "0"))
    while len(rest) < size:
        chunk = s.recv(65536)
        assert chunk, "the server closed the connection mid-answer"
        rest += chunk
    return int(lines[0].split()[1]), headers, json.loads(rest[:size])


def upload(port: int, address: str, body: bytes) -> Response:
    with open_upload(port, address, len(body), body) as s:
        return answer(s)


def wait_for(what: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"not within {WAIT:.0f} s: {what}"
        time.sleep(0.01)


def open_replays(srv: ServerThread) -> int:
    """Replays the server admitted and has not answered yet."""
    pending: int = srv.app.state.replay_pool.stats()["pending"]
    return pending


@contextmanager
def serving(tmp_path: Path, **settings: object) -> Iterator[ServerThread]:
    with ServerThread(make_settings(tmp_path / "data", **settings)) as srv:
        yield srv


def test_replays_at_once_are_refused_before_their_body_is_read(tmp_path: Path) -> None:
    body = small_record()
    half = len(body) // 2
    with serving(tmp_path, replays_at_once=2, replays_per_minute=0) as srv:
        held = [open_upload(srv.port, "127.0.0.1", len(body), body[:half]) for _ in range(2)]
        wait_for("both uploads are admitted", lambda: open_replays(srv) == 2)
        # a third from the same address is answered at once, its body never sent
        with open_upload(srv.port, "127.0.0.1", len(body)) as third:
            status, headers, error = answer(third)
        assert status == 429 and error["error"]["code"] == "rate_limited", error
        assert headers["retry-after"] == "1"
        assert "2 replays at once" in error["error"]["message"]
        # another address is let in meanwhile
        status, _, shown = upload(srv.port, "127.0.0.2", body)
        assert status == 200 and shown["deal"] == 0
        for s in held:  # the held bodies, finished, are replayed
            s.sendall(body[half:])
            status, _, shown = answer(s)
            assert status == 200 and shown["deal"] == 0
            s.close()
        wait_for("nothing is open", lambda: open_replays(srv) == 0)
        assert upload(srv.port, "127.0.0.1", body)[0] == 200


def test_replays_a_minute_and_a_full_queue_are_refused(tmp_path: Path) -> None:
    body = small_record()
    with serving(tmp_path, replays_per_minute=3, replay_workers=1, replay_queue=0) as srv:
        for _ in range(3):
            assert upload(srv.port, "127.0.0.1", body)[0] == 200
        status, headers, error = upload(srv.port, "127.0.0.1", body)
        assert status == 429 and error["error"]["code"] == "rate_limited", error
        assert 1 <= int(headers["retry-after"]) <= 60
        assert "3 replays a minute" in error["error"]["message"]
        # the pool holds one replay: 127.0.0.2's held upload fills it ...
        with open_upload(srv.port, "127.0.0.2", len(body), body[:10]) as held:
            wait_for("the held upload is admitted", lambda: open_replays(srv) == 1)
            status, headers, error = upload(srv.port, "127.0.0.3", body)
            assert status == 503 and error["error"]["code"] == "unavailable", error
            assert headers["retry-after"] == "1"
            held.sendall(body[10:])
            assert answer(held)[0] == 200
        assert upload(srv.port, "127.0.0.3", body)[0] == 200  # ... and then has room


def test_a_record_over_the_work_cap_is_refused_by_name(server: ServerThread) -> None:
    deals = LIMITS["RECORD_DEALS_MAX"] + 1
    record = long_record(LIMITS["RECORD_BYTES_MAX"], max_deals=deals)
    assert len(json.loads(record)["deals"]) == deals
    status, _, error = upload(server.port, "127.0.0.1", record)
    assert status == 413 and error["error"]["code"] == "too_much_work", error
    assert error["error"]["message"].startswith(f"this record holds {deals} deals; the "
                                                f"server replays records of at most "
                                                f"{deals - 1}")
    actions = LIMITS["RECORD_ACTIONS_MAX"] + 1
    with pytest.raises(RoomError) as refused:
        check_work({"deals": [{"actions": [{}] * actions}]})
    assert refused.value.code == "too_much_work"
    assert f"holds {actions} actions" in refused.value.message


def test_a_lone_surrogate_is_a_bad_record_and_the_connection_stays(
        server: ServerThread) -> None:
    record = example_record()
    lone = json.dumps({**record, "players": ["\ud800", *record["players"][1:]]}).encode()
    assert b"\\ud800" in lone
    paired = json.dumps({**record, "players": ["\U0001f0a1", *record["players"][1:]]})
    with open_upload(server.port, "127.0.0.1", len(lone), lone) as s:
        status, headers, error = answer(s)
        assert status == 400 and error["error"]["code"] == "bad_record", error
        assert "lone surrogate" in error["error"]["message"]
        assert headers.get("connection") != "close"
        # the same connection takes the next request: a pair is one character
        s.sendall(b"POST /api/replay HTTP/1.1\r\nHost: test\r\n"
                  + f"Content-Length: {len(paired.encode())}\r\n\r\n".encode()
                  + paired.encode())
        status, _, shown = answer(s)
        assert status == 200 and shown["players"][0] == "\U0001f0a1", shown
    status, _, error = upload(server.port, "127.0.0.1", b'{"\\udc00": 1}')
    assert status == 400 and error["error"]["code"] == "bad_record", error
