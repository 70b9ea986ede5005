"""The shipped monitoring configuration (deploy/): the Grafana dashboard reads only
metrics the server exports and shows each, and the Prometheus scrape example is one
Prometheus accepts. The scrape by a real Prometheus is in tests/test_prometheus.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]  # (PyYAML comes with uvicorn[standard])
from prometheus_client.parser import text_string_to_metric_families

from app.web import metrics

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from metrics_helpers import ROOT, serve, servers_of_a_test
from rooms_harness import ServerThread
from shared_helpers import HTTP


@pytest.fixture
def served(tmp_path: Path) -> Iterator[list[ServerThread]]:
    """Servers the test starts (``ServerThread``), stopped after it."""
    with servers_of_a_test() as started:
        yield started


DASHBOARD = ROOT / "deploy" / "grafana-dashboard.json"
SCRAPE_CONFIG = ROOT / "deploy" / "prometheus.yml"


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
