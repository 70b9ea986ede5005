"""How much par's work budget changes the strong bot's decisions (app/bots/par_budget.py):
at each decision the budget thins, the card or bid chosen on its fewer samples against
the one chosen on ``PAR_SAMPLES`` samples of the same random stream (the thinned
decision saw the first samples of these), and, for scale, two choices on
``PAR_SAMPLES`` samples of two different streams (the search's own noise at par's
samples).  Prints, never asserts.

    python benchmarks/par_agreement.py --deals 5 --seed 1

If thinning agrees with the full search about as often as two full searches agree with
each other, the budget costs par less strength than the noise it already has.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app

from app.bots import par as par_module
from app.bots import search as search_module
from app.bots.par import PAR_PLAY_UNITS, PAR_SAMPLES, PAR_STRONG
from app.bots.par_budget import PlayBudget
from app.bots.search import SearchBot
from app.rules import Match, RuleSet, SeatView
from app.rules.record import deal_to_record, match_of_deal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--units", type=float, default=PAR_PLAY_UNITS)
    args = parser.parse_args()
    rules = RuleSet.from_json({"preset": "standard"}).with_changes({"match": "single_deal"})
    full = SearchBot("strong", PAR_STRONG)
    thin: dict[int, SearchBot] = {}
    seeds = random.Random(args.seed)
    thinned = same_stream = other_stream = decisions = 0
    for i in range(args.deals):
        match = Match(rules, rng=random.Random(seeds.getrandbits(32)))
        match.start_deal()
        deal = deal_to_record(match.deals[-1])
        seed = par_module.deal_seed(rules, deal)
        match = match_of_deal(rules, deal)
        state = match.deals[-1]
        budget = PlayBudget(args.units, PAR_SAMPLES)
        step = 0
        while state.turn is not None:
            seat = state.turn
            view = SeatView(match, seat)
            k = budget.samples(view)
            decisions += 1
            deadline = search_module.CLOCKS.wall() + 1e9
            stream = f"par:{seed}:0:{step}"
            if k < PAR_SAMPLES:
                bot = thin.setdefault(k, SearchBot("strong", replace(PAR_STRONG, samples=k)))
                chosen = bot.choose(view, random.Random(stream), deadline)
                whole = full.choose(view, random.Random(stream), deadline)
                other = full.choose(view, random.Random(stream + ":other"), deadline)
                thinned += 1
                same_stream += chosen == whole
                other_stream += whole == other
            else:
                chosen = full.choose(view, random.Random(stream), deadline)
            match.apply(seat, chosen)
            step += 1
        print(json.dumps({"deal": i, "decisions": decisions, "thinned": thinned}), flush=True)
    print(json.dumps({
        "deals": args.deals, "seed": args.seed, "units": args.units,
        "decisions": decisions, "thinned": thinned,
        "thinned_agrees_with_full_same_stream": round(same_stream / max(1, thinned), 3),
        "full_agrees_with_full_other_stream": round(other_stream / max(1, thinned), 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
