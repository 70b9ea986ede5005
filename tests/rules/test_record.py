"""Game records: exporting matches (``match_to_record``) and replaying records
(``replay_record``) against docs/spec/GAME-RECORD.md.

Valid records come from the spec's worked example and from random matches played by the
random bot; broken ones are those records with one thing changed, each rule of the spec
in turn, and must fail at exactly the deal and action that break it.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from example_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.bots import choose_action
from app.rules import AMERIKANER, Match, RuleSet, SeatView, parse_action
from app.rules.cards import CARD_IDS
from app.rules.record import FORMAT, match_to_record, replay_record
from app.rules.replay import ReplayDone

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "spec" / "examples"
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]

# Rule sets for random matches: every preset, 3 and 5 seats, and each option that changes
# what a record may hold (voids, minus rounds, grand, jokers, alone, match ends).
RULE_VARIANTS: list[dict[str, Any]] = [
    {"preset": "standard", "target": 20},
    {"preset": "guide", "target": 20},
    {"preset": "norsk", "target": 20},
    {"preset": "fullstokk", "target": 20},
    {"preset": "standard", "players": 3, "match": "deals:4"},
    {"preset": "guide", "players": 5, "match": "deals:4"},
    {"preset": "norsk", "players": 5, "jokers": 2, "match": "deals:4"},
    {"preset": "standard", "all_pass": "minus_round", "match": "deals:5"},
    {"preset": "guide", "all_pass": "redeal_next_dealer", "grand": True, "match": "deals:4"},
    {"preset": "fullstokk", "jokers": 1, "led_two_wins": True, "match": "deals:4"},
    {"preset": "standard", "grand": True, "show_kitty": True, "bidder_double": True,
     "match": "deals:4"},
    {"preset": "standard", "kitty": 0, "no_callable": "play_alone", "amerikaner_points": 30,
     "match": "single_deal"},
]


def replayed(data: object) -> ReplayDone:
    """``replay_record``'s line for a record that replays."""
    line = replay_record(data)
    assert line["ok"] is True, line
    return line


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return data


def expected_line(name: str) -> dict[str, Any]:
    line: dict[str, Any] = json.loads((EXAMPLES / f"{name}.replay.json").read_text())
    del line["file"]
    return line


def play_match(options: dict[str, Any], seed: int, max_actions: int | None = None) -> Match:
    """A match between random bots (auto-redeal on, as a room plays), stopped after
    ``max_actions`` actions when given."""
    rng = random.Random(seed)
    m = Match(RuleSet.from_json(options), rng=rng)
    m.start_deal()
    done = 0
    while not m.finished and (max_actions is None or done < max_actions):
        seat = m.turn
        if seat is None:  # a scored deal is over: a room deals the next one
            m.start_deal()
            continue
        legal = m.legal_actions()
        if AMERIKANER in legal and rng.random() < 0.03:
            # The random bot bids Amerikaner only when nothing else is left to bid.
            m.apply(seat, AMERIKANER)
        else:
            m.apply(seat, choose_action("random", SeatView(m, seat), rng))
        done += 1
        assert done < 20000, "the match does not end"
    return m


def record_of(m: Match) -> dict[str, Any]:
    """The record as a file would hold it (through JSON, so nothing Python-only slips in)."""
    data: dict[str, Any] = json.loads(json.dumps(match_to_record(m, NAMES[:m.n])))
    return data


def error_at(data: object) -> tuple[int | None, int | None]:
    result = replay_record(data)
    assert result["ok"] is False, result
    error = result["error"]
    assert set(error) == {"deal", "action", "message"}
    assert isinstance(error["message"], str) and error["message"]
    return error["deal"], error["action"]


def message(data: object) -> str:
    result = replay_record(data)
    assert result["ok"] is False, result
    text: str = result["error"]["message"]
    return text


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


# -- what the result line says ---------------------------------------------------------


def made8() -> dict[str, Any]:
    return example("seed000-made-8")


def with_actions(data: dict[str, Any], count: int) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out["deals"][0]["actions"] = out["deals"][0]["actions"][:count]
    return out


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


def all_pass(dealer: int = 0) -> list[dict[str, Any]]:
    return [{"seat": (dealer + 1 + k) % 4, "bid": "pass"} for k in range(4)]


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


# -- broken records: where they break --------------------------------------------------


def changed(path: list[Any], value: Any) -> dict[str, Any]:
    """The made-8 example with the value at ``path`` replaced (``...``: deleted)."""
    data = made8()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


