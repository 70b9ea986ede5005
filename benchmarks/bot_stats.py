"""The figures benchmarks/bots.py measures for one pair of levels (``Stats``, merged
across shards and pickled with ``--save``), a seat's role in a deal and its points relative
to the table, and a mean with its 95 % confidence interval.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rules import Match

K = TypeVar("K")


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
        # Each deal-play's edge over ``b`` in the same seat (its points relative to the
        # table, against ``b``'s with the same cards and players: the deal played by ``b``
        # in every seat), by the measured level's role in its own play.
        self.seat_edges: dict[str, list[float]] = {}
        # The same edges by both roles: the measured level's, then ``b``'s in that seat
        # ("partner/bidder": a partner where ``b`` was the bidder), so that a role's edge
        # can be told from the auction that gave the seat that role.
        self.role_pairs: dict[str, list[float]] = {}

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
        _extend(self.seat_edges, getattr(other, "seat_edges", {}))  # (older pickles: none)
        _extend(self.role_pairs, getattr(other, "role_pairs", {}))
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


def relative(match: Match, seat: int) -> float:
    """The seat's points minus the mean of the other seats' (a duplicate comparison's
    measure: what the seat gains or costs the others)."""
    totals = match.totals
    return totals[seat] - (sum(totals) - totals[seat]) / (len(totals) - 1)


def signed_ci(m: float, ci: float) -> str:
    """A mean and its interval as the reports print them: ``+1.23 ± 0.45``."""
    return f"{m:+.2f} ± {ci:.2f}"


def mean_ci(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))
