"""The connection comes back by itself: the server restarts (rooms are kept in SQLite), the
page says it is reconnecting, then shows the same seat and hand without a reload."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PageProblems, ServeProcess
from .players import hand, open_room


def test_reconnects_after_a_server_restart(browser: Any, tmp_path: Path) -> None:
    serve = ServeProcess(tmp_path).start()
    problems = PageProblems()
    ctx = browser.new_context(viewport=DESKTOP, base_url=serve.base, locale="en-GB")
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
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
    finally:
        ctx.close()
        serve.stop()
    # A refused reconnect attempt is logged by the browser itself; nothing else may be.
    unexpected = [e for e in problems.errors if "WebSocket connection to" not in e]
    if unexpected:
        pytest.fail("\n".join(unexpected))
