"""Pair ``benchmarks/bots.py --diffs`` files deal by deal: each variant minus the base.

    python3 benchmarks/pair_diffs.py BASE.txt VARIANT.txt [VARIANT.pkl ...]

Two runs of ``bots.py --common-random`` on the same ``--seed`` and deals play a deal
alike until one decision differs, so the paired difference carries only the noise of
the deals the change touched (docs/bots.md, "Figures"). For each variant it prints the
mean difference a deal with its 95 % interval, the deals paired (the shorter run's
count, for a run cut short) and how many of them differ. A ``.pkl`` file is a run's
``--save`` file (with ``--every``, written at each checkpoint): a run stopped before its
end is read from it.  A ``--shard K/M`` run holds every M-th deal: pair it with the base's
same shard, or paste the shards' files in the deals' order first (docs/bots.md).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bot_stats.py adds the repository

import bot_stats


class _SavedRun(pickle.Unpickler):
    """bots.py pickled its figures as its ``__main__``'s classes before they moved to
    bot_stats.py: here they are bot_stats'."""

    def find_class(self, module: str, name: str) -> object:
        if module == "__main__":
            return getattr(bot_stats, name)
        return super().find_class(module, name)


def read_diffs(path: Path) -> list[float]:
    """A ``--diffs`` file's figures, or those of a ``--save`` file's one pair."""
    if path.suffix != ".pkl":
        return [float(x) for x in path.read_text().split()]
    with path.open("rb") as f:
        saved = _SavedRun(f).load()
    if len(saved) != 1:
        raise SystemExit(f"{path}: {len(saved)} pairs saved; pair_diffs reads one")
    (stats,) = saved.values()
    return list(stats.diffs)


def paired(base: list[float], variant: list[float]) -> tuple[float, float, int, int]:
    """(mean, 95 % half-interval, deals paired, deals that differ) of variant - base."""
    n = min(len(base), len(variant))
    diffs = [v - b for b, v in zip(base[:n], variant[:n], strict=True)]
    mean, ci = bot_stats.mean_ci(diffs)
    return mean, ci, n, sum(1 for d in diffs if abs(d) > 1e-9)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("variants", type=Path, nargs="+")
    args = parser.parse_args(argv)
    base = read_diffs(args.base)
    for path in args.variants:
        mean, ci, n, differ = paired(base, read_diffs(path))
        print(f"{path}: {mean:+.3f} ± {ci:.3f} a deal ({n} deals, {differ} differ)")


if __name__ == "__main__":
    main()
