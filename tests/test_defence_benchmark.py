"""benchmarks/defence.py runs end to end on a few deals with the quick levels, and its
pairing is sound: a level against itself (``heuristic`` is ``easy``) differs on no deal,
since every decision draws the same random stream from the same position."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.timeout(300)
def test_defence_benchmark_runs_and_pairs_the_same_positions() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "defence.py"), "--deals", "4", "--seed",
         "3", "--variants", "easy,random,heuristic"],
        cwd=ROOT, capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert any(line.endswith("defender plays a variant") for line in lines)
    against = [line.strip() for line in lines if line.strip().startswith("minus easy:")]
    assert len(against) == 2
    assert against[1] == "minus easy: +0.000 ± 0.000 (0 deals differ)"  # heuristic is easy
    assert "(0 deals differ)" not in against[0]  # random defends otherwise
