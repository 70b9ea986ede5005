"""The auction (docs/spec/RULES.md section 4): who opens, turn order, passes, bids, the end, and the
three all-pass behaviours including the minus round."""

from __future__ import annotations

import random

import pytest
from helpers import act, bids, card_of, current_deal, exact_match, legal_json, rules
from random_play import play_deal
from rules_oracle import expected_plays

from app.rules import Bid, IllegalBid, Match, NotYourTurn, WrongPhase, parse_action
from app.rules.cards import cards_of


def bid_values(m: Match) -> list[object]:
    return [a["bid"] for a in legal_json(m)]


@pytest.mark.parametrize(("first_bidder", "dealer", "opener"), [
    ("left_of_dealer", 0, 1), ("left_of_dealer", 3, 0), ("dealer", 2, 2), ("dealer", 0, 0),
])
def test_first_bidder(first_bidder: str, dealer: int, opener: int) -> None:
    m = exact_match(rules(first_bidder=first_bidder), dealer=dealer)
    assert m.phase == "auction" and m.turn == opener
    assert m.legal_actions(opener) and m.legal_actions((opener + 1) % 4) == ()


def test_fullstokk_dealer_opens() -> None:
    assert exact_match(rules(preset="fullstokk"), dealer=3).turn == 3


def test_legal_list_at_the_start() -> None:
    m = exact_match(rules())  # standard 4p: 7-13
    assert bid_values(m) == ["pass", 7, 8, 9, 10, 11, 12, 13, "amerikaner"]
    m = exact_match(rules(preset="norsk", amerikaner=False))
    assert bid_values(m) == ["pass", 7, 8, 9, 10, 11, 12]


def test_only_higher_bids_in_range() -> None:
    m = exact_match(rules(preset="guide"))  # 6-12, seat 1 opens
    act(m, 1, bid=8)
    assert bid_values(m) == ["pass", 9, 10, 11, 12, "amerikaner"]
    for value, words in [(8, "more than 8"), (7, "more than 8"), (5, "more than 8"),
                         (13, "highest bid is 12"), (0, "more than 8")]:
        with pytest.raises(IllegalBid, match=words):
            act(m, 2, bid=value)
    assert m.turn == 2 and current_deal(m).high == 8
    act(m, 2, bid=12)
    assert bid_values(m) == ["pass", "amerikaner"]
    with pytest.raises(IllegalBid, match="lowest bid is 6"):
        act(exact_match(rules(preset="guide")), 1, bid=5)


def test_clockwise_skipping_passers_and_pass_is_final() -> None:
    m = exact_match(rules(), dealer=0)
    act(m, 1, bid="pass")
    act(m, 2, bid=7)
    act(m, 3, bid="pass")
    assert m.turn == 0
    act(m, 0, bid=8)
    assert m.turn == 2  # seat 1 passed: skipped
    with pytest.raises(NotYourTurn):
        act(m, 1, bid=9)  # a pass is final: seat 1 never bids again
    act(m, 2, bid=9)
    assert m.turn == 0 and m.phase == "auction"


def test_ends_when_all_but_the_high_bidder_passed() -> None:
    m = exact_match(rules(preset="guide"), dealer=0)
    bids(m, 6, 7, "pass", "pass")  # seats 1 2 3 0
    assert m.phase == "auction" and m.turn == 1
    act(m, 1, bid="pass")
    deal = current_deal(m)
    assert deal.bidder == 2 and deal.contract_bid == 7
    assert m.phase == "discard" and m.turn == 2


def test_a_bid_after_three_passes_wins_at_once() -> None:
    m = exact_match(rules(preset="norsk"), dealer=0)
    bids(m, "pass", "pass", "pass")
    assert m.turn == 0 and bid_values(m)[:2] == ["pass", 7]
    act(m, 0, bid=7)
    assert current_deal(m).bidder == 0 and m.phase == "lead" and m.turn == 0  # no kitty


def test_amerikaner_ends_the_auction_at_once() -> None:
    m = exact_match(rules(preset="norsk"), dealer=0)
    act(m, 1, bid=7)
    act(m, 2, bid="amerikaner")
    deal = current_deal(m)
    assert deal.bidder == 2 and deal.contract_bid == "amerikaner"
    assert m.phase == "play" and m.turn == 2  # no kitty: the bidder leads at once


