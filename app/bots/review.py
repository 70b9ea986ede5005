"""Deal review: one seat's decisions in a finished deal, judged by the strong bot.

``review_deal(rules, deal, seat, rng, deadline)`` takes one deal in the game record's
shape (docs/spec/GAME-RECORD.md: ``dealer``, ``hands``, ``kitty``, ``actions``), replays it through
the engine and, at each decision of ``seat`` that had a choice, asks the strong search
what the actions were worth *from what the seat knew then* (samples of the hidden cards,
never the real ones): the choice made, the strong bot's choice, and the expected points
of each for that seat.  Decisions come biggest loss first.  Since every card is known once
the deal is over, it adds the double-dummy result: the bidder's side's tricks with
perfect play by everyone from the first lead on (the bidder's side maximising, the
defenders minimising), next to what it took.

The output is plain JSON-ready data (``Review.to_json()``).  The function is pure and
CPU-bound (seconds): call it off the event loop, e.g.
``await asyncio.to_thread(review_deal, rules, record_deal, seat, random.Random(), deadline)``,
and cache the result with the deal.  ``deadline`` is a ``time.monotonic()`` instant.

The double dummy comes first.  Its budget (``DD_SHARE`` of the review's time) counts the
CPU time of the computing thread (``time.thread_time``, through ``search.CLOCKS``), so a
busy server, which gives the worker a fraction of a core, solves as much as a quiet one;
a wall-clock cap (``WALL_CAP`` times the budget) bounds it all the same.  The decisions then
keep their own share of the time, however long the double dummy took, and count it the
same way: each decision's search stops at its share of CPU time, and at ``WALL_CAP`` times
that share of wall time, so a review judges the same on a busy server as on a quiet one
(it only takes longer, up to ``WALL_CAP`` times).  A solve that does
not finish in its budget is tried again from a later trick; if that does not finish
either, the review says why (``double_dummy_skipped``: the server was busy, or the deal
takes too long to solve).  The double dummy is the same for every seat's review of the
deal: a caller that has it (``known``, from an earlier review) skips the solve.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from app.double_dummy import DoubleDummy, DoubleDummySkipped
from app.rules import Action, Bid, DiscardAny, Match, RuleSet, SeatView, parse_action, scoring
from app.rules.actions import ActionJson, taken_json
from app.rules.deal import DealState
from app.rules.phases import Phase
from app.rules.record import match_of_deal, recorded_actions

from . import search
from .rollout import sides
from .search import SearchBot, paired_difference
from .search_settings import SearchSettings
from .solver import Endgame, SolveTimeout

REVIEW = SearchSettings(budget=10.0, samples=48, exact=4, exact_now=5, search_auction=True,
                        bid_bonus=0.3)
DD_SHARE = 0.3  # of the review's time, in CPU seconds, for the double-dummy solve
# The wall-clock cap of the double dummy and of each decision, in times its CPU budget:
# with the search pool's workers all busy on two cores (three processes), a worker gets
# about a third of one, so three times still lets it use its whole budget there.
WALL_CAP = 3.0
DEFAULT_SECONDS = 30.0
LATE_TRICKS = 8  # tricks left when the double dummy is tried again after a timeout
FIRST_TRY = 0.75  # of the double dummy's budget, for the solve from the first lead
# A loss is a mistake worth showing only when it is clear of the samples' noise: above
# NOISE_ERRORS standard errors of the paired difference, or, where there is no error to
# go by (a bid is judged on other samples than the play), at least BID_MARGIN points.
NOISE_ERRORS = 2.0
BID_MARGIN = 0.5


class Budget:
    """A solve's stop: ``cpu`` seconds of the computing thread's CPU time, and never past
    ``wall`` seconds of wall time (both from now, on ``search.CLOCKS``).  ``busy``: the
    wall cap stopped it before the CPU budget was spent."""

    __slots__ = ("busy", "cpu_end", "wall_end")

    def __init__(self, cpu: float, wall: float) -> None:
        self.cpu_end = search.CLOCKS.cpu() + cpu
        self.wall_end = search.CLOCKS.wall() + wall
        self.busy = False

    def over(self) -> bool:
        if search.CLOCKS.cpu() >= self.cpu_end:
            return True
        if search.CLOCKS.wall() >= self.wall_end:
            self.busy = True
            return True
        return False


class ReviewError(ValueError):
    """A deal that cannot be reviewed (not finished, not legal under the rules)."""

    code = "bad_review"


@dataclass
class Decision:
    """One decision of the reviewed seat."""

    index: int  # position in the deal's ``actions``
    phase: Phase  # auction, discard, lead, play
    trick: int | None  # 1-based trick number for plays
    chosen: ActionJson
    best: ActionJson
    chosen_points: float | None
    best_points: float | None
    loss: float  # best_points - chosen_points (0 when the choice was the best found)
    loss_error: float | None  # the loss's standard error over the samples (None: unknown)
    samples: int
    hinted: bool = False  # the practice hint at this decision, followed: never a mistake

    @property
    def clear(self) -> bool:
        """A mistake worth showing: a loss clear of the noise (see ``NOISE_ERRORS``)."""
        if self.hinted or self.loss <= 0:
            return False
        if self.loss_error is None:
            return self.loss >= BID_MARGIN
        return self.loss > NOISE_ERRORS * self.loss_error

    def to_json(self) -> dict[str, object]:
        return {**self.__dict__, "clear": self.clear}


@dataclass
class Review:
    seat: int
    decisions: list[Decision] = field(default_factory=list)
    bidder: int | None = None
    contract: int | str | None = None
    side_tricks: int | None = None  # what the bidder's side took (kitty trick included)
    double_dummy: int | None = None  # what it takes with perfect play (same counting)
    double_dummy_from_trick: int | None = None  # 1: from the first lead
    double_dummy_skipped: DoubleDummySkipped | None = None  # why there is none
    points: float | None = None  # the seat's points in the deal

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {k: v for k, v in self.__dict__.items() if k != "decisions"}
        out["decisions"] = [d.to_json() for d in self.decisions]
        out["total_loss"] = round(sum(d.loss for d in self.decisions), 2)
        return out


def review_deal(rules: RuleSet, deal: Mapping[str, object], seat: int, rng: random.Random,
                deadline: float | None = None, known: DoubleDummy | None = None) -> Review:
    """The review of ``seat``'s decisions in ``deal`` (record shape; see the module);
    ``known``: the deal's double dummy, if an earlier review found it."""
    start = search.CLOCKS.wall()
    end = deadline if deadline is not None else start + DEFAULT_SECONDS
    seconds = max(0.0, end - start)
    match = _start(rules, deal)
    try:
        recorded = list(recorded_actions(deal))
    except (KeyError, TypeError, ValueError) as exc:
        raise ReviewError(f"not a deal of a game record: {exc}") from None
    # Replay first: the seat's decisions (a copy of the match at each) and the moment
    # after the first lead, where the double dummy starts.
    d = match.deals[-1]
    moments: list[tuple[int, Match, Action]] = []
    dd_start: Match | None = None
    seats = [s for s, _ in recorded]
    actions = [action for _, action in recorded]
    for i, (s, action) in enumerate(recorded):
        if d.turn != s:
            raise ReviewError(f"action {i}: it is not seat {s}'s turn")
        if s == seat and _has_choice(d.legal_actions()):
            moments.append((i, match.copy(), action))
        try:
            match.apply(s, action)
        except ValueError as exc:
            raise ReviewError(f"action {i}: {exc}") from None
        if dd_start is None and d.phase == Phase.PLAY and d.tricks_played == 0 \
                and len(d.trick_cards) == 1 and not d.minus_round:
            dd_start = match.copy()
    if d.phase != Phase.OVER:
        raise ReviewError("the deal is not finished")
    review = Review(seat, bidder=d.bidder, contract=d.contract_bid,
                    points=float(d.points[seat]) if d.points else None)
    if d.bidder is not None and not d.minus_round:
        side, _ = sides(d, d.bidder)
        bonus = _kitty_trick(d)
        review.side_tricks = sum(d.tricks_won[x] for x in range(d.n) if side >> x & 1) + bonus
        if known is None and dd_start is not None:
            budget = seconds * DD_SHARE
            found = _double_dummy(dd_start, actions, seats, budget, review.side_tricks - bonus)
            # the decisions keep their share of the time, however long that took
            end = max(end, search.CLOCKS.wall() + seconds * (1 - DD_SHARE))
            if isinstance(found, DoubleDummySkipped):
                review.double_dummy_skipped = found
            else:
                known = found
        if known is not None:
            review.double_dummy, review.double_dummy_from_trick = known.tricks, known.from_trick
    hints = _hints(deal)
    searched = [(i, at, action) for i, at, action in moments if hints.get(i) != action]
    for i, at, action in moments:  # a followed practice hint: the hint's judgement stands
        if hints.get(i) == action:
            review.decisions.append(_followed(at, action, i))
    _judge_all(review, searched, seat, rng, max(0.0, end - search.CLOCKS.wall()))
    review.decisions.sort(key=lambda x: -x.loss)
    return review


