"""The searching seat's sighted follow in a rollout (app/bots/sighted.py): the card it
takes a trick with is legal and takes it whatever the others still to play add."""

from __future__ import annotations

import random

import pytest

from app.bots import BOTS
from app.bots.rollout import sides
from app.bots.sighted import sighted_follow
from app.rules import Match, Play, RuleSet, SeatView
from app.rules.phases import Phase

EASY = BOTS["easy"]


@pytest.mark.parametrize("rules", [
    RuleSet("standard", match="single_deal"),
    RuleSet("norsk", players=5, jokers=2, match="single_deal"),
    RuleSet("standard", led_two_wins=True, jokers=1, match="single_deal"),
    RuleSet("guide", players=3, match="single_deal"),
])
def test_a_sighted_card_takes_the_trick_whatever_follows(rules: RuleSet) -> None:
    rng = random.Random(3)
    taken = 0
    for i in range(12):
        match = Match(rules, rng=random.Random(100 + i))
        match.start_deal()
        while not match.finished:
            seat = match.turn
            assert seat is not None
            deal = match.deals[-1]
            if deal.phase == Phase.PLAY and deal.trick_cards and not deal.minus_round:
                plays = {a.card: a for a in deal.legal_actions() if isinstance(a, Play)}
                side, _ = sides(deal, seat)
                card = sighted_follow(deal, seat, sum(1 << c for c in plays), side)
                if card is not None:
                    assert card in plays
                    taken += 1
                    for _ in range(8):  # the rest of the trick, any legal cards
                        after = deal.copy()
                        after.apply(seat, plays[card])
                        while after.trick_cards and after.turn is not None:
                            after.apply(after.turn, rng.choice(after.legal_actions()))
                        winner = after.tricks[-1][2]
                        assert side >> winner & 1, (card, deal.trick_cards, winner)
            match.apply(seat, EASY.choose(SeatView(match, seat), rng))
    assert taken > 10  # the position kind is common enough to be tested


def test_nothing_when_leading_or_in_the_auction() -> None:
    match = Match(RuleSet("standard", match="single_deal"), rng=random.Random(5))
    match.start_deal()
    deal = match.deals[-1]
    assert deal.turn is not None
    assert sighted_follow(deal, deal.turn, deal.hands[deal.turn], 1 << deal.turn) is None