def test_amerikaner_off_is_neither_listed_nor_allowed() -> None:
    m = exact_match(rules(amerikaner=False))
    assert "amerikaner" not in bid_values(m)
    with pytest.raises(IllegalBid):
        act(m, 1, bid="amerikaner")


def test_other_actions_are_not_bids() -> None:
    m = exact_match(rules())
    hand = cards_of(current_deal(m).hands[1])
    for action in [{"play": "AS"}, {"discard": ["AS", "KS", "QS", "JS"]}]:
        with pytest.raises(WrongPhase):
            m.apply(1, parse_action(action))
    with pytest.raises(WrongPhase):
        m.apply(1, parse_action({"play": "AS", "call": "KS"}))
    assert hand == cards_of(current_deal(m).hands[1]) and current_deal(m).actions == []


@pytest.mark.parametrize(("all_pass", "next_dealer"), [
    ("redeal_same_dealer", 2), ("redeal_next_dealer", 3)])
def test_all_pass_redeals(all_pass: str, next_dealer: int) -> None:
    m = exact_match(rules(all_pass=all_pass), dealer=2)
    first = current_deal(m)
    bids(m, "pass", "pass", "pass", "pass")
    assert first.outcome == "void" and first.void_reason == "all_passed"
    assert first.points == (0, 0, 0, 0)
    assert len(m.deals) == 2 and m.deal is not first
    assert current_deal(m).dealer == m.dealer == next_dealer
    assert m.phase == "auction" and m.totals == [0, 0, 0, 0] and m.scored == []
    assert m.turn == (next_dealer + 1) % 4


def test_all_pass_without_auto_redeal_waits_for_the_next_deal() -> None:
    m = exact_match(rules(), dealer=1, auto_redeal=False)
    bids(m, "pass", "pass", "pass", "pass")
    assert m.phase == "deal_over" and m.turn is None and len(m.deals) == 1
    m.start_deal()
    assert current_deal(m).dealer == 1 and m.phase == "auction"


@pytest.mark.parametrize(("dealer", "first_bidder"), [(0, "left_of_dealer"), (2, "dealer")])
def test_minus_round(dealer: int, first_bidder: str) -> None:
    rs = rules(all_pass="minus_round", first_bidder=first_bidder, show_kitty=True)
    m = exact_match(rs, dealer=dealer)
    kitty = current_deal(m).kitty
    bids(m, "pass", "pass", "pass", "pass")
    deal = current_deal(m)
    assert len(m.deals) == 1 and deal.minus_round
    assert m.phase == "play" and m.turn == (dealer + 1) % 4  # left of the dealer leads
    assert deal.bidder is None and deal.trump is None and deal.called is None
    assert deal.kitty == kitty and all(h.bit_count() == 12 for h in deal.hands)  # no exchange
    rng = random.Random(5)
    while m.turn is not None:
        seat = m.turn
        assert {card_of(a) for a in m.legal_actions()} == set(
            cards_of(expected_plays(deal, seat)))
        m.apply(seat, rng.choice(m.legal_actions()))
    assert deal.outcome == "minus_round" and deal.made is None
    assert deal.points == tuple(-t for t in deal.tricks_won)
    assert sum(deal.tricks_won) == 12
    for leader, trick, winner in deal.tricks:  # no trump: the highest of the led suit
        led = trick[0] // 13
        best = max(c for c in trick if c // 13 == led)
        assert (leader + trick.index(best)) % 4 == winner
    assert m.totals == list(deal.points) and m.dealer == (dealer + 1) % 4  # scored: passes on


def test_a_random_auction_never_lists_an_illegal_bid() -> None:
    rng = random.Random(11)
    for seed in range(30):
        m = exact_match(rules(preset="guide", amerikaner=seed % 2 == 0), dealer=seed % 4)
        m.rng = random.Random(seed)
        play_deal(m, rng)
        for deal in m.deals:
            numbers = [a.value for _, a in deal.actions
                       if isinstance(a, Bid) and isinstance(a.value, int)]
            assert numbers == sorted(set(numbers))  # strictly rising
            assert all(6 <= v <= 12 for v in numbers)
