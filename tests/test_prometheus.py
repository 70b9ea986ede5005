"""A real Prometheus scrapes a real ``amerikaner serve`` (on PostgreSQL, with JSON logs)
while rooms play with bots, until every metric of app/web/metrics.py has moved; then every
query of the shipped Grafana dashboard (deploy/grafana-dashboard.json) runs in it.

Prometheus and PostgreSQL are Debian's packages (scripts/test.sh installs them), each
started by the test on its own loopback port and folder.  Nothing waits for a fixed time:
the test polls Prometheus' HTTP API until each metric has moved, within a generous cap.
One room's lease is left behind by a "crashed" process (a lapsed heartbeat, as a SIGKILL
leaves it), so that the server's next use of the room is a takeover.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from pg_server import PostgresServer
from rooms_harness import OPEN_CLIENTS, Client, create_room, my_turn, pick_action
from serve_process import ServeProcess, free_port
from shared_helpers import HTTP

ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = ROOT / "deploy" / "grafana-dashboard.json"
PATIENCE = 240.0      # seconds for every metric to move (a busy machine: searches queue)
SEARCH_ROOMS = 5      # rooms of strong bots: more bot moves at once than search workers
CRASHED = "crashed-host:4242:dead01"  # the owner of a lease left behind

# Each metric of app/web/metrics.py, and the query that has a result once it moved.
MOVED = {
    "amerikaner_rooms": "max_over_time(amerikaner_rooms[1h]) > 0",
    "amerikaner_websocket_connections":
        "max_over_time(amerikaner_websocket_connections[1h]) > 0",
    "amerikaner_moves_total": "rate(amerikaner_moves_total[1m]) > 0",
    "amerikaner_action_to_views_seconds": "amerikaner_action_to_views_seconds_count > 0",
    "amerikaner_store_append_seconds": "amerikaner_store_append_seconds_count > 0",
    "amerikaner_event_loop_lag_seconds": "amerikaner_event_loop_lag_seconds_count > 0",
    "amerikaner_lease_takeovers_total": "amerikaner_lease_takeovers_total > 0",
    "amerikaner_bot_decision_seconds{level=strong}":
        'amerikaner_bot_decision_seconds_count{level="strong"} > 0',
    "amerikaner_bot_decision_seconds{level=easy}":
        'amerikaner_bot_decision_seconds_count{level="easy"} > 0',
    "amerikaner_refusals_total{code=bad_json}":
        'amerikaner_refusals_total{code="bad_json", via="ws"} > 0',
    "amerikaner_refusals_total{code=room_not_found}":
        'amerikaner_refusals_total{code="room_not_found", via="http"} > 0',
    "amerikaner_search_queue_length{lane=bot}":
        'max_over_time(amerikaner_search_queue_length{lane="bot"}[1h]) > 0',
    "amerikaner_search_queue_wait_seconds{lane=bot}":
        'amerikaner_search_queue_wait_seconds_count{lane="bot"} > 0',
}
# The metrics only the strong bots' rooms move: once these moved, those rooms stop playing
# (the easy room plays on for the rest), so their searches do not keep both workers busy
# for as long as the slowest other metric takes on a loaded machine.
SEARCHED = {"amerikaner_bot_decision_seconds{level=strong}",
            "amerikaner_search_queue_length{lane=bot}",
            "amerikaner_search_queue_wait_seconds{lane=bot}"}


class Prometheus:
    """``prometheus`` on a free loopback port, scraping ``target``'s /metrics every two
    seconds (a scrape may take as long: a busy machine), its data in ``root``."""

    def __init__(self, root: Path, target: str) -> None:
        self.root = root
        self.target = target
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = ""

    def start(self) -> Prometheus:
        binary = shutil.which("prometheus")
        assert binary is not None
        self.root.mkdir(parents=True, exist_ok=True)
        config = self.root / "prometheus.yml"
        config.write_text(
            "global:\n  scrape_interval: 2s\n  scrape_timeout: 2s\n"
            "scrape_configs:\n  - job_name: amerikaner\n    metrics_path: /metrics\n"
            f"    static_configs:\n      - targets: ['{self.target}']\n")
        for _ in range(5):  # a port taken meanwhile by another suite: another one
            port = free_port()
            self.base = f"http://127.0.0.1:{port}"
            log = (self.root / "prometheus.log").open("ab")
            self.proc = subprocess.Popen(
                [binary, f"--config.file={config}", f"--storage.tsdb.path={self.root / 'tsdb'}",
                 f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
                stdout=log, stderr=subprocess.STDOUT, cwd=self.root)
            if self._ready():
                return self
            if "address already in use" not in self.output():
                break
        raise RuntimeError(f"prometheus did not start:\n{self.output()}")

    def _ready(self) -> bool:
        assert self.proc is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if HTTP.get(f"{self.base}/-/ready", timeout=5).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        return False

    def query(self, promql: str) -> list[dict[str, Any]]:
        """The instant vector of ``promql`` now (``/api/v1/query``)."""
        answer = HTTP.get(f"{self.base}/api/v1/query", params={"query": promql},
                          timeout=30).json()
        assert answer["status"] == "success", (promql, answer)
        result: list[dict[str, Any]] = answer["data"]["result"]
        return result

    def output(self) -> str:
        path = self.root / "prometheus.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


@dataclass
class Table:
    """One room's person, played by a thread (the bots play the other seats) until
    ``stop``; what went wrong, if anything, in ``failure``."""

    client: Client
    stop: threading.Event
    rng: random.Random
    failure: list[BaseException] = field(default_factory=list)

    def play(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    view = self.client.wait_state(
                        lambda v: my_turn(v) or v["phase"] == "deal_over", timeout=1)
                except TimeoutError:
                    continue  # the bots are thinking (or the match is over): look again
                if view["phase"] == "deal_over":
                    self.client.send({"type": "ready"})
                    self.client.wait_state(lambda v: v["phase"] != "deal_over", timeout=60)
                    continue
                self.client.act(pick_action(view, self.rng))
                self.client.wait_for(lambda m: m["type"] in ("state", "error"), timeout=60)
        except BaseException as exc:  # reported by the test, not lost in the thread
            self.failure.append(exc)


@pytest.mark.timeout(900)  # starting three servers on a busy machine, then PATIENCE
def test_prometheus_scrapes_every_metric_moving(tmp_path: Path,
                                                postgres: PostgresServer) -> None:
    if shutil.which("prometheus") is None:
        pytest.skip("Prometheus is not installed (scripts/test.sh installs Debian's)")
    database = postgres.create_database("metrics")
    server = ServeProcess(tmp_path / "serve", env={
        "AMERIKANER_DATABASE_URL": database, "AMERIKANER_LOG_FORMAT": "json",
        # the easy room's person plays as fast as its bots: within its rate however fast
        # this machine lets it play (past it, a message is dropped unanswered, and the
        # thread then waited a minute for an answer before it could stop)
        "AMERIKANER_RATE": "10000", "AMERIKANER_BURST": "10000"}).start()
    prometheus: Prometheus | None = None
    stop = threading.Event()
    searched = threading.Event()  # the strong rooms' metrics moved: they stop playing
    threads: list[threading.Thread] = []
    tables: list[Table] = []
    try:
        prometheus = Prometheus(tmp_path / "prometheus", f"127.0.0.1:{server.port}").start()
        # a room whose lease a crashed process left behind: the next use takes it over
        left = create_room(server.base)["room"]
        postgres.psql(
            f"INSERT INTO processes(owner, expires_at) VALUES ('{CRASHED}', "
            "now() - interval '1 minute'); "
            f"INSERT INTO leases(code, owner) VALUES ('{left}', '{CRASHED}') "
            "ON CONFLICT (code) DO UPDATE SET owner = excluded.owner", database="metrics")
        assert HTTP.get(f"{server.base}/api/rooms/{left}").status_code == 200
        assert HTTP.get(f"{server.base}/api/rooms/zzzzzzzz").status_code == 404

        for i, level in enumerate(["easy"] + ["strong"] * SEARCH_ROOMS):
            room = create_room(server.base, bot_level=level)
            client = Client(server.base, room["room"], token=room["token"])
            if i == 0:
                client.send_raw("{not json")
                assert client.error()["code"] == "bad_json"
            client.send({"type": "start"})
            table = Table(client, stop if level == "easy" else searched, random.Random(i))
            tables.append(table)
            threads.append(threading.Thread(target=table.play, daemon=True))
        for thread in threads:
            thread.start()

        waiting = dict(MOVED)
        started = time.monotonic()
        deadline = started + PATIENCE
        while waiting:
            for name, promql in list(waiting.items()):
                if prometheus.query(promql):
                    del waiting[name]
                    print(f"{name} moved after {time.monotonic() - started:.1f} s")
            if not SEARCHED & waiting.keys():
                searched.set()
            failures = [f for t in tables for f in t.failure]
            assert not failures, failures
            assert time.monotonic() < deadline, (
                f"not seen moving in Prometheus within {PATIENCE:.0f} s: {sorted(waiting)}")
            time.sleep(0.5)
        assert prometheus.query('up{job="amerikaner"} == 1')

        # every query of the dashboard runs (Grafana's interval variable: one minute)
        dashboard = json.loads(DASHBOARD.read_text())
        for panel in dashboard["panels"]:
            for target in panel["targets"]:
                prometheus.query(target["expr"].replace("$__rate_interval", "1m"))
    finally:
        stop.set()
        searched.set()
        for thread in threads:
            thread.join(timeout=90)
        while OPEN_CLIENTS:
            OPEN_CLIENTS.pop().close()
        if prometheus is not None:
            prometheus.stop()
        output = server.stop()
    assert not [f for t in tables for f in t.failure]  # (what failed after the wait, too)
    # and the server's log was JSON throughout: one object a line
    assert all(json.loads(line)["logger"] for line in output.splitlines())
