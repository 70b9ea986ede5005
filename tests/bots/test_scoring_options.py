"""The bots' objective scores a deal as the engine does under every option that changes
scores (issue 37): the kitty trick with and without a kitty, Amerikaner and its points,
the bidder's double, the minus round, playing alone, and the table sizes and jokers that
change the hand; and each value of every option of the rule table (tests/option_tables.py,
the engine's own declaration) alone, so that a new option is scored here as soon as it is
declared.  A scoring option the bots ignored would make one of these fail."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from option_tables import RULE_OPTIONS

from app.bots import BOTS
from app.bots.rollout import deal_points, score
from app.rules import AMERIKANER, PASS, DealState, Match, RuleSet, SeatView
from app.rules.outcomes import Outcome
from app.rules.phases import Phase
from app.rules.scoring import score_deal

EASY = BOTS["easy"]

# Each rule set differs from another only in options that change the points of a deal.
SCORING_RULES: dict[str, RuleSet] = {
    "standard (kitty trick)": RuleSet("standard"),
    "no kitty trick": RuleSet("standard", kitty_trick=False),
    "kitty trick, no kitty": RuleSet("standard", kitty=0, kitty_trick=True),
    "amerikaner points 30": RuleSet("standard", amerikaner_points=30),
    "bidder double": RuleSet("standard", bidder_double=True),
    "bidder double, no kitty trick": RuleSet("guide", bidder_double=True),
    "minus round": RuleSet("standard", all_pass="minus_round"),
    "play alone, no kitty": RuleSet("norsk", no_callable="play_alone"),
    "3 players": RuleSet("standard", players=3, all_pass="minus_round"),
    "5 players, jokers": RuleSet("standard", players=5, jokers=2, bidder_double=True),
}

# How the auction goes, by the deal's number: the easy bots' own, every seat passing (a
# minus round where the rules have one), or the first seat bidding Amerikaner.
AUCTIONS = ("easy", "easy", "all pass", "amerikaner")


def played_deals(rules: RuleSet, count: int) -> list[DealState]:
    """``count`` finished, scored deals under ``rules``, played by the easy bot after the
    auction ``AUCTIONS`` picks for each."""
    deals: list[DealState] = []
    seed = 0
    while len(deals) < count:
        auction = AUCTIONS[seed % len(AUCTIONS)]
        rng = random.Random(seed)
        match = Match(rules.with_changes({"match": "single_deal"}), rng=random.Random(seed))
        match.start_deal()
        seed += 1
        deal = match.deals[0]
        while deal.phase != Phase.OVER:  # a passed-out deal is over too, and not scored
            seat = deal.turn
            assert seat is not None
            action = EASY.choose(SeatView(match, seat), rng)
            if deal.phase == Phase.AUCTION and auction == "all pass":
                action = PASS
            elif deal.phase == Phase.AUCTION and auction == "amerikaner":
                action = AMERIKANER if AMERIKANER in deal.legal_actions() else PASS
            match.apply(seat, action)
        if deal.outcome != Outcome.VOID:
            deals.append(deal)
    return deals


def variants(deal: DealState) -> list[DealState]:
    """The deal as played, unscored, and the same with its tricks or partner changed so
    that every branch of the scoring is met: the bidder alone, every trick to the bidder
    (Amerikaner made), none to the bidder's side."""
    unscored = deal.copy()
    unscored.points = unscored.made = None
    unscored.phase = Phase.PLAY  # rollout.deal_points would take a scored deal's points
    found = [unscored]
    if deal.bidder is None or deal.minus_round:
        return found
    defender = next(s for s in range(deal.n) if s not in (deal.bidder, deal.partner))
    for taker in (None, deal.bidder, defender):
        changed = unscored.copy()
        if taker is not None:
            changed.tricks_won = [0] * deal.n
            changed.tricks_won[taker] = deal.hand_size
        alone = changed.copy()
        alone.partner = None
        found += [changed, alone]
    return found[1:]


def kind(deal: DealState, made: bool | None) -> str:
    """The branch of the scoring a deal takes."""
    if deal.minus_round:
        return "minus round"
    if deal.amerikaner:
        return f"amerikaner {'made' if made else 'failed'}"
    alone = " alone" if deal.partner is None else ""
    return f"contract{alone} {'made' if made else 'failed'}"


BRANCHES = ("contract made", "contract failed", "contract alone made", "contract alone failed",
            "amerikaner made", "amerikaner failed")


@pytest.mark.parametrize("name", list(SCORING_RULES))
def test_the_bots_score_a_deal_as_the_engine_does(name: str) -> None:
    check_the_bots_score(name, SCORING_RULES[name])


# Every option of tests/option_tables.py, each value the standard rules do not already
# have, alone: a new option, scoring or not, is scored here without a change to this file.
ONE_OPTION_EACH = [(option, value) for option, values in RULE_OPTIONS.items()
                   for value in values if RuleSet("standard").resolved()[option] != value]


@pytest.mark.parametrize(("option", "value"), ONE_OPTION_EACH)
def test_the_bots_score_as_the_engine_does_under_each_option(option: str, value: Any) -> None:
    check_the_bots_score(f"{option}={value}", RuleSet("standard", **{option: value}))


def check_the_bots_score(name: str, rules: RuleSet) -> None:
    """Deals played under ``rules``, and their variants, score the same by the bots'
    ``deal_points`` and ``score`` as by the engine's ``score_deal``, in every branch of
    the scoring the rules have."""
    kinds: Counter[str] = Counter()
    for deal in played_deals(rules, 12):
        assert score_deal(deal) == (deal.points, deal.made)
        for state in variants(deal):
            engine, made = score_deal(state)
            kinds[kind(state, made)] += 1
            for seat in range(deal.n):
                points, _ = deal_points(state, seat, 0)
                assert points == list(engine), (name, kind(state, made), seat)
                mine, _ = score(state, seat, 0, relative=True)
                others = (sum(engine) - engine[seat]) / (deal.n - 1)
                assert mine == pytest.approx(engine[seat] - others)
    for branch in BRANCHES:
        if rules.options.amerikaner or not branch.startswith("amerikaner"):
            assert kinds[branch] >= 1, kinds
    if rules.options.all_pass == "minus_round":
        assert kinds["minus round"] >= 1, kinds
