"""The room page in Chromium: every file it needs comes compressed under a versioned
address on the first visit, and a reload asks the network for the page alone (the
browser's cache has the rest).  Requests are counted from DevTools' events
(tests/network_log.py), never timed."""

from __future__ import annotations

import re
from typing import Any

from network_log import NetworkLog
from playwright.sync_api import expect
from shared_helpers import HTTP

from .conftest import PHONE

TEXT_TYPES = (".js", ".css", ".json", ".svg")
NEEDED = ("/static/bundles/room.", "/static/css/table.", "/static/i18n/en.")
VERSIONED = re.compile(r"^/static/.+\.[0-9a-f]{10}\.[a-z]+$")


def test_a_reload_asks_only_for_the_page(new_page: Any, server: str) -> None:
    code = HTTP.post(f"{server}/api/rooms", json={"name": "Ann"}).json()["room"]
    page = new_page("guest", PHONE)
    log = NetworkLog().watch(page)
    page.goto(f"/r/{code}")
    expect(page.locator("#join-name")).to_be_visible()
    first = log.on_network()
    files = [r for r in first if r.path.startswith("/static/")]
    assert len(files) >= 5  # styles, the modules' bundle, a catalogue, pictures
    # what the page needed to be usable has come (a picture, the tab's icon, may still
    # be on its way): each whole and gzipped
    for needed in NEEDED:
        assert any(r.path.startswith(needed) for r in files), (needed, files)
    for request in files:
        assert request.status == 200, request.path
        if request.path.endswith(TEXT_TYPES):
            assert request.encoding == "gzip", request.path
    assert len({r.path for r in first}) == len(first)  # nothing fetched twice

    log.clear()
    page.reload()
    expect(page.locator("#join-name")).to_be_visible()
    assert [r.path for r in log.on_network()] == [f"/r/{code}"]
    for needed in NEEDED:  # from the cache
        assert any(r.path.startswith(needed) and r.cached for r in log.answered()), needed

    # a visit from another tab of the same browser: the same
    log.clear()
    other = page.context.new_page()
    other_log = NetworkLog().watch(other)
    other.goto(f"/r/{code}")
    expect(other.locator("#join-name")).to_be_visible()
    assert [r.path for r in other_log.on_network()] == [f"/r/{code}"]
    for needed in NEEDED:
        assert any(r.path.startswith(needed) and r.cached for r in other_log.answered()), needed


def test_every_page_asks_for_each_file_once_by_its_versioned_address(
        new_page: Any, server: str) -> None:
    for path, ready in (("/?lang=nb", "#content h1"), ("/rules?lang=fr", "#quick-heading"),
                        ("/replay?lang=nb", "#content h1")):
        page = new_page(path, PHONE)
        log = NetworkLog().watch(page)
        page.goto(path)
        expect(page.locator(ready).first).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", path[-2:])
        files = [r for r in log.on_network() if r.path.startswith("/static/")]
        assert files, path
        for request in files:
            assert VERSIONED.match(request.path), (path, request.path)
        assert len({r.path for r in files}) == len(files), (path, [r.path for r in files])
