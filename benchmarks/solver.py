"""How fast the exact endgame is (app/bots/solver.py); prints, never asserts.

    python3 benchmarks/solver.py [--positions 3000] [--tricks 4,5] [--seed 1]

The positions are the ones the search bots solve: deals of the standard rules played by
the ``easy`` bot in every seat until ``tricks`` tricks are left, solved from the seat to
play's point of view, once for the value (``Endgame.value``: what each rollout asks) and
once for every legal card (``Endgame.values``: the search's exact last tricks), each on a
new solver (a rollout's table never outlives its sample).  It prints the mean time a
solve and the nodes, so two commits can be compared on the same positions.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.rollout import POLICY, play_heuristic, shell, solver_for
from app.rules import DealState, Match, SeatView
from app.simulate import parse_rules


def positions(count: int, tricks: int, seed: int) -> list[DealState]:
    """``count`` deals stopped with ``tricks`` tricks left, a trick begun in some."""
    rng = random.Random(seed)
    out: list[DealState] = []
    rules = parse_rules("standard")
    while len(out) < count:
        match = Match(rules, random.Random(rng.randrange(1 << 30)))
        match.start_deal()
        deal = match.deals[-1]
        play_heuristic(deal, rng, tricks)
        if deal.turn is None or deal.minus_round:
            continue
        for _ in range(rng.randrange(deal.n)):  # a few cards of the next trick down
            seat = deal.turn
            assert seat is not None
            deal.apply(seat, POLICY.choose(SeatView(shell(deal), seat), rng))
        out.append(deal)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=3000)
    parser.add_argument("--tricks", default="4,5")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for tricks in (int(t) for t in args.tricks.split(",")):
        deals = positions(args.positions, tricks, args.seed)
        for kind in ("value", "values"):
            nodes = 0
            total = 0
            started = time.process_time()
            for deal in deals:
                seat = deal.turn
                assert seat is not None
                solver = solver_for(deal, seat)
                leader = deal.leader if deal.trick_cards else seat
                if kind == "value":
                    total += solver.value(deal.hands, leader, deal.trick_cards)
                else:
                    total += sum(solver.values(deal.hands, leader, deal.trick_cards).values())
                nodes += solver.nodes
            spent = time.process_time() - started
            print(f"{tricks} tricks left, {kind:6}: {len(deals)} positions, "
                  f"{spent / len(deals) * 1e6:8.1f} µs a solve (CPU), "
                  f"{nodes / len(deals):7.1f} nodes, checksum {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
