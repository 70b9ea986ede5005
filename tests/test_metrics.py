"""``/metrics`` (app/web/metrics.py, app/web/scrape.py) and the JSON logs
(app/web/jsonlog.py): who may read the metrics and who is refused, that each metric moves
when the rooms are played (the search pool's from its own counts and its queue waits),
that each search series exists at 0 from the start, that the shipped Grafana dashboard
and Prometheus configuration (deploy/) name only metrics the server exports, and one JSON
object per log line from a real ``amerikaner serve``.  The scrape by a real Prometheus is in
tests/test_prometheus.py."""

from __future__ import annotations

import gc
import json
import logging
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # (PyYAML comes with uvicorn[standard])
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from app.main import forget_search_pool, watch_search_pool
from app.rooms.server.pool_stats import PoolStats, PoolWaits
from app.rooms.server.search_pool import SearchPool
from app.search_lanes import LANES
from app.settings import Settings, SettingsError
from app.web import audit, metrics
from app.web.jsonlog import JsonFormatter, log_config
from app.web.scrape import MetricsAccess, Verdict

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from rooms_harness import OPEN_CLIENTS, Client, ServerThread, act_until, create_room, my_turn
from serve_process import ServeProcess
from shared_helpers import HTTP

ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = ROOT / "deploy" / "grafana-dashboard.json"
SCRAPE_CONFIG = ROOT / "deploy" / "prometheus.yml"
PATIENCE = 60.0  # seconds to wait for what happens by itself


def settings(data_dir: Path, **changes: Any) -> Settings:
    return Settings(data_dir=data_dir, bot_delay=0.0, rate=200, burst=400,
                    rooms_per_minute=0).with_overrides(**changes)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[list[ServerThread]]:
    """Servers the test starts (``ServerThread``), stopped after it."""
    started: list[ServerThread] = []
    yield started
    while OPEN_CLIENTS:
        OPEN_CLIENTS.pop().close()
    for server in started:
        server.__exit__()


def serve(served: list[ServerThread], data_dir: Path, **changes: Any) -> ServerThread:
    server = ServerThread(settings(data_dir, **changes)).__enter__()
    served.append(server)
    return server


def sample(name: str, **labels: str) -> float:
    """This process's value of one series (0 if it has none yet)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


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


# -- what they count ---------------------------------------------------------------------


def counted_moves(before: dict[str, float]) -> tuple[float, float]:
    """The moves and the action-to-views observations since ``before``, once the room's
    last move is counted: the runner counts a move after its frames are sent, so the frame
    that made it Ann's turn may come before its count (waited for, as an event: the two
    read the same twice in a row)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        moves = sample("amerikaner_moves_total") - before["amerikaner_moves_total"]
        views = sample("amerikaner_action_to_views_seconds_count") \
            - before["amerikaner_action_to_views_seconds_count"]
        if moves == sample("amerikaner_moves_total") - before["amerikaner_moves_total"] \
                and (moves == views or time.monotonic() > deadline):
            return moves, views
        time.sleep(0.01)


