"""benchmarks/load.py still runs end to end: a tiny run (2 rooms of four playing three-deal
matches fast) against ``amerikaner serve`` (old protocol: actions name the ``version``) and
the bare broadcast floor, as a FastAPI app and as a plain ASGI callable (new protocol:
actions name the ``game``).  It checks that the swarm played, said ready and rematched,
that every move reached all four seats and that each figure is there.

It times nothing: the measured window ends on events (``--until-matches 1 --min-moves
100``: every room has ended a match and had 100 moves in it, then every action of the
window has landed), so what it asserts holds on a machine of any speed; a window of wall
time held no match end on a busy machine.  The benchmark prints figures, docs/scaling.md
records them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from shared_helpers import benchmark_refuses

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402

# moves per room in the window: enough that even the floor's few CPU milliseconds per
# hundred moves show in /proc's clock ticks (10 ms), whatever the machine's speed
MIN_MOVES = 100
# the swarm fails if a window's events have not come in this many seconds (a three-deal
# match of fast players takes a second or two); the subprocess's timeout only catches a hang
WINDOW_CAP_S = 60


@pytest.mark.timeout(900)
def test_load_benchmark_plays_every_server(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--rooms", "2",
         "--duration", "1", "--think", "0.005", "--warmup", "0.3", "--idle-wait", "0.1",
         "--until-matches", "1", "--min-moves", str(MIN_MOVES),
         "--window-cap", str(WINDOW_CAP_S),
         # a three-deal match (some 190 moves) outlasts the window's 100 moves, so the
         # window closes as it ends; a shorter one ended first and the window waited out
         # the rematch's countdown (5 s: REMATCH_SECONDS, app/rooms/core/flow.py) for its
         # last moves
         "--rules", json.dumps({"preset": "standard", "match": "deals:3"}),
         # a rough figure of the machine's speed: 0.06 s of CPU, not 1.5 s
         "--speed-seconds", "0.02", "--plain-floor", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=840, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    [point] = result["points"]
    # the machine's speed against the reference machine, and the CPU scaled to it
    assert result["machine"]["engine_deals_per_cpu_s"] > 0
    assert point["real_cpu_ms_per_move_on_reference"] > 0
    for name in ("real", "floor", "plain"):
        run = point[name]
        assert run["sockets"] == 8
        # the window closed on its events: every room had its moves (and, on the real
        # server, ended a match) in it
        goal = run["window_goal"]
        assert goal["fewest_moves"] >= MIN_MOVES, goal
        assert goal["fewest_matches"] >= (1 if name == "real" else 0), goal
        # moves: actions sent in the window whose state reached all four seats; the swarm
        # waited for every one of them after the window
        assert run["actions_sent"] >= run["moves"] >= 2 * MIN_MOVES, run
        assert run["actions_incomplete"] == 0, run
        assert run["latency_ms"]["p99"] >= run["latency_ms"]["p50"] > 0
        assert run["sockets_closed_by_server"] == {}, run
        assert run["swarm_errors"] == {}, run
        assert run["state_frame_bytes_mean"] > 500
        assert run["memory_kib"]["idle_rooms"] > 0
        assert run["server_cpu_ms_per_move"] is not None
    # nothing refused: the real server checks the old protocol's version, the floor the
    # new protocol's game, so the swarm speaks both
    assert point["real"]["errors"] == {}
    # each room ended a three-deal match in the window: its four seats said ready after
    # a deal, its host rematched
    between = point["real"]["ready_and_rematch_sent"]
    assert between.get("ready", 0) >= 8 and between.get("rematch", 0) >= 2, between
    assert point["floor"]["errors"] == point["plain"]["errors"] == {}
    assert point["real_over_floor_cpu_per_move"] > 0
    assert point["real_over_plain_cpu_per_move"] > 0
    assert "real / floor" in proc.stdout


def test_load_benchmark_refuses_workers_it_cannot_run(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Several processes run through cluster_load.py, which has no search.  The command
    refuses one (a process: its exit status and its line); its parser the other, in this
    process (each process of load.py is a Python start-up)."""
    benchmark_refuses("load.py", "--workers", "0", says="at least 1")
    with pytest.raises(SystemExit) as refused:
        load.parse_args(["--workers", "2", "--search"])
    assert refused.value.code == 2
    assert "not with --search" in capsys.readouterr().err
