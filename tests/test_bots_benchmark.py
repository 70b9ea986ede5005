"""benchmarks/bots.py splits a level's edge by its role against the other level in the
same seat: a level against itself gains exactly nothing in any role, and the roles' edges
add up to the pair's difference (a seat's edge over the table, summed over the seats); the
same edges split by both roles (the level's, the other level's in that seat) add up to
each role's."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bot_stats import Stats  # noqa: E402


@pytest.mark.timeout(300)
def test_the_edge_by_role_is_against_the_same_seat_and_adds_up(tmp_path: Path) -> None:
    saved = tmp_path / "run.pkl"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--deals", "4", "--seed", "3",
         "--pairs", "random:random,easy:random", "--save", str(saved)],
        cwd=tmp_path, capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "edge over random in the same seat, by easy's role" in proc.stdout
    runs: dict[tuple[str, str], Stats] = pickle.loads(saved.read_bytes())
    same = runs["random", "random"]
    assert sum(len(v) for v in same.seat_edges.values()) == 16
    assert all(edge == 0 for v in same.seat_edges.values() for edge in v)
    edge = runs["easy", "random"]
    plays = [x for v in edge.seat_edges.values() for x in v]
    assert len(plays) == 16 and any(plays)
    # every seat's edge over the table, summed: four times each deal's difference
    assert sum(plays) == pytest.approx(4 * sum(edge.diffs))
    assert sum(plays) == pytest.approx(sum(x for v in edge.role_diffs.values() for x in v))
    # the same edges by both roles: each of the level's roles split by the other's there
    assert "by easy's role / random's role in that seat" in proc.stdout
    for role, values in edge.seat_edges.items():
        split = [x for key, v in edge.role_pairs.items() if key.split("/")[0] == role
                 for x in v]
        assert sorted(split) == sorted(values), role
    assert all(key.split("/")[0] == key.split("/")[1] for key in same.role_pairs)
