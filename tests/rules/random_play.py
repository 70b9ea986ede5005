"""Random legal play for the rules tests: random actions with auction odds that give every
kind of contract a fair chance, discards the oracle allows, whole deals played out, and
snapshots of a deal to compare runs by.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from rules_oracle import expected_discard_ok

from app.rules import DealState, Match
from app.rules.actions import Action, Bid, Discard, DiscardAny
from app.rules.cards import cards_of

# -- random legal play -------------------------------------------------------------------


def random_action(m: Match, rng: random.Random) -> Action:
    """A random legal action for the seat to act, with auction odds that give every kind of
    contract (and all-pass deals) a fair chance."""
    deal = m.deal
    assert deal is not None
    legal = m.legal_actions()
    assert legal
    if isinstance(legal[0], DiscardAny):
        return Discard(choose_discard(deal, rng))
    if deal.phase == "auction":
        numbers = [a for a in legal if isinstance(a, Bid) and isinstance(a.value, int)]
        r = rng.random()
        if r < 0.04 and Bid("amerikaner") in legal:
            return Bid("amerikaner")
        if r < 0.55 or not numbers:
            return Bid("pass")
        return rng.choice(numbers[:3])
    return rng.choice(legal)


def choose_discard(deal: DealState, rng: random.Random) -> int:
    """A discard the rules allow (by the oracle), random when possible."""
    assert deal.bidder is not None
    hand = cards_of(deal.hands[deal.bidder])
    k = deal.rules.options.kitty
    for _ in range(30):
        mask = sum(1 << c for c in rng.sample(hand, k))
        if expected_discard_ok(deal, mask):
            return mask
    for combo in itertools.combinations(hand, k):
        mask = sum(1 << c for c in combo)
        if expected_discard_ok(deal, mask):
            return mask
    raise AssertionError("no discard is allowed at all")


def play_deal(m: Match, rng: random.Random) -> None:
    """Play random legal actions until no deal is running (auto-redeals are followed)."""
    while m.turn is not None:
        m.apply(m.turn, random_action(m, rng))


def deal_snapshot(deal: DealState) -> tuple[Any, ...]:
    """Every field of a deal (its slots), frozen for comparison."""
    fields = [(name, _frozen(getattr(deal, name)))
              for name in DealState.__slots__ if name != "_legal"]
    return (*fields, ("legal", deal.legal_actions()))


def snapshot(m: Match) -> tuple[Any, ...]:
    """Everything an action could change, to prove that a rejected one changed nothing."""
    state = deal_snapshot(m.deal) if m.deal is not None else ()
    return (state, tuple(m.totals), m.dealer, len(m.deals), tuple(m.scored), m.finished,
            m.winners, m.phase, m.turn)


def _frozen(value: Any) -> Any:
    if isinstance(value, list):  # (a call only for the lists inside: snapshots are many)
        return tuple([_frozen(v) if isinstance(v, list) else v for v in value])
    return value
