"""The ``normal`` and ``strong`` bots: determinized search.

For each decision the bot samples complete deals consistent with what its seat knows
(sampling.py), plays each candidate action out in every sample (rollout.py: heuristic
play, then the last tricks solved exactly; solver.py) and takes the action with the best
mean score for its own seat.  Every candidate is tried on the same samples, so the
comparison is paired and the noise of the deal mostly cancels.

It is anytime: samples are added until the soft budget (its usual thinking time, in CPU
seconds of the searching thread) or the sample cap is reached, and never past the hard
deadline (default one second from the
start of the decision, or the caller's ``deadline``, a ``time.monotonic()`` instant).  A
sample is only counted when every candidate has been played in it; with no sample
finished the bot falls back to the heuristic's choice, which it computes first.

Where a decision has a single sensible candidate, or the heuristic is known to be as
good (the Amerikaner bid, an Amerikaner contract's discard), it uses the heuristic's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.rules import (
    AMERIKANER,
    PASS,
    Action,
    Bid,
    DealState,
    DiscardAny,
    Lead,
    Play,
    SeatView,
    scoring,
)
from app.rules.phases import Phase

from . import heuristic as easy
from .bid_chance import PRIOR_SAMPLES, chance_of_making
from .candidates import discard_candidates, lead_candidates, play_candidates
from .hand_eval import amerikaner_losers
from .outbid import End, auction_ends, bid_value, forced_auction
from .rollout import finish, score, sides, solver_for, value
from .sampling import Knowledge
from .search_settings import MARGIN, SearchSettings
from .solver import Endgame

HARD_CAP = 1.0  # seconds a decision may take at most, unless the caller says otherwise
SAFETY = 0.03  # seconds kept in hand before the hard deadline (one evaluation's worth)
# What passing is worth relative to the other seats (SearchSettings.relative), before the
# samples say more: strong's mean difference over easy in the deals where it did not
# bid (benchmarks/bots.py, by role), a defender beating easy's contracts or its partner.
PASS_RELATIVE = 0.5


@dataclass
class Clocks:
    """What a decision's stops count: the soft budget the searching thread's CPU time,
    the hard deadline wall time (tests put fake clocks here)."""

    cpu: Callable[[], float] = time.thread_time
    wall: Callable[[], float] = time.monotonic


CLOCKS = Clocks()


@dataclass
class Estimate:
    """The result of a search: each candidate's mean points and side tricks."""

    best: Action
    points: dict[Action, float]
    tricks: dict[Action, float]
    samples: int
    fallback: Action
    per_sample: dict[Action, list[float]] = field(default_factory=dict)  # paired values
    # A numeric bid's chance of being made if this seat plays it (the spread of ``_bid``),
    # so that a hint can say why a bid above the expected tricks pays.
    chances: dict[Action, float] = field(default_factory=dict)


