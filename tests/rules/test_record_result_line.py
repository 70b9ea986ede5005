"""What ``replay_record``'s result line says of a record that replays: the contract
as far as the auction and the call have gone, void deals, grand, Amerikaner, and a
single-deal match's winners.
"""

from __future__ import annotations

import copy

from record_helpers import all_pass, made8, with_actions

from app.rules.record import replay_record
from app.rules.replay import ReplayDone


def replayed(data: object) -> ReplayDone:
    """``replay_record``'s line for a record that replays."""
    line = replay_record(data)
    assert line["ok"] is True, line
    return line


def test_an_unfinished_auction_has_no_contract() -> None:
    result = replay_record(with_actions(made8(), 2))
    assert result["ok"] is True
    assert result["deals"] == [{"dealer": 0, "outcome": "incomplete", "contract": None,
                                "tricks": [0, 0, 0, 0], "made": None, "points": None}]
    assert result["totals"] == [0, 0, 0, 0] and result["finished"] is False


def test_the_contract_shows_from_the_auction_on_and_the_partner_from_the_call() -> None:
    before_lead = replayed(with_actions(made8(), 5))["deals"][0]
    assert before_lead["contract"] == {"bidder": 1, "bid": 7, "trump": None, "called": None,
                                       "partner": None, "grand": False}
    after_lead = replayed(with_actions(made8(), 6))["deals"][0]
    assert after_lead["contract"] == {"bidder": 1, "bid": 7, "trump": "H", "called": "AH",
                                      "partner": 2, "grand": False}
    after_trick = replayed(with_actions(made8(), 9))["deals"][0]
    assert after_trick["tricks"] == [0, 0, 1, 0] and after_trick["outcome"] == "incomplete"


def test_a_void_deal_scores_zero_and_the_same_dealer_deals_again() -> None:
    data = made8()
    void = copy.deepcopy(data["deals"][0])
    void["actions"] = all_pass()
    data["deals"].insert(0, void)
    result = replay_record(data)
    assert result["ok"] is True, result
    assert result["deals"][0] == {"dealer": 0, "outcome": "void", "contract": None,
                                  "tricks": [0, 0, 0, 0], "made": None, "points": [0, 0, 0, 0]}
    assert result["totals"] == [3, 7, 7, 1]


def test_grand_has_no_trump_and_a_partner() -> None:
    data = with_actions(made8(), 9)  # without trump, later tricks go elsewhere
    data["rules"]["grand"] = True
    data["deals"][0]["actions"][5]["grand"] = True
    result = replay_record(data)
    assert result["ok"] is True, result
    contract = result["deals"][0]["contract"]
    assert contract == {"bidder": 1, "bid": 7, "trump": None, "called": "AH", "partner": 2,
                        "grand": True}


def test_an_amerikaner_contract() -> None:
    data = made8()
    data["deals"][0]["actions"] = [
        {"seat": 1, "bid": "amerikaner"},
        {"seat": 1, "discard": ["3C", "4D", "7C", "8S"]},
        {"seat": 1, "play": "QS"},
    ]
    result = replay_record(data)
    assert result["ok"] is True, result
    assert result["deals"][0]["contract"] == {"bidder": 1, "bid": "amerikaner", "trump": None,
                                              "called": None, "partner": None, "grand": False}


def test_a_single_deal_match_finishes_with_its_winners() -> None:
    data = made8()
    data["rules"]["match"] = "single_deal"
    result = replayed(data)
    assert result["finished"] is True and result["winners"] == [1, 2]