def _judge_all(review: Review, searched: list[tuple[int, Match, Action]], seat: int,
               rng: random.Random, seconds: float) -> None:
    """Judge the ``searched`` decisions in ``seconds`` of CPU time, shared out as they
    come (what one leaves goes to the rest); each within ``WALL_CAP`` times its share of
    wall time, and all within ``WALL_CAP`` times ``seconds``."""
    clocks = search.CLOCKS
    wall_end = clocks.wall() + seconds * WALL_CAP
    left = seconds
    for k, (i, at, action) in enumerate(searched):
        share = left / (len(searched) - k)
        bot = SearchBot("review", replace(REVIEW, budget=min(REVIEW.budget, share)))
        before = clocks.cpu()
        deadline = min(clocks.wall() + share * WALL_CAP, wall_end)
        review.decisions.append(_judge(bot, at, seat, action, i, rng, deadline))
        left = max(0.0, left - (clocks.cpu() - before))


def _hints(deal: Mapping[str, object]) -> dict[int, Action]:
    """The practice hints the seat was given in this deal (``hints``: action index ->
    action, added by the room), read as actions; an unreadable one is ignored."""
    out: dict[int, Action] = {}
    raw = deal.get("hints")
    if isinstance(raw, dict):
        for index, action in raw.items():
            try:
                out[int(index)] = parse_action(action)
            except (TypeError, ValueError):
                continue
    return out


