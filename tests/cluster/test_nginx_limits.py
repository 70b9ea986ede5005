"""deploy/nginx.conf's request-rate limits (issue 36), through a real nginx (Debian's
package) in front of a real app: ``nginx -t`` accepts the file as shipped; a client over
the API's burst, or over the posts' (creating rooms, replaying records), gets ``429``
with the app's JSON error; pages, another address's requests and the API's other paths
are not held back by the posts' limit.

The rates are slowed to one a minute in the test's copy of the file (``slow``), so that
what passes is the burst, counted exactly whatever the machine's speed (a minute's refill
at most, which the assertions allow); the shipped rates and bursts are checked as
numbers (``test_the_shipped_rates_leave_players_room``)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from nginx_server import NginxServer, find_nginx, without_rate_limits
from test_deploy_files import ROOT, find, parse_nginx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from rooms_harness import ServerThread

from app.settings import Settings

API_BURST = 100    # deploy/nginx.conf: limit_req zone=amerikaner_api burst=...
POSTS_BURST = 30   # limit_req zone=amerikaner_posts burst=...


def slow(site: str) -> str:
    """Every zone's rate one request a minute: only the bursts pass in a test's time."""
    slowed, n = re.subn(r"rate=\d+r/[sm]", "rate=1r/m", site)
    assert n == 2, site
    return slowed


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[NginxServer]:
    """nginx, as shipped but slowed, in front of one app whose own per-address limits
    are off (so that every 429 is nginx's)."""
    if find_nginx() is None:
        pytest.skip("nginx is not installed (scripts/test.sh installs it)")
    settings = Settings(data_dir=tmp_path / "data", rooms_per_minute=0, rooms_held=0,
                        connections_per_address=0, bot_delay=0.0)
    with ServerThread(settings) as app:
        nginx = NginxServer([app.port], edit=slow).start()
        try:
            yield nginx
        finally:
            nginx.stop()


def until_limited(send: httpx.Client, method: str, path: str, most: int,
                  json: Any = None) -> int:
    """Send ``method path`` until nginx answers 429 (checked to be its JSON error):
    how many were answered before.  AssertionError if none is limited in ``most``."""
    for passed in range(most):
        answer = send.request(method, path, json=json)
        if answer.status_code == 429:
            assert answer.json()["error"]["code"] == "rate_limited", answer.text
            assert answer.headers["content-type"] == "application/json"
            assert answer.headers["retry-after"] == "1"
            return passed
        assert answer.status_code < 400, (method, path, answer.status_code, answer.text)
    raise AssertionError(f"{most} times {method} {path}: never limited")


def test_the_shipped_file_passes_nginx_t() -> None:
    if find_nginx() is None:
        pytest.skip("nginx is not installed (scripts/test.sh installs it)")
    status, output = NginxServer([8001, 8002, 8003]).check()
    assert status == 0 and "test is successful" in output, output


def test_the_shipped_rates_leave_players_room() -> None:
    top = parse_nginx((ROOT / "deploy" / "nginx.conf").read_text())
    zones = {args[1].split("=")[1].split(":")[0]: (args[0], args[2])
             for _, args, _ in find(top, "limit_req_zone")}
    assert zones == {"amerikaner_api": ("$api_client", "rate=20r/s"),
                     "amerikaner_posts": ("$post_client", "rate=30r/m")}
    (_, _, server), = find(top, "server")
    assert server is not None
    assert find(server, "limit_req_status") == [("limit_req_status", ["429"], None)]
    assert find(server, "limit_req") == [
        ("limit_req", ["zone=amerikaner_api", f"burst={API_BURST}", "nodelay"], None)]
    for path in ("/api/rooms", "/api/replay"):
        (_, _, location), = find(server, "location", "=", path)
        assert location is not None
        # a location's own limit_req drops the server's: both zones, each with its burst
        assert find(location, "limit_req") == [
            ("limit_req", ["zone=amerikaner_api", f"burst={API_BURST}", "nodelay"], None),
            ("limit_req", ["zone=amerikaner_posts", f"burst={POSTS_BURST}", "nodelay"],
             None)], path


def test_a_load_benchmark_lifts_the_limits_and_nothing_else() -> None:
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    lifted = without_rate_limits(site)
    assert "limit_req zone=" not in lifted and "limit_req_zone" in lifted
    assert [line for line in site.splitlines() if "limit_req zone=" not in line] \
        == lifted.splitlines()


def test_room_creation_over_its_burst_is_429_and_the_rest_goes_on(
        proxied: NginxServer) -> None:
    with httpx.Client(base_url=proxied.base, timeout=30) as send:
        created = until_limited(send, "POST", "/api/rooms", POSTS_BURST + 5,
                                json={"name": "Ann"})
        # the first and its burst pass (a minute's refill at most on a slow machine)
        assert POSTS_BURST + 1 <= created <= POSTS_BURST + 2, created
        # the posts' limit is POST's: the API's other requests, pages, a room go on
        assert send.get("/api/rules").status_code == 200
        assert send.get("/").status_code == 200
        answer = send.post("/api/replay", content=b"{}",
                           headers={"content-type": "application/json"})
        assert answer.status_code == 429, answer.text  # the same zone as creating rooms
    # another address is counted apart (nginx's key is the client's address)
    with httpx.Client(base_url=proxied.base, timeout=30,
                      transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other:
        assert other.post("/api/rooms", json={"name": "Bo"}).status_code == 201


def test_the_api_over_its_burst_is_429_and_pages_are_not_limited(
        proxied: NginxServer) -> None:
    with httpx.Client(base_url=proxied.base, timeout=30) as send:
        for _ in range(API_BURST + 5):  # pages and the health check count in no zone
            assert send.get("/healthz").status_code == 200
        passed = until_limited(send, "GET", "/api/rules", API_BURST + 5)
        assert API_BURST + 1 <= passed <= API_BURST + 2, passed
        assert send.get("/api/protocol.schema.json").status_code == 429  # every /api/
        assert send.get("/rules").status_code == 200
