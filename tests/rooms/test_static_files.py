"""The static files as a real server on loopback sends them (app/web/assets.py,
app/web/static_files.py): versioned addresses cached for good, gzip when accepted, the
plain addresses revalidated; and a changed file gets a new address."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from rooms_harness import ServerThread
from shared_helpers import HTTP

from app.web.assets import IMMUTABLE, STATIC_DIR, Assets, static_assets
from app.web.bundle import bundle
from app.web.static_files import accepts_gzip

VERSIONED = re.compile(r"^/static/.+\.[0-9a-f]{10}\.[a-z]+$")


class PageLinks(HTMLParser):
    """The static addresses a page names, and its import map."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.importmap: dict[str, str] = {}
        self._in_map = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self._in_map = tag == "script" and found.get("type") == "importmap"
        for name in ("href", "src"):
            value = found.get(name) or ""
            if value.startswith("/static/"):
                self.urls.append(value.split("#")[0])

    def handle_data(self, data: str) -> None:
        if self._in_map:
            self.importmap = json.loads(data)["imports"]
            self._in_map = False


def raw(url: str, **headers: str) -> tuple[httpx.Response, bytes]:
    """The answer and its body as sent (not decompressed)."""
    with httpx.stream("GET", url, headers=headers) as response:
        return response, b"".join(response.iter_raw())


def room_page(base: str) -> PageLinks:
    links = PageLinks()
    links.feed(HTTP.get(f"{base}/r/abcdefghjk").text)
    return links


def test_a_page_names_only_versioned_files_and_they_are_immutable(
        server: ServerThread) -> None:
    links = room_page(server.base)
    assert links.urls
    for url in links.urls + list(links.importmap.values()):
        assert VERSIONED.match(url), url
        response = HTTP.get(server.base + url)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == IMMUTABLE, url
    # the page's one script is its whole module graph (app/web/bundle.py); the import
    # map names every file the modules may ask for
    scripts = [u for u in links.urls if u.endswith(".js")]
    assert scripts == [static_assets().bundle_url("js/room.js")]
    sources = {p.relative_to(STATIC_DIR).as_posix(): p.read_text(encoding="utf-8")
               for p in (STATIC_DIR / "js").glob("*.js")}
    assert HTTP.get(server.base + scripts[0]).text == bundle(sources, "js/room.js")
    for path in STATIC_DIR.rglob("*"):
        relative = path.relative_to(STATIC_DIR).as_posix()
        if relative.startswith(("js/", "i18n/", "cards/")) and path.is_file():
            assert f"/static/{relative}" in links.importmap


def test_gzip_when_accepted_and_the_same_bytes_once_decompressed(server: ServerThread) -> None:
    links = room_page(server.base)
    for url in links.urls:
        path = re.sub(r"\.[0-9a-f]{10}(\.[a-z]+)$", r"\1", url.removeprefix("/static/"))
        found = static_assets().lookup(path)
        assert found is not None, url
        expected = found[0].body  # a file's bytes, or a bundle's
        packed, body = raw(server.base + url, **{"Accept-Encoding": "gzip, deflate"})
        assert packed.headers["content-encoding"] == "gzip", url
        assert "Accept-Encoding" in packed.headers["vary"]
        assert len(body) < len(expected) and gzip.decompress(body) == expected, url
        for refused in ("identity", "gzip;q=0, identity", "br"):
            plain, body = raw(server.base + url, **{"Accept-Encoding": refused})
            assert "content-encoding" not in plain.headers and body == expected, (url, refused)
        assert packed.headers["etag"] != plain.headers["etag"]  # two representations
    page, body = raw(f"{server.base}/r/abcdefghjk", **{"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip"
    assert page.headers["cache-control"] == "no-cache"
    assert b"<html" in gzip.decompress(body)


def test_plain_addresses_are_revalidated_and_unknown_files_are_404(
        server: ServerThread) -> None:
    response = HTTP.get(f"{server.base}/static/js/dom.js")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-cache"
    assert response.content == (STATIC_DIR / "js" / "dom.js").read_bytes()
    again = HTTP.get(f"{server.base}/static/js/dom.js",
                     headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    for missing in ("/static/js/nothing.js", "/static/js/dom.0000000000.js",
                    "/static/../main.py"):
        answer = HTTP.get(server.base + missing)
        assert answer.status_code == 404, missing
        assert answer.json()["error"]["code"] == "not_found"
    head = httpx.head(f"{server.base}/static/js/dom.js", headers={"Accept-Encoding": "identity"})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(response.content))


def test_a_changed_file_gets_a_new_address(tmp_path: Path) -> None:
    root = tmp_path / "static"
    shutil.copytree(STATIC_DIR, root)
    before = Assets(root)
    dom = root / "js" / "dom.js"
    dom.write_text(dom.read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
    after = Assets(root)
    assert after.url("js/dom.js") != before.url("js/dom.js")
    assert after.importmap != before.importmap
    assert after.importmap_hash != before.importmap_hash
    assert after.url("js/net.js") == before.url("js/net.js")  # the others keep theirs
    old = before.url("js/dom.js").removeprefix("/static/")
    assert after.lookup(old) is None


@pytest.mark.parametrize(("header", "takes"), [
    ("gzip", True), ("GZIP", True), ("deflate, gzip;q=0.5", True), ("*", True),
    ("*;q=0, gzip", True), ("", False), ("identity", False), ("br", False),
    ("gzip;q=0, identity", False), ("gzip;q=0, *", False), ("gzip;q=x", False),
])
def test_accept_encoding_is_read_as_the_rfc_says(header: str, takes: bool) -> None:
    assert accepts_gzip(header) is takes
