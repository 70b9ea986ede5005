"""A finished deal step by step (``app.rules.replay_steps``), against ``replay_record``:
random matches over every preset and the record variants, each deal's steps checked
against the engine's own deal and the result line ``amerikaner replay`` prints."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from record_helpers import RULE_VARIANTS, play_match, record_of

from app.rules import Match
from app.rules.cards import CARD_IDS, ids_of
from app.rules.record import match_to_record, replay_record
from app.rules.record_shape import record_rules
from app.rules.replay_steps import DealReplay, ReplayStep, deal_replay


def replays(m: Match) -> list[DealReplay]:
    """Every finished deal of ``m``'s record, as the browser is sent it."""
    data = record_of(m)
    line = replay_record(data)
    assert line["ok"] is True, line
    rules = record_rules(data)
    return [deal_replay(data, line["deals"], rules, i, None)
            for i, d in enumerate(line["deals"]) if d["outcome"] != "incomplete"]


def played_cards(step: ReplayStep) -> set[str]:
    return {c["card"] for c in step["trick"]}


@pytest.mark.parametrize("options", RULE_VARIANTS, ids=lambda o: json.dumps(o))
@pytest.mark.parametrize("seed", [1, 2])
def test_each_deal_steps_through_to_what_replay_reports(options: dict[str, Any],
                                                        seed: int) -> None:
    m = play_match(options, seed)
    data = record_of(m)
    line = replay_record(data)
    assert line["ok"] is True
    shown = replays(m)
    assert [r["deal"] for r in shown] == list(range(len(m.deals)))  # a finished match
    for replay, deal, raw in zip(shown, m.deals, data["deals"], strict=True):
        result = line["deals"][replay["deal"]]
        assert replay["deals"] == line["deals"]
        assert replay["players"] == data["players"] and replay["match"] is None
        steps = replay["steps"]
        assert len(steps) == 1 + len(raw["actions"])
        # as dealt: every hand, nobody acted
        first = steps[0]
        assert first["seat"] is None and first["action"] is None
        assert [sorted(h) for h in first["hands"]] == [sorted(h) for h in raw["hands"]]
        assert first["auction"] == [] and first["trick"] == [] and first["trick_number"] == 0
        # each step is the action of the record, in order
        assert [(s["seat"], s["action"]) for s in steps[1:]] == [
            (a["seat"], {k: v for k, v in a.items() if k != "seat"}) for a in raw["actions"]]
        # the last: what replay reports
        last = steps[-1]
        assert last["phase"] == "over"
        assert last["tricks_won"] == result["tricks"] == replay["tricks_won"]
        assert last["points"] == result["points"] == replay["points"]
        assert last["made"] == result["made"] == replay["made"]
        assert last["contract"] == result["contract"] == replay["contract"]
        assert replay["outcome"] == result["outcome"] == deal.outcome
        assert replay["dealer"] == result["dealer"]
        assert replay["kitty"] == ids_of(deal.kitty)
        # the tricks shown as they complete are the deal's tricks, won by their winners
        completed = [(s["trick"], s["trick_number"], s["trick_winner"]) for s in steps
                     if s["trick_winner"] is not None]
        assert [(cards, winner) for cards, _, winner in completed] == [
            (t["cards"], t["winner"]) for t in replay["tricks"]]
        assert [n for _, n, _ in completed] == list(range(1, len(deal.tricks) + 1))
        assert [t["winner"] for t in replay["tricks"]] == [w for _, _, w in deal.tricks]
        assert [[c["card"] for c in t["cards"]] for t in replay["tricks"]] == [
            [CARD_IDS[c] for c in cards] for _, cards, _ in deal.tricks]
        check_cards_move(steps, replay)


def check_cards_move(steps: list[ReplayStep], replay: DealReplay) -> None:
    """Between steps a hand loses exactly the card it played (or its discards, or gains
    the kitty), and the tricks won only grow, by one for the trick's winner."""
    for before, after in itertools.pairwise(steps):
        seat, action = after["seat"], after["action"]
        assert seat is not None and action is not None
        gone = [set(b) - set(a) for b, a in zip(before["hands"], after["hands"], strict=True)]
        came = [set(a) - set(b) for b, a in zip(before["hands"], after["hands"], strict=True)]
        if "play" in action:
            assert gone[seat] == {action["play"]}
            assert action["play"] in played_cards(after)
            assert not any(g for s, g in enumerate(gone) if s != seat)
            won = [a - b for a, b in zip(after["tricks_won"], before["tricks_won"],
                                         strict=True)]
            if after["trick_winner"] is None:
                assert not any(won)
            else:
                assert won[after["trick_winner"]] == 1 and sum(won) == 1
        elif "discard" in action:
            assert gone[seat] == set(action["discard"])
        else:  # a bid: cards move only when it ends the auction (the kitty to the bidder)
            assert not any(gone)
            contract = after["contract"]
            bidder = contract["bidder"] if contract is not None else None
            assert not any(c for s, c in enumerate(came) if s != bidder)
            if any(came):
                assert bidder is not None and came[bidder] == set(replay["kitty"])


@pytest.mark.parametrize("stop", [5, 40, 75, 130])
def test_an_unfinished_last_deal_is_not_replayed_but_the_ones_before_are(stop: int) -> None:
    m = play_match({"preset": "standard", "target": 30}, 4, max_actions=stop)
    data = json.loads(json.dumps(match_to_record(m, ["A", "B", "C", "D"])))
    line = replay_record(data)
    assert line["ok"] is True
    rules = record_rules(data)
    for i, result in enumerate(line["deals"]):
        if result["outcome"] == "incomplete":
            with pytest.raises(ValueError, match="not over"):
                deal_replay(data, line["deals"], rules, i)
        else:
            assert deal_replay(data, line["deals"], rules, i)["points"] == result["points"]


def test_the_contract_names_the_partner_from_the_call_on_only() -> None:
    m = play_match({"preset": "guide", "target": 20}, 5)
    for replay in replays(m):
        contract = replay["contract"]
        if replay["outcome"] != "played" or contract is None or contract["called"] is None:
            continue
        for step in replay["steps"]:
            shown = step["contract"]
            if step["phase"] in ("auction",):
                assert shown is None
            elif shown is not None and shown["called"] is None:
                assert shown["partner"] is None  # the call is not made yet
            elif shown is not None:
                assert shown["partner"] == contract["partner"]
        return
    pytest.fail("no played deal with a call in this match")
