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
import math
import pickle
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import BOTS, NORMAL, STRONG
from app.bots.base import Bot
from app.bots.rollout import sides
from app.bots.search import SearchBot
from app.bots.search_settings import SearchSettings
from app.bots.shapes import SHAPES, shape_rules
from app.bots.solver import Endgame
from app.rules import Action, Match, Play, RuleSet, SeatView
from app.simulate import parse_rules


def variant(name: str) -> Bot:
    """A level, or a search level with some settings changed, to split its edge by
    decision kind: ``strong+bid=easy`` bids as ``easy`` does, ``strong+auction=easy``
    also discards and leads as ``easy``, ``strong+relative=0`` scores its own points
    only, ``strong+outbid=0`` prices a bid as if the others all passed after it."""
    if "+" not in name:
        return BOTS[name]
    base, *changes = name.split("+")
    settings: SearchSettings = {"strong": STRONG, "normal": NORMAL}[base]
    fields = dict(settings.__dict__)
    for change in changes:
        key, value = change.split("=")
        if key == "bid":
            fields["search_bid"] = value != "easy"
        elif key == "auction":
            fields["search_auction"] = value != "easy"
        else:
            fields[key] = type(fields[key])(float(value))
    return SearchBot(name, SearchSettings(**fields))


K = TypeVar("K")
# --common-random: every decision draws from a stream of its own and searches with no
# time limit, so that two variants with a fixed number of samples play the same deals
# alike until one of their decisions differs (a paired comparison whose noise comes only
# from the deals where they differ).
COMMON_RANDOM = False


class Stats:
    """Everything measured for one pair."""

    def __init__(self) -> None:
        self.diffs: list[float] = []
        self.points: dict[str, list[float]] = {}
        self.times: dict[str, list[float]] = {}
        # The deciding thread's CPU time (what the search budgets count): on a busy
        # machine wall time grows, this does not.
        self.cpu: dict[str, list[float]] = {}
        # A search level's samples in each decision it searched (what a cheaper
        # evaluation buys within the same CPU budget).
        self.samples: dict[str, list[float]] = {}
        self.optimal = 0
        self.choices = 0
        self.side_tricks: list[float] = []
        self.random_tricks: list[float] = []
        # Per level: contracts won, made, the bids' sum; points by role in the deal.
        self.contracts: dict[str, list[int]] = {}
        self.roles: dict[tuple[str, str], list[float]] = {}
        # The difference of each deal-play, by the measured level's role in it.
        self.role_diffs: dict[str, list[float]] = {}

    def merge(self, other: Stats) -> None:
        """Add another shard's figures (the same pair, other deals)."""
        self.diffs += other.diffs
        self.optimal += other.optimal
        self.choices += other.choices
        self.side_tricks += other.side_tricks
        self.random_tricks += other.random_tricks
        _extend(self.points, other.points)
        _extend(self.times, other.times)
        _extend(self.cpu, getattr(other, "cpu", {}))
        _extend(self.samples, getattr(other, "samples", {}))
        _extend(self.roles, other.roles)
        _extend(self.role_diffs, other.role_diffs)
        for key, counts in other.contracts.items():
            old = self.contracts.setdefault(key, [0, 0, 0])
            self.contracts[key] = [x + y for x, y in zip(old, counts, strict=True)]

    def note_deal(self, match: Match, names: list[str]) -> None:
        deal = match.deals[-1]
        for s, name in enumerate(names):
            self.roles.setdefault((name, role_of(match, s)), []).append(match.totals[s])
        if deal.bidder is not None and not deal.minus_round:
            won = self.contracts.setdefault(names[deal.bidder], [0, 0, 0])
            won[0] += 1
            won[1] += bool(deal.made)
            won[2] += deal.contract_bid if isinstance(deal.contract_bid, int) else 0


def _extend(mine: dict[K, list[float]], theirs: dict[K, list[float]]) -> None:
    for key, values in theirs.items():
        mine.setdefault(key, []).extend(values)


def role_of(match: Match, seat: int) -> str:
    """The seat's role in the match's deal: bidder, partner, defender or minus."""
    deal = match.deals[-1]
    if deal.minus_round or deal.bidder is None:
        return "minus"
    if seat == deal.bidder:
        return "bidder"
    return "partner" if seat == deal.partner else "defender"


def deal_seeds(seed: int, deals: int,
               shard: tuple[int, int]) -> Iterator[tuple[int, int]]:
    """Each deal's number and seed: ``deals`` drawn from ``seed``, with ``shard`` ``(k, m)``
    only those of the deals ``i`` with ``i % m == k`` (a shard plays the same deals as the
    whole run would, so shards merge into it)."""
    seeds = random.Random(seed)
    for i in range(deals):
        deal_seed = seeds.getrandbits(64)
        if i % shard[1] == shard[0]:
            yield i, deal_seed


