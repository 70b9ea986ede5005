"""Abuse tests of room making against real ``amerikaner serve`` processes (issue 9): one
address may make only so many rooms a minute and hold only so many, and behind a trusted
proxy each forwarded client has a limit of its own. Loopback has many addresses, so a
second client is 127.0.0.2.

No test measures the machine's speed: a server's answer is waited for (``WAIT`` seconds at
most) and what it means is read from causes (the server's log line for the refusal).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from abuse_helpers import OTHER, PROXY, client_from, create, started_servers
from serve_process import ServeProcess
from shared_helpers import HTTP


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ServeProcess]]:
    """The servers of this module's tests (``plain``: three rooms a minute, ``held``: two
    rooms held), stopped after its last test."""
    with started_servers(tmp_path_factory.mktemp("abuse"), ["plain", "held"]) as started:
        yield started


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
