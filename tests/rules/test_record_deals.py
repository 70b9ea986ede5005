"""Game records of several deals: the dealer's rotation after scored and void deals,
only the last deal unfinished, nothing after the match's end, the first broken thing
reported, and a bidder with no callable card (void deal or playing alone).
"""

from __future__ import annotations

import copy
import random
from typing import Any

from record_helpers import all_pass, deal0, error_at, made8, message, record_of, with_actions

from app.rules import Match, RuleSet, parse_action
from app.rules.record import replay_record

# -- several deals: rotation, unfinished deals, the match's end ------------------------


def second_deal(dealer: int, actions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    deal: dict[str, Any] = copy.deepcopy(made8()["deals"][0])
    deal["dealer"] = dealer
    deal["actions"] = actions or []
    return deal


def test_the_deal_passes_left_after_a_scored_deal() -> None:
    data = made8()
    data["deals"].append(second_deal(1))
    assert replay_record(data)["ok"] is True
    data["deals"][1]["dealer"] = 0
    assert error_at(data) == (1, None)
    assert message(data) == ("the dealer must be seat 1, not seat 0: the deal passes left "
                             "after every scored deal")


def test_a_void_deal_keeps_the_dealer_unless_all_pass_says_next() -> None:
    data = deal0("actions", all_pass())
    data["deals"].append(second_deal(0))
    assert replay_record(data)["ok"] is True
    data["deals"][1]["dealer"] = 1
    assert error_at(data) == (1, None)
    data["rules"]["all_pass"] = "redeal_next_dealer"
    assert replay_record(data)["ok"] is True
    data["deals"][1]["dealer"] = 0
    assert error_at(data) == (1, None)


def test_only_the_last_deal_may_be_unfinished() -> None:
    data = with_actions(made8(), 10)
    data["deals"].append(second_deal(1))
    assert error_at(data) == (1, None)
    assert "unfinished" in message(data)


def test_no_deal_after_the_match_ended() -> None:
    data = made8()
    data["rules"]["match"] = "single_deal"
    data["deals"].append(second_deal(1))
    assert error_at(data) == (1, None)
    assert "match ended" in message(data)


def test_the_first_broken_thing_is_reported() -> None:
    data = made8()
    data["deals"].append(second_deal(1, [{"seat": 3, "bid": 7}]))  # seat 2 opens
    data["deals"][0]["actions"][8] = {"seat": 0, "play": "7D"}
    assert error_at(data) == (0, 8)


def one_suit_each(options: dict[str, Any]) -> Match:
    """A 13-card deal in which seat ``s`` holds the whole suit ``(s + 3) % 4`` (seat 1:
    spades), so that nobody else has a card of the bidder's suit; seat 1 bids 7 and wins."""
    m = Match(RuleSet.from_json(options), rng=random.Random(0), first_dealer=0,
              auto_redeal=False)
    suit = (1 << 13) - 1
    m.start_deal(hands=[suit << (13 * ((s + 3) % 4)) for s in range(4)], kitty=0)
    for seat, value in ((1, 7), (2, "pass"), (3, "pass"), (0, "pass")):
        m.apply(seat, parse_action({"bid": value}))
    return m


def test_a_bidder_with_no_legal_first_lead_voids_the_deal_and_keeps_the_dealer() -> None:
    m = one_suit_each({"preset": "norsk"})  # no_callable: redeal
    assert m.deals[0].outcome == "void"
    data = record_of(m)
    result = replay_record(data)
    assert result["ok"] is True, result
    assert result["deals"][0]["outcome"] == "void"
    assert result["deals"][0]["contract"] is None
    data["deals"].append(copy.deepcopy(data["deals"][0]))
    data["deals"][1]["dealer"] = 1
    assert error_at(data) == (1, None)
    assert "same dealer" in message(data)


def test_a_bidder_plays_alone_when_nothing_of_the_suit_is_live() -> None:
    m = one_suit_each({"preset": "norsk", "no_callable": "play_alone"})
    m.apply(1, parse_action({"play": "AS"}))  # a first lead without a call: alone
    while m.turn is not None:
        m.apply(m.turn, m.legal_actions()[0])
    data = record_of(m)
    assert data["deals"][0]["actions"][4] == {"seat": 1, "play": "AS"}
    result = replay_record(data)
    assert result["ok"] is True, result
    assert result["deals"][0] == {
        "dealer": 0, "outcome": "played",
        "contract": {"bidder": 1, "bid": 7, "trump": "S", "called": None, "partner": None,
                     "grand": False},
        "tricks": [0, 13, 0, 0], "made": True, "points": [0, 7, 0, 0]}
    # With the same cards, a call of a card nobody else holds is not allowed.
    data["deals"][0]["actions"][4]["call"] = "KS"
    assert error_at(data) == (0, 4)
    assert "your own" in message(data)
