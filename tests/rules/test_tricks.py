"""Trick play (docs/spec/RULES.md section 8): following suit, trump, the led suit, led twos,
jokers."""

from __future__ import annotations

import pytest
from helpers import NORSK_HANDS, act, bids, cards, current_deal, exact_match, ids, legal_json, rules
from random_play import snapshot

from app.rules import IllegalPlay, Match, WrongPhase
from app.rules.cards import parse_card
from app.rules.tricks import plays_of, trick_winner

HANDS = NORSK_HANDS  # hearts will be trump: seat 1 leads 4H and calls AH


def table(**options: object) -> Match:
    """The deal above after seat 1 bid 7 and led 4H calling AH (partner: seat 2)."""
    rs = rules(preset="norsk", **options)
    hands = HANDS
    if rs.options.jokers:  # 2C and 2D leave the deck; the jokers take their places
        hands = {**HANDS, 3: HANDS[3].replace("2C", "JK1"), 2: HANDS[2].replace("2D", "JK2")}
    m = exact_match(rs, fixed=hands, dealer=0)
    bids(m, 7, "pass", "pass", "pass")
    act(m, 1, play="4H", call="AH")
    return m


def play(m: Match, *card_ids: str) -> None:
    for cid in card_ids:
        assert m.turn is not None
        act(m, m.turn, play=cid)


def last_winner(m: Match) -> int:
    return current_deal(m).tricks[-1][2]


def test_follow_suit_trump_wins_then_the_highest_of_the_led_suit() -> None:
    m = table()
    play(m, "AH", "3H", "6H")
    assert last_winner(m) == 2 and m.turn == 2  # the winner leads
    play(m, "KS")
    assert {a["play"] for a in legal_json(m, 3)} == ids(current_deal(m).hands[3])  # void: anything
    play(m, "2H")  # a low trump
    assert {a["play"] for a in legal_json(m, 0)} == {"AS", "2S", "3S", "4S"}
    before = snapshot(m)
    with pytest.raises(IllegalPlay, match="must follow spades"):
        act(m, 0, play="7D")
    with pytest.raises(IllegalPlay, match="not in your hand"):
        act(m, 0, play="KD")
    with pytest.raises(WrongPhase):
        act(m, 0, bid=8)
    assert snapshot(m) == before
    play(m, "AS", "5S")
    assert last_winner(m) == 3  # the two of trumps beats the ace of the led suit
    play(m, "2C", "QD", "KD", "KC")  # off-suit cards cannot win, trump absent
    assert last_winner(m) == 2
    play(m, "2D", "3C", "7D", "AD")
    assert last_winner(m) == 1
    assert current_deal(m).tricks_won == [0, 1, 2, 1]


def test_overtaking_is_never_required() -> None:
    m = table()
    play(m, "AH", "3H", "6H", "KS", "2H")
    assert "2S" in {a["play"] for a in legal_json(m, 0)}  # may duck under KS
    play(m, "2S")


def test_a_led_two_wins_whatever_follows() -> None:
    m = table(led_two_wins=True)
    play(m, "AH", "3H", "6H", "KS", "2H", "AS", "5S")
    assert last_winner(m) == 3
    play(m, "2C", "QD", "JH", "KC")  # a trump and a higher club follow the led two
    assert last_winner(m) == 3


def test_a_two_that_is_not_led_does_not_win() -> None:
    m = table(led_two_wins=True)
    play(m, "AH", "3H", "6H", "KS", "QC", "2S", "5S")
    assert last_winner(m) == 2


def test_a_led_joker_wins_and_leaves_no_led_suit() -> None:
    m = table(jokers=2)
    assert "JK1" not in {a["play"] for a in legal_json(m, 2)}
    play(m, "AH")
    assert {a["play"] for a in legal_json(m, 3)} == {"2H", "3H"}  # the joker may not follow
    with pytest.raises(IllegalPlay, match="joker"):
        act(m, 3, play="JK1")
    play(m, "3H", "6H")
    play(m, "JK2")  # seat 2 leads a joker
    for seat in (3, 0, 1):
        assert {a["play"] for a in legal_json(m, seat)} == ids(current_deal(m).hands[seat])
        play(m, {3: "QC", 0: "TH", 1: "KH"}[seat])  # even trumps do not beat it
    assert last_winner(m) == 2


def test_a_joker_on_a_suited_lead_only_when_void_and_powerless() -> None:
    m = table(jokers=2)
    play(m, "AH", "3H", "6H", "KS")
    assert "JK1" in {a["play"] for a in legal_json(m, 3)}  # void in spades
    play(m, "JK1", "4S", "5S")
    assert last_winner(m) == 2


# The pure functions of tricks.py on masks.


def c(cid: str) -> int:
    return parse_card(cid)


@pytest.mark.parametrize(("trick", "trump", "two_wins", "winner"), [
    ("5S KS 2S AH", None, False, 1),     # highest of the led suit
    ("5S KS 2S AH", 1, False, 3),        # the only trump
    ("5S 2H KS 3H", 1, False, 3),        # the highest trump
    ("2S KS AS 3H", None, True, 0),      # a led two
    ("2S KS AS 3H", 1, True, 0),         # a led two beats a trump
    ("KS 2S AS", None, True, 2),         # a two not led is just a two
    ("JK1 AS KS", 0, False, 0),          # a led joker
    ("5S JK2 4S", None, False, 0),       # a joker that follows has no power
    ("5D 4D JK1 3D", 0, False, 0),
])
def test_trick_winner(trick: str, trump: int | None, two_wins: bool, winner: int) -> None:
    assert trick_winner([c(x) for x in trick.split()], trump, two_wins) == winner


def test_plays_of_lists_every_card_of_a_mask_in_index_order() -> None:
    hand = cards("AS 2S 5H JK1")
    assert [p.card for p in plays_of(hand)] == [c(x) for x in ["2S", "AS", "5H", "JK1"]]
    assert plays_of(0) == ()
