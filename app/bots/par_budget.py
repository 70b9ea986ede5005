"""Par's work budget: how many samples each decision of a par play may search.

Issue 38 allows a standard deal's par at most 3 s of CPU.  A fixed number of samples a
decision (``PAR_SAMPLES``) keeps the mean under it, but a deal whose hands leave many
cards worth comparing costs more (with 8 samples everywhere: mean 2.6 s, the worst of 20
deals 3.3 s).  A CPU clock cannot be the stop, since par must be the same on any machine
at any load (par.py): the budget is counted in *work units*, an estimate of a decision's
cost made from what the seat sees before it searches:

- a card to play: the cards worth comparing (``play_candidates``) times the cost of
  playing one out (``PLAY_COST``, by the tricks left: a rollout is longer early, the
  exact solver at ``exact_now`` tricks costs most), a sample;
- a bid: the legal bids (each is priced on every sample); the kitty and the first lead
  a constant each.

The unit is about a millisecond of CPU on the machine that measured these costs
(benchmarks/par_cost.py prints the CPU milliseconds a unit).  Each play has its units
(``PAR_PLAY_UNITS``); a decision takes at most its share of what is left: its full cost
against its full cost plus what the rest of a usual play costs (``rest``), never fewer
than ``MIN_SAMPLES`` samples.  A play that spent less than a usual one so far searches at
``PAR_SAMPLES``; one that spent more thins the samples of the decisions left.  Everything
counted is a function of the deal, the play and the decisions before, so par stays
reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules import Bid, DiscardAny, Lead, Play, SeatView

from .candidates import play_candidates

MIN_SAMPLES = 4
# Units a sample of one candidate card costs, by tricks left (benchmarks/par_cost.py's
# deals, strong's settings: exact_now 5 solves the last 5 tricks at once, the costliest)
PLAY_COST = {1: 0.0, 2: 0.18, 3: 0.2, 4: 0.37, 5: 0.92, 6: 0.57, 7: 0.7, 8: 0.75, 9: 0.81,
             10: 0.84, 11: 0.98, 12: 1.22}
BID_COST = 0.6     # units a sample per legal bid
DISCARD_COST = 4.5  # units a sample (the kitty: a handful of discards compared)
LEAD_COST = 10.0    # units a sample (the call and first lead: every call compared)
# The candidates a usual card to play compares, by tricks left (the same deals' mean; 0
# for a decision with one: nothing searched)
USUAL_CANDIDATES = {12: 1.22, 11: 4.88, 10: 3.75, 9: 3.58, 8: 3.08, 7: 2.88, 6: 3.42,
                    5: 2.96, 4: 2.17, 3: 1.92, 2: 1.42, 1: 0.0}
AUCTION_REST = 31.0  # units a sample of a usual auction's decisions (bids, kitty, lead)


def play_cost(left: int) -> float:
    """Units a sample of one candidate card costs with ``left`` tricks left (a longer
    hand than the standard deal's costs as its longest)."""
    return PLAY_COST.get(left, PLAY_COST[12] * left / 12)


def unit_cost(view: SeatView) -> float:
    """The decision's units a sample (0: nothing to search)."""
    legal = view.legal
    first = legal[0]
    if isinstance(first, Bid):
        return BID_COST * len(legal)
    if isinstance(first, DiscardAny):
        return DISCARD_COST
    if isinstance(first, Lead):
        return LEAD_COST
    candidates = len(play_candidates(view))
    return 0.0 if candidates < 2 else candidates * play_cost(view.hand.bit_count())


def rest(view: SeatView, samples: int) -> float:
    """What the rest of a usual play costs after this decision, in units."""
    n = view.rules.options.players

    def trick(tricks_left: int) -> float:
        return USUAL_CANDIDATES.get(tricks_left, 5.0) * play_cost(tricks_left) * samples

    if not isinstance(view.legal[0], Play):  # the auction: the whole play is to come
        size = view.rules.shape.hand_size
        return sum(n * trick(t) for t in range(1, size + 1)) + AUCTION_REST * samples
    left = view.hand.bit_count()
    return (sum(n * trick(t) for t in range(1, left))
            + (n - 1 - len(view.trick)) * trick(left))


@dataclass
class PlayBudget:
    """One par play's units: ``samples`` gives each decision its samples and counts
    them spent."""

    units: float
    full: int  # samples a decision searches when the budget allows
    spent: float = 0.0

    def samples(self, view: SeatView) -> int:
        """The samples of this decision (counted spent)."""
        cost = unit_cost(view)
        if cost <= 0.0:
            return self.full
        whole = cost * self.full
        left = max(0.0, self.units - self.spent)
        share = left * whole / (whole + rest(view, self.full))
        k = max(MIN_SAMPLES, min(self.full, int(share / cost)))
        self.spent += cost * k
        return k
