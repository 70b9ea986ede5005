"""What the par of one deal costs in CPU (issue 38: at most 3 s a standard deal), against
one plain self-play deal of the table's strong bot in the same run; prints, never asserts.

    python benchmarks/par_cost.py                  # 20 standard deals
    python benchmarks/par_cost.py --deals 40 --seed 2 --rules '{"preset": "norsk"}'
    python benchmarks/par_cost.py --samples 12 --plays 2   # another budget, to compare

For each of ``--deals`` random deals (from ``--seed``) it measures, in this process's CPU
time (``time.process_time``, what a par-lane worker spends on it):

- ``par``: ``app.bots.par.par_of_deal`` as the par lane makes it: ``PAR_PLAYS`` plays of
  the deal by ``PAR_STRONG`` (the strong bot's search at a fixed number of samples a
  decision) in every seat;
- ``baseline``: one play of the same cards by the table's ``strong`` bot in every seat,
  its CPU budget a decision as at a table (its wall-clock deadline lifted, so that a busy
  machine does not cut its decisions short).

It prints one JSON line per deal, then the summary: mean, 95th percentile and largest par
cost, the baseline's mean, and their ratio.  The cards follow from ``--seed``; the times
are the machine's (read the ratio, and the mean against the 3 s target).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app

from app.bots import BOTS
from app.bots import par as par_module
from app.bots import search as search_module
from app.bots.par import PAR_PLAYS, PAR_SAMPLES, par_of_deal
from app.rules import Match, RuleSet, SeatView
from app.rules.record import deal_to_record, match_of_deal

TARGET = 3.0  # CPU seconds a standard deal's par may cost (issue 38)


def baseline(rules: RuleSet, deal: dict[str, Any], seed: int) -> float:
    """CPU seconds of one play of the deal by the table's strong bot in every seat."""
    match = match_of_deal(rules, deal)
    state = match.deals[-1]
    bot = BOTS["strong"]
    rng = random.Random(seed)
    started = time.process_time()
    while state.turn is not None:
        seat = state.turn
        deadline = search_module.CLOCKS.wall() + 3600.0
        match.apply(seat, bot.choose(SeatView(match, seat), rng, deadline))
    return time.process_time() - started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[math.ceil(share * len(ordered)) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default='{"preset": "standard"}')
    parser.add_argument("--samples", type=int, default=PAR_SAMPLES,
                        help="samples a decision of par's strong bot (to compare)")
    parser.add_argument("--plays", type=int, default=PAR_PLAYS)
    args = parser.parse_args()
    par_module.PAR_STRONG = replace(par_module.PAR_STRONG, samples=args.samples)
    rules = RuleSet.from_json(json.loads(args.rules)).with_changes({"match": "single_deal"})
    seeds = random.Random(args.seed)
    pars: list[float] = []
    bases: list[float] = []
    for i in range(args.deals):
        deal_seed = seeds.getrandbits(32)
        match = Match(rules, rng=random.Random(deal_seed))
        match.start_deal()
        deal = deal_to_record(match.deals[-1])
        par = par_of_deal(rules, deal, plays=args.plays)
        base = baseline(rules, deal, deal_seed)
        pars.append(par.cpu_seconds)
        bases.append(base)
        print(json.dumps({"deal": i, "par_cpu_s": round(par.cpu_seconds, 3),
                          "baseline_cpu_s": round(base, 3),
                          "par": [round(m, 2) for m in par.seat_means]}), flush=True)
    mean_par = sum(pars) / len(pars)
    mean_base = sum(bases) / len(bases)
    print(json.dumps({
        "deals": args.deals, "seed": args.seed, "rules": rules.to_json(),
        "plays": args.plays, "samples": args.samples,
        "par_cpu_s": {"mean": round(mean_par, 3), "p95": round(percentile(pars, 0.95), 3),
                      "max": round(max(pars), 3)},
        "baseline_cpu_s": round(mean_base, 3),
        "ratio": round(mean_par / mean_base, 3),
        "target_s": TARGET, "within_target": mean_par <= TARGET}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