HEADER_BREAKS: list[tuple[str, object]] = [
    ("not an object", [1, 2]),
    ("no format", changed(["format"], ...)),
    ("other format", changed(["format"], "amerikaner-record/2")),
    ("unknown key", {**made8(), "date": "today"}),
    ("no rules", changed(["rules"], ...)),
    ("rules not an object", changed(["rules"], "guide")),
    ("unknown preset", changed(["rules"], {"preset": "bridge"})),
    ("unknown option", changed(["rules"], {"preset": "guide", "jokers_wild": True})),
    ("bad option value", changed(["rules"], {"preset": "guide", "target": "52"})),
    ("seats disagree", changed(["rules"], {"preset": "guide", "players": 5})),
    ("too many names", changed(["players"], [*NAMES, "Flo"])),
    ("names not strings", changed(["players"], ["Ann", "Bo", 3, "Di"])),
    ("players not a list", changed(["players"], "Ann,Bo,Cy,Di")),
    ("no deals", changed(["deals"], ...)),
    ("deals not a list", changed(["deals"], {"0": {}})),
]


@pytest.mark.parametrize(("what", "data"), HEADER_BREAKS, ids=[w for w, _ in HEADER_BREAKS])
def test_a_wrong_format_rules_or_players_is_not_in_any_deal(what: str, data: object) -> None:
    assert error_at(data) == (None, None)


def deal0(key: str, value: Any) -> dict[str, Any]:
    return changed(["deals", 0, key], value)


def moved(card: str, source: int | str, dest: int | str | None) -> dict[str, Any]:
    """The example with ``card`` taken from a hand (or ``"kitty"``) and put into another
    (``None``: nowhere)."""
    data = made8()
    deal = data["deals"][0]

    def place(where: int | str) -> list[str]:
        cards: list[str] = deal["kitty"] if where == "kitty" else deal["hands"][where]
        return cards

    place(source).remove(card)
    if dest is not None:
        place(dest).append(card)
    return data


def copied(card: str, dest: int | str) -> dict[str, Any]:
    data = made8()
    deal = data["deals"][0]
    (deal["kitty"] if dest == "kitty" else deal["hands"][dest]).append(card)
    return data


DEAL_BREAKS: list[tuple[str, object, str]] = [
    ("no kitty", deal0("kitty", ...), "kitty"),
    ("no actions", deal0("actions", ...), "actions"),
    ("unknown key", deal0("comment", "nice"), "comment"),
    ("dealer a string", deal0("dealer", "0"), "dealer"),
    ("dealer a bool", deal0("dealer", False), "dealer"),
    ("dealer a float", deal0("dealer", 0.0), "dealer"),
    ("dealer no seat", deal0("dealer", 4), "dealer"),
    ("three hands", deal0("hands", made8()["deals"][0]["hands"][:3]), "4 hands"),
    ("not a card", deal0("kitty", ["5H", "6C", "7H", "QQ"]), "QQ"),
    ("lower case card", deal0("kitty", ["5H", "6C", "7H", "qc"]), "qc"),
    ("card twice", copied("AS", 1), "AS is dealt twice"),
    ("card missing", moved("AS", 0, None), "AS not dealt"),
    ("hand too big", moved("AS", 0, 1), "seat 0 was dealt 11 cards"),
    ("kitty too small", moved("QC", "kitty", 3), "seat 3 was dealt 13"),
    ("joker", copied("JK1", "kitty"), "without jokers"),
    ("actions not a list", deal0("actions", {"seat": 1, "bid": 7}), "actions"),
]


@pytest.mark.parametrize(("what", "data", "words"), DEAL_BREAKS,
                         ids=[w for w, _, _ in DEAL_BREAKS])
def test_a_wrong_deal_breaks_at_the_deal(what: str, data: object, words: str) -> None:
    assert error_at(data) == (0, None)
    assert words in message(data)


def test_a_removed_two_may_not_be_dealt() -> None:
    # 5 players with a kitty: 2C 2D 2H are out of the deck (docs/spec/RULES.md 3.1).
    m = play_match({"preset": "standard", "players": 5, "match": "deals:1"}, 4)
    data = record_of(m)
    hand = data["deals"][0]["hands"][0]
    hand[0] = "2C"
    assert error_at(data) == (0, None)
    assert "2C is not in the deck" in message(data)


def action_at(index: int, action: object) -> dict[str, Any]:
    return changed(["deals", 0, "actions", index], action)


