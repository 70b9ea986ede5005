"""The kitty exchange (docs/spec/RULES.md section 5) and the discard convention of section 6.4."""

from __future__ import annotations

import pytest
from helpers import act, bids, cards, current_deal, exact_match, ids, legal_json, rules
from random_play import snapshot

from app.rules import (
    ActionError,
    BadActionShape,
    IllegalDiscard,
    IllegalLead,
    Match,
    NotYourTurn,
    SeatView,
    WrongPhase,
    events,
    parse_action,
)

KITTY = "AH AS KS QS"
HEARTS_12 = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"


def won_by_seat_1(rs_options: dict[str, object], contract: int | str = 7,
                  fixed: dict[int, str] | None = None, kitty: str = KITTY) -> Match:
    """Seat 1 (left of dealer 0) wins the auction with ``contract``; the others pass."""
    m = exact_match(rules(**rs_options), fixed=fixed, kitty=kitty, dealer=0)
    bids(m, contract)
    if contract != "amerikaner":  # Amerikaner ends the auction at once
        bids(m, "pass", "pass", "pass")
    return m


def test_the_bidder_takes_the_kitty() -> None:
    m = exact_match(rules(), kitty=KITTY, dealer=0)
    dealt = current_deal(m).hands[1]
    bids(m, 7, "pass", "pass")
    out = m.apply(0, parse_action({"bid": "pass"}))
    assert events.KittyTaken(1) in out and not any(isinstance(e, events.KittyShown) for e in out)
    deal = current_deal(m)
    assert deal.hands[1] == dealt | cards(KITTY) and deal.hands[1].bit_count() == 16
    assert m.phase == "discard" and m.turn == 1
    assert legal_json(m, 1) == [{"discard": 4}]
    assert all(legal_json(m, s) == [] for s in (0, 2, 3))


@pytest.mark.parametrize(("discard", "error"), [
    (["AS", "KS", "QS"], IllegalDiscard),
    (["AS", "KS", "QS", "AH", "2C"], IllegalDiscard),
    ([], IllegalDiscard),
    (["AS", "KS", "QS", "AS"], BadActionShape),
    (["AS", "KS", "QS", "XX"], BadActionShape),
])
def test_discard_exactly_k_cards(discard: list[str], error: type[Exception]) -> None:
    m = won_by_seat_1({})
    before = snapshot(m)
    with pytest.raises(error):
        act(m, 1, discard=discard)
    assert snapshot(m) == before


def test_discard_only_own_cards() -> None:
    m = won_by_seat_1({}, fixed={2: "2C"})
    before = snapshot(m)
    with pytest.raises(IllegalDiscard, match="from your hand"):
        act(m, 1, discard=["AS", "KS", "QS", "2C"])
    assert snapshot(m) == before


def test_other_actions_and_seats_in_the_discard_phase() -> None:
    m = won_by_seat_1({})
    before = snapshot(m)
    for seat, action, error in [(1, {"play": "AS"}, WrongPhase),
                                (1, {"play": "AS", "call": "JS"}, WrongPhase),
                                (1, {"bid": 8}, WrongPhase),
                                (2, {"discard": ["AS", "KS", "QS", "AH"]}, NotYourTurn)]:
        with pytest.raises(error):
            m.apply(seat, parse_action(action))
        assert snapshot(m) == before


def test_the_listed_discard_entry_itself_is_refused_and_changes_nothing() -> None:
    m = won_by_seat_1({})
    entry = m.legal_actions(1)[0]
    assert entry.to_json() == {"discard": 4}
    before = snapshot(m)
    with pytest.raises(ActionError):
        m.apply(1, entry)  # "discard any 4" is a description, not a discard
    assert snapshot(m) == before


def test_discards_may_be_kitty_cards_and_leave_the_deal() -> None:
    m = won_by_seat_1({})
    hand = current_deal(m).hands[1]
    act(m, 1, discard=["AH", "AS", "KS", "QS"])  # exactly the kitty back
    deal = current_deal(m)
    assert deal.discards == cards(KITTY)
    assert deal.hands[1] == hand & ~cards(KITTY) and deal.hands[1].bit_count() == 12
    assert all(not h & cards(KITTY) for h in deal.hands)
    assert m.phase == "lead" and m.turn == 1


