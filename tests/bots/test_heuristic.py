"""The heuristic bot's behaviour: it beats random play clearly, bids from strength, keeps
trumps and aces, calls the highest card of its trump that it lacks, wins tricks cheaply,
leaves its partner's tricks alone and ducks in minus rounds."""

from __future__ import annotations

import random
from typing import Any

import pytest
from bot_helpers import CLUB_TRICK_MOVES, NORSK, NORSK_HANDS, exact_match, hands_of

from app.bots import BOTS
from app.rules import (
    AMERIKANER,
    PASS,
    Action,
    Bid,
    DealState,
    Discard,
    Lead,
    Match,
    Play,
    RuleSet,
    SeatView,
)
from app.rules.cards import SUIT_MASKS, mask_of_ids, parse_card
from app.rules.tricks import trick_winner
from app.simulate import parse_rules, play_deal, simulate

HEURISTIC = BOTS["heuristic"]


def heuristic_deals(rules: RuleSet, count: int, seed: int = 0) -> list[DealState]:
    """The final deal of ``count`` single-deal matches among heuristic bots."""
    rules = rules.with_changes({"match": "single_deal"})
    players = rules.options.players
    return [play_deal(rules, [HEURISTIC] * players, seed * 100_000 + i).deals[-1]
            for i in range(count)]


def hand_before_trick(deal: DealState, seat: int, trick: int) -> int:
    """What ``seat`` held when trick number ``trick`` (0-based) began."""
    hand = deal.dealt[seat]
    if seat == deal.bidder:
        hand = (hand | deal.kitty) & ~deal.discards
    for leader, cards, _ in deal.tricks[:trick]:
        for i, card in enumerate(cards):
            if (leader + i) % deal.n == seat:
                hand &= ~(1 << card)
    return hand


# -- strength --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["standard", '{"preset": "norsk", "players": 3}',
                                   '{"preset": "guide", "players": 5}'])
def test_beats_random_by_a_clear_margin(rules: str) -> None:
    parsed = parse_rules(rules)
    players = parsed.options.players
    summary: dict[str, Any] = simulate(parsed, ["heuristic"] + ["random"] * (players - 1),
                                       150, 3, True)
    means = summary["mean_points"]
    assert means["heuristic"] > means["random"] + 2.0, means
    contracts = summary["contracts"]["heuristic"]
    assert contracts["made"] > 0.85 * contracts["won"], contracts


# -- auction ---------------------------------------------------------------------------


STANDARD = RuleSet("standard")


def test_a_hand_that_takes_every_trick_bids_amerikaner() -> None:
    hands = hands_of("AS KS QS JS TS 9S AH KH AD KD AC KC",
                     "8S 7S 6S 5S QH JH TH QD JD TD QC JC",
                     "4S 3S 2S 9H 8H 7H 9D 8D 7D TC 9C 8C",
                     "6H 5H 4H 3H 2H 6D 5D 4D 3D 2D 7C 6C")
    match = exact_match(STANDARD, hands, kitty="5C 4C 3C 2C", dealer=3)
    assert HEURISTIC.choose(SeatView(match, 0), random.Random(0)) == AMERIKANER


def test_a_weak_hand_passes_and_a_strong_one_bids() -> None:
    hands = hands_of("AS KS QS JS 9S 7S AH KH AD 4D AC 3C",
                     "2S 3S 4S 2H 3H 4H 5D 6D 7D 5C 6C 7C",
                     "8S TS 5H 6H 7H 8H 9H 8D 9D TD 8C 9C",
                     "5S 6S TH JH QH 2D 3D JD QD KD 2C 4C")
    match = exact_match(STANDARD, hands, kitty="KC QC JC TC", dealer=3)
    strong = HEURISTIC.choose(SeatView(match, 0), random.Random(0))
    assert isinstance(strong, Bid) and isinstance(strong.value, int)
    assert strong.value >= STANDARD.shape.min_bid + 2
    match.apply(0, strong)
    assert HEURISTIC.choose(SeatView(match, 1), random.Random(0)) == PASS


# -- kitty, first lead and call ----------------------------------------------------------


def test_discard_keeps_trumps_and_aces_and_the_lead_calls_the_top_missing_trump() -> None:
    hands = hands_of("AS KS QS 9S 7S 4S AH 5H 3H AD 6D 3C",
                     "2S 3S 5S 2H 4H 6H 2D 3D 4D 5C 6C 7C",
                     "6S 8S TS 8H 9H TH 5D 7D 9D 8C 9C TC",
                     "JS JH QH KH TD JD QD KD JC QC KC AC")
    match = exact_match(STANDARD, hands, kitty="2C 4C 8D 7H", dealer=3)
    for seat in (0, 1, 2, 3):
        match.apply(seat, PASS if seat else Bid(8))
    view = SeatView(match, 0)
    discard = HEURISTIC.choose(view, random.Random(0))
    assert isinstance(discard, Discard)
    assert view.discard_allowed(discard.cards) == ""
    assert not discard.cards & mask_of_ids(["AS", "AH", "AD"])
    assert not discard.cards & SUIT_MASKS[0], "spades, the long suit, are kept"
    assert discard.cards & SUIT_MASKS[3] == SUIT_MASKS[3] & view.hand, "clubs are voided"
    match.apply(0, discard)
    first = HEURISTIC.choose(SeatView(match, 0), random.Random(0))
    assert first == Lead(parse_card("4S"), parse_card("JS"), False)