def test_each_metric_moves_as_a_room_plays(tmp_path: Path,
                                           served: list[ServerThread]) -> None:
    server = serve(served, tmp_path / "a")
    before = {name: sample(name) for name in (
        "amerikaner_moves_total", "amerikaner_action_to_views_seconds_count",
        "amerikaner_store_append_seconds_count")}
    easy_before = sample("amerikaner_bot_decision_seconds_count", level="easy")
    bad_json = sample("amerikaner_refusals_total", code="bad_json", via="ws")
    no_room = sample("amerikaner_refusals_total", code="room_not_found", via="http")
    sockets = sample("amerikaner_websocket_connections")

    room = create_room(server.base, bot_level="easy")
    assert HTTP.get(f"{server.base}/api/rooms/zzzzzzzz").status_code == 404
    ann = Client(server.base, room["room"], token=room["token"])
    assert sample("amerikaner_websocket_connections") == sockets + 1
    assert sample("amerikaner_rooms") >= 1
    ann.send_raw("{not json")
    assert ann.error()["code"] == "bad_json"
    ann.send({"type": "start"})
    rng = random.Random(4)
    # Ann's turn in the play, a trick begun: the bots wait for her, the room is still
    act_until(ann, lambda v: v["phase"] == "play" and len(v["trick"]) >= 2 and my_turn(v),
              rng, timeout=PATIENCE)
    moves, views = counted_moves(before)
    assert moves >= 6  # four bids at least, a discard, a card
    # one observation per input that applied an action; an input applies at most one
    assert views == moves
    assert sample("amerikaner_store_append_seconds_count") \
        - before["amerikaner_store_append_seconds_count"] >= moves + 1  # and the creation
    assert sample("amerikaner_bot_decision_seconds_count", level="easy") > easy_before
    assert sample("amerikaner_refusals_total", code="bad_json", via="ws") == bad_json + 1
    assert sample("amerikaner_refusals_total", code="room_not_found", via="http") \
        == no_room + 1
    ann.close()
    deadline = time.monotonic() + PATIENCE
    while sample("amerikaner_websocket_connections") != sockets:
        assert time.monotonic() < deadline, "the socket's close was never counted"
        time.sleep(0.05)


def test_a_refusal_with_a_code_not_on_the_wire_adds_no_series() -> None:
    metrics.refused("no_such_code", "ws")
    metrics.refused("bad_json", "carrier_pigeon")
    metrics.bot_decided("grandmaster", 0.1)
    metrics.search_waited("elsewhere", 0.1)
    exported = REGISTRY.get_sample_value
    assert exported("amerikaner_refusals_total", {"code": "no_such_code", "via": "ws"}) is None
    assert exported("amerikaner_bot_decision_seconds_count", {"level": "grandmaster"}) is None
    assert exported("amerikaner_search_queue_wait_seconds_count", {"lane": "elsewhere"}) is None
    # an old name of a level counts as its level
    easy = sample("amerikaner_bot_decision_seconds_count", level="easy")
    metrics.bot_decided("heuristic", 0.1)
    assert sample("amerikaner_bot_decision_seconds_count", level="easy") == easy + 1


class _Owner:
    def __init__(self, waiting: float) -> None:
        self.waiting = waiting


def test_a_live_gauge_sums_the_owners_alive_and_forgets_the_others() -> None:
    gauge = metrics.LiveGauge(
        "test_queue", "a test", ("lane",), always=[("bot",)], registry=None)

    def values() -> dict[tuple[str, ...], float]:
        return {tuple(s.labels.values()): s.value for f in gauge.collect() for s in f.samples}

    assert values() == {("bot",): 0.0}
    one, two = _Owner(2), _Owner(3)
    gauge.watch(one, lambda o: {("bot",): o.waiting, ("hint",): 1.0})
    gauge.watch(two, lambda o: {("bot",): o.waiting})
    assert values() == {("bot",): 5.0, ("hint",): 1.0}
    gauge.forget(one)
    assert values() == {("bot",): 3.0}
    del two
    gc.collect()
    assert values() == {("bot",): 0.0}  # held weakly: an ended app counts no more


SEARCH_COUNTERS = ("amerikaner_search_fallbacks_total",
                   "amerikaner_search_workers_replaced_total", "amerikaner_search_refused_total")


