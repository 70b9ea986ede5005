"""The searching seat's own later follows in a rollout, played seeing the sampled deal.

A rollout (rollout.py) plays every seat as ``easy`` does, the searching seat too, so a
candidate is valued as if this seat played on no better than ``easy``.  ``easy``
follows by what it can see: it takes a trick only with a card no opponent after it can
beat among the cards it cannot see, and throws a card otherwise.  In a sampled deal the
other hands are known, so ``sighted_follow`` takes the trick with the cheapest card that
no opponent after this seat can beat with a card of its own hand, where ``easy`` would
throw one.  Everything else (leads, the case where the trick is the seat's side's
anyway, a trick nobody can be sure to take) is left to ``easy``.

It is a screen (``SearchSettings.sighted``, off): it sees what the seat could not, so it
may value the candidates that leave a guess for later too well.  Measured −0.08 ± 0.14 a
deal against the seat playing on as ``easy`` (500 deals, 224 differ;
docs/history/bots-measurements.md, issue 40's tenth pass).
"""

from __future__ import annotations

from app.rules import DealState
from app.rules.cards import JOKER1, SUIT_MASKS, cards_of
from app.rules.tricks import trick_winner


def sighted_follow(deal: DealState, seat: int, legal: int, side: int) -> int | None:
    """The card ``seat`` follows with in this complete sampled deal, or None for
    ``easy``'s choice; ``legal`` is the mask of its playable cards, ``side`` the mask of
    its side (rollout.sides)."""
    trick = deal.trick_cards
    if not trick or deal.minus_round:
        return None
    n = deal.n
    leader = deal.leader
    pos = len(trick)
    later = [(leader + i) % n for i in range(pos + 1, n)]
    opponents = [p for p in later if not side >> p & 1]
    trump = deal.trump
    l2w = bool(deal.rules.options.led_two_wins)
    winner = deal.best_seat  # the engine keeps the trick's winner so far
    if side >> winner & 1 and _holds(deal, trick, (winner - leader) % n, opponents):
        return None  # my side's trick already
    best: tuple[int, int] | None = None
    card = None
    for c in cards_of(legal):
        cards = [*trick, c]
        if trick_winner(cards, trump, l2w) != pos or not _holds(deal, cards, pos, opponents):
            continue
        # the cheapest winner: a card of the led suit before a trump or a joker, then
        # the lowest
        cost = (int(c >= JOKER1 or c // 13 != trick[0] // 13), c % 13 if c < JOKER1 else 13)
        if best is None or cost < best:
            best, card = cost, c
    return card


def _holds(deal: DealState, cards: list[int], at: int, opponents: list[int]) -> bool:
    """Whether the card at index ``at`` of the trick so far still wins whatever each
    opponent still to play could add from its own hand."""
    trump = deal.trump
    l2w = bool(deal.rules.options.led_two_wins)
    led = cards[0]
    for p in opponents:
        hand = deal.hands[p]
        follow = hand & SUIT_MASKS[led // 13] if led < JOKER1 else 0
        for x in cards_of(follow or hand):
            if trick_winner([*cards, x], trump, l2w) != at:
                return False
    return True


__all__ = ["sighted_follow"]
