"""The web layer's pieces on their own (app/web/): limits with a hand-stepped clock,
client addresses, the audit line, and the body limit as plain ASGI."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import Request

from app.rooms.server.connection import FloodGuard
from app.settings import Settings
from app.web import audit
from app.web.addresses import TrustedProxies, address_key, client_address, resolve
from app.web.bodylimit import BodyLimit
from app.web.guards import Guards
from app.web.limits import OpenCounter, WindowLimit


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- limits ---------------------------------------------------------------------------------

def test_window_limit_allows_limit_per_window_per_key_and_says_how_long_to_wait() -> None:
    clock = Clock()
    limit = WindowLimit(3, 60.0, clock)
    assert [limit.hit("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    clock.now += 10
    assert limit.hit("a") == pytest.approx(50.0)  # the first leaves the window in 50 s
    assert limit.hit("b") == 0.0                  # others are not affected
    clock.now += 49
    assert limit.hit("a") > 0
    clock.now += 1  # the first three leave the window together
    assert [limit.hit("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.hit("a") == pytest.approx(60.0)


def test_window_limit_forgets_quiet_keys_and_zero_means_no_limit() -> None:
    clock = Clock()
    limit = WindowLimit(2, 60.0, clock)
    for i in range(1000):
        limit.hit(f"10.0.{i // 250}.{i % 250}")
    assert len(limit) == 1000
    clock.now += 61
    limit.hit("x")
    assert len(limit) == 1  # memory bounded by the keys active within a window
    unlimited = WindowLimit(0, 60.0, clock)
    assert all(unlimited.hit("a") == 0.0 for _ in range(100))


@given(st.lists(st.floats(0, 30), max_size=60), st.integers(1, 5))
def test_window_limit_never_allows_more_than_limit_in_any_window(
        gaps: list[float], n: int) -> None:
    clock = Clock()
    limit = WindowLimit(n, 10.0, clock)
    allowed: list[float] = []
    for gap in gaps:
        clock.now += gap
        if limit.hit("k") == 0.0:
            allowed.append(clock.now)
    for i, t in enumerate(allowed):
        assert sum(1 for u in allowed[i:] if u < t + 10.0) <= n


def test_open_counter_caps_each_key_and_releases() -> None:
    counter = OpenCounter(2)
    assert counter.acquire("a") and counter.acquire("a") and not counter.acquire("a")
    assert counter.acquire("b")
    counter.release("a")
    assert counter.count("a") == 1 and counter.acquire("a")
    for _ in range(2):
        counter.release("a")
    counter.release("b")
    assert len(counter) == 0  # nothing kept for keys with nothing open
    assert all(OpenCounter(0).acquire("a") for _ in range(100))


def test_flood_guard_counts_every_message_over_the_window() -> None:
    clock = Clock()
    guard = FloodGuard(100, 10.0, clock)
    for _ in range(100):  # 10 a second: at the limit, never over
        clock.now += 0.1
        assert guard.note()
    clock.now += 0.0001
    assert not guard.note()  # 101 within 10 s
    paced = FloodGuard.for_rate(10.0, 30, 10.0, clock)
    assert paced.limit == 230
    clock.now += 100
    # a flood paced at 370 a second is cut within a second, however it slips past refusals
    results = []
    for _ in range(400):
        clock.now += 1 / 370
        results.append(paced.note())
    assert not results[-1] and results.index(False) == 230


def test_a_flood_guard_keeps_only_the_window_s_messages() -> None:
    """A connection that lives for hours, one message every few seconds, holds a few
    timestamps, not its last ``limit`` (the soak found every socket's deque full)."""
    clock = Clock()
    guard = FloodGuard.for_rate(1000.0, 1000, 10.0, clock)
    for _ in range(5000):
        clock.now += 3.0
        assert guard.note()
    assert len(guard._times) <= 4


def test_the_settings_of_the_limits_come_from_the_environment() -> None:
    s = Settings.from_env({"AMERIKANER_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1",
                           "AMERIKANER_ROOMS_PER_MINUTE": "5",
                           "AMERIKANER_REQUEST_DEADLINE": "2.5"})
    assert s.trusted_proxies == ("10.0.0.0/8", "192.0.2.1")
    assert s.rooms_per_minute == 5 and s.request_deadline == 2.5
    assert Settings().trusted_proxies == ()  # nobody's X-Forwarded-For by default


def test_the_guards_of_an_app_follow_its_settings() -> None:
    guards = Guards.from_settings(Settings(trusted_proxies=("10.0.0.0/8",), ws_per_seat=2,
                                           rooms_per_minute=7, rate=10, burst=30))
    scope = {"client": ("10.0.0.2", 1), "headers": [(b"x-forwarded-for", b"2001:db8::1")]}
    assert guards.address(scope) == "2001:db8::1"
    assert guards.key("2001:db8::1") == "2001:db8::/64"
    assert guards.room_creation.limit == 7 and guards.ws_per_seat.limit == 2


# -- addresses ------------------------------------------------------------------------------

PROXIES = TrustedProxies(["10.0.0.0/8", "::1"])


@pytest.mark.parametrize(("peer", "xff", "client"), [
    ("203.0.113.5", "198.51.100.1", "203.0.113.5"),        # not a proxy: not believed
    ("10.1.2.3", "198.51.100.1", "198.51.100.1"),
    ("10.1.2.3", "6.6.6.6, 198.51.100.1", "198.51.100.1"),  # the client's own claim: ignored
    ("10.1.2.3", "198.51.100.1, 10.9.9.9", "198.51.100.1"),  # a chain of trusted proxies
    ("10.1.2.3", "garbage, 10.9.9.9", "10.9.9.9"),          # unreadable: the last proxy
    ("10.1.2.3", None, "10.1.2.3"),
    ("::1", "2001:db8::7", "2001:db8::7"),
    ("10.1.2.3", "::ffff:198.51.100.2", "198.51.100.2"),
])
def test_forwarded_for_is_believed_only_from_trusted_proxies(
        peer: str, xff: str | None, client: str) -> None:
    assert resolve(peer, xff, PROXIES) == client
    assert resolve(peer, xff, TrustedProxies([])) == peer


def test_client_address_reads_the_asgi_scope() -> None:
    scope = {"type": "http", "client": ("10.0.0.2", 5555),
             "headers": [(b"x-forwarded-for", b"198.51.100.1"),
                         (b"x-forwarded-for", b"198.51.100.9")]}
    assert client_address(scope, PROXIES) == "198.51.100.9"
    assert client_address({"type": "http", "headers": []}, PROXIES) == "unknown"


def test_an_ipv6_client_is_counted_by_its_64_network() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("198.51.100.7") == "198.51.100.7"
    with pytest.raises(ValueError):
        TrustedProxies(["not-an-address"])


# -- audit ----------------------------------------------------------------------------------

def test_one_structured_line_per_refusal(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="amerikaner.audit"):
        audit.refused("rate_limit", address="203.0.113.9", limit=10, path="/a b")
    assert caplog.messages == ['refused kind=rate_limit address=203.0.113.9 limit=10 '
                               'path="/a b"']


# -- the body limit as ASGI -----------------------------------------------------------------

async def echo_length(scope: Any, receive: Any, send: Any) -> None:
    body = await Request(scope, receive).body()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(len(body)).encode()})


def call(app: Any, chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> tuple[
        list[dict[str, Any]], int]:
    """Run one request through ``app``; the messages sent and the chunks read."""
    sent: list[dict[str, Any]] = []
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        read += 1
        if read > len(chunks):
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": chunks[read - 1],
                "more_body": read < len(chunks)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/x", "headers": headers,
             "client": ("127.0.0.1", 1)}
    asyncio.run(app(scope, receive, send))
    return sent, read


def test_the_body_limit_stops_reading_at_the_limit() -> None:
    app = BodyLimit(echo_length, max_bytes=1000)
    sent, _ = call(app, [b"x" * 500, b"x" * 500], [])
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"1000"
    sent, read = call(app, [b"x" * 600] * 1000, [])  # streamed, no declared size
    assert read == 2 and sent[0]["status"] == 413
    assert (b"connection", b"close") in sent[0]["headers"]
    assert json.loads(sent[1]["body"])["error"]["code"] == "too_large"
    sent, read = call(app, [b"x"], [(b"content-length", b"300000000")])  # declared
    assert read == 0 and sent[0]["status"] == 413


def test_a_client_gone_mid_body_ends_quietly() -> None:
    sent, _ = call(BodyLimit(echo_length), [], [])  # disconnect at once
    assert sent == []
