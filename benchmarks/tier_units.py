"""What the measurements of benchmarks/tiers.py share: a figure per unit, the machine's
speed against the reference machine now, and a process's proportional set size.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE), str(HERE.parent / "tests")]

import reference_speed  # noqa: E402


def pss_kib(pid: int) -> int:
    """Proportional set size: the process's own pages, and its share of shared ones."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:  # it ended meanwhile
        pass
    return 0


def per(value: float, count: float, scale: float = 1000.0) -> float | None:
    return round(scale * value / count, 4) if count else None


def times_slower(args: argparse.Namespace) -> float:
    """How many times slower than the reference machine this one is now (reference_speed.py)."""
    return reference_speed.machine_speed(args.speed_seconds)["times_slower_than_reference"]
