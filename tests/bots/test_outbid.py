"""A bid priced with the others answering it (app/bots/outbid.py): the heuristic finishes
the auction after each candidate bid; a bid nobody can top keeps the contract, a bid a
strong hand tops is priced by the deal the others then play; the sample is not changed."""

from __future__ import annotations

import math
import random

from bot_helpers import exact_match, hands_of

from app.bots.outbid import End, auction_ends, bid_value
from app.bots.search import SearchBot
from app.bots.search_settings import SearchSettings
from app.rules import Bid, RuleSet, SeatView

STANDARD = RuleSet("standard", match="single_deal")
# Seat 0 bids first (the dealer is seat 3); seat 1 holds long solid spades and aces, a
# hand easy bids high with, but not an Amerikaner (the small clubs can lose).
HANDS = hands_of("2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 5D 6D",
                 "AS KS QS JS TS 9S 8S AH AD AC 3C 2C",
                 "5S 6S 7S 6H 7H 8H 9H 7D 8D 9D 4C 5C",
                 "TH JH QH KH TD JD QD KD 6C 7C 8C 9C")
KITTY = "TC JC QC KC"


def test_a_strong_hand_tops_a_low_bid_and_nobody_tops_the_highest() -> None:
    match = exact_match(STANDARD, HANDS, KITTY, dealer=3)
    state = match.deals[-1]
    before = (state.high, state.turn, state.phase)
    low, high = STANDARD.shape.min_bid, STANDARD.shape.max_bid
    ends = auction_ends(state, 0, [low, high], 4, random.Random(1))
    assert (state.high, state.turn, state.phase) == before  # the sample is left as it was
    assert isinstance(ends[low], float)  # seat 1 took the contract: the deal played out
    assert ends[high] == high and isinstance(ends[high], int)  # seat 0 kept it
    # Seat 0 defends seat 1's contract with a hand of small cards: it scores below the table.
    assert ends[low] < 0
    # Scored by its own points (as a review judges a player): a defender's tricks, not
    # less than nothing.
    own = auction_ends(state, 0, [low], 4, random.Random(1), relative=False)
    assert isinstance(own[low], float) and own[low] >= 0


def test_a_bids_value_mixes_kept_contracts_and_deals_played() -> None:
    ends: list[End] = [10, 11, -4.0, 2.0]
    assert bid_value(ends, lambda contract: contract / 2) == (5 + 5.5 - 4 + 2) / 4


def test_the_search_prices_bids_with_the_answers() -> None:
    """With ``outbid`` every bid is priced on the samples (no wall-clock deadline, so
    every sample is taken however busy the machine) and the choice is legal."""
    bot = SearchBot("strong", SearchSettings(budget=30.0, samples=6, exact=3, exact_now=4,
                                             search_auction=True, relative=True, outbid=True))
    match = exact_match(STANDARD, HANDS, KITTY, dealer=3)
    match.apply(0, Bid(STANDARD.shape.min_bid))
    view = SeatView(match, 1)
    estimate = bot.estimate(view, random.Random(2), deadline=math.inf)
    assert estimate.samples == 6 and estimate.best in view.legal
    numeric = [a for a in view.legal if isinstance(a, Bid) and isinstance(a.value, int)]
    assert set(numeric) <= set(estimate.points)
