"""The first lead and the call of the hidden partner (docs/spec/RULES.md sections 6 and 7)."""

from __future__ import annotations

import random

import pytest
from helpers import act, bids, cards, current_deal, exact_match, ids, legal_json, rules
from random_play import snapshot
from rules_oracle import expected_winner

from app.rules import IllegalLead, IllegalPlay, Match, SeatView, events, parse_action
from app.rules.calling import discard_keeps_lead, lead_actions, lead_error
from app.rules.cards import parse_card

HEARTS = {r + "H" for r in "23456789TJQKA"}


def bidder_1(fixed: dict[int, str], **options: object) -> Match:
    """Seat 1 (left of dealer 0) bids the lowest bid, the others pass: the first lead is
    next (no kitty unless the options give one)."""
    rs = rules(**{"preset": "norsk", **options})
    m = exact_match(rs, fixed=fixed, dealer=0)
    bids(m, rs.shape.min_bid, *["pass"] * (rs.options.players - 1))
    return m


def calls_for(m: Match, card: str) -> set[str | None]:
    return {a.get("call") for a in legal_json(m) if a["play"] == card}


def test_the_lead_calls_only_live_cards_of_its_suit() -> None:
    m = bidder_1({1: "4H KH AS", 2: "AH"})
    assert m.phase == "lead" and m.turn == 1
    own = ids(current_deal(m).hands[1])
    assert calls_for(m, "4H") == HEARTS - own and "AH" in calls_for(m, "4H")
    assert calls_for(m, "AS") == {r + "S" for r in "23456789TJQKA"} - own
    for action, words in [({"play": "4H", "call": "KH"}, "of your own"),
                          ({"play": "4H", "call": "AS"}, "must be a heart"),
                          ({"play": "4H"}, "call a heart"),
                          ({"play": "2C", "call": "3C"}, "not in your hand")]:
        before = snapshot(m)
        with pytest.raises(IllegalLead, match=words):
            m.apply(1, parse_action(action))
        assert snapshot(m) == before
    out = act(m, 1, play="4H", call="AH")
    deal = current_deal(m)
    assert events.ContractSet(1, 1, parse_card("AH"), False) in out
    assert deal.trump == 1 and deal.called == parse_card("AH") and deal.partner == 2
    assert not deal.grand and m.phase == "play" and m.turn == 2


def test_discarded_cards_are_not_live() -> None:
    m = exact_match(rules(preset="guide"), fixed={1: "4H 5H"}, kitty="AH KH QH JH", dealer=0)
    bids(m, 6, "pass", "pass", "pass")
    act(m, 1, discard=["AH", "KH", "5H", "QH"])
    own = ids(current_deal(m).hands[1])
    assert calls_for(m, "4H") == HEARTS - own - {"AH", "KH", "5H", "QH"}
    assert "JH" in own and not calls_for(m, "4H") & {"AH", "KH", "5H", "QH"}
    with pytest.raises(IllegalLead, match="not in play"):
        act(m, 1, play="4H", call="AH")


def test_removed_twos_are_not_live() -> None:
    m = bidder_1({1: "AC AD", 2: "3C"}, players=5)  # norsk 5p: 2C and 2D are out
    assert "2C" not in calls_for(m, "AC") and "2D" not in calls_for(m, "AD")
    assert "3C" in calls_for(m, "AC")
    with pytest.raises(IllegalLead, match="not in play"):
        act(m, 1, play="AC", call="2C")


def test_a_joker_is_never_the_first_lead_nor_called() -> None:
    m = bidder_1({1: "JK1 4H", 3: "JK2"}, jokers=2)
    assert all(not a["play"].startswith("JK") for a in legal_json(m))
    assert all(not a.get("call", "").startswith("JK") for a in legal_json(m))
    for action in [{"play": "JK1", "call": "AH"}, {"play": "JK1"}]:
        with pytest.raises(IllegalLead, match="cannot be a joker"):
            m.apply(1, parse_action(action))
    with pytest.raises(IllegalLead, match="must be a heart"):
        act(m, 1, play="4H", call="JK2")


