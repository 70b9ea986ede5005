"""The ``random`` bot: uniform over legal actions, except that the auction leans to passes
and low bids so that contracts are made and lost at a realistic rate."""

from __future__ import annotations

import random
from collections.abc import Callable

from app.rules import PASS, Action, Bid, Discard, DiscardAny, Play, SeatView
from app.rules.tricks import BITS, plays_of

PASS_WEIGHT = 0.75  # chance of passing when a bid is possible


class RandomBot:
    name = "random"

    def choose(self, view: SeatView, rng: random.Random,
               deadline: float | None = None) -> Action:
        legal = view.legal
        first = legal[0]
        if type(first) is Play:  # trick play, most decisions: uniform
            return legal[int(rng.random() * len(legal))]
        if first is PASS:
            if len(legal) == 1 or rng.random() < PASS_WEIGHT:
                return PASS
            # The auction lists pass, the numeric bids from the lowest, then Amerikaner.
            lowest = legal[1]
            if isinstance(lowest, Bid) and type(lowest.value) is int:
                return lowest
            return legal[-1]
        if type(first) is DiscardAny:
            return random_discard(view.hand, first.number, view.discard_allowed, rng)
        return legal[int(rng.random() * len(legal))]


def random_discard(hand: int, count: int, refuses: Callable[[int], str],
                   rng: random.Random) -> Discard:
    """A uniformly random discard of ``count`` cards of ``hand`` that the rules allow
    (``refuses(cards)`` says why not; a refused draw is drawn again)."""
    rand = rng.random
    while True:
        plays = list(plays_of(hand))
        # A partial Fisher-Yates: the first ``count`` entries are a uniform draw.
        for i in range(count):
            j = i + int(rand() * (len(plays) - i))
            plays[i], plays[j] = plays[j], plays[i]
        cards = sum([BITS[p.card] for p in plays[:count]])
        if not refuses(cards):
            return Discard(cards)