def test_every_search_series_is_there_at_0_from_the_start() -> None:
    """In a process that just imported the metrics: each lane's wait histogram and each of
    the pool's counters, at 0 before any pool exists (rate() sees the first event)."""
    fresh = subprocess.run(
        [sys.executable, "-c",
         "from app.web import metrics; print(metrics.exposition(None)[0].decode())"],
        capture_output=True, text=True, cwd=ROOT, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    values = {(s.name, tuple(sorted(s.labels.items()))): s.value
              for family in text_string_to_metric_families(fresh.stdout)
              for s in family.samples}
    for lane in LANES:
        labels = (("lane", lane),)
        assert values[("amerikaner_search_queue_wait_seconds_count", labels)] == 0
        assert values[("amerikaner_search_queue_wait_seconds_bucket",
                       (("lane", lane), ("le", "+Inf")))] == 0
    for name in SEARCH_COUNTERS:
        assert values[(name, ())] == 0


class _Pool(SearchPool):
    """A pool whose counts the test sets (no worker is started: a pool starts on its first
    job); the pool's own counting is tests/rooms/test_search_pool.py's."""

    def __init__(self) -> None:
        super().__init__(1)
        self.figures = super().stats()

    def stats(self) -> PoolStats:
        return self.figures


def test_the_search_pools_counts_are_its_counters() -> None:
    pool = _Pool()
    before = {name: sample(name) for name in SEARCH_COUNTERS}
    watch_search_pool(pool)
    assert {name: sample(name) for name in SEARCH_COUNTERS} == before
    pool.figures["no_worker_in_time"] = 2  # two bot moves decided by the quick bot
    pool.figures["replaced"] = 1
    assert sample("amerikaner_search_fallbacks_total") \
        == before["amerikaner_search_fallbacks_total"] + 2
    assert sample("amerikaner_search_workers_replaced_total") \
        == before["amerikaner_search_workers_replaced_total"] + 1
    assert sample("amerikaner_search_refused_total") \
        == before["amerikaner_search_refused_total"]
    pool.figures["refused"] = 3
    assert sample("amerikaner_search_refused_total") \
        == before["amerikaner_search_refused_total"] + 3
    forget_search_pool(pool)  # as an app that ends
    assert {name: sample(name) for name in SEARCH_COUNTERS} == before


def test_each_queue_wait_is_observed_in_its_lane() -> None:
    def count(lane: str, le: str | None = None) -> float:
        if le is None:
            return sample("amerikaner_search_queue_wait_seconds_count", lane=lane)
        return sample("amerikaner_search_queue_wait_seconds_bucket", lane=lane, le=le)

    before = {(lane, le): count(lane, le) for lane in LANES
              for le in (None, "0.00025", "0.0005", "2.5")}
    waits = PoolWaits(on_wait=metrics.search_waited)  # as thinking.py gives the pool
    waits.record("hint", 0.0003)
    waits.record("review", 2.0)
    after = {key: count(*key) - value for key, value in before.items()}
    assert after == {
        ("bot", None): 0, ("bot", "0.00025"): 0, ("bot", "0.0005"): 0, ("bot", "2.5"): 0,
        ("hint", None): 1, ("hint", "0.00025"): 0, ("hint", "0.0005"): 1, ("hint", "2.5"): 1,
        ("review", None): 1, ("review", "0.00025"): 0, ("review", "0.0005"): 0,
        ("review", "2.5"): 1,
        ("par", None): 0, ("par", "0.00025"): 0, ("par", "0.0005"): 0, ("par", "2.5"): 0}


# -- deploy/ -----------------------------------------------------------------------------

PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "offset",
                "bool", "and", "or", "unless", "le", "inf", "nan"}


def exported_samples(tmp_path: Path, served: list[ServerThread]) -> set[str]:
    """The name of every sample a real server's /metrics holds (``_bucket``... included)."""
    text = HTTP.get(f"{serve(served, tmp_path / 'x').base}/metrics").text
    return {s.name for family in text_string_to_metric_families(text) for s in family.samples}


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (functions, keywords, label matchers,
    grouping labels, durations and Grafana's ``$__`` variables left out)."""
    expr = re.sub(r'"(?:\\.|[^"\\])*"', "", expr)             # strings
    expr = re.sub(r"\{[^}]*\}", "", expr)                      # label matchers
    expr = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", expr)
    expr = re.sub(r"\[[^\]]*\]", "", expr)                     # ranges
    expr = re.sub(r"\$\w+", "", expr)                          # Grafana's variables
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", expr):
        following = expr[match.end():].lstrip()[:1]
        if following != "(" and match.group().lower() not in PROMQL_WORDS:
            names.add(match.group())
    return names


def dashboard_queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    exprs = [target["expr"] for panel in dashboard["panels"]
             for target in panel.get("targets", []) if "expr" in target]
    assert exprs, "the dashboard has no queries"
    return exprs


def test_the_dashboard_reads_only_metrics_the_server_exports_and_shows_each(
        tmp_path: Path, served: list[ServerThread]) -> None:
    exported = exported_samples(tmp_path, served)
    read: set[str] = set()
    for expr in dashboard_queries():
        names = metric_names(expr)
        assert names, f"no metric in {expr!r}"
        assert names <= exported, f"{expr!r} reads {sorted(names - exported)}: not exported"
        read |= names
    for name in metrics.EXPORTED:  # a panel for every metric of ours
        assert any(r == name or r.startswith(name + "_") for r in read), name
    dashboard = json.loads(DASHBOARD.read_text())
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids)) and dashboard["uid"] and dashboard["title"]


