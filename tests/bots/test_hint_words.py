"""A hint's words agree with what it suggests (issue 39): a bid above the expected tricks
says why it pays, with the search's own chance of making it; "play low" is said only of
a low card, and otherwise the hint names the card it highlights."""

from __future__ import annotations

import random

from bot_helpers import QUICK_STRONG
from hint_texts import hint_text

from app.bots.hints import _bid_hint, _play_hint
from app.bots.search import Estimate
from app.rooms.server.rules_example import DEAL
from app.rules import PASS, Bid, Match, Play, RuleSet, SeatView, parse_action
from app.rules.cards import parse_card
from app.rules.record import match_of_deal


def auction_view() -> SeatView:
    match = Match(RuleSet("standard", match="single_deal"), rng=random.Random(3))
    match.start_deal()
    seat = match.turn
    assert seat is not None
    return SeatView(match, seat)


def bid_estimate(bid: int, tricks: float, chance: float) -> Estimate:
    action = Bid(bid)
    return Estimate(action, {action: 3.0, PASS: 0.5}, {action: tricks}, 40, PASS,
                    chances={action: chance})


def test_a_bid_above_the_expected_tricks_says_why_it_pays() -> None:
    hint = _bid_hint(auction_view(), bid_estimate(11, 10.5, 0.562))
    assert hint.key == "hint.bid_above_expected"
    assert hint.params["chance"] == 56 and hint.params["tricks"] == 10.5
    en = hint_text(hint, "en")
    assert en.startswith("Bid 11: about 10.5 tricks expected")
    assert "careful play adds a little, so you make 11 about 56% of the time" in en
    assert "worth more than passing or any other bid" in en
    assert "vous réussissez 11 environ 56 % des fois" in hint_text(hint, "fr")
    assert "så du klarer 11 omtrent 56 % av gangene" in hint_text(hint, "nb")


def test_a_bid_within_the_expected_tricks_needs_no_why() -> None:
    hint = _bid_hint(auction_view(), bid_estimate(10, 10.5, 0.8))
    assert hint.key == "hint.bid_expected" and "chance" not in hint.params


def test_the_search_gives_each_bid_its_chance() -> None:
    estimate = QUICK_STRONG.estimate(auction_view(), random.Random(1))
    bids = sorted((a for a in estimate.chances if isinstance(a, Bid)),
                  key=lambda a: a.value if isinstance(a.value, int) else 0)
    assert bids, estimate
    chances = [estimate.chances[b] for b in bids]
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert chances == sorted(chances, reverse=True)  # a higher bid is harder to make


def defender_under_partner() -> SeatView:
    """The rules page's example deal at trick 2: David leads the 8D, Anna trumps with the
    6H, and Bjørn (Anna's fellow defender, the partner revealed in trick 1) must follow
    with one of TD 7D 6D 5D 3D."""
    match = match_of_deal(RuleSet("standard"), DEAL)
    for raw in DEAL["actions"][:12]:
        match.apply(raw["seat"], parse_action(raw))
    assert match.turn == 1
    return SeatView(match, 1)


def test_play_low_is_said_of_the_lowest_card_only() -> None:
    view = defender_under_partner()
    for card, key in (("3D", "hint.play_low_partner_wins"), ("TD", "hint.play_under_partner")):
        action = Play(parse_card(card))
        assert action in view.legal
        hint = _play_hint(view, action, Estimate(action, {}, {}, 40, action))
        assert hint.key == key, card
        assert hint.params["card"] == card and hint.params["winner"] == "6H"
        for lang in ("en", "nb", "fr"):
            assert card in hint_text(hint, lang), (lang, card)
    high = _play_hint(view, Play(parse_card("TD")),
                      Estimate(Play(parse_card("TD")), {}, {}, 40, Play(parse_card("TD"))))
    assert "low" not in hint_text(high, "en") and "petit" not in hint_text(high, "fr")
    assert "lavt" not in hint_text(high, "nb")
