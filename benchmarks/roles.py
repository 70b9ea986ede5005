"""Where a level's edge comes from: by role and by trick, in duplicate (docs/bots.md,
"Where the points go"); prints, never asserts.

    python3 benchmarks/roles.py --deals 100 --seed 1 --pairs strong:easy [--shard K/M --save F]
    python3 benchmarks/roles.py --merge F0,F1

For each pair ``a:b`` and each deal, every seat in turn is played by ``a`` with ``b`` in
the other seats (the duplicate deals of benchmarks/bots.py).  The seat's edge is its
points relative to the table (its points minus the others' mean) against what ``b`` in
the same seat, with the same cards and the same other players, would have scored.  It is
split by the phase of the deal whose decisions earned it, by telescoping: ``pi_T`` is the
seat played by ``a`` until phase ``T`` begins and by ``b`` from there (the match is copied
at each phase's start of ``a``'s play and played on), so

    edge = score(a) - score(b) = sum over T of score(pi_{T+1}) - score(pi_T),

where phase 0 is the auction and the kitty and phase ``t`` trick ``t`` (its first lead
and call included), ``pi_0`` is ``b`` throughout and the last ``pi`` is ``a``'s own play.
A phase's share is what ``a``'s decisions in it were worth, given its earlier ones, with
the deal played on by ``b`` in that seat.  Each continuation's decisions draw from a
random stream fixed by the deal and the moves before them (as ``bots.py
--common-random``), so with ``b = easy`` around the table two continuations differ only
from where the seat's decisions differ.  The shares are split again by ``a``'s role in
its own play of the deal (bidder, partner, defender, or a minus round).

Each cell is a share of the edge per deal-play (the cells add up to the edge), with a
95 % interval over the deals (a deal's seats are paired); ``per play`` is the edge per
deal-play in that role.  ``--json FILE`` writes the cells too.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

from bot_play import LEVELS, deal_seeds, variant  # noqa: E402
from bot_stats import mean_ci, relative, role_of, signed_ci  # noqa: E402

from app.rules import Match, RuleSet, SeatView  # noqa: E402
from app.rules.phases import Phase  # noqa: E402
from app.simulate import parse_rules  # noqa: E402

ROLES = ("bidder", "partner", "defender", "minus")
SALT = 0x0F_7E_5EED


def phase_of(match: Match) -> int:
    """0 in the auction and the kitty exchange, else the trick being played (1-based)."""
    deal = match.deals[-1]
    if deal.phase in (Phase.AUCTION, Phase.DISCARD):
        return 0
    return min(deal.tricks_played + 1, deal.hand_size)


def fork(match: Match) -> Match:
    """A copy of ``match`` that plays on alone: its own copy of the match's random
    source too (a redeal after an all-pass draws from it)."""
    other = match.copy()
    other.rng = random.Random()
    other.rng.setstate(match.rng.getstate())
    return other


def play_on(match: Match, names: list[str], deal_seed: int, step: int,
            snapshots: dict[int, tuple[Match, int]] | None = None) -> Match:
    """Play ``match`` to its end, seat ``s`` by ``names[s]``, each decision from its own
    stream; with ``snapshots``, keep a copy of the match (and the step) where each phase
    begins."""
    while not match.finished:
        deal = match.deals[-1]
        seat = deal.turn
        assert seat is not None
        if snapshots is not None and phase_of(match) not in snapshots:
            snapshots[phase_of(match)] = (fork(match), step)
        rng = random.Random(deal_seed ^ SALT ^ step << 40)
        match.apply(seat, LEVELS[names[seat]].choose(SeatView(match, seat), rng))
        step += 1
    return match


def deal_play(rules: RuleSet, a: str, b: str, deal_seed: int,
              seat: int) -> tuple[str, dict[int, float], float]:
    """(``a``'s role, the edge by phase, ``b``'s score from the start) for ``a`` in
    ``seat`` on one deal."""
    n = rules.options.players
    names = [a if s == seat else b for s in range(n)]
    match = Match(rules, rng=random.Random(deal_seed))
    match.start_deal()
    snapshots: dict[int, tuple[Match, int]] = {}
    play_on(match, names, deal_seed, 0, snapshots)
    mine = relative(match, seat)
    role = role_of(match, seat)
    scores: dict[int, float] = {}
    for phase, (start, step) in snapshots.items():
        scores[phase] = relative(play_on(fork(start), [b] * n, deal_seed, step), seat)
    phases = sorted(scores)
    by_phase: dict[int, float] = {}
    for i, phase in enumerate(phases):
        after = scores[phases[i + 1]] if i + 1 < len(phases) else mine
        by_phase[phase] = after - scores[phase]
    return role, by_phase, scores[phases[0]]


class Cells:
    """Per deal, each (role, phase)'s share of the edge per deal-play."""

    def __init__(self) -> None:
        self.deals: list[dict[tuple[str, int], float]] = []
        self.plays: dict[str, int] = {}
        self.role_edges: dict[str, list[float]] = {}
        self.phases = 0

    def add(self, cells: dict[tuple[str, int], float]) -> None:
        self.deals.append(cells)

    def merge(self, other: Cells) -> None:
        self.deals += other.deals
        for role, k in other.plays.items():
            self.plays[role] = self.plays.get(role, 0) + k
        for role, v in other.role_edges.items():
            self.role_edges.setdefault(role, []).extend(v)
        self.phases = max(self.phases, other.phases)

    def cell(self, roles: tuple[str, ...], phases: range) -> tuple[float, float]:
        return mean_ci([sum(v for (r, p), v in d.items() if r in roles and p in phases)
                        for d in self.deals])


