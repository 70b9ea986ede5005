"""The capacity model of docs/scaling.md (benchmarks/capacity.py) does what it says with
known costs, and benchmarks/tiers.py, whose figures it reads, still runs end to end (a
tiny run: real PostgreSQL, nginx, app and swarm, windows ended by events).

Nothing is timed: the model is arithmetic on given costs, and the tiny run's figures are
only checked for being there and positive (docs/scaling.md records real ones)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from capacity import Curve, Tiers, plan  # noqa: E402


def tiers_json(app_ms: tuple[float, float] = (1.6, 1.2), pg_live: float = 0.5,
               nginx_ms: float = 0.2, pg_idle: float = 0.0) -> dict[str, Any]:
    """A tiers.py document with these costs: the app at 100 and 400 moves/s, PostgreSQL
    behind it, nginx flat, and the store's statement alone (cheaper as the rate rises)."""
    apps = [{"moves_per_s": rate, "app_cpu_ms_per_move": ms, "postgres_cpu_ms_per_move":
             pg_live, "postgres_idle_cpu_ms_per_s": pg_idle, "appends_per_move": 1.0,
             "app_kib_per_socket": 20.0,
             "app_rss_kib": {"empty": 80_000}}
            for rate, ms in zip((100.0, 400.0), app_ms, strict=True)]
    nginx = [{"moves_per_s": rate, "nginx_cpu_ms_per_move": nginx_ms,
              "nginx_kib_per_socket": 16.0} for rate in (100.0, 400.0)]
    alone = [{"batch": 1, "appends_per_s": 200.0, "cpu_ms_per_append": 0.3},
             {"batch": 1, "appends_per_s": 400.0, "cpu_ms_per_append": 0.25},
             {"batch": 1, "appends_per_s": 5000.0, "cpu_ms_per_append": 0.125},
             {"batch": 20, "appends_per_s": 20000.0, "cpu_ms_per_append": 0.05}]
    return {"app": apps, "nginx": nginx,
            "postgres": {"synchronous_commit_on": alone,
                         "kib_per_connection": {"pss_per_connection": 2048.0}}}


def test_a_curve_interpolates_and_its_capacity_spends_exactly_the_cores() -> None:
    curve = Curve([(100.0, 2.0), (300.0, 1.0)])
    assert curve.at(50) == 2.0 and curve.at(1000) == 1.0  # the nearest point outside
    assert curve.at(200) == pytest.approx(1.5)
    for cores in (0.1, 0.3, 0.5, 2.0):
        rate = curve.capacity(cores)
        assert curve.cores(rate) == pytest.approx(cores, rel=1e-6)


def test_the_part_that_runs_out_first_sets_the_capacity() -> None:
    tiers = Tiers(tiers_json(app_ms=(1.2, 1.2)))
    # two processes at 0.3 of a core, 1.2 ms a move: 250 moves/s each
    rate, part = tiers.capacity(2, 0.3, 1.0, 1.0)
    assert part == "app" and rate == pytest.approx(500, rel=1e-3)
    rate, part = tiers.capacity(2, 1.0, 1.0, 0.05)  # nginx at 0.2 ms: 250 moves/s
    assert part == "nginx" and rate == pytest.approx(250, rel=1e-3)
    rate, part = tiers.capacity(2, 1.0, 0.1, 1.0)   # 0.5 ms an append live: 200
    assert part == "postgres" and rate == pytest.approx(200, rel=1e-3)


def test_postgres_above_the_live_rates_follows_the_statement_alone_at_the_live_level() -> None:
    tiers = Tiers(tiers_json())
    # live: 0.5 ms at 400 appends/s, where the statement alone costs 0.25: twice as dear;
    # at 5,000/s alone 0.125, so 0.25 behind the app; batched 0.05, so 0.1
    assert tiers.pg.at(400) == pytest.approx(0.5)
    assert tiers.pg.at(5000) == pytest.approx(0.25)
    assert tiers.pg_batched_ms == pytest.approx(0.1)


