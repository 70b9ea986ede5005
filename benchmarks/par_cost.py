"""What the par of one deal costs in CPU (issue 38: at most 3 s a standard deal), against
par without its work budget and one plain self-play deal of the table's strong bot, in
the same run; prints, never asserts.

    python benchmarks/par_cost.py --unbudgeted     # 20 standard deals, with and without
    python benchmarks/par_cost.py --deals 40 --seed 2 --rules '{"preset": "norsk"}'
    python benchmarks/par_cost.py --samples 12 --plays 2   # another budget, to compare
    python benchmarks/par_cost.py --units 600 --unbudgeted --no-table

For each of ``--deals`` random deals (from ``--seed``) it measures, in this process's CPU
time (``time.process_time``, what a par-lane worker spends on it):

- ``par``: ``app.bots.par.par_of_deal`` as the par lane makes it: ``PAR_PLAYS`` plays of
  the deal by ``PAR_STRONG`` (the strong bot's search at a fixed number of samples a
  decision) in every seat, each play within ``--units`` work units
  (app/bots/par_budget.py); with the units it spent and its decisions searched with
  fewer samples (``thinned``);
- ``unbudgeted`` (``--unbudgeted``): the same plays with every decision at
  ``--samples``, and how far the par moved (the largest change of a seat's par, and the
  plays whose points differ): the budget's effect on par, to read against
- ``noise`` (``--noise``, with ``--unbudgeted``): how far the unbudgeted par moves with
  another seed (par's own noise: its three plays differ only by their samples);
- ``baseline``: one play of the same cards by the table's ``strong`` bot in every seat,
  its CPU budget a decision as at a table (its wall-clock deadline lifted, so that a busy
  machine does not cut its decisions short); ``--no-table`` leaves it out.

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
from app.bots.par import PAR_PLAY_UNITS, PAR_PLAYS, PAR_SAMPLES, Par, par_from_plays, play_par
from app.rules import Match, RuleSet, SeatView
from app.rules.record import deal_to_record, match_of_deal

UNLIMITED_UNITS = 1e12

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


def summary(values: list[float]) -> dict[str, float]:
    return {"mean": round(sum(values) / len(values), 3),
            "p95": round(percentile(values, 0.95), 3), "max": round(max(values), 3)}


def par_with(rules: RuleSet, deal: dict[str, Any], plays: int, units: float,
             other_seed: bool = False) -> tuple[Par, float, int]:
    """The deal's par within ``units`` a play, the units its plays spent and their
    decisions thinned (``other_seed``: from another seed than the deal's)."""
    seed = par_module.deal_seed(rules, deal) ^ other_seed
    made = [play_par(rules, deal, k, seed, units=units) for k in range(plays)]
    return (par_from_plays("strong", seed, made), sum(p.units for p in made),
            sum(p.thinned for p in made))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default='{"preset": "standard"}')
    parser.add_argument("--samples", type=int, default=PAR_SAMPLES,
                        help="samples a decision of par's strong bot (to compare)")
    parser.add_argument("--plays", type=int, default=PAR_PLAYS)
    parser.add_argument("--units", type=float, default=PAR_PLAY_UNITS,
                        help="work units a play (app/bots/par_budget.py)")
    parser.add_argument("--unbudgeted", action="store_true",
                        help="also par with no work budget, in the same run")
    parser.add_argument("--noise", action="store_true",
                        help="with --unbudgeted: also its par from another seed")
    parser.add_argument("--no-table", action="store_true",
                        help="leave out the table's strong self-play baseline")
    args = parser.parse_args()
    par_module.PAR_STRONG = replace(par_module.PAR_STRONG, samples=args.samples)
    rules = RuleSet.from_json(json.loads(args.rules)).with_changes({"match": "single_deal"})
    seeds = random.Random(args.seed)
    pars: list[float] = []
    frees: list[float] = []
    bases: list[float] = []
    moved: list[float] = []
    noise: list[float] = []
    per_unit: list[float] = []
    thinned_deals = 0
    for i in range(args.deals):
        deal_seed = seeds.getrandbits(32)
        match = Match(rules, rng=random.Random(deal_seed))
        match.start_deal()
        deal = deal_to_record(match.deals[-1])
        par, units, thinned = par_with(rules, deal, args.plays, args.units)
        pars.append(par.cpu_seconds)
        thinned_deals += thinned > 0
        line: dict[str, Any] = {"deal": i, "par_cpu_s": round(par.cpu_seconds, 3),
                                "units": round(units), "thinned": thinned,
                                "par": [round(m, 2) for m in par.seat_means]}
        if units:
            per_unit.append(par.cpu_seconds / units)
        if args.unbudgeted:
            free, _, _ = par_with(rules, deal, args.plays, UNLIMITED_UNITS)
            frees.append(free.cpu_seconds)
            moved.append(max(abs(a - b) for a, b in zip(par.seat_means, free.seat_means,
                                                         strict=True)))
            if args.noise:
                other, _, _ = par_with(rules, deal, args.plays, UNLIMITED_UNITS, True)
                noise.append(max(abs(a - b) for a, b in zip(
                    other.seat_means, free.seat_means, strict=True)))
                line["noise"] = round(noise[-1], 2)
            line.update({"unbudgeted_cpu_s": round(free.cpu_seconds, 3),
                         "par_moved": round(moved[-1], 2),
                         "plays_differ": sum(a != b for a, b in zip(
                             par.play_points, free.play_points, strict=True))})
        if not args.no_table:
            bases.append(baseline(rules, deal, deal_seed))
            line["baseline_cpu_s"] = round(bases[-1], 3)
        print(json.dumps(line), flush=True)
    mean_par = sum(pars) / len(pars)
    out: dict[str, Any] = {
        "deals": args.deals, "seed": args.seed, "rules": rules.to_json(),
        "plays": args.plays, "samples": args.samples, "units": args.units,
        "par_cpu_s": summary(pars), "deals_thinned": thinned_deals,
        "cpu_ms_per_unit": round(1000 * sum(per_unit) / len(per_unit), 3) if per_unit else None}
    if frees:
        out["unbudgeted_cpu_s"] = summary(frees)
        out["par_moved"] = {"mean": round(sum(moved) / len(moved), 3),
                            "max": round(max(moved), 3)}
    if noise:
        out["noise"] = {"mean": round(sum(noise) / len(noise), 3),
                        "max": round(max(noise), 3)}
    if bases:
        mean_base = sum(bases) / len(bases)
        out.update({"baseline_cpu_s": round(mean_base, 3),
                    "ratio": round(mean_par / mean_base, 3)})
    out.update({"target_s": TARGET, "within_target": max(pars) <= TARGET})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