def mean_ci(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


def side_tricks(match: Match) -> int | None:
    deal = match.deals[-1]
    if deal.bidder is None or deal.outcome != "played":
        return None
    side, _ = sides(deal, deal.bidder)
    o = match.rules.options
    bonus = 1 if o.kitty and o.kitty_trick and not deal.amerikaner else 0
    return sum(deal.tricks_won[s] for s in range(deal.n) if side >> s & 1) + bonus


def check_optimal(match: Match, seat: int, action: Action, stats: Stats) -> None:
    """Score a play with four tricks left against the exact solver (all hands known)."""
    deal = match.deals[-1]
    if deal.minus_round or deal.bidder is None or type(action) is not Play:
        return
    if deal.hands[seat].bit_count() != 4 or len(deal.legal_actions()) < 2:
        return
    side, _ = sides(deal, deal.bidder)
    solver = Endgame(deal.n, deal.trump, bool(match.rules.options.led_two_wins), side, side)
    leader = deal.leader if deal.trick_cards else seat
    values = solver.values(deal.hands, leader, deal.trick_cards)
    if len(set(values.values())) < 2:
        return
    best = max(values.values()) if side >> seat & 1 else min(values.values())
    stats.choices += 1
    stats.optimal += values[action.card] == best


def play(rules: RuleSet, names: list[str], deal_seed: int, stats: Stats,
         measured: str) -> Match:
    """One single-deal match, timing each decision and checking the measured level."""
    match = Match(rules, rng=random.Random(deal_seed))
    rng = random.Random(deal_seed ^ 0x5EED_B07)
    deadline: float | None = None
    step = 0
    match.start_deal()
    replay_from: Match | None = None
    while not match.finished:
        deal = match.deals[-1]
        seat = deal.turn
        assert seat is not None
        if (replay_from is None and deal.phase == "play" and deal.tricks_played == 0
                and len(deal.trick_cards) == 1 and names[deal.bidder or 0] == measured
                and not deal.minus_round):
            replay_from = match.copy()
        name = names[seat]
        view = SeatView(match, seat)
        if COMMON_RANDOM:
            # Each decision its own stream, fixed by the deal and the moves so far: two
            # variants' runs differ only from where one of their decisions differs.
            rng = random.Random(deal_seed ^ 0x5EED_B07 ^ step << 40)
            deadline = time.monotonic() + 3600.0
        bot = LEVELS[name]
        t, c = time.perf_counter(), time.thread_time()
        if isinstance(bot, SearchBot):  # its choice, with the samples behind it
            estimate = bot.estimate(view, rng, deadline)
            action = estimate.best
        else:
            action = bot.choose(view, rng, deadline)
        stats.times.setdefault(name, []).append(time.perf_counter() - t)
        stats.cpu.setdefault(name, []).append(time.thread_time() - c)
        if isinstance(bot, SearchBot) and estimate.samples:
            stats.samples.setdefault(name, []).append(estimate.samples)
        if name == measured:
            check_optimal(match, seat, action, stats)
        match.apply(seat, action)
        step += 1
    stats.note_deal(match, names)
    if replay_from is not None:
        mine = side_tricks(match)
        bidder = replay_from.deals[-1].bidder
        alt = [("random" if s == bidder else n) for s, n in enumerate(names)]
        while not replay_from.finished:
            seat = replay_from.turn
            assert seat is not None
            replay_from.apply(seat, LEVELS[alt[seat]].choose(SeatView(replay_from, seat), rng))
        theirs = side_tricks(replay_from)
        if mine is not None and theirs is not None:
            stats.side_tricks.append(mine)
            stats.random_tricks.append(theirs)
    return match


def run_pair(rules: RuleSet, a: str, b: str, deals: int, seed: int, every: int = 0,
             shard: tuple[int, int] = (0, 1), save: str = "",
             saved: dict[tuple[str, str], Stats] | None = None) -> Stats:
    """Play the pair's duplicate deals; with ``every``, print the figures so far every
    ``every`` deals (a long run can be read before it ends); with ``shard`` ``(k, m)``
    only the deals ``i`` with ``i % m == k`` (the same deals as a whole run)."""
    n = rules.options.players
    stats = Stats()
    for i, deal_seed in deal_seeds(seed, deals, shard):
        pa = pb = 0.0
        for k in range(n):
            names = [a if s == k else b for s in range(n)]
            match = play(rules, names, deal_seed, stats, a)
            mine = match.totals[k]
            theirs = (sum(match.totals) - mine) / (n - 1)
            pa += mine
            pb += theirs
            stats.role_diffs.setdefault(role_of(match, k), []).append(mine - theirs)
        stats.points.setdefault(a, []).append(pa / n)
        stats.points.setdefault(b, []).append(pb / n)
        stats.diffs.append((pa - pb) / n)
        played = len(stats.diffs)  # this shard's deals so far
        if played % 25 == 0:
            print(f"  {a}:{b} {i + 1}/{deals} deals", file=sys.stderr, flush=True)
        if every and played % every == 0 and i + 1 < deals:
            print(f"-- after {played} deals", flush=True)
            report(a, b, stats, n)
            if save:  # a run cut short still leaves its figures so far
                Path(save).write_bytes(pickle.dumps({**(saved or {}), (a, b): stats}))
    return stats


def report(a: str, b: str, stats: Stats, n: int) -> None:
    plays = len(stats.diffs) * n
    print(f"== {a} vs {b}: {len(stats.diffs)} deals x {n} seats = {plays} deal-plays")
    for name in (a, b):
        m, ci = mean_ci(stats.points[name])
        print(f"  {name:>7}: {m:6.2f} ± {ci:.2f} points per deal")
    m, ci = mean_ci(stats.diffs)
    print(f"  difference {a} - {b}: {m:+.2f} ± {ci:.2f}")
    for name in (a, b):
        ts = sorted(stats.times.get(name, []))
        if ts:
            print(f"  {name:>7} decisions: {len(ts)}, mean {1000 * sum(ts) / len(ts):.1f} ms, "
                  f"p95 {1000 * ts[int(0.95 * (len(ts) - 1))]:.1f} ms, "
                  f"max {1000 * ts[-1]:.1f} ms")
        cpu = sorted(stats.cpu.get(name, []))
        if cpu:
            print(f"  {name:>7} CPU time a decision: mean {1000 * sum(cpu) / len(cpu):.1f} ms, "
                  f"p95 {1000 * cpu[int(0.95 * (len(cpu) - 1))]:.1f} ms, "
                  f"max {1000 * cpu[-1]:.1f} ms")
        samples = getattr(stats, "samples", {}).get(name, [])
        if samples:
            mean = sum(samples) / len(samples)
            print(f"  {name:>7} samples a searched decision: mean {mean:.1f} "
                  f"({len(samples)} decisions)")
    for name in (a, b):
        won, made, total = stats.contracts.get(name, [0, 0, 0])
        if won:
            print(f"  {name:>7} contracts: won {won}, made {made} ({100 * made / won:.0f}%), "
                  f"mean bid {total / won:.2f}")
        roles = ", ".join(f"{role} {sum(v) / len(v):+.2f} ({len(v)})"
                          for (who, role), v in sorted(stats.roles.items()) if who == name)
        print(f"  {name:>7} points by role: {roles}")
    total = sum(len(v) for v in stats.role_diffs.values())
    parts = []
    for role, v in sorted(stats.role_diffs.items()):
        m, ci = mean_ci(v)
        parts.append(f"{role} {m:+.2f} ± {ci:.2f} x {len(v)} = {m * len(v) / total:+.2f}")
    print(f"  difference by {a}'s role (mean x deal-plays = share of the difference): "
          + "; ".join(parts))
    if stats.side_tricks:
        ms, cs = mean_ci(stats.side_tricks)
        mr, cr = mean_ci(stats.random_tricks)
        print(f"  {a} as bidder ({len(stats.side_tricks)} deals): side takes {ms:.2f} ± {cs:.2f}"
              f" tricks; random play in the bidder's seat {mr:.2f} ± {cr:.2f}")
    if stats.choices:
        share = stats.optimal / stats.choices
        ci = 1.96 * math.sqrt(share * (1 - share) / stats.choices)
        print(f"  {a} optimal with four tricks left where it matters: {stats.optimal} of "
              f"{stats.choices} = {100 * share:.1f}% ± {100 * ci:.1f}")


LEVELS: dict[str, Bot] = dict(BOTS)


def table_row(shape: str, a: str, b: str, stats: Stats) -> str:
    """One line of ``--shapes``' summary table."""
    m, ci = mean_ci(stats.diffs)
    share = "-"
    if stats.choices:
        p = stats.optimal / stats.choices
        share = f"{100 * p:.1f} % ± {196 * math.sqrt(p * (1 - p) / stats.choices):.1f}"
    return (f"| {shape} | {a} - {b} | {m:+.2f} ± {ci:.2f} | {share} "
            f"| {_mean_p95(stats.times.get(a, []))} | {_mean_p95(stats.cpu.get(a, []))} |")


def _mean_p95(values: list[float]) -> str:
    ts = sorted(values)
    if not ts:
        return "-"
    return f"{1000 * sum(ts) / len(ts):.0f} / {1000 * ts[int(0.95 * (len(ts) - 1))]:.0f}"


TABLE_HEAD = ["| shape | pair | edge a deal | optimal, 4 tricks left | a's time ms, mean / p95 "
              "| a's CPU ms, mean / p95 |", "|---|---|---|---|---|---|"]


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


def print_table(saved: dict[tuple[str, str, str], Stats]) -> None:
    """The Markdown table of docs/bots.md, a row per shape and pair."""
    print("\n".join([*TABLE_HEAD, *(table_row(shape, a, b, stats)
                                     for (shape, a, b), stats in saved.items())]))


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
    global COMMON_RANDOM
    COMMON_RANDOM = args.common_random
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
