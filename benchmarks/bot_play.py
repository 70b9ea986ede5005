"""How benchmarks/bots.py plays a pair of levels: the levels and their variants
(``strong+bid=easy``...), each deal's seed (``--shard``), one single-deal match timing
every decision and scoring the measured level's endgame plays against the exact solver
and its bidding side against random play, and the pair's duplicate deals.
"""

from __future__ import annotations

import pickle
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_report import report
from bot_stats import Stats, relative, role_of

from app.bots import BOTS, NORMAL, STRONG
from app.bots.base import Bot
from app.bots.rollout import sides
from app.bots.search import SearchBot
from app.bots.search_settings import SearchSettings
from app.bots.solver import Endgame
from app.rules import Action, Match, Play, RuleSet, SeatView


def variant(name: str) -> Bot:
    """A level, or a search level with some settings changed, to split its edge by
    decision kind: ``strong+bid=easy`` bids as ``easy`` does, ``strong+auction=easy``
    also discards and leads as ``easy``, ``strong+partner=easy`` plays the partner's
    cards as ``easy``, ``strong+relative=0`` scores its own points
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
        elif key == "partner":
            fields["search_partner"] = value != "easy"
        else:
            fields[key] = type(fields[key])(float(value))
    return SearchBot(name, SearchSettings(**fields))


# --common-random: every decision draws from a stream of its own and searches with no
# time limit, so that two variants with a fixed number of samples play the same deals
# alike until one of their decisions differs (a paired comparison whose noise comes only
# from the deals where they differ).
COMMON_RANDOM = False


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
        # The deal with ``b`` in every seat, once (its figures not counted): what ``b``
        # scores in each seat, against which ``a``'s edge in that seat is split by role.
        alone = play(rules, [b] * n, deal_seed, Stats(), a)
        pa = pb = 0.0
        for k in range(n):
            names = [a if s == k else b for s in range(n)]
            match = play(rules, names, deal_seed, stats, a)
            mine = match.totals[k]
            theirs = (sum(match.totals) - mine) / (n - 1)
            pa += mine
            pb += theirs
            role = role_of(match, k)
            stats.role_diffs.setdefault(role, []).append(mine - theirs)
            edge = mine - theirs - relative(alone, k)
            stats.seat_edges.setdefault(role, []).append(edge)
            stats.role_pairs.setdefault(f"{role}/{role_of(alone, k)}", []).append(edge)
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


LEVELS: dict[str, Bot] = dict(BOTS)