def test_the_scrape_example_scrapes_metrics_and_prometheus_accepts_it() -> None:
    config = yaml.safe_load(SCRAPE_CONFIG.read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    assert jobs["amerikaner"]["metrics_path"] == "/metrics"
    assert all(":" in target for group in jobs["amerikaner"]["static_configs"]
               for target in group["targets"])
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool (Debian's prometheus) is not installed: scripts/test.sh does")
    checked = subprocess.run([promtool, "check", "config", str(SCRAPE_CONFIG)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


# -- JSON logs ---------------------------------------------------------------------------


def test_a_json_log_line_holds_the_record_and_its_extra_fields() -> None:
    formatter = JsonFormatter()
    record = logging.LogRecord("amerikaner.audit", logging.WARNING, __file__, 1,
                               "refused %s", ("kind=x",), None)
    record.kind, record.address, record.limit = "rate_limit", "203.0.113.9", 10
    line = json.loads(formatter.format(record))
    assert line["level"] == "warning" and line["logger"] == "amerikaner.audit"
    assert line["message"] == "refused kind=x"
    assert (line["kind"], line["address"], line["limit"]) == ("rate_limit", "203.0.113.9", 10)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        failed = logging.LogRecord("amerikaner.rooms", logging.ERROR, __file__, 1,
                                   "a step failed", (), sys.exc_info())
    text = formatter.format(failed)
    assert "\n" not in text  # one line, whatever the traceback
    assert "ValueError: boom" in json.loads(text)["exception"]
    access = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/healthz", "1.1", 200), None)
    fields = json.loads(formatter.format(access))
    assert (fields["method"], fields["path"], fields["status"]) == ("GET", "/healthz", 200)
    config: dict[str, Any] = log_config("debug")
    assert config["root"]["level"] == "DEBUG"


def test_audit_fields_ride_on_the_record(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "amerikaner.audit")
    audit.refused("rate_limit", address="203.0.113.9", limit=10, name="not a field")
    record = caplog.records[-1]
    assert record.getMessage().startswith("refused kind=rate_limit address=203.0.113.9")
    assert (record.kind, record.address, record.limit) == ("rate_limit", "203.0.113.9", 10)  # type: ignore[attr-defined]
    assert record.name == "amerikaner.audit"  # a field named like a record's own is left out


def test_the_log_format_is_text_or_json() -> None:
    assert Settings.from_env({"AMERIKANER_LOG_FORMAT": "json"}).log_format == "json"
    with pytest.raises(SettingsError, match="AMERIKANER_LOG_FORMAT"):
        Settings.from_env({"AMERIKANER_LOG_FORMAT": "xml"})


def test_serve_writes_one_json_object_a_line(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "data", env={"AMERIKANER_LOG_FORMAT": "json"}).start()
    try:
        assert HTTP.get(f"{server.base}/healthz").status_code == 200
        refused = HTTP.get(f"{server.base}/metrics", headers={"X-Forwarded-For": "1.2.3.4"})
        assert refused.status_code == 404
    finally:
        output = server.stop()
    lines = [json.loads(line) for line in output.splitlines()]  # every line is JSON
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    loggers = {line["logger"] for line in lines}
    assert {"amerikaner", "uvicorn.error", "uvicorn.access"} <= loggers
    refusal = next(line for line in lines if line["logger"] == "amerikaner.audit")
    assert (refusal["kind"], refusal["reason"]) == ("metrics", "not_allowed")
    health = next(line for line in lines if line.get("path") == "/healthz")
    assert (health["method"], health["status"]) == ("GET", 200)
