"""``amerikaner simulate``: the real command in a subprocess.

The summary's shape, determinism for a seed, the duplicate property of ``--rotate`` (each
deal dealt the same to every rotation), ``--records`` files that ``amerikaner replay``
accepts with the same totals, and argument errors that exit 2 with a message naming the
option and no traceback.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from shared_helpers import amerikaner

from app.simulate import _ProgressBar


def summary_of(*args: str) -> dict[str, Any]:
    done = amerikaner("simulate", *args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", "no progress bar when stderr is not a terminal"
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    result: dict[str, Any] = json.loads(lines[0])
    return result


def test_default_summary() -> None:
    summary = summary_of("--deals", "40", "--seed", "1")
    assert summary["deals"] == 40
    assert summary["bots"] == ["random"] * 4
    assert summary["rules"] == {"preset": "standard", "match": "single_deal"}
    assert set(summary["mean_points"]) == {"random"}
    assert isinstance(summary["mean_points"]["random"], float)
    assert summary["seconds"] >= 0
    assert summary["deals_per_second"] > 0
    assert summary["rotate"] is False
    contracts = summary["contracts"]["random"]
    assert 0 <= contracts["made"] <= contracts["won"] <= 40


def test_same_seed_same_games_other_seed_other_games(tmp_path: Path) -> None:
    args = ["--deals", "30", "--bots", "heuristic,random,heuristic,random", "--rotate"]
    runs = []
    for seed, name in (("9", "a"), ("9", "b"), ("10", "c")):
        path = tmp_path / f"{name}.jsonl"
        summary = summary_of(*args, "--seed", seed, "--records", str(path))
        for timing in ("seconds", "deals_per_second"):
            summary.pop(timing)
        runs.append((summary, path.read_text()))
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[2][1]


def test_rotate_deals_each_deal_once_per_seat(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    bots = ["heuristic", "random", "random", "random", "heuristic"]
    summary = summary_of("--deals", "6", "--seed", "3", "--bots", ",".join(bots),
                         "--rules", '{"preset": "norsk", "players": 5}', "--rotate",
                         "--records", str(path))
    assert summary["deals"] == 6 * 5
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 30
    for group in range(6):
        rotation = records[group * 5:(group + 1) * 5]
        first_deals = [r["deals"][0] for r in rotation]
        assert all(d["hands"] == first_deals[0]["hands"] for d in first_deals)
        assert all(d["kitty"] == first_deals[0]["kitty"] for d in first_deals)
        assert all(d["dealer"] == first_deals[0]["dealer"] for d in first_deals)
        for k, record in enumerate(rotation):
            assert record["players"] == [bots[(s - k) % 5] for s in range(5)]
            assert record["rules"] == {"preset": "norsk", "players": 5, "match": "single_deal"}
    # Different deals from one group to the next.
    assert records[0]["deals"][0]["hands"] != records[5]["deals"][0]["hands"]


def test_rotation_repeats_redeals_too(tmp_path: Path) -> None:
    """A deal passed out at two tables of a rotation is redealt the same at both."""
    path = tmp_path / "games.jsonl"
    # High bids only: the heuristic passes most hands, so many deals are passed out.
    summary_of("--deals", "40", "--seed", "5", "--bots", "random,heuristic,random,random",
               "--rules", '{"min_bid": 11}', "--rotate", "--records", str(path))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    compared = 0
    for group in range(40):
        rotation = records[group * 4:(group + 1) * 4]
        for record in rotation[1:]:
            for first, other in zip(rotation[0]["deals"], record["deals"], strict=False):
                assert (first["hands"], first["dealer"]) == (other["hands"], other["dealer"])
                compared += 1
    assert compared > 120 + 10, "some redeals should have been compared"


def test_records_replay_to_the_summary(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    summary = summary_of("--deals", "12", "--seed", "21", "--bots",
                         "heuristic,random,random", "--rules", '{"players": 3}', "--rotate",
                         "--records", str(path))
    files = []
    for i, line in enumerate(path.read_text().splitlines()):
        files.append(f"deal{i}.json")
        (tmp_path / files[-1]).write_text(line)
    done = amerikaner("replay", *files, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[:2000]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == summary["deals"] == 36
    totals: dict[str, int] = {}
    seats: dict[str, int] = {}
    for name, result in zip(files, results, strict=True):
        record = json.loads((tmp_path / name).read_text())
        assert result["ok"] and result["finished"]
        assert result["deals"][-1]["outcome"] in ("played", "minus_round")
        for seat, bot in enumerate(record["players"]):
            totals[bot] = totals.get(bot, 0) + result["totals"][seat]
            seats[bot] = seats.get(bot, 0) + 1
    means = {bot: round(totals[bot] / seats[bot], 4) for bot in totals}
    assert means == summary["mean_points"]


@pytest.mark.parametrize(("args", "option", "words"), [
    (["--deals", "0", "--seed", "1"], "--deals", "at least one deal"),
    (["--deals", "-5", "--seed", "1"], "--deals", "at least one deal"),
    (["--deals", "3", "--seed", "1", "--bots", "random,genius,random,random"], "--bots",
     "unknown bot 'genius'"),
    (["--deals", "3", "--seed", "1", "--bots", "random,random"], "--bots", "2 bots given for 4"),
    (["--deals", "3", "--seed", "1", "--bots", "random,,random,random"], "--bots",
     "unknown bot"),
    (["--deals", "3", "--seed", "1", "--rules", "fancy"], "--rules", "unknown preset"),
    (["--deals", "3", "--seed", "1", "--rules", '{"players": 6}'], "--rules", "players"),
    (["--deals", "3", "--seed", "1", "--rules", '{"players": 4,'], "--rules", "not valid JSON"),
    (["--deals", "3", "--seed", "1", "--rules", "[4]"], "--rules", "JSON object"),
    (["--deals", "3", "--seed", "1", "--rules", '{"colour": "red"}'], "--rules", "colour"),
    (["--deals", "3", "--seed", "1", "--records", "/nonexistent/dir/x.jsonl"], "--records",
     "cannot write"),
])
def test_bad_arguments_exit_2_with_a_message(args: list[str], option: str, words: str) -> None:
    done = amerikaner("simulate", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert option in done.stderr and words in done.stderr, done.stderr


def test_bad_arguments_write_no_records(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    done = amerikaner("simulate", "--deals", "3", "--seed", "1", "--bots", "nobody",
                      "--records", str(path))
    assert done.returncode == 2
    assert not path.exists()


def test_progress_bar_draws_to_the_end() -> None:
    out = io.StringIO()
    bar = _ProgressBar(out)
    for done in range(1, 101):
        bar(done, 100)
    text = out.getvalue()
    assert text.startswith("\r[")
    assert text.endswith("] 100/100 deals\n")
    assert text.count("\r") < 100, "redrawn at most ten times a second"
