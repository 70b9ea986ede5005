"""benchmarks/pair_diffs.py pairs two ``bots.py --diffs`` files deal by deal: the same
run differs on no deal, a run cut short is paired on its deals only, and the interval
is the paired one (smaller than either run's when the runs move together); a run's
``--save`` file reads as its ``--diffs`` file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from pair_diffs import main, paired, read_diffs  # noqa: E402


def test_a_run_against_itself_differs_on_no_deal() -> None:
    assert paired([1.5, -2.0, 3.25], [1.5, -2.0, 3.25]) == (0.0, 0.0, 3, 0)


def test_a_run_cut_short_is_paired_on_its_own_deals() -> None:
    mean, ci, n, differ = paired([1.0, 2.0, 3.0, 4.0], [1.0, 2.5, 3.5])
    assert (n, differ) == (3, 2)
    assert mean == pytest.approx(1.0 / 3.0)
    assert ci > 0.0


def test_the_interval_is_the_paired_one() -> None:
    base = [10.0, -10.0, 5.0, -5.0, 0.0, 8.0]
    variant = [x + d for x, d in zip(base, [0.5, 0.0, 0.5, 0.0, 0.5, 0.0], strict=True)]
    mean, ci, _, differ = paired(base, variant)
    assert mean == pytest.approx(0.25)
    assert differ == 3
    assert ci < 0.5  # the runs' own spread (about ±7) does not enter


def test_it_prints_a_line_a_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = tmp_path / "base.txt"
    better = tmp_path / "better.txt"
    base.write_text("1.0\n2.0\n")
    better.write_text("2.0\n3.0\n")
    main([str(base), str(better), str(base)])
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{better}: +1.000 ± 0.000 a deal (2 deals, 2 differ)",
                   f"{base}: +0.000 ± 0.000 a deal (2 deals, 0 differ)"]


def test_a_save_file_pairs_as_its_diffs_file(tmp_path: Path) -> None:
    """A run stopped before its end is read from its --save pickle (bot_stats.py's
    classes, pickled by bots.py): the same figures as its --diffs file."""
    diffs, saved = tmp_path / "run.txt", tmp_path / "run.pkl"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--deals", "3", "--seed", "2",
         "--pairs", "easy:random", "--common-random", "--diffs", str(diffs),
         "--save", str(saved)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    figures = read_diffs(diffs)
    assert len(figures) == 3 and any(figures)
    assert read_diffs(saved) == figures