def run_pair(rules: RuleSet, a: str, b: str, deals: int, seed: int,
             shard: tuple[int, int], save: str = "") -> Cells:
    """The pair's duplicate deals (with ``shard`` ``(k, m)`` only the deals ``i`` with
    ``i % m == k``); with ``save``, the cells so far are pickled every 5 deals, so a run
    cut short still leaves its figures."""
    n = rules.options.players
    out = Cells()
    for i, deal_seed in deal_seeds(seed, deals, shard):
        cells: dict[tuple[str, int], float] = {}
        for k in range(n):
            role, by_phase, _ = deal_play(rules, a, b, deal_seed, k)
            out.plays[role] = out.plays.get(role, 0) + 1
            out.role_edges.setdefault(role, []).append(sum(by_phase.values()))
            out.phases = max(out.phases, *by_phase)
            for phase, v in by_phase.items():
                cells[role, phase] = cells.get((role, phase), 0.0) + v / n
        out.add(cells)
        if len(out.deals) % 5 == 0:
            print(f"  {a}:{b} {i + 1}/{deals} deals", file=sys.stderr, flush=True)
            if save:
                Path(save).write_bytes(pickle.dumps({(a, b): out}))
    return out


def table(a: str, b: str, cells: Cells) -> list[str]:
    """The Markdown table: a row per phase, a column per role and the whole."""
    total = sum(cells.plays.values())
    head = [f"`{a}` over `{b}` ({len(cells.deals)} deals, {total} deal-plays)",
            *[f"{r} ({cells.plays.get(r, 0)})" for r in ROLES], "all"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    rows = [("auction, kitty", range(0, 1)),
            *[(f"trick {t}", range(t, t + 1)) for t in range(1, cells.phases + 1)],
            ("whole deal", range(0, cells.phases + 1))]
    for label, phases in rows:
        row = [label, *[signed_ci(*cells.cell((r,), phases)) for r in ROLES],
               signed_ci(*cells.cell(ROLES, phases))]
        lines.append("| " + " | ".join(row) + " |")
    per_play = [signed_ci(*mean_ci(cells.role_edges.get(r, []))) for r in ROLES]
    lines.append("| per play in the role | " + " | ".join(per_play) + " | |")
    return lines


def to_json(cells: Cells) -> dict[str, object]:
    return {"deals": len(cells.deals), "plays": cells.plays, "phases": cells.phases,
            "cells": [{f"{r}/{p}": v for (r, p), v in d.items()} for d in cells.deals],
            "role_edges": cells.role_edges}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--pairs", default="strong:easy")
    parser.add_argument("--shard", default="0/1", help="K/M: every M-th deal from the K-th")
    parser.add_argument("--save", default="", help="pickle the cells to this file")
    parser.add_argument("--merge", default="", help="FILE,FILE,...: saved shards together")
    parser.add_argument("--json", default="", help="write the cells as JSON to this file")
    args = parser.parse_args(argv)
    merged: dict[tuple[str, str], Cells] = {}
    if args.merge:
        for name in args.merge.split(","):
            for pair, part in pickle.loads(Path(name).read_bytes()).items():
                merged.setdefault(pair, Cells()).merge(part)
    else:
        rules = parse_rules(args.rules)
        print(f"rules {rules.to_json()}, seed {args.seed}, shard {args.shard}")
        k, m = (int(x) for x in args.shard.split("/"))
        for pair in args.pairs.split(","):
            a, b = pair.split(":")
            LEVELS.update({a: variant(a), b: variant(b)})
            started = time.perf_counter()
            merged[a, b] = run_pair(rules, a, b, args.deals, args.seed, (k, m),
                                    args.save if len(args.pairs.split(",")) == 1 else "")
            print(f"  ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
            if args.save:
                Path(args.save).write_bytes(pickle.dumps(merged))
    for (a, b), cells in merged.items():
        print("\n".join(table(a, b, cells)))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {f"{a}:{b}": to_json(c) for (a, b), c in merged.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
