"""The ``random`` bot: uniform over legal actions, except that the auction leans to passes
and low bids so that contracts are made and lost at a realistic rate."""

from __future__ import annotations

import random

from app.rules import PASS, Action, Bid, Discard, DiscardAny, SeatView
from app.rules.cards import cards_of, mask_of

PASS_WEIGHT = 0.75  # chance of passing when a bid is possible


class RandomBot:
    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        first = legal[0]
        if first is PASS:
            if len(legal) == 1 or rng.random() < PASS_WEIGHT:
                return PASS
            numeric = [a for a in legal if isinstance(a, Bid) and isinstance(a.value, int)]
            return numeric[0] if numeric else legal[-1]
        if type(first) is DiscardAny:
            return random_discard(view, first.number, rng)
        return legal[int(rng.random() * len(legal))]


def random_discard(view: SeatView, count: int, rng: random.Random) -> Discard:
    """A uniformly random allowed discard (resampled when the rules forbid the draw)."""
    hand = cards_of(view.hand)
    while True:
        cards = mask_of(rng.sample(hand, count))
        if not view.discard_allowed(cards):
            return Discard(cards)