def test_calls_the_highest_card_of_its_trump_that_it_lacks() -> None:
    calls = 0
    for rules in (RuleSet("standard"), RuleSet("norsk", players=5), RuleSet("guide", players=3)):
        for deal in heuristic_deals(rules, 60):
            if deal.called is None:
                continue
            bidder = deal.bidder
            assert bidder is not None and deal.trump is not None
            hand = (deal.dealt[bidder] | deal.kitty) & ~deal.discards
            live = rules.shape.deck & ~hand & ~deal.discards & SUIT_MASKS[deal.trump]
            assert deal.called == live.bit_length() - 1
            trumps = hand & SUIT_MASKS[deal.trump]
            assert deal.tricks[0][1][0] == (trumps & -trumps).bit_length() - 1, "a low lead"
            calls += 1
    assert calls > 150


# -- trick play ------------------------------------------------------------------------


def test_wins_a_trick_with_the_cheapest_card_that_holds() -> None:
    match = exact_match(NORSK, NORSK_HANDS, dealer=3)
    for seat, action in CLUB_TRICK_MOVES:
        match.apply(seat, action)
    # A defender's 8C is winning; the bidder holds AC KC QC and only seat 1 (clubs 2-4)
    # is still to play: the queen is enough.
    assert HEURISTIC.choose(SeatView(match, 0), random.Random(0)) == Play(parse_card("QC"))


def test_a_defender_that_cannot_win_plays_its_lowest_card() -> None:
    match = exact_match(NORSK, NORSK_HANDS, dealer=3)
    moves: list[tuple[int, Action]] = [
        (0, Bid(7)), (1, PASS), (2, PASS), (3, PASS), (0, Lead(parse_card("3S"), parse_card("JS")))]
    for seat, action in moves:
        match.apply(seat, action)
    assert HEURISTIC.choose(SeatView(match, 1), random.Random(0)) == Play(parse_card("2S"))


def test_never_takes_a_trick_its_partner_is_winning_when_last_to_play() -> None:
    seen = 0
    for deal in heuristic_deals(RuleSet("standard"), 200) + heuristic_deals(NORSK, 100):
        if deal.partner is None:
            continue
        side = {deal.bidder, deal.partner}
        n = deal.n
        for number, (leader, cards, winner) in enumerate(deal.tricks[1:], start=1):
            last = (leader + n - 1) % n
            before = (leader + trick_winner(list(cards[:-1]), deal.trump, False)) % n
            if last not in side or before not in side or before == last:
                continue
            if any(trick_winner([*cards[:-1], c], deal.trump, False) != n - 1
                   for c in _playable(hand_before_trick(deal, last, number), cards[0])):
                assert winner == before, (number, cards)
                seen += 1
    assert seen > 100


def _playable(hand: int, led: int) -> list[int]:
    follow = hand & SUIT_MASKS[led // 13] if led < 52 else 0
    mask = follow or hand
    return [c for c in range(54) if mask >> c & 1]


def test_last_to_play_wins_with_the_cheapest_winning_card() -> None:
    """After trick one everybody knows the sides; the last seat, facing an opponent's
    winning card, takes the trick whenever it can, with its lowest winning card."""
    seen = 0
    for deal in heuristic_deals(RuleSet("standard"), 200):
        if deal.partner is None:
            continue
        side = {deal.bidder, deal.partner}
        for number, (leader, cards, _) in enumerate(deal.tricks[1:], start=1):
            n = deal.n
            last = (leader + n - 1) % n
            before = (leader + trick_winner(list(cards[:-1]), deal.trump, False)) % n
            if (last in side) == (before in side):
                continue
            winning = [c for c in _playable(hand_before_trick(deal, last, number), cards[0])
                       if trick_winner([*cards[:-1], c], deal.trump, False) == n - 1]
            if winning:
                assert cards[-1] == winning[0], (number, cards, winning)
                seen += 1
    assert seen > 100


def test_ducks_in_a_minus_round() -> None:
    """With every seat passing, each trick costs a point: following suit with a card under
    the trick's winner available, the heuristic never plays over it."""
    rules = RuleSet("standard", all_pass="minus_round", match="single_deal")
    seen = 0
    for seed in range(40):
        match = Match(rules, rng=random.Random(seed))
        match.start_deal()
        while match.phase == "auction":
            match.apply(match.turn, PASS)  # type: ignore[arg-type]
        while not match.finished:
            seat = match.turn
            assert seat is not None
            deal = match.deals[-1]
            cards = list(deal.trick_cards)
            action = HEURISTIC.choose(SeatView(match, seat), random.Random(0))
            assert isinstance(action, Play)
            if cards and cards[0] < 52:
                follow = deal.hands[seat] & SUIT_MASKS[cards[0] // 13]
                current = cards[trick_winner(cards, None, False)]
                if follow & ((1 << current) - 1) & SUIT_MASKS[cards[0] // 13]:
                    assert action.card < current
                    seen += 1
            match.apply(seat, action)
    assert seen > 200

