"""benchmarks/cluster_load.py still runs end to end (a tiny run: 2 rooms of four against 1
and then 2 processes behind nginx with PostgreSQL, each process capped at half a core),
and benchmarks/cpucap.py really holds a process to its share.  Nothing here is timed: the
benchmark prints figures, docs/scaling.md records them."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from cpucap import CpuCap, CpuCapError  # noqa: E402
from procstat import cpu_seconds  # noqa: E402


def _cap_or_skip(name: str, cores: float) -> CpuCap:
    try:
        return CpuCap(name, cores)
    except CpuCapError as exc:  # not root, or no cgroup with a CPU quota on this machine
        pytest.skip(str(exc))


def test_a_capped_process_waits_for_its_quota() -> None:
    cap = _cap_or_skip("test", 0.05)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        cap.add(busy.pid)
        start = cpu_seconds(busy.pid)
        time.sleep(1.0)
        used = cpu_seconds(busy.pid) - start
        # a busy loop would take the whole second of a core; capped at a twentieth, the
        # kernel holds it back (a generous bound: the clock ticks are 10 ms)
        assert used < 0.5, used
        assert cap.throttled_seconds() > 0
    finally:
        busy.kill()
        busy.wait()
        time.sleep(0.1)
        cap.remove()
    assert not cap.path.exists()


def test_cluster_benchmark_runs_capped_processes(tmp_path: Path) -> None:
    _cap_or_skip("probe", 0.5).remove()
    out = tmp_path / "cluster.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--workers", "2",
         "--rooms", "2", "--duration", "1", "--think", "0.005", "--warmup", "0.3",
         "--idle-wait", "0.1", "--cpu-cap", "0.5",
         "--rules", json.dumps({"preset": "standard", "match": "deals:2"}),
         "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["cpu_cap_cores"] == 0.5
    [point] = result["points"]
    for workers in (1, 2):
        run = point[f"workers_{workers}"]
        assert run["moves"] > 0 and run["actions_incomplete"] == 0, run
        assert run["errors"] == {} and run["sockets_closed_by_server"] == {}, run
        assert len(run["throttled_seconds"]) == workers
        assert set(run["cpu_percent_by_part"]) == {
            *(f"app{i + 1}" for i in range(workers)), "nginx", "postgres"}
    assert set(result["best_moves_per_s"]) == {"1", "2"}
    assert "the most moves/s with p99 under 150 ms" in proc.stdout


def test_the_cap_needs_several_processes() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--cpu-cap", "0.5"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert "--cpu-cap: with --workers" in proc.stderr
