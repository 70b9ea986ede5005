"""What scoring a bots' rollout costs: ``rollout.deal_points`` (the engine's
``scoring.deal_points`` on a deal in play and the expected tricks) and a whole
``rollout.finish``, on fixed sampled deals; prints CPU times, never asserts.

    .venv/bin/python benchmarks/rollout_scoring.py

Run it on two checkouts to compare them (docs/history/2026-12-05-newcomer-retrial-2.md):
the figures are the best of 5 repetitions of the process's CPU time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from app.bots import rollout
from app.rules import DealState, Match, RuleSet
from app.rules.phases import Phase


def deals(count: int, rules: RuleSet) -> list[DealState]:
    """``count`` deals of ``rules`` played by the heuristic until 6 tricks are left."""
    out: list[DealState] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        match = Match(rules.with_changes({"match": "single_deal"}), rng=random.Random(seed))
        match.start_deal()
        deal = match.deals[0]
        rollout.play_heuristic(deal, rng, tricks_left=6)
        if deal.phase == Phase.PLAY:
            out.append(deal)
    return out


def best(run: Callable[[], None], repeats: int = 5) -> float:
    """The least CPU time of ``repeats`` runs, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    for name, rules in [("standard", RuleSet("standard")),
                        ("minus round", RuleSet("standard", all_pass="minus_round"))]:
        sample = deals(200, rules)

        def score_all(sample: list[DealState] = sample) -> None:
            for _ in range(50):
                for deal in sample:
                    rollout.deal_points(deal, deal.turn or 0, 2)

        def finish_some(sample: list[DealState] = sample) -> None:
            rng = random.Random(1)
            for deal in sample[:60]:
                rollout.finish(deal.copy(), deal.turn or 0, 6, rng)

        print(f"{name}: deal_points x10000 {best(score_all) * 1e3:.1f} ms CPU; "
              f"finish x60 {best(finish_some) * 1e3:.1f} ms CPU")


if __name__ == "__main__":
    main()
