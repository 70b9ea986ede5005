"""benchmarks/soak.py still runs end to end: a tiny soak of two rounds (2 rooms of four
playing two-deal matches fast for a second or so, one room leaving and one coming every
second, rooms leaving memory half a second after their sockets close).  It checks that
every memory figure is there and sane, that rooms came and went and left memory, that the
warm-up room finished its match and the soak's rooms their deals; it does not judge the
verdict (the soak prints figures, docs/scaling.md records them).

It times nothing: what it checks comes from events, whatever the machine's speed.  The
warm-up waits for its room's rematch, each round goes on past its 1.2 s until a deal has
ended in it and a wave of rooms has come (``--until-deals 1``), and the rooms' leaving
memory is awaited; each wait has a generous cap that fails the run (a few seconds of wall
time held no deal end on a busy machine)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from shared_helpers import benchmark_refuses

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import soak  # noqa: E402

# the soak fails if the warm-up's match or a round's deal has not ended in this many
# seconds (each takes about one with fast players); the timeouts only catch a hang
CAP_S = 60


@pytest.mark.timeout(600)
def test_soak_benchmark_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "soak.py"), "--rooms", "2",
         # rounds of 1.2 s, sampled once in the middle and once at the end (each goes on
         # until its deal has ended and its wave has come)
         "--minutes", "0.02", "--rounds", "2", "--wave", "1", "--churn", "0.5", "--sample", "0.6",
         "--think", "0.005", "--idle-seconds", "0.5", "--settle", "0.2",
         "--until-deals", "1", "--round-cap", str(CAP_S), "--warmup-bound", str(CAP_S),
         "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=540, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = json.loads(out.read_text())
    memory = run["memory_kib"]
    for key in ("empty", "warm", "sockets_closed", "rooms_expired", "peak"):
        assert 10 * 1024 < memory[key] < 4 * 1024 * 1024, (key, memory)
    # the peak is read every second and at every other reading: none is above it
    assert memory["peak"] >= max(memory["warm"], memory["sockets_closed"],
                                 memory["rooms_expired"],
                                 *(s["rss_kib"] for s in memory["samples"]))
    samples = memory["samples"]
    assert len(samples) >= 2
    order = [(s["round"], s["t_s"]) for s in samples]
    assert order == sorted(order)
    assert {s["round"] for s in samples} == {1, 2}
    assert all(s["rooms_playing"] == 2 and s["rooms_in_memory"] >= 2 for s in samples)
    # moves only grow; the last actions may land after the last sample
    assert [s["moves"] for s in samples] == sorted(s["moves"] for s in samples)
    assert 0 < samples[-1]["moves"] <= run["moves"]
    # the warm-up room finished its match and left memory; so did every room at the end
    assert run["warmup"]["match_over"] and run["warmup"]["moves"] > 0
    assert run["warmup"]["expiry"]["rooms_left"] == 0
    assert [r["expiry"]["rooms_left"] for r in run["rounds"]] == [0, 0]
    assert run["expiry"] == run["rounds"][-1]["expiry"]
    assert memory["after_each_round"] == [r["rooms_expired"] for r in run["rounds"]]
    assert memory["rooms_expired"] == memory["after_each_round"][-1]
    # the warm-up room, then each round two rooms and one new room per wave, at least one
    # wave a round: rooms came and went
    assert run["churn_per_wave"] == 1
    assert all(r["waves"] >= 1 for r in run["rounds"]), run["rounds"]
    assert run["rooms_created"] == 1 + sum(2 + r["waves"] for r in run["rounds"])
    final = run["final"]
    assert final["diff_to_empty_kib"] == memory["rooms_expired"] - memory["empty"]
    assert final["diff_to_warm_kib"] == memory["rooms_expired"] - memory["warm"]
    assert final["ratio_to_warm"] > 0 and final["ratio_to_empty"] > 0
    assert final["tolerance_kib"] >= 5 * 1024
    assert isinstance(final["came_back"], bool)
    assert final["last_round_growth_kib"] == (memory["after_each_round"][1]
                                              - memory["after_each_round"][0])
    assert f"came back near its start: {'YES' if final['came_back'] else 'NO'}" in proc.stdout
    # a deal ended in each round, its four seats said ready (the warm-up's whole match,
    # rematch included, is above)
    assert all(r["deals_ended"] >= 1 for r in run["rounds"]), run["rounds"]
    assert run["ready_and_rematch_sent"].get("ready", 0) >= 8, run["ready_and_rematch_sent"]
    assert run["latency_ms"]["p99"] >= run["latency_ms"]["p50"] > 0
    assert run["errors"] == {} and run["swarm_errors"] == {}
    assert run["playing_sockets_closed_by_server"] == 0
    # the live heap, read from /healthz: empty, warm, after each round
    heap = run["heap"]
    assert heap["unit"] == "KiB"  # the server runs on malloc: glibc's bytes in use
    assert 0 < heap["empty"] <= heap["warm"] * 2
    assert heap["after_each_round"] == [r["heap_expired"] for r in run["rounds"]]
    live = run["live_heap"]
    assert live["diff_to_warm"] == heap["rooms_expired"] - heap["warm"]
    assert live["unit"] == "KiB" and isinstance(live["came_back"], bool)
    assert "live heap:" in proc.stdout


def test_soak_benchmark_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """The command refuses one (a process: its exit status and its line); its parser the
    other, in this process (each process of soak.py is a Python start-up)."""
    benchmark_refuses("soak.py", "--churn", "2", says="--churn between 0 and 1")
    with pytest.raises(SystemExit) as refused:
        soak.parse_args(["--server-env", "NOVALUE"])
    assert refused.value.code == 2
    assert "KEY=VALUE" in capsys.readouterr().err