class SearchBot:
    """A determinized-search bot; ``settings`` makes it ``normal`` or ``strong``."""

    def __init__(self, name: str, settings: SearchSettings) -> None:
        self.name = name
        self.settings = settings

    def choose(self, view: SeatView, rng: random.Random,
               deadline: float | None = None) -> Action:
        return self.estimate(view, rng, deadline).best

    def estimate(self, view: SeatView, rng: random.Random, deadline: float | None = None,
                 extra: Action | None = None) -> Estimate:
        """The decision with the figures behind it (hints and reviews read them);
        ``extra`` is an action to evaluate on the same samples as the candidates (the
        choice a player made, for a review)."""
        hard = CLOCKS.wall() + HARD_CAP if deadline is None else deadline
        legal = view.legal
        first = legal[0]
        kind = type(first)
        s = self.settings
        budget, samples = s.budget, s.samples
        if kind is not Play:
            budget = s.contract_budget or budget
            samples = s.contract_samples or samples
        stop = _Clock(budget, hard - SAFETY, samples)
        fallback = easy.HeuristicBot().choose(view, rng)
        if len(legal) == 1 and kind is not DiscardAny:
            return Estimate(first, {}, {}, 0, first)
        if kind is Bid:
            if not s.search_bid or fallback is AMERIKANER:
                # easy bids Amerikaner only with a hand where every card wins when led
                return Estimate(fallback, {}, {}, 0, fallback)
            return self._bid(view, rng, stop, fallback)
        if kind is DiscardAny:
            if not s.search_auction or view.contract_bid == "amerikaner":
                return Estimate(fallback, {}, {}, 0, fallback)
            return self._compare(view, rng, stop,
                                 _with(discard_candidates(view, fallback, s.discards_per_trump),
                                       extra), fallback)
        if kind is Lead:
            if not s.search_auction:
                return Estimate(fallback, {}, {}, 0, fallback)
            leads = lead_candidates(view, fallback, s.wide_leads)
            return self._compare(view, rng, stop, _with(leads, extra), fallback)
        if not s.search_partner and view.partner == view.seat:
            return Estimate(fallback, {}, {}, 0, fallback)
        return self._compare(view, rng, stop, _with(play_candidates(view), extra), fallback)

    # -- comparing candidates on shared samples -------------------------------------------

    def _compare(self, view: SeatView, rng: random.Random, stop: _Clock,
                 candidates: list[Action], fallback: Action) -> Estimate:
        if fallback not in candidates:
            candidates = [fallback, *candidates]
        if len(candidates) == 1:
            return Estimate(candidates[0], {}, {}, 0, fallback)
        seat = view.seat
        assert seat is not None
        s = self.settings
        know = Knowledge(view, infer_play=s.infer_play, tries=s.tries, mismatch=s.mismatch,
                         play_mismatch=s.play_mismatch, trump_floor=s.trump_floor,
                         infer_call=s.infer_call, bidder_model=s.bidder_model)
        points = dict.fromkeys(candidates, 0.0)
        tricks = dict.fromkeys(candidates, 0.0)
        per_sample: dict[Action, list[float]] = {a: [] for a in candidates}
        done = 0
        while not stop.soft_over(done):
            hands, pile = know.sample(rng)
            state = know.state(hands, pile, rng)
            if state is None:
                continue
            results = self._evaluate(state, seat, candidates, rng, stop)
            if results is None:
                break
            for action, (p, t) in results.items():
                points[action] += p
                tricks[action] += t
                per_sample[action].append(value(p, t))
            done += 1
            stop.lap()
            if done == s.settle and _all_alike(per_sample, fallback):
                break
        if not done:
            return Estimate(fallback, {}, {}, 0, fallback)
        points = {a: v / done for a, v in points.items()}
        tricks = {a: v / done for a, v in tricks.items()}
        best = max(candidates, key=lambda a: (value(points[a], tricks[a]), a == fallback))
        if best != fallback and not _clearly_better(per_sample[best], per_sample[fallback],
                                                    s.margin):
            best = fallback
        return Estimate(best, points, tricks, done, fallback, per_sample)

    def _evaluate(self, state: DealState, seat: int, candidates: list[Action],
                  rng: random.Random, stop: _Clock) -> dict[Action, tuple[float, float]] | None:
        """Each candidate's (points, side tricks) in one sample; None past the deadline."""
        s = self.settings
        left = state.hand_size - state.tricks_played
        out: dict[Action, tuple[float, float]] = {}
        if state.phase == Phase.PLAY and left <= s.exact_now:
            exact = solver_for(state, seat)
            leader = state.leader if state.trick_cards else seat
            per_card = exact.values(state.hands, leader, state.trick_cards)
            for action in candidates:
                after = state.copy()
                after.apply(seat, action)
                out[action] = _score_after(after, seat, per_card[action[0]], state,  # type: ignore[index]
                                           s.relative, s.together)
            return out
        solver: Endgame | None = None
        for action in candidates:
            if stop.hard_over():
                return None
            after = state.copy()
            after.apply(seat, action)
            if after.phase == Phase.PLAY and solver is None and after.tricks_played:
                solver = solver_for(after, seat)
            out[action] = finish(after, seat, s.exact, rng, solver, s.relative, s.together,
                                 s.sighted)
        return out

    # -- the auction ----------------------------------------------------------------------

    def _bid(self, view: SeatView, rng: random.Random, stop: _Clock,
             fallback: Action) -> Estimate:
        """Expected points of each legal bid from the side tricks the samples give when
        this seat wins the auction at its lowest bid (heuristic kitty, call and play,
        the last tricks exact), against what passing is worth."""
        legal = view.legal
        numeric = [a for a in legal if isinstance(a, Bid) and isinstance(a.value, int)]
        seat = view.seat
        assert seat is not None
        s = self.settings
        if not s.jumps:
            numeric = numeric[:1]
        # Amerikaner is searched too when the hand is close to one (the kitty and the
        # discard may mend a few losers); easy's sure hands never get here.
        amerikaner = AMERIKANER in legal and _near_amerikaner(view)
        if not numeric and not amerikaner:
            return Estimate(PASS, {}, {}, 0, fallback)
        know = Knowledge(view, tries=s.tries, mismatch=s.mismatch)
        low = numeric[0].value if numeric else None
        results: list[float] = []
        passes: list[float] = []  # relative points when this seat passes now
        # Per bid, what it led to in each sample when the others answer it (outbid.py).
        ends: dict[int, list[End]] = {b: [] for b in _values(numeric)} if s.outbid else {}
        alone: list[float] = []  # the seat's points when it bids Amerikaner now
        done = 0
        while not stop.soft_over(done):
            hands, pile = know.sample(rng)
            state = know.state(hands, pile, rng)
            if state is None:
                continue
            passing = state.copy()
            bidding = state.copy() if amerikaner else None
            if isinstance(low, int) and not forced_auction(state, seat, low):
                continue
            if stop.hard_over():
                break
            if ends:
                for offered, end in auction_ends(passing, seat, list(ends), s.exact, rng,
                                                s.relative).items():
                    ends[offered].append(end)
            if isinstance(low, int):
                results.append(finish(state, seat, s.exact, rng)[1] + s.bid_bonus)
            if bidding is not None and forced_auction(bidding, seat, AMERIKANER):
                alone.append(finish(bidding, seat, s.exact, rng, relative=s.relative)[0])
            if s.relative:
                # The rest of the auction and the play by the heuristic in every seat.
                passing.apply(seat, PASS)
                passes.append(finish(passing, seat, s.exact, rng, relative=True)[0])
            done += 1
            stop.lap()
        if not done:
            return Estimate(fallback, {}, {}, 0, fallback)
        o = view.rules.options
        n = o.players
        factor = float(scoring.bidder_stake(o, 1))  # the engine's points a trick bid
        pass_value = easy.PASS_SHARE * view.rules.shape.hand_size / n
        if s.relative:
            # Relative to the other seats: a partner's score is the same as mine, the
            # defenders take what my side does not, and passing leaves me mostly a
            # defender against someone else's contract.
            factor -= 1.0 / (n - 1)
            pass_value = ((sum(passes) + PRIOR_SAMPLES * PASS_RELATIVE)
                          / (len(passes) + PRIOR_SAMPLES)) + s.pass_bonus
        points: dict[Action, float] = {PASS: pass_value}
        tricks: dict[Action, float] = {}
        chances: dict[Action, float] = {}
        if alone:
            # Its mean less one standard error: ±52 points on a handful of samples is
            # bid only when it is clearly worth it.
            mean, error = paired_difference(alone, [0.0] * len(alone))
            points[AMERIKANER] = mean - error
        k = len(results)
        if not k:
            best = max(points, key=lambda a: points[a])
            return Estimate(best, points, tricks, done, fallback)
        # The chance of making b from the samples' side tricks, pooled with the fitted
        # estimate that ``easy`` bids from (bid_chance.py).
        prior, sigma = easy.side_estimate(view)
        mean, chance = chance_of_making(results, prior + s.bid_bonus, sigma, s.chance_width)
        theirs = (view.rules.shape.side_tricks - mean) / (n - 1) if s.relative else 0.0

        def won(contract: int) -> float:
            return factor * contract * (2.0 * chance(contract) - 1.0) - theirs

        for action in numeric:
            b = action.value
            assert isinstance(b, int)
            tricks[action] = mean - s.bid_bonus  # as the samples played it
            chances[action] = chance(b)
            points[action] = bid_value(ends[b], won) if ends.get(b) else won(b)
        best = max(points, key=lambda a: points[a])
        return Estimate(best, points, tricks, done, fallback, chances=chances)


