"""How strong and how fast the bot levels are (docs/bots.md, "Levels"); prints, never
asserts.

    python3 benchmarks/bots.py --deals 500 --seed 1 [--rules standard] [--pairs strong:easy,...]

For each pair ``a:b`` it plays ``--deals`` duplicate deals (``simulate --rotate``): every
deal once per seat with ``a`` in that seat and ``b`` in every other, so each level holds
every hand.  It prints, with 95 % confidence intervals over the deals (the rotations of
one deal are paired):

- mean points per deal per seat of ``a`` and of ``b``, and their difference;
- decision time of each level, mean and 95th percentile, and the slowest decision;
- as bidding side, the side's tricks against random play in the bidder's seat from the
  same position (the deal replayed from the first lead with the bidder playing at random);
- among ``a``'s plays with four tricks left where the choice matters (more than one legal
  card, not all of the same double-dummy value), the share that is optimal with all hands
  known (the bidder's side maximises its tricks, the defenders minimise them).

``--deals 500`` with four players is 2,000 deal-plays per pair, the issue's sample size.

``--shapes NAME,NAME,...`` (or ``all``) plays the pairs in each shape of the rules of
``app/bots/shapes.py`` (standard, 3 and 5 players, jokers, grand, led two wins, the minus
round, the bidder's double, norsk, fullstokk) instead of ``--rules``, and ends with one
Markdown table (docs/bots.md): per shape and pair, the edge with its interval, the share
of optimal plays with four tricks left, and the first level's decision time, in wall time
and in the deciding thread's CPU time (what the search budgets count, the same on a busy
machine).  With ``--shard K/M --save FILE`` it plays one core's share of every shape's
deals, and ``--merge FILE,FILE`` prints the reports and the table of all the shards.

``--common-random`` gives every decision a random stream of its own (fixed by the deal
and the moves before it) and no time limit. Two variants with a fixed number of samples
(``strong+budget=100+samples=24`` and the same ``+bid_bonus=0.4``) then play a deal
identically until one of their decisions differs, and ``--diffs`` of the two runs paired
deal by deal measure the change with the noise of only the deals where it mattered.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot_play
from bot_play import LEVELS, run_pair, variant
from bot_report import print_table, report
from bot_stats import Stats

from app.bots.shapes import SHAPES, shape_rules
from app.simulate import parse_rules


def run_shapes(names: str, args: argparse.Namespace) -> int:
    """``--shapes``: every pair in every shape, then the summary table; with ``--shard``
    and ``--save`` one core's share, which ``--merge`` reports with the others'."""
    shapes = list(SHAPES) if names == "all" else names.split(",")
    k, m = (int(x) for x in args.shard.split("/"))
    saved: dict[tuple[str, str, str], Stats] = {}
    for shape in shapes:
        rules = shape_rules(shape, match="single_deal")
        print(f"== shape {shape}: rules {rules.to_json()}, seed {args.seed}, shard {args.shard}",
              flush=True)
        for pair in args.pairs.split(","):
            a, b = pair.split(":")
            LEVELS.update({a: variant(a), b: variant(b)})
            stats = run_pair(rules, a, b, args.deals, args.seed, 0, (k, m), "", {})
            saved[shape, a, b] = stats
            if args.save:  # after each pair: a run cut short keeps what it measured
                Path(args.save).write_bytes(pickle.dumps(saved))
            report(a, b, stats, rules.options.players)
    print_table(saved)
    return 0


def _by_shape(saved: str) -> bool:
    """Whether a saved file holds ``--shapes`` figures (keyed shape, a, b)."""
    return any(len(key) == 3 for key in pickle.loads(Path(saved).read_bytes()))


def merge_shapes(files: list[str]) -> int:
    """``--merge`` of ``--shapes`` shards: each shape's report, then the table."""
    merged: dict[tuple[str, str, str], Stats] = {}
    for name in files:
        for key, part in pickle.loads(Path(name).read_bytes()).items():
            merged.setdefault(key, Stats()).merge(part)
    for (shape, a, b), stats in merged.items():
        print(f"== shape {shape}")
        report(a, b, stats, shape_rules(shape).options.players)
    print_table(merged)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--pairs", default="strong:easy,normal:easy,easy:random")
    parser.add_argument("--diffs", default="",
                        help="write each deal's difference to this file, a line each "
                             "(to pair two runs on the same deals)")
    parser.add_argument("--every", type=int, default=0,
                        help="also print the figures so far every N deals")
    parser.add_argument("--shard", default="0/1",
                        help="K/M: play only every M-th deal from the K-th (0-based), to "
                             "run one pair on several cores; with --save, then --merge")
    parser.add_argument("--save", default="", help="pickle the figures to this file")
    parser.add_argument("--shapes", default="",
                        help="NAME,NAME,... or all: the pairs in each shape of the rules "
                             "(app/bots/shapes.py), with a summary table")
    parser.add_argument("--common-random", action="store_true",
                        help="a random stream a decision and no time limit (for variants "
                             "with fixed samples: strong+budget=100+samples=20)")
    parser.add_argument("--merge", default="",
                        help="FILE,FILE,...: report the saved figures of shards together")
    args = parser.parse_args(argv)
    bot_play.COMMON_RANDOM = args.common_random  # (read by bot_play.play)
    if args.shapes:
        return run_shapes(args.shapes, args)
    if args.merge and _by_shape(args.merge.split(",")[0]):
        return merge_shapes(args.merge.split(","))
    rules = parse_rules(args.rules)
    n = rules.options.players
    if args.merge:
        print(f"rules {rules.to_json()}, shards {args.merge}")
        merged: dict[tuple[str, str], Stats] = {}
        for name in args.merge.split(","):
            for pair, part in pickle.loads(Path(name).read_bytes()).items():
                merged.setdefault(pair, Stats()).merge(part)
        for (a, b), stats in merged.items():
            report(a, b, stats, n)
        return 0
    print(f"rules {rules.to_json()}, seed {args.seed}, shard {args.shard}")
    k, m = (int(x) for x in args.shard.split("/"))
    saved: dict[tuple[str, str], Stats] = {}
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        LEVELS.update({a: variant(a), b: variant(b)})
        started = time.perf_counter()
        stats = run_pair(rules, a, b, args.deals, args.seed, args.every, (k, m), args.save,
                         saved)
        saved[a, b] = stats
        if args.save:
            Path(args.save).write_bytes(pickle.dumps(saved))
        report(a, b, stats, n)
        if args.diffs:
            Path(args.diffs).write_text("".join(f"{d!r}\n" for d in stats.diffs))
        print(f"  ({time.perf_counter() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