ACTION_BREAKS: list[tuple[str, object, int, str]] = [
    ("not an object", action_at(0, [1, 7]), 0, "object"),
    ("no seat", action_at(0, {"bid": 7}), 0, "no seat"),
    ("seat a string", action_at(0, {"seat": "1", "bid": 7}), 0, "seat"),
    ("seat a bool", action_at(0, {"seat": True, "bid": 7}), 0, "seat"),
    ("seat a float", action_at(0, {"seat": 1.0, "bid": 7}), 0, "seat"),
    ("seat out of range", action_at(0, {"seat": 4, "bid": 7}), 0, "seat"),
    ("not the turn", action_at(0, {"seat": 2, "bid": 7}), 0, "seat 1's turn"),
    ("bid a string", action_at(0, {"seat": 1, "bid": "7"}), 0, "bid"),
    ("bid a float", action_at(0, {"seat": 1, "bid": 7.0}), 0, "bid"),
    ("bid a bool", action_at(0, {"seat": 1, "bid": True}), 0, "bid"),
    ("bid too low", action_at(0, {"seat": 1, "bid": 5}), 0, "lowest bid is 6"),
    ("bid too high", action_at(0, {"seat": 1, "bid": 13}), 0, "highest bid is 12"),
    ("unknown key", action_at(0, {"seat": 1, "bid": 7, "note": "x"}), 0, "note"),
    ("no action", action_at(0, {"seat": 1}), 0, "bid, discard or play"),
    ("play in auction", action_at(1, {"seat": 2, "play": "AH"}), 1, "bid or pass"),
    ("short discard", action_at(4, {"seat": 1, "discard": ["9S", "5H", "7C"]}), 4,
     "exactly 4"),
    ("discard not held", action_at(4, {"seat": 1, "discard": ["9S", "5H", "7C", "AS"]}), 4,
     "your hand"),
    ("call null", action_at(5, {"seat": 1, "play": "4H", "call": None}), 5, "null"),
    ("no call", action_at(5, {"seat": 1, "play": "4H"}), 5, "call a heart"),
    ("call own card", action_at(5, {"seat": 1, "play": "4H", "call": "KH"}), 5, "your own"),
    ("call other suit", action_at(5, {"seat": 1, "play": "4H", "call": "AS"}), 5, "heart"),
    ("call discarded", action_at(5, {"seat": 1, "play": "4H", "call": "5H"}), 5, "live"),
    ("grand not allowed", action_at(5, {"seat": 1, "play": "4H", "call": "AH", "grand": True}),
     5, "grand is not allowed"),
    ("grand false", action_at(5, {"seat": 1, "play": "4H", "call": "AH", "grand": False}), 5,
     "grand"),
    ("grand no call", action_at(5, {"seat": 1, "play": "4H", "grand": True}), 5, "grand"),
    ("call later", action_at(6, {"seat": 2, "play": "AH", "call": "KH"}), 6,
     "first lead"),
    ("grand later", action_at(6, {"seat": 2, "play": "AH", "grand": True}), 6, "first lead"),
    ("called card held back", action_at(6, {"seat": 2, "play": "2S"}), 6,
     "play the Ace of hearts"),
    ("not following", action_at(8, {"seat": 0, "play": "7D"}), 8, "must follow hearts"),
    ("card not held", action_at(8, {"seat": 0, "play": "KH"}), 8, "not in your hand"),
    ("not a card", action_at(8, {"seat": 0, "play": "10H"}), 8, "10H"),
    ("card twice", action_at(12, {"seat": 1, "play": "4H"}), 12, "not in your hand"),
]


@pytest.mark.parametrize(("what", "data", "index", "words"), ACTION_BREAKS,
                         ids=[w for w, *_ in ACTION_BREAKS])
def test_a_wrong_action_breaks_at_the_action(what: str, data: object, index: int,
                                             words: str) -> None:
    assert error_at(data) == (0, index)
    assert words in message(data)


def test_messages_name_the_seat_and_what_it_did() -> None:
    text = message(action_at(8, {"seat": 0, "play": "7D"}))
    assert text == "seat 0 plays 7D: you must follow hearts"
    assert message(action_at(5, {"seat": 1, "play": "4H"})).startswith(
        "seat 1 leads 4H without a call: ")


def test_an_action_after_the_last_trick() -> None:
    data = made8()
    actions = data["deals"][0]["actions"]
    assert len(actions) == 4 + 1 + 48  # bids, discard, 12 tricks of 4
    actions.append({"seat": 0, "play": "AS"})
    assert error_at(data) == (0, 53)
    assert "already over" in message(data)


def test_an_action_after_a_void_deal() -> None:
    data = deal0("actions", [*all_pass(), {"seat": 1, "bid": 7}])
    assert error_at(data) == (0, 4)
    assert "void" in message(data)


def test_a_call_in_an_amerikaner_contract() -> None:
    data = deal0("actions", [{"seat": 1, "bid": "amerikaner"},
                             {"seat": 1, "discard": ["3C", "4D", "7C", "8S"]},
                             {"seat": 1, "play": "QS", "call": "AS"}])
    assert error_at(data) == (0, 2)
    assert "Amerikaner contract has no call" in message(data)


def test_a_call_in_a_minus_round() -> None:
    data = deal0("actions", [*all_pass(), {"seat": 1, "play": "4H", "call": "AH"}])
    data["rules"]["all_pass"] = "minus_round"
    assert error_at(data) == (0, 4)
    assert "minus round has no call" in message(data)


