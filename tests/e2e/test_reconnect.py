"""The connection comes back by itself: the server restarts (rooms are kept in SQLite), the
page says it is reconnecting, then shows the same seat and hand without a reload."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PageProblems, ServeProcess
from .players import hand, open_room


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """The module's own server, which its tests stop and start again: one for both (each
    test plays in a room of its own), not one each, saves a server's start and stop."""
    serve = ServeProcess(tmp_path_factory.mktemp("reconnect-data"))
    serve.start()
    try:
        yield serve
    finally:
        serve.stop()


@contextmanager
def served_page(browser: Any, serve: ServeProcess) -> Iterator[tuple[ServeProcess, Any,
                                                                     PageProblems]]:
    """The module's server, running (a test that failed may have left it stopped), and a
    page of it: ``(serve, page, problems)``; afterwards the page may have logged nothing
    but a refused reconnect attempt: the WebSocket's, and the HTTP probe's that asks for
    its Retry-After (net.js)."""
    if serve.proc is None:
        serve.start()
    problems = PageProblems()
    ctx = browser.new_context(viewport=DESKTOP, base_url=serve.base, locale="en-GB")
    ctx.set_default_timeout(15_000)
    try:
        yield serve, ctx.new_page(), problems
    finally:
        ctx.close()
    unexpected = [e for e in problems.errors if "WebSocket connection to" not in e
                  and "net::ERR_CONNECTION_REFUSED" not in e]
    if unexpected:
        pytest.fail("\n".join(unexpected))


def test_reconnects_after_a_server_restart(browser: Any, serve: ServeProcess) -> None:
    with served_page(browser, serve) as (serve, page, problems):
        problems.watch(page, "solo")
        open_room(page, "Kim", "Practice")
        expect(hand(page).get_by_role("button")).to_have_count(12)
        cards = hand(page).get_by_role("button").evaluate_all(
            "els => els.map(e => e.dataset.card)")

        serve.stop()
        expect(page.get_by_text("Connection lost. Reconnecting…")).to_be_visible()
        serve.start()
        expect(page.get_by_text(re.compile("Reconnecting"))).to_have_count(0, timeout=20_000)
        expect(hand(page).get_by_role("button")).to_have_count(12)
        assert hand(page).get_by_role("button").evaluate_all(
            "els => els.map(e => e.dataset.card)") == cards


# Every WebSocket the page opens, with its time (the page's own clock: no delay of the
# test's event loop between two of them).
RECORD_SOCKETS = """
window.socketTimes = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.socketTimes.push(performance.now()); }
};
"""
RETRY_AFTER_S = 2


def test_a_refused_reconnect_waits_what_retry_after_says(browser: Any,
                                                         serve: ServeProcess) -> None:
    """The server stops (SIGTERM: its sockets close with 1012) and every reconnect fails;
    the room's HTTP answer is 503 with ``Retry-After: 2`` (routed by the test, as a
    process taking the room over answers): each attempt after a failed one waits at least
    2 s, where the backoff alone would wait 0.5 to 1 s.  A browser cannot read a refused
    handshake's headers: the client asks the room over HTTP for them (net.js)."""
    with served_page(browser, serve) as (serve, page, problems):
        page.add_init_script(RECORD_SOCKETS)
        problems.watch(page, "solo", allow_http_errors=True)
        open_room(page, "Kim", "Practice")
        expect(hand(page).get_by_role("button")).to_have_count(12)
        opened = page.evaluate("window.socketTimes.length")

        def refused(route: Any) -> None:
            route.fulfill(status=503, headers={"Retry-After": str(RETRY_AFTER_S)},
                          json={"error": {"code": "unavailable",
                                          "message": "another server process serves "
                                                     "this room now; try again"}})

        page.route(re.compile(r"/api/rooms/[0-9a-z]+$"), refused)
        serve.stop()  # the socket closes (1012); every attempt from here fails
        deadline = time.monotonic() + 60  # (the page's CSP forbids wait_for_function)
        while page.evaluate("window.socketTimes.length") < opened + 3:
            assert time.monotonic() < deadline, "the page stopped reconnecting"
            page.wait_for_timeout(100)
        times = page.evaluate("window.socketTimes")[opened:]
        # the first attempt follows the 1012 after the backoff alone; each later one
        # follows a failed handshake and the room's Retry-After
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert all(gap >= RETRY_AFTER_S * 1000 for gap in gaps), gaps
        page.unroute(re.compile(r"/api/rooms/[0-9a-z]+$"))
        serve.start()
        expect(page.get_by_text(re.compile("Reconnecting"))).to_have_count(0, timeout=30_000)
        expect(hand(page).get_by_role("button")).to_have_count(12)
