"""Game records exported and replayed back: the spec's worked example replays to its
lines and exports back to itself; random matches over the rule variants (finished or
stopped part way) replay to their own scores.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from record_helpers import EXAMPLES, NAMES, RULE_VARIANTS, example, play_match, record_of

from app.rules import Match, RuleSet, parse_action
from app.rules.cards import CARD_IDS
from app.rules.record import FORMAT, match_to_record, replay_record


def expected_line(name: str) -> dict[str, Any]:
    line: dict[str, Any] = json.loads((EXAMPLES / f"{name}.replay.json").read_text())
    del line["file"]
    return line


# -- the worked example ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["seed000-made-8", "seed000-down-6"])
def test_examples_replay_to_their_lines(name: str) -> None:
    assert replay_record(example(name)) == expected_line(name)


def test_example_exports_back_to_itself() -> None:
    data = example("seed000-made-8")
    deal = data["deals"][0]
    rules = RuleSet.from_json(data["rules"])
    m = Match(rules, rng=random.Random(0), first_dealer=deal["dealer"], auto_redeal=False)
    hands = [sum(1 << CARD_IDS.index(c) for c in hand) for hand in deal["hands"]]
    m.start_deal(hands=hands, kitty=sum(1 << CARD_IDS.index(c) for c in deal["kitty"]))
    for raw in deal["actions"]:
        m.apply(raw["seat"], parse_action(raw))
    out: dict[str, Any] = match_to_record(m, data["players"])
    assert out["format"] == FORMAT and out["rules"] == {"preset": "guide"}
    assert out["players"] == data["players"]
    [mine] = out["deals"]
    assert mine["dealer"] == 0
    assert [sorted_discard(a) for a in mine["actions"]] == [
        sorted_discard(a) for a in deal["actions"]]
    assert [sorted(h) for h in mine["hands"]] == [sorted(h) for h in deal["hands"]]
    assert sorted(mine["kitty"]) == sorted(deal["kitty"])


def sorted_discard(action: dict[str, Any]) -> dict[str, Any]:
    """The action with its discard in a fixed order (a discard is a set of cards)."""
    if "discard" in action:
        return {**action, "discard": sorted(action["discard"])}
    return action


# -- round trips -----------------------------------------------------------------------


@pytest.mark.parametrize("options", RULE_VARIANTS, ids=lambda o: json.dumps(o))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_matches_replay_to_their_scores(options: dict[str, Any], seed: int) -> None:
    m = play_match(options, seed)
    assert m.finished
    result = replay_record(record_of(m))
    assert result["ok"] is True, result
    assert result["totals"] == m.totals
    assert result["finished"] is True and result["winners"] == list(m.winners)
    assert len(result["deals"]) == len(m.deals)
    for line, deal in zip(result["deals"], m.deals, strict=True):
        assert line["dealer"] == deal.dealer
        assert line["outcome"] == deal.outcome
        assert line["points"] == list(deal.points or ())
        assert line["made"] == deal.made
        assert line["tricks"] == deal.tricks_won
        if deal.outcome == "played":
            contract = line["contract"]
            assert contract is not None
            assert contract["bidder"] == deal.bidder and contract["bid"] == deal.contract_bid
            assert contract["partner"] == deal.partner and contract["grand"] == deal.grand
        else:
            assert line["contract"] is None


@pytest.mark.parametrize("options", RULE_VARIANTS[:4], ids=lambda o: o["preset"])
@pytest.mark.parametrize("stop", [0, 1, 5, 7, 30, 61])
def test_unfinished_matches_replay_as_far_as_they_go(options: dict[str, Any],
                                                     stop: int) -> None:
    m = play_match(options, 3, max_actions=stop)
    result = replay_record(record_of(m))
    assert result["ok"] is True, result
    assert result["totals"] == m.totals and result["finished"] is m.finished
    last_line, last = result["deals"][-1], m.deals[-1]
    assert last_line["tricks"] == last.tricks_won
    if last.phase != "over":
        assert last_line["outcome"] == "incomplete"
        assert last_line["points"] is None and last_line["made"] is None


def test_a_record_with_no_deals_is_an_empty_match() -> None:
    data = {"format": FORMAT, "rules": {"preset": "norsk"}, "players": NAMES[:3], "deals": []}
    assert replay_record(data) == {"ok": True, "deals": [], "totals": [0, 0, 0],
                                   "finished": False, "winners": []}


def test_match_to_record_needs_a_name_per_seat() -> None:
    m = Match(RuleSet.from_json({"preset": "guide"}), rng=random.Random(1))
    with pytest.raises(ValueError, match="4 names"):
        match_to_record(m, ["Ann", "Bo"])
