"""How well search variants defend, paired on the same positions (docs/bots.md, "Where
the points go"); prints, never asserts.

    python3 benchmarks/defence.py --deals 100 --seed 1 \\
        --variants strong+samples=24+budget=1e9,strong+samples=24+budget=1e9+together=1

Each deal's auction, kitty and first lead are played by ``easy`` in every seat (the contracts a
defender meets at a table of ``easy``, the duplicate benchmarks' other level).  From the
second card on, each defender seat in turn is played by each variant with ``easy`` in the
other seats, from the same position; the seat's score is its points relative to the
table (its points minus the others' mean, what benchmarks/bots.py and roles.py measure).
Every decision draws from a random stream fixed by the deal and the moves before it and
has no time limit, so variants with a fixed number of samples (``samples=N`` with
``budget=1e9``) play alike until one of their decisions differs, on any machine at any
load: the difference's noise comes only from the deals where the change mattered.

It prints, per variant after the first, its difference from the first per defender play,
with a 95 % interval over the deals (a deal's defender seats are paired), and each
variant's mean relative score and the deciding thread's CPU time a decision (mean, p95,
max: what the budgets count).  Only the defence is measured: a change that also moves
the auction or the bidder's play needs benchmarks/bots.py or roles.py.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

from bot_play import LEVELS, deal_seeds, variant  # noqa: E402
from bot_stats import mean_ci, relative  # noqa: E402
from roles import fork  # noqa: E402

from app.rules import Match, RuleSet, SeatView  # noqa: E402
from app.rules.phases import Phase  # noqa: E402
from app.simulate import parse_rules  # noqa: E402

SALT = 0xDE_FE_4CE
NO_LIMIT = 3600.0  # seconds: the variants search their fixed samples, whatever the load


class Figures:
    """Per variant: each deal's mean relative score over its defender seats; the CPU
    time of each of its decisions."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.scores: dict[str, list[float]] = {v: [] for v in names}
        self.cpu: dict[str, list[float]] = {v: [] for v in names}
        self.plays = 0

    def merge(self, other: Figures) -> None:
        for v in self.names:
            self.scores[v] += other.scores[v]
            self.cpu[v] += other.cpu[v]
        self.plays += other.plays


def contract_position(rules: RuleSet, deal_seed: int) -> tuple[Match, int] | None:
    """The deal with its auction, kitty and first lead (the call) played by ``easy``
    (and the step count); None for a minus round or a deal that ended before."""
    match = Match(rules, rng=random.Random(deal_seed))
    match.start_deal()
    step = 0
    while not match.finished:
        deal = match.deals[-1]
        if deal.phase not in (Phase.AUCTION, Phase.DISCARD, Phase.LEAD):
            break
        seat = deal.turn
        assert seat is not None
        rng = random.Random(deal_seed ^ SALT ^ step << 40)
        match.apply(seat, LEVELS["easy"].choose(SeatView(match, seat), rng))
        step += 1
    deal = match.deals[-1]
    if match.finished or deal.minus_round or deal.bidder is None:
        return None
    return match, step


def defenders(match: Match) -> list[int]:
    """The seats not on the bidder's side, the called card's holder known or not."""
    deal = match.deals[-1]
    side = {deal.bidder, deal.partner}
    if deal.called is not None:
        side |= {s for s in range(deal.n) if deal.hands[s] >> deal.called & 1}
    return [s for s in range(deal.n) if s not in side]


def defend(start: Match, step: int, seat: int, name: str, deal_seed: int,
           cpu: list[float]) -> float:
    """``name`` in ``seat`` and ``easy`` elsewhere from ``start`` to the end: the seat's
    relative score."""
    match = fork(start)
    while not match.finished:
        turn = match.deals[-1].turn
        assert turn is not None
        rng = random.Random(deal_seed ^ SALT ^ step << 40)
        view = SeatView(match, turn)
        if turn == seat:
            began = time.thread_time()
            action = LEVELS[name].choose(view, rng, time.monotonic() + NO_LIMIT)
            cpu.append(time.thread_time() - began)
        else:
            action = LEVELS["easy"].choose(view, rng)
        match.apply(turn, action)
        step += 1
    return relative(match, seat)


def run(rules: RuleSet, names: list[str], deals: int, seed: int,
        shard: tuple[int, int], save: str) -> Figures:
    out = Figures(names)
    for i, deal_seed in deal_seeds(seed, deals, shard):
        found = contract_position(rules, deal_seed)
        if found is None:
            continue
        start, step = found
        seats = defenders(start)
        for name in names:
            mine = [defend(start, step, s, name, deal_seed, out.cpu[name]) for s in seats]
            out.scores[name].append(sum(mine) / len(mine))
        out.plays += len(seats)
        done = len(out.scores[names[0]])
        if done % 5 == 0:
            print(f"  {i + 1}/{deals} deals, {done} with defenders", file=sys.stderr,
                  flush=True)
            if save:
                Path(save).write_bytes(pickle.dumps(out))
    return out


def _pct(xs: list[float], q: float) -> float:
    return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def report(fig: Figures) -> None:
    base = fig.names[0]
    print(f"{len(fig.scores[base])} deals, {fig.plays} defender plays a variant")
    for name in fig.names:
        m, ci = mean_ci(fig.scores[name])
        cpu = fig.cpu[name]
        mean_cpu = 1000 * sum(cpu) / len(cpu) if cpu else 0.0
        line = (f"{name}: relative score a defender play {m:+.3f} ± {ci:.3f}; CPU a "
                f"decision {mean_cpu:.1f} ms mean, p95 {1000 * _pct(cpu, 0.95):.1f}, max "
                f"{1000 * max(cpu, default=0.0):.1f} ({len(cpu)} decisions)")
        if name != base:
            d, dci = mean_ci([a - b for a, b in zip(fig.scores[name], fig.scores[base],
                                                    strict=True)])
            changed = sum(a != b for a, b in zip(fig.scores[name], fig.scores[base],
                                                 strict=True))
            line += f"\n  minus {base}: {d:+.3f} ± {dci:.3f} ({changed} deals differ)"
        print(line)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--variants", default="strong,strong+together=1",
                        help="NAME,NAME,...: the first is the baseline")
    parser.add_argument("--shard", default="0/1", help="K/M: every M-th deal from the K-th")
    parser.add_argument("--save", default="", help="pickle the figures to this file")
    parser.add_argument("--merge", default="", help="FILE,FILE,...: saved shards together")
    args = parser.parse_args(argv)
    if args.merge:
        parts = [pickle.loads(Path(f).read_bytes()) for f in args.merge.split(",")]
        for part in parts[1:]:
            parts[0].merge(part)
        report(parts[0])
        return 0
    rules = parse_rules(args.rules)
    names = args.variants.split(",")
    LEVELS.update({v: variant(v) for v in names})
    print(f"rules {rules.to_json()}, seed {args.seed}, shard {args.shard}")
    k, m = (int(x) for x in args.shard.split("/"))
    started = time.perf_counter()
    fig = run(rules, names, args.deals, args.seed, (k, m), args.save)
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(fig))
    report(fig)
    print(f"  ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