def test_play_alone_is_a_lead_without_call_only_when_nothing_is_live() -> None:
    # Under play_alone a first lead without a call is still wrong while its suit has a
    # live card.
    data = action_at(5, {"seat": 1, "play": "4H"})
    data["rules"]["no_callable"] = "play_alone"
    assert error_at(data) == (0, 5)


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


def test_huge_values_give_short_messages() -> None:
    data = action_at(8, {"seat": 0, "play": "X" * 100_000})
    assert error_at(data) == (0, 8)
    assert len(message(data)) <= 300
    for action in ({"seat": 1, "bid": 10 ** 1000}, {"seat": 1, "bid": 10 ** 5000},
                   {"seat": 10 ** 5000, "bid": 7}):
        # 10 ** 5000 has too many digits for str(): the message must not need them.
        data = action_at(0, action)
        assert error_at(data) == (0, 0)
        assert len(message(data)) <= 300


def test_replay_does_not_change_the_record() -> None:
    data = made8()
    before = copy.deepcopy(data)
    replay_record(data)
    assert data == before


# -- properties ------------------------------------------------------------------------

RECORDS = [record_of(play_match(RULE_VARIANTS[k], 10 + k)) for k in (0, 1, 4, 5, 8, 9)]

cards = st.sampled_from(CARD_IDS)
action_values = st.fixed_dictionaries(
    {"seat": st.one_of(st.integers(-1, 5), st.booleans(), st.just("1"), st.just(1.0))},
    optional={
        "bid": st.one_of(st.integers(-2, 14), st.sampled_from(["pass", "amerikaner", "7"]),
                         st.none(), st.floats(6, 8)),
        "play": st.one_of(cards, st.just("XX")),
        "call": st.one_of(cards, st.none()),
        "grand": st.one_of(st.booleans(), st.just(1)),
        "discard": st.lists(cards, max_size=5),
        "extra": st.integers(),
    },
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=st.sampled_from(RECORDS), where=st.floats(0, 1, exclude_max=True),
       action=action_values)
def test_changing_one_action_gives_ok_or_a_clean_error(record: dict[str, Any], where: float,
                                                       action: dict[str, Any]) -> None:
    data = copy.deepcopy(record)
    places = [(i, j) for i, deal in enumerate(data["deals"])
              for j in range(len(deal["actions"]))]
    i, j = places[int(where * len(places))]
    data["deals"][i]["actions"][j] = action
    result = replay_record(data)
    json.dumps(result)
    if result["ok"]:
        return
    error = result["error"]
    # Nothing before the changed action can be wrong.
    assert error["deal"] is not None and error["deal"] >= i
    if error["deal"] == i:
        assert error["action"] is not None and error["action"] >= j


@settings(max_examples=examples(100), deadline=None)
@given(record=st.sampled_from(RECORDS), data=st.data())
def test_swapping_two_dealt_cards_gives_ok_or_a_clean_error(record: dict[str, Any],
                                                             data: st.DataObject) -> None:
    rec = copy.deepcopy(record)
    i = data.draw(st.integers(0, len(rec["deals"]) - 1))
    hands = rec["deals"][i]["hands"]
    a, b = (data.draw(st.integers(0, len(hands) - 1)) for _ in range(2))
    x = data.draw(st.integers(0, len(hands[a]) - 1))
    y = data.draw(st.integers(0, len(hands[b]) - 1))
    hands[a][x], hands[b][y] = hands[b][y], hands[a][x]
    result = replay_record(rec)
    if not result["ok"]:
        deal = result["error"]["deal"]
        assert deal is not None and deal >= i


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20,
)


@settings(max_examples=examples(200), deadline=None)
@given(value=json_values)
def test_any_json_value_gives_a_result_line(value: object) -> None:
    result = replay_record(value)
    assert result["ok"] is False
    assert result["error"]["deal"] is None and result["error"]["action"] is None


@settings(max_examples=examples(200), deadline=None)
@given(key=st.sampled_from(["format", "rules", "players", "deals"]), value=json_values)
def test_any_header_value_gives_a_result_line(key: str, value: object) -> None:
    data = made8()
    data[key] = value
    result = replay_record(data)
    json.dumps(result)
    if not result["ok"]:
        assert result["error"]["deal"] in (None, 0)


@settings(max_examples=examples(200), deadline=None)
@given(key=st.sampled_from(["dealer", "hands", "kitty", "actions"]), value=json_values)
def test_any_deal_value_gives_a_result_line(key: str, value: object) -> None:
    data = deal0(key, value)
    result = replay_record(data)
    json.dumps(result)
    # An empty action list is a valid unfinished deal; the dealer of a first deal is free.
    assert result["ok"] is False or key == "actions" or (key == "dealer" and value in (0, 1, 2, 3)
                                                        and type(value) is int)
