"""Broken game records within one deal: the made-8 example with one thing changed,
each rule of docs/spec/GAME-RECORD.md in turn (the header, the deal, each action), must
fail at exactly the deal and action that break it, with a short message saying why;
replaying never changes the record.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from record_helpers import (
    NAMES,
    action_at,
    all_pass,
    changed,
    deal0,
    error_at,
    made8,
    message,
    play_match,
    record_of,
)

from app.rules.record import replay_record

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
