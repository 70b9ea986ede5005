"""Seat views (docs/spec/PROTOCOL.md "state" view, docs/spec/RULES.md): what each seat and a
spectator may see."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from helpers import NORSK_HANDS, act, bids, current_deal, exact_match, ids, points_of, rules
from random_play import play_deal, random_action
from view_checks import check_view

from app.rules import Match, SeatView
from app.rules.cards import card_id, parse_card
from app.rules.view import WireMemo

REQUIRED = {"phase", "you", "turn", "hand", "legal", "contract", "trick", "tricks_won",
            "scores"}
SEATS: list[int | None] = [0, 1, 2, 3, None]


def wire(m: Match, seat: int | None) -> dict[str, Any]:
    return dict(SeatView(m, seat).to_wire())


def test_the_view_has_the_protocol_fields_and_is_json() -> None:
    m = exact_match(rules(), dealer=0)
    for seat in SEATS:
        view = wire(m, seat)
        assert set(view) >= REQUIRED
        assert json.loads(json.dumps(view)) == view
        assert view["phase"] == "auction" and view["turn"] == 1 and view["you"] == seat
        assert view["contract"] is None and view["trick"] == []
        assert view["tricks_won"] == [0, 0, 0, 0] and view["scores"] == [0, 0, 0, 0]


def test_a_view_before_the_first_deal() -> None:
    m = Match(rules(), rng=random.Random(0), first_dealer=0)
    for seat in SEATS:
        view = wire(m, seat)
        assert view["hand"] == [] and view["legal"] == [] and view["turn"] is None
        assert view["contract"] is None and view["kitty"] is None


def test_own_hand_only_and_legal_only_for_the_seat_to_act() -> None:
    m = exact_match(rules(), dealer=0)
    deal = current_deal(m)
    for seat in range(4):
        view = wire(m, seat)
        assert set(view["hand"]) == ids(deal.hands[seat]) and len(view["hand"]) == 12
        assert view["kitty"] is None and view["discards"] is None
        if seat == 1:
            assert view["legal"] == [{"bid": "pass"}, *({"bid": b} for b in range(7, 14)),
                                     {"bid": "amerikaner"}]
        else:
            assert view["legal"] == []
        check_view(m, seat)


def test_a_spectator_has_no_hand_and_no_actions() -> None:
    m = exact_match(rules(), dealer=0)
    rng = random.Random(1)
    while m.turn is not None:
        view = wire(m, None)
        assert view["you"] is None and view["hand"] == [] and view["legal"] == []
        assert SeatView(m, None).hand == 0 and SeatView(m, None).legal == ()
        m.apply(m.turn, random_action(m, rng))


def test_discard_is_listed_once_with_its_count() -> None:
    m = exact_match(rules(preset="guide"), dealer=0)
    bids(m, 6, "pass", "pass", "pass")
    assert wire(m, 1)["legal"] == [{"discard": 4}]
    assert wire(m, 1)["phase"] == "discard"
    assert len(wire(m, 1)["hand"]) == 16
    assert all(wire(m, s)["legal"] == [] for s in (0, 2, 3, None))


def test_the_kitty_is_the_bidders_after_the_auction_and_discards_stay_private() -> None:
    m = exact_match(rules(), kitty="AH AS KS QS", dealer=0)
    bids(m, 7, "pass", "pass", "pass")
    assert set(wire(m, 1)["kitty"]) == {"AH", "AS", "KS", "QS"}
    assert all(wire(m, s)["kitty"] is None for s in (0, 2, 3, None))
    act(m, 1, discard=["AH", "AS", "KS", "QS"])
    assert set(wire(m, 1)["discards"]) == {"AH", "AS", "KS", "QS"}
    assert SeatView(m, 1).discards == current_deal(m).discards
    for seat in (0, 2, 3, None):
        assert wire(m, seat)["discards"] is None and SeatView(m, seat).discards is None
        check_view(m, seat)


def test_the_partner_is_hidden_until_the_called_card_is_played() -> None:
    m = exact_match(rules(preset="norsk"), fixed=NORSK_HANDS, dealer=0)
    bids(m, 7, "pass", "pass", "pass")
    assert wire(m, 1)["phase"] == "lead"
    lead = wire(m, 1)["legal"]
    assert {"play": "4H", "call": "AH"} in lead and all("call" in a for a in lead)
    act(m, 1, play="4H", call="AH")
    for seat in (0, 1, 3, None):
        contract = wire(m, seat)["contract"]
        assert contract == {"bidder": 1, "bid": 7, "trump": "H", "called": "AH",
                            "partner": None, "grand": False}
        assert wire(m, seat)["you_are_partner"] is False and SeatView(m, seat).partner is None
    holder = wire(m, 2)
    assert holder["contract"]["partner"] == 2 and holder["you_are_partner"] is True
    assert holder["legal"] == [{"play": "AH"}]
    assert wire(m, 0)["trick"] == [{"seat": 1, "card": "4H"}]
    act(m, 2, play="AH")
    for seat in SEATS:
        assert wire(m, seat)["contract"]["partner"] == 2
        assert SeatView(m, seat).partner == 2
        assert wire(m, seat)["trick"] == [{"seat": 1, "card": "4H"}, {"seat": 2, "card": "AH"}]


def test_public_facts_of_a_finished_deal() -> None:
    m = exact_match(rules(match="deals:2"), dealer=0)
    play_deal(m, random.Random(2))
    deal = current_deal(m)
    assert deal.outcome in ("played", "minus_round", "void")
    view = wire(m, None)
    assert view["phase"] == "deal_over" and view["turn"] is None
    assert view["scores"] == m.totals and view["tricks_won"] == deal.tricks_won
    assert view["result"]["points"] == list(points_of(deal))
    last = view["last_trick"]
    leader, cards, winner = deal.tricks[-1]
    assert [c["card"] for c in last["cards"]] == [card_id(c) for c in cards]
    assert last["cards"][0]["seat"] == leader and last["winner"] == winner


@pytest.mark.parametrize("options", [
    {"preset": "standard", "show_kitty": True},
    {"preset": "guide", "players": 5, "grand": True},
    {"preset": "norsk", "players": 3, "jokers": 2, "all_pass": "minus_round"},
    {"preset": "fullstokk", "no_callable": "play_alone", "led_two_wins": True},
])
def test_no_view_leaks_through_random_deals(options: dict[str, object]) -> None:
    rs = rules(**options, match="deals:3")
    for seed in range(4):
        m = Match(rs, rng=random.Random(seed), first_dealer=seed % rs.options.players)
        m.start_deal()
        rng = random.Random(seed)
        while not m.finished:
            for seat in [*range(rs.options.players), None]:
                check_view(m, seat)
            if m.turn is None:
                m.start_deal()
            else:
                m.apply(m.turn, random_action(m, rng))
        assert wire(m, None)["phase"] == "match_over"
        assert wire(m, None)["winners"] == list(m.winners)


def test_card_ids_of_the_hand_are_the_deals() -> None:
    m = exact_match(rules(preset="norsk"), fixed=NORSK_HANDS, dealer=0)
    assert sorted(parse_card(c) for c in wire(m, 3)["hand"]) == sorted(
        parse_card(c) for c in NORSK_HANDS[3].split())


@pytest.mark.parametrize("options", [
    {"preset": "standard"},
    {"preset": "guide", "players": 5, "grand": True},
    {"preset": "norsk", "players": 3, "jokers": 2, "all_pass": "minus_round"},
])
def test_views_built_with_a_memo_and_a_shared_public_view_equal_views_built_alone(
        options: dict[str, object]) -> None:
    """What a server does (one public view per moment, a memo kept across moments) gives
    every seat exactly the view made from scratch; the memo stays bounded."""
    rs = rules(**options, match="deals:4")
    memo = WireMemo()
    for seed in range(3):
        m = Match(rs, rng=random.Random(seed), first_dealer=0)
        m.start_deal()
        rng = random.Random(seed)
        while not m.finished:
            public = SeatView(m, None).to_wire(None, memo)
            assert json.dumps(public) == json.dumps(wire(m, None))
            for seat in range(rs.options.players):
                shared = SeatView(m, seat).to_wire(public, memo)
                assert json.loads(json.dumps(shared)) == wire(m, seat)
            assert len(memo._hands) <= WireMemo.LIMIT
            if m.turn is None:
                m.start_deal()
            else:
                m.apply(m.turn, random_action(m, rng))
