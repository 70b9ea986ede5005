"""benchmarks/roles.py still runs end to end on a few deals with the quick levels, and its
split is sound: a level against itself gains exactly nothing in any phase (the
continuations draw the same random streams as the play they branch from), and the
phases' shares of each deal add up to the seats' edges."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.timeout(300)
def test_roles_benchmark_runs_and_adds_up(tmp_path: Path) -> None:
    out = tmp_path / "roles.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "roles.py"), "--deals", "3", "--seed", "5",
         "--pairs", "random:random,easy:random", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| whole deal |" in proc.stdout and "| trick 1 |" in proc.stdout
    run = json.loads(out.read_text())
    same = run["random:random"]
    assert same["deals"] == 3 and sum(same["plays"].values()) == 12
    assert all(v == 0 for deal in same["cells"] for v in deal.values())
    edge = run["easy:random"]
    total = sum(v for deal in edge["cells"] for v in deal.values()) * 4
    assert total == pytest.approx(sum(sum(v) for v in edge["role_edges"].values()))
    assert total != 0  # easy is far ahead of random: the split shows it somewhere