NEAR_AMERIKANER = 3  # losers (hand_eval.amerikaner_losers) for which Amerikaner is searched


def _values(bids: list[Bid]) -> list[int]:
    return [b.value for b in bids if isinstance(b.value, int)]


def _near_amerikaner(view: SeatView) -> bool:
    o = view.rules.options
    hand = view.hand
    return amerikaner_losers(hand, view.rules.shape.deck & ~hand,
                             bool(o.led_two_wins)) <= NEAR_AMERIKANER


def _clearly_better(mine: list[float], theirs: list[float], margin: float = MARGIN) -> bool:
    """Whether ``mine`` beats ``theirs`` (paired values, one per sample) by more than
    ``margin`` standard errors: with few samples, the best-looking of many candidates
    is often best by luck, and the heuristic's choice is a sound default."""
    mean, error = paired_difference(mine, theirs)
    return mean > margin * error if len(mine) >= 2 else mean > 0


def _all_alike(per_sample: dict[Action, list[float]], fallback: Action) -> bool:
    """Whether every candidate scored exactly as ``fallback`` in every sample so far."""
    mine = per_sample[fallback]
    return all(values == mine for values in per_sample.values())


def paired_difference(mine: list[float], theirs: list[float]) -> tuple[float, float]:
    """(mean, standard error) of ``mine - theirs`` over paired samples."""
    diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
    k = len(diffs)
    mean = sum(diffs) / k
    if k < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    return mean, math.sqrt(var / k)