def _followed(match: Match, action: Action, index: int) -> Decision:
    """A decision where the seat did what the practice hint said: the strong bot's own
    choice then, so no loss, and no search again (another search, on other samples,
    could rank it otherwise: one judgement, the hint's)."""
    d = match.deals[-1]
    trick = d.tricks_played + 1 if d.phase == Phase.PLAY else None
    wire = taken_json(action)
    return Decision(index, d.phase, trick, wire, wire, None, None, 0.0, None, 0, hinted=True)


def _has_choice(legal: tuple[Action, ...]) -> bool:
    return len(legal) > 1 or (len(legal) == 1 and type(legal[0]) is DiscardAny)


def _start(rules: RuleSet, deal: Mapping[str, object]) -> Match:
    try:
        match = match_of_deal(rules, deal)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReviewError(f"not a deal of a game record: {exc}") from None
    return match


def _judge(bot: SearchBot, match: Match, seat: int, action: Action, index: int,
           rng: random.Random, deadline: float) -> Decision:
    d = match.deals[-1]
    view = SeatView(match, seat)
    phase = d.phase
    trick = d.tricks_played + 1 if phase == Phase.PLAY else None
    estimate = bot.estimate(view, rng, deadline, extra=action)
    best = estimate.best
    chosen_points = estimate.points.get(action)
    best_points = estimate.points.get(best)
    loss = 0.0
    if chosen_points is not None and best_points is not None:
        loss = max(0.0, best_points - chosen_points)
    if isinstance(action, Bid) and chosen_points is None:
        best_points = None
    error = None
    mine, theirs = estimate.per_sample.get(action), estimate.per_sample.get(best)
    if mine and theirs and action != best:
        error = round(paired_difference(theirs, mine)[1], 2)
    return Decision(index, phase, trick, taken_json(action), taken_json(best),
                    _round(chosen_points), _round(best_points), round(loss, 2), error,
                    estimate.samples)


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def _kitty_trick(d: DealState) -> int:
    return 0 if d.amerikaner else scoring.kitty_tricks(d.rules.options)


def _double_dummy(at_lead: Match, actions: list[Action], seats: list[int], cpu: float,
                  guess: int) -> DoubleDummy | DoubleDummySkipped:
    """The bidder's side's tricks with perfect play from the first lead (else from a later
    trick if that takes too long), kitty trick included, in ``cpu`` seconds of CPU time
    (``Budget``); why not, if neither fits."""
    d = at_lead.deals[-1]
    bidder = d.bidder
    assert bidder is not None
    side, _ = sides(d, bidder)
    o = d.rules.options
    l2w = bool(o.led_two_wins)
    forced = 1 << d.called if d.called is not None and d.reveals >= 0 else 0
    solver = Endgame(d.n, d.trump, l2w, side, side, forced)
    first = Budget(cpu * FIRST_TRY, cpu * FIRST_TRY * WALL_CAP)
    solver.stop = first.over
    try:
        future = solver.value(d.hands, d.leader, d.trick_cards, guess)
        return DoubleDummy(future + _kitty_trick(d), 1)
    except SolveTimeout:
        pass
    # Again from the trick where LATE_TRICKS are left, after the real play so far.
    late = at_lead.copy()
    ld = late.deals[-1]
    done = ld.action_count
    for s, action in list(zip(seats, actions, strict=True))[done:]:
        if ld.hand_size - ld.tricks_played <= LATE_TRICKS and not ld.trick_cards:
            break
        late.apply(s, action)
    if ld.turn is None:
        return DoubleDummySkipped.BUSY if first.busy else DoubleDummySkipped.TOO_LONG
    rest = cpu * (1 - FIRST_TRY)
    second = Budget(rest, rest * WALL_CAP)
    solver = Endgame(ld.n, ld.trump, l2w, side, side)
    solver.stop = second.over
    try:
        future = solver.value(ld.hands, ld.turn, [])
    except SolveTimeout:
        return DoubleDummySkipped.BUSY if first.busy or second.busy \
            else DoubleDummySkipped.TOO_LONG
    won = sum(ld.tricks_won[x] for x in range(ld.n) if side >> x & 1)
    return DoubleDummy(won + future + _kitty_trick(ld), ld.tricks_played + 1)


__all__ = ["Budget", "Decision", "DoubleDummy", "DoubleDummySkipped", "Review", "ReviewError",
           "review_deal"]