def test_a_discard_of_own_and_kitty_cards() -> None:
    m = won_by_seat_1({}, fixed={1: "2C 3C"})
    act(m, 1, discard=["2C", "3C", "AS", "KS"])
    assert ids(current_deal(m).discards) == {"2C", "3C", "AS", "KS"}
    assert ids(current_deal(m).hands[1]) >= {"AH", "QS"}


@pytest.mark.parametrize("show", [True, False])
def test_show_kitty_shows_it_to_everyone(show: bool) -> None:
    m = exact_match(rules(show_kitty=show), kitty=KITTY, dealer=0)
    views = [*range(4), None]
    assert all(SeatView(m, s).to_wire()["kitty"] is None for s in views)  # not before
    bids(m, 7, "pass", "pass")
    out = m.apply(0, parse_action({"bid": "pass"}))
    shown = [e for e in out if isinstance(e, events.KittyShown)]
    assert bool(shown) == show
    if show:
        assert ids(sum(1 << c for c in shown[0].cards)) == ids(cards(KITTY))
    for seat in views:
        kitty = SeatView(m, seat).to_wire()["kitty"]
        if show or seat == 1:
            assert kitty is not None and set(kitty) == ids(cards(KITTY))
        else:
            assert kitty is None
    act(m, 1, discard=["AS", "KS", "QS", "AH"])
    for seat in views:
        wire = SeatView(m, seat).to_wire()
        assert (wire["discards"] is not None) == (seat == 1)  # discards: the bidder only
        assert (wire["kitty"] is not None) == (show or seat == 1)


def test_amerikaner_takes_and_discards_then_leads_anything() -> None:
    m = won_by_seat_1({"preset": "guide"}, contract="amerikaner", fixed={1: HEARTS_12})
    assert m.phase == "discard"
    act(m, 1, discard=["AS", "KS", "QS", "2H"])  # no call to protect in an Amerikaner
    assert m.phase == "play" and m.turn == 1
    assert {a["play"] for a in legal_json(m)} == ids(current_deal(m).hands[1])
    assert all(set(a) == {"play"} for a in legal_json(m))


# RULES 6.4 convention: with no_callable=redeal a discard may not leave the bidder without
# a legal first lead when the hand before discarding had one.
# Seat 1 holds all 13 hearts (no heart is live) and three spades (live: the other ten).


def test_redeal_convention_refuses_a_discard_that_kills_every_lead() -> None:
    m = won_by_seat_1({"preset": "guide"}, contract=6, fixed={1: HEARTS_12})
    before = snapshot(m)
    with pytest.raises(IllegalDiscard, match="suit another player holds"):
        act(m, 1, discard=["AS", "KS", "QS", "2H"])
    assert snapshot(m) == before
    act(m, 1, discard=["AS", "KS", "2H", "3H"])  # keeps QS: allowed
    leads = legal_json(m)
    assert {a["play"] for a in leads} == {"QS"}
    assert {a["call"] for a in leads} == {r + "S" for r in "23456789TJ"}
    with pytest.raises(IllegalLead, match="lead another suit"):
        act(m, 1, play="4H")


def test_play_alone_allows_that_discard_and_leads_alone() -> None:
    m = won_by_seat_1({"preset": "standard"}, contract=7, fixed={1: HEARTS_12})
    act(m, 1, discard=["AS", "KS", "QS", "2H"])
    leads = legal_json(m)
    assert leads and all(set(a) == {"play"} for a in leads)  # no call: alone
    assert {a["play"] for a in leads} == ids(current_deal(m).hands[1])
    act(m, 1, play="AH")
    deal = current_deal(m)
    assert deal.trump == 1 and deal.called is None and deal.partner is None


def test_no_live_suit_before_discarding_voids_the_deal_same_dealer() -> None:
    # guide, 5 players: 2C 2D 2H out; seat 1 gets nine spades and the kitty the other four.
    rs = {"preset": "guide", "players": 5}
    m = exact_match(rules(**rs), fixed={1: "2S 3S 4S 5S 6S 7S 8S 9S TS"},
                    kitty="JS QS KS AS", dealer=0, auto_redeal=False)
    bids(m, 5, "pass", "pass", "pass", "pass")
    act(m, 1, discard=["2S", "3S", "4S", "5S"])  # nothing to protect: allowed
    deal = current_deal(m)
    assert deal.outcome == "void" and deal.void_reason == "no_callable"
    assert deal.points == (0,) * 5 and m.phase == "deal_over" and m.scored == []
    m.start_deal()
    assert current_deal(m).dealer == 0 and len(m.deals) == 2
