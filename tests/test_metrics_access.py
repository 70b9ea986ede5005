"""Who may read ``/metrics`` (app/web/scrape.py): without a token only nearby clients
asking directly, behind a trusted proxy the client it names, with a token only its bearer
from anywhere; a real server answers its metrics and refuses them as an unknown path, in
OpenMetrics to a scraper that prefers it.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.settings import Settings
from app.web import metrics
from app.web.scrape import MetricsAccess, Verdict

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from metrics_helpers import serve, servers_of_a_test
from rooms_harness import ServerThread
from shared_helpers import HTTP


@pytest.fixture
def served(tmp_path: Path) -> Iterator[list[ServerThread]]:
    """Servers the test starts (``ServerThread``), stopped after it."""
    with servers_of_a_test() as started:
        yield started


# -- who may read them -------------------------------------------------------------------


def scope(peer: str, *headers: tuple[str, str]) -> dict[str, Any]:
    return {"type": "http", "client": (peer, 40000),
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers]}


def access(**changes: Any) -> MetricsAccess:
    return MetricsAccess.from_settings(Settings().with_overrides(**changes))


@pytest.mark.parametrize(("peer", "headers", "verdict"), [
    ("127.0.0.1", (), Verdict.ALLOWED),
    ("::1", (), Verdict.ALLOWED),
    ("10.1.2.3", (), Verdict.ALLOWED),                 # a Prometheus beside the server
    ("172.20.0.5", (), Verdict.ALLOWED),               # a container network
    ("192.168.1.9", (), Verdict.ALLOWED),
    ("203.0.113.7", (), Verdict.NOT_ALLOWED),          # the internet
    ("2001:db8::1", (), Verdict.NOT_ALLOWED),
    # a proxy nobody listed forwarded it: its client could be anyone
    ("127.0.0.1", (("X-Forwarded-For", "203.0.113.7"),), Verdict.NOT_ALLOWED),
    ("127.0.0.1", (("X-Forwarded-For", "10.0.0.1"),), Verdict.NOT_ALLOWED),
    ("127.0.0.1", (("Forwarded", "for=10.0.0.1"),), Verdict.NOT_ALLOWED),
    ("127.0.0.1", (("X-Real-IP", "10.0.0.1"),), Verdict.NOT_ALLOWED),
])
def test_without_a_token_only_nearby_clients_asking_directly_read_the_metrics(
        peer: str, headers: tuple[tuple[str, str], ...], verdict: Verdict) -> None:
    assert access().verdict(scope(peer, *headers)) is verdict


def test_behind_a_trusted_proxy_the_client_it_names_counts() -> None:
    behind = access(trusted_proxies=("127.0.0.1",))
    assert behind.verdict(scope("127.0.0.1", ("X-Forwarded-For", "203.0.113.7"))) \
        is Verdict.NOT_ALLOWED
    assert behind.verdict(scope("127.0.0.1", ("X-Forwarded-For", "10.0.0.9"))) \
        is Verdict.ALLOWED
    assert behind.verdict(scope("127.0.0.1")) is Verdict.ALLOWED  # the proxy's host itself
    only = access(metrics_allow=("192.0.2.0/24",))  # the operator's own list
    assert only.verdict(scope("192.0.2.8")) is Verdict.ALLOWED
    assert only.verdict(scope("127.0.0.1")) is Verdict.NOT_ALLOWED


@pytest.mark.parametrize(("authorization", "verdict"), [
    (None, Verdict.NO_TOKEN),
    ("Bearer wrong", Verdict.NO_TOKEN),
    ("Bearer s3cret-token-x", Verdict.NO_TOKEN),   # a longer one
    ("Bearer s3cret-toke", Verdict.NO_TOKEN),      # a prefix
    ("Basic s3cret-token", Verdict.NO_TOKEN),
    ("Bearer s3cret-token", Verdict.ALLOWED),
    ("bearer  s3cret-token", Verdict.ALLOWED),
])
def test_with_a_token_only_its_bearer_reads_the_metrics_from_anywhere(
        authorization: str | None, verdict: Verdict) -> None:
    guarded = access(metrics_token="s3cret-token")
    headers = (("Authorization", authorization),) if authorization else ()
    assert guarded.verdict(scope("203.0.113.7", *headers)) is verdict
    # nearby addresses need it too: a token, once set, is the rule
    assert guarded.verdict(scope("127.0.0.1", *headers)) is verdict


def test_a_token_is_compared_as_the_bytes_sent() -> None:
    guarded = access(metrics_token="sésame")
    assert guarded.verdict(scope("10.0.0.1", ("Authorization", "Bearer sésame"))) \
        is Verdict.ALLOWED  # UTF-8 on the wire
    assert guarded.verdict(scope("10.0.0.1", ("Authorization", "Bearer sesame"))) \
        is Verdict.NO_TOKEN


def test_the_server_answers_its_metrics_and_refuses_them_as_an_unknown_path(
        tmp_path: Path, served: list[ServerThread],
        caplog: pytest.LogCaptureFixture) -> None:
    base = serve(served, tmp_path / "a").base
    ok = HTTP.get(f"{base}/metrics")
    assert ok.status_code == 200 and ok.headers["content-type"].startswith("text/plain")
    names = {family.name for family in text_string_to_metric_families(ok.text)}
    assert {name.removesuffix("_total") for name in metrics.EXPORTED} <= names
    caplog.set_level(logging.WARNING, "amerikaner.audit")
    forwarded = HTTP.get(f"{base}/metrics", headers={"X-Forwarded-For": "203.0.113.7"})
    unknown = HTTP.get(f"{base}/no-such-page")
    assert forwarded.status_code == unknown.status_code == 404
    assert forwarded.json() == unknown.json()  # nothing tells the two apart
    assert re.search(r"refused kind=metrics address=\S+ reason=not_allowed", caplog.text)
    assert "/metrics" not in HTTP.get(f"{base}/api/openapi.json").json()["paths"]

    elsewhere = serve(served, tmp_path / "b", metrics_allow=("192.0.2.0/24",)).base
    assert HTTP.get(f"{elsewhere}/metrics").status_code == 404

    guarded = serve(served, tmp_path / "c", metrics_token="s3cret-token").base
    refused = HTTP.get(f"{guarded}/metrics")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert "amerikaner_" not in refused.text
    allowed = HTTP.get(f"{guarded}/metrics", headers={
        "Authorization": "Bearer s3cret-token", "X-Forwarded-For": "203.0.113.7"})
    assert allowed.status_code == 200 and "amerikaner_moves_total" in allowed.text


def test_a_scraper_that_prefers_openmetrics_gets_it(tmp_path: Path,
                                                     served: list[ServerThread]) -> None:
    base = serve(served, tmp_path / "a").base
    got = HTTP.get(f"{base}/metrics", headers={
        "Accept": "application/openmetrics-text;version=1.0.0,text/plain;q=0.5"})
    assert got.headers["content-type"].startswith("application/openmetrics-text")
    assert got.text.rstrip().endswith("# EOF")