def test_each_process_heartbeat_is_paid_apart_from_the_appends() -> None:
    # live: 0.5 ms a move at 100 and 400 moves/s, of which 10 ms a second is the
    # heartbeat: 0.4 ms an append at 100/s, 0.475 at 400/s
    tiers = Tiers(tiers_json(pg_idle=10.0))
    assert tiers.pg.at(100) == pytest.approx(0.4)
    assert tiers.pg.at(400) == pytest.approx(0.475)
    one, three = tiers.cores(100, 1)["postgres"], tiers.cores(100, 3)["postgres"]
    assert one == pytest.approx(0.05) and three - one == pytest.approx(0.02)
    rate, part = tiers.capacity(3, 1.0, 0.03 + 0.04, 1.0)  # 0.04 left: 100 moves/s
    assert part == "postgres" and rate == pytest.approx(100, rel=1e-3)


def test_costs_are_taken_at_the_machines_speed() -> None:
    data = tiers_json(app_ms=(1.2, 1.2))
    for part in ("app", "nginx"):
        for x in data[part]:
            x["times_slower"] = 2.0  # measured while the machine was twice as slow
    for x in data["postgres"]["synchronous_commit_on"]:
        x["times_slower"] = 2.0
    assert Tiers(data).slower == 2.0  # by default, the speed of the measurements
    fast = Tiers(data, 1.0)
    assert fast.app.at(250) == pytest.approx(0.6) and fast.nginx.at(250) == pytest.approx(0.1)
    assert fast.pg.at(400) == pytest.approx(0.25)
    assert fast.capacity(2, 0.3, 1.0, 1.0)[0] == pytest.approx(1000, rel=1e-3)


def test_a_plan_grows_with_the_tables_and_keeps_every_process_under_its_target() -> None:
    tiers = Tiers(tiers_json())
    small, big = (plan(tiers, t, 1.0, 0.7, 10, 16) for t in (10_000, 100_000))
    assert big["app_processes"] >= 10 * (small["app_processes"] - 1)
    for p in (small, big):
        per_process = p["moves_per_s"] / p["app_processes"]
        assert tiers.app.cores(per_process) <= 0.7 + 1e-9
        assert p["sockets"] == 4 * p["tables"]
        assert p["postgres_cores_batched"] < p["postgres_cores"]
        assert p["postgres_connections"] == 10 * p["app_processes"]
        assert p["app_machines"] == -(-p["app_processes"] // 16)


@pytest.mark.timeout(600)
def test_the_tier_benchmark_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "tiers.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "tiers.py"), "--rooms", "3",
         # people who think a tenth of a second, short waits: the window still closes on
         # its events (every room's moves); a second of it spans the sampler's readings
         # (every 0.5 s), so that each part's figures per move are there
         "--think", "0.1", "--warmup", "0.3", "--idle-wait", "0.1", "--duration", "1",
         "--min-moves", "3", "--idle-seconds", "0.2", "--appends", "1000",
         "--pg-seconds", "0.2", "--rates", "100", "--pg-rooms", "20", "--batch", "5",
         # the machine's speed, measured 15 times in a run: a rough figure is enough here
         "--speed-seconds", "0.02", "--json", str(out)],
        capture_output=True, text=True, timeout=540, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    data = json.loads(out.read_text())
    (app,), (nginx,) = data["app"], data["nginx"]
    # CPU times come in clock ticks (10 ms): a dozen moves may read as none
    assert app["app_cpu_ms_per_move"] >= 0 and app["postgres_cpu_ms_per_move"] >= 0
    assert app["postgres_idle_cpu_ms_per_s"] >= 0
    assert app["appends_per_move"] > 0 and not app["errors"] and not app["closed"]
    assert nginx["moves_per_s"] > 0 and nginx["nginx_cpu_ms_per_move"] >= 0
    runs = data["postgres"]["synchronous_commit_on"]
    assert {(r["batch"], r["paced_at"]) for r in runs} == {(1, None), (5, None), (1, 100.0)}
    assert all(r["cpu_ms_per_append"] > 0 for r in runs if r["paced_at"] is None)
    assert all(r["cpu_ms_per_append"] is not None for r in runs)
    planned = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "capacity.py"), "plan", str(out)],
        capture_output=True, text=True, timeout=60, check=True)
    assert "| app_processes |" in planned.stdout