def _with(candidates: list[Action], extra: Action | None) -> list[Action]:
    if extra is None or extra in candidates:
        return candidates
    return [*candidates, extra]


class _Clock:
    """The soft and hard stops.  The soft stop is the level's cap of samples or its
    budget, which counts the CPU time of the searching thread (``time.thread_time``), so
    a level searches as many samples on a busy server as on a quiet one: its strength does
    not depend on free cores.  The hard stop counts wall time (``time.monotonic``): the
    table never waits past it, busy or not.  A sample is not started when the last one,
    taking as long again, would end past the soft stop: the budget is then a bound on the
    usual decision, not a floor it overshoots by one sample."""

    __slots__ = ("budget", "cpu", "hard", "last", "samples", "since", "started", "wall")

    def __init__(self, budget: float, hard: float, samples: int) -> None:
        self.budget = budget
        self.samples = samples
        self.hard = hard
        self.cpu = CLOCKS.cpu
        self.wall = CLOCKS.wall
        self.started = self.since = self.cpu()
        self.last = 0.0

    def lap(self) -> None:
        """A sample is done: remember how much CPU time it took."""
        now = self.cpu()
        self.last = now - self.since
        self.since = now

    def soft_over(self, done: int = 0) -> bool:
        used = self.cpu() - self.started
        return (done >= self.samples or used >= self.budget
                or (done > 0 and used + self.last >= self.budget) or self.wall() >= self.hard)

    def hard_over(self) -> bool:
        return self.wall() >= self.hard


def _score_after(after: DealState, seat: int, future_from_before: int,
                 before: DealState, relative: bool,
                 together: bool = False) -> tuple[float, float]:
    """Score from a solved value taken before ``after``'s card (the same future tricks:
    the value counts the trick in progress, which ``after`` may just have completed)."""
    completed = after.tricks_played - before.tricks_played
    if completed:
        # The trick just ended is in ``after.tricks_won`` and in the solved value: once.
        winner = after.tricks[-1][2]
        _, counted = sides(before, seat)
        future_from_before -= counted >> winner & 1
    return score(after, seat, future_from_before, relative, together)


__all__ = ["HARD_CAP", "Estimate", "SearchBot"]
