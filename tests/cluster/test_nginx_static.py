"""The static files through deploy/nginx.conf as shipped (a real nginx in front of a real
app): nginx passes the app's gzip, its caching headers and its 304s through unchanged, so
a browser behind it caches the versioned files for good, as it would from the app."""

from __future__ import annotations

import gzip
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from nginx_server import NginxServer, find_nginx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from rooms_harness import ServerThread
from shared_helpers import HTTP

from app.settings import Settings
from app.web.assets import IMMUTABLE, static_assets


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[NginxServer]:
    if find_nginx() is None:
        pytest.skip("nginx is not installed (scripts/test.sh installs it)")
    with ServerThread(Settings(data_dir=tmp_path / "data")) as app:
        nginx = NginxServer([app.port]).start()
        try:
            yield nginx
        finally:
            nginx.stop()


def test_versioned_files_come_through_gzipped_and_immutable(proxied: NginxServer) -> None:
    base = f"http://127.0.0.1:{proxied.port}"
    page = HTTP.get(f"{base}/r/abcdefghjk", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip"
    assert page.headers["cache-control"] == "no-cache"
    urls = re.findall(r'(?:href|src)="(/static/[^"#]+)', page.text)
    assert any("/static/bundles/room." in url for url in urls), urls
    for url in urls:
        asset, versioned = static_assets().lookup(url.removeprefix("/static/")) or (None, 0)
        assert asset is not None and versioned, url
        with httpx.stream("GET", base + url, headers={"Accept-Encoding": "gzip"}) as answer:
            body = b"".join(answer.iter_raw())
        assert answer.status_code == 200, url
        assert answer.headers["cache-control"] == IMMUTABLE, url
        assert answer.headers["content-encoding"] == "gzip", url
        assert gzip.decompress(body) == asset.body, url
    plain = HTTP.get(f"{base}/static/js/dom.js")
    again = HTTP.get(f"{base}/static/js/dom.js", headers={"If-None-Match": plain.headers["etag"]})
    assert plain.headers["cache-control"] == "no-cache" and again.status_code == 304