# norsk, 3 players, all twos out: 16 cards each; seat 1 holds every spade (no spade is live).
SPADES_12 = "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"


def test_no_callable_play_alone_leads_that_suit_without_a_call() -> None:
    m = bidder_1({1: SPADES_12 + " 3H 4H 5H 6H"}, players=3, remove_twos="all",
                 no_callable="play_alone")
    assert calls_for(m, "AS") == {None}
    assert calls_for(m, "3H") == HEARTS - {"2H", "3H", "4H", "5H", "6H"}
    with pytest.raises(IllegalLead, match="call a heart"):
        act(m, 1, play="3H")  # a live heart exists: alone is not allowed with a heart
    act(m, 1, play="AS")
    deal = current_deal(m)
    assert deal.trump == 0 and deal.called is None and deal.partner is None


def test_no_callable_redeal_forbids_that_lead() -> None:
    m = bidder_1({1: SPADES_12 + " 3H 4H 5H 6H"}, players=3, remove_twos="all")
    assert {a["play"] for a in legal_json(m)} == {"3H", "4H", "5H", "6H"}
    for action, words in [({"play": "AS"}, "lead another suit"),
                          ({"play": "AS", "call": "2S"}, "not in play")]:
        before = snapshot(m)
        with pytest.raises(IllegalLead, match=words):
            m.apply(1, parse_action(action))
        assert snapshot(m) == before


def test_no_legal_lead_at_all_voids_the_deal_and_the_same_dealer_redeals() -> None:
    m = bidder_1({1: " ".join(sorted(HEARTS))})  # norsk 4p: all 13 hearts
    first = m.deals[0]
    assert first.outcome == "void" and first.void_reason == "no_callable"
    assert first.points == (0, 0, 0, 0) and m.scored == [] and m.totals == [0, 0, 0, 0]
    assert len(m.deals) == 2 and current_deal(m).dealer == 0 and m.phase == "auction"
    assert SeatView(m, 0).to_wire()["redeal"] == "no_callable"


def test_the_same_hand_under_play_alone_is_played() -> None:
    m = bidder_1({1: " ".join(sorted(HEARTS))}, no_callable="play_alone")
    assert m.phase == "lead" and {a["play"] for a in legal_json(m)} == HEARTS
    assert all("call" not in a for a in legal_json(m))


def test_grand_no_trump_and_still_a_call() -> None:
    m = bidder_1({1: "4H 5S", 2: "AH"}, grand=True)
    leads = legal_json(m)
    assert {"play": "4H", "call": "AH", "grand": True} in leads
    assert {"play": "4H", "call": "AH"} in leads
    assert all(a.get("grand") is not False for a in leads)  # the key only with true
    out = act(m, 1, play="4H", call="AH", grand=True)
    deal = current_deal(m)
    assert events.ContractSet(1, None, parse_card("AH"), True) in out
    assert deal.trump is None and deal.grand and deal.partner == 2
    contract = SeatView(m, 0).to_wire()["contract"]
    assert contract is not None
    assert contract["trump"] is None and contract["grand"] is True
    assert contract["called"] == "AH"
    rng = random.Random(3)
    while m.turn is not None:
        m.apply(m.turn, rng.choice(m.legal_actions()))
    for leader, trick, winner in deal.tricks:  # no trump: the led suit wins
        assert (leader + expected_winner(trick, None, False)) % 4 == winner


def test_grand_is_refused_when_the_rules_do_not_allow_it() -> None:
    m = bidder_1({1: "4H", 2: "AH"})
    assert all("grand" not in a for a in legal_json(m))
    with pytest.raises(IllegalLead, match="grand is not allowed"):
        act(m, 1, play="4H", call="AH", grand=True)


