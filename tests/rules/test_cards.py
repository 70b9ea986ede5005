"""Cards as indices and hands as bit masks (app/rules/cards.py, docs/spec/RULES.md notation)."""

from __future__ import annotations

import pytest

from app.rules.cards import (
    CARD_IDS,
    TWO_REMOVAL_ORDER,
    CardError,
    card_id,
    card_name,
    cards_of,
    highest,
    ids_of,
    is_joker,
    iter_cards,
    mask_of,
    mask_of_ids,
    parse_card,
    rank_of,
    sort_key,
    suit_of,
)


def test_there_are_54_distinct_ids_and_they_round_trip() -> None:
    assert len(CARD_IDS) == 54 and len(set(CARD_IDS)) == 54
    for index in range(54):
        assert parse_card(card_id(index)) == index


@pytest.mark.parametrize(("cid", "suit", "rank"), [
    ("2S", 0, 0), ("AS", 0, 12), ("TH", 1, 8), ("JD", 2, 9), ("QC", 3, 10), ("KC", 3, 11),
])
def test_index_is_suit_times_13_plus_rank(cid: str, suit: int, rank: int) -> None:
    card = parse_card(cid)
    assert card == suit * 13 + rank
    assert suit_of(card) == suit and rank_of(card) == rank and not is_joker(card)


def test_jokers_have_no_suit() -> None:
    assert parse_card("JK1") == 52 and parse_card("JK2") == 53
    assert is_joker(52) and is_joker(53) and suit_of(52) == 4
    assert card_name(52) == card_name(53) == "Joker"


@pytest.mark.parametrize("bad", ["1S", "as", "10H", "AX", "JK3", "", " AS", None, 5, ["AS"]])
def test_bad_card_ids_are_rejected(bad: object) -> None:
    with pytest.raises(CardError):
        parse_card(bad)


def test_aces_high_twos_low_within_a_suit() -> None:
    for suit in "SHDC":
        order = [parse_card(r + suit) for r in "23456789TJQKA"]
        assert order == sorted(order)


def test_masks_round_trip() -> None:
    mask = mask_of_ids(["AS", "2C", "JK2", "TH"])
    assert mask.bit_count() == 4
    assert ids_of(mask) == ["AS", "TH", "2C", "JK2"]  # lowest index first
    assert cards_of(mask) == list(iter_cards(mask)) == sorted(cards_of(mask))
    assert mask_of(cards_of(mask)) == mask
    assert highest(mask) == 53
    assert cards_of(0) == []


def test_names_players_read() -> None:
    assert card_name(parse_card("AS")) == "Ace of spades"
    assert card_name(parse_card("TH")) == "Ten of hearts"
    assert card_name(parse_card("2C")) == "Two of clubs"


def test_twos_leave_in_the_order_of_rules_3_1() -> None:
    assert [card_id(c) for c in TWO_REMOVAL_ORDER] == ["2C", "2D", "2H", "2S"]


def test_display_order_puts_trump_first_high_to_low_jokers_last() -> None:
    hand = [parse_card(c) for c in ["2S", "AS", "KH", "3D", "JK1", "AC"]]
    shown = [card_id(c) for c in sorted(hand, key=lambda c: sort_key(c, 2))]
    assert shown[:1] == ["3D"] and shown[-1] == "JK1"
    assert shown.index("AS") < shown.index("2S")