def test_the_called_card_is_forced_in_trick_one() -> None:
    m = bidder_1({1: "4H", 2: "AH 3H 9H KS", 3: "2H QS", 0: "5H 6H"})
    act(m, 1, play="4H", call="AH")
    assert legal_json(m, 2) == [{"play": "AH"}]
    with pytest.raises(IllegalPlay, match="called card"):
        act(m, 2, play="3H")
    with pytest.raises(IllegalPlay, match="called card"):
        act(m, 2, play="KS")
    out = act(m, 2, play="AH")
    assert events.PartnerRevealed(2, parse_card("AH")) in out
    assert {a["play"] for a in legal_json(m, 3)} == ids(current_deal(m).hands[3] & cards(
        " ".join(HEARTS)))  # others just follow suit


def test_a_void_holder_of_nothing_plays_anything() -> None:
    m = bidder_1({1: "4H 5H 6H", 2: "AH", 3: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"})
    act(m, 1, play="4H", call="AH")
    act(m, 2, play="AH")
    assert {a["play"] for a in legal_json(m, 3)} == ids(current_deal(m).hands[3])  # no hearts


def test_a_call_goes_only_with_the_first_lead() -> None:
    m = bidder_1({1: "4H", 2: "AH"})
    act(m, 1, play="4H", call="AH")
    with pytest.raises(IllegalPlay, match="call goes only"):
        act(m, 2, play="AH", call="KH")


@pytest.mark.parametrize("preset", ["norsk", "standard"])
def test_amerikaner_has_no_call_and_the_bidder_leads_anything(preset: str) -> None:
    m = exact_match(rules(preset=preset, jokers=1), fixed={1: "JK1 4H"}, dealer=0)
    act(m, 1, bid="amerikaner")
    if m.phase == "discard":
        act(m, 1, discard=[c for c in sorted(ids(current_deal(m).hands[1]))
                           if c not in ("JK1", "4H")][:4])
    assert m.phase == "play" and m.turn == 1
    assert {a["play"] for a in legal_json(m)} == ids(current_deal(m).hands[1])  # a joker too
    assert all(set(a) == {"play"} for a in legal_json(m))
    with pytest.raises(IllegalPlay):
        act(m, 1, play="4H", call="AH")
    act(m, 1, play="JK1")
    deal = current_deal(m)
    assert deal.trump is None and deal.called is None and deal.partner is None
    assert SeatView(m, 2).to_wire()["contract"] == {
        "bidder": 1, "bid": "amerikaner", "trump": None, "called": None, "partner": None,
        "grand": False}


# The pure functions of calling.py, on masks.


def test_lead_actions_and_errors_on_masks() -> None:
    hand, others = cards("4H KH AS"), cards("AH 3H 2S")
    leads = {(a.card, a.call, a.grand) for a in lead_actions(hand, others, False, False)}
    h4, kh, as_, ah, h3, s2 = (parse_card(c) for c in ["4H", "KH", "AS", "AH", "3H", "2S"])
    assert leads == {(h4, ah, False), (h4, h3, False), (kh, ah, False), (kh, h3, False),
                     (as_, s2, False)}
    alone = lead_actions(cards("4H"), cards("AS"), True, False)
    assert [(a.card, a.call) for a in alone] == [(h4, None)]
    assert lead_actions(cards("4H"), cards("AS"), False, False) == []
    grand = lead_actions(cards("4H"), cards("AH"), False, True)
    assert {(a.call, a.grand) for a in grand} == {(ah, False), (ah, True)}
    assert lead_error(alone[0], cards("4H"), cards("AS"), True, False) == ""
    assert "not in your hand" in lead_error(alone[0], cards("5H"), 0, True, False)


def test_discard_keeps_lead_on_masks() -> None:
    hand, others = cards("2H 3H AS"), cards("KS")  # only spades are live
    assert discard_keeps_lead(hand, cards("2H"), others)
    assert not discard_keeps_lead(hand, cards("AS"), others)
    assert discard_keeps_lead(cards("2H 3H"), cards("2H"), others)  # nothing to keep
