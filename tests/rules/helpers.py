"""Helpers for the rules tests: exact deals, actions written in the record's shape, random
and the card masks the other helpers read. Random legal play is in random_play.py, the
tests' own statement of the rules in rules_oracle.py, the checks of what a view may show
in view_checks.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.rules import DealState, Match, RuleSet, parse_action
from app.rules.actions import Action, ActionJson, Lead, LegalActionJson, Play
from app.rules.cards import CARD_IDS, cards_of, mask_of, mask_of_ids, parse_card

JOKER_CARDS = (52, 53)
SUIT = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))  # spades, hearts, diamonds, clubs

# norsk, 4 players, every card placed (used for trick and view tests).
NORSK_HANDS = {
    0: "AS 6H 9H TH 2S 3S 4S 7D 8D 9D TD JD QD",
    1: "4H 5H JH QH KH 5S 6S 7S 8S 9S TS KD AD",
    2: "AH 7H 8H KS QS JS KC AC 2D 3D 4D 5D 6D",
    3: "2H 3H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
}


# -- building deals ----------------------------------------------------------------------


def rules(**options: Any) -> RuleSet:
    """A rule set from ``preset`` plus overrides, as a room would send it."""
    return RuleSet.from_json(options)


def cards(text: str) -> int:
    """The mask of space-separated card ids, e.g. ``cards("AS KS 2C")``."""
    return mask_of_ids(text.split())


def ids(mask: int) -> set[str]:
    return {CARD_IDS[c] for c in cards_of(mask)}


def whole_deck(rs: RuleSet) -> int:
    """52 cards plus the jokers of these rules (removed twos included)."""
    mask = (1 << 52) - 1
    for j in range(rs.options.jokers):
        mask |= 1 << JOKER_CARDS[j]
    return mask


def exact_match(rs: RuleSet, fixed: dict[int, str] | None = None, kitty: str | None = None,
                dealer: int = 0, **match_options: Any) -> Match:
    """A match whose first deal gives each seat in ``fixed`` these cards (its whole hand or
    the start of it) and, when given, this kitty; the other cards of the deck fill the
    remaining places in a fixed pseudo-random order."""
    fixed = fixed or {}
    n, h = rs.options.players, rs.shape.hand_size
    hands = [cards(fixed.get(s, "")) for s in range(n)]
    kit = cards(kitty) if kitty is not None else None
    used = 0
    for part in [*hands, kit or 0]:
        assert not used & part, "a card is given twice"
        used |= part
    assert not used & ~rs.shape.deck, "a removed or unknown card is given"
    rest = cards_of(rs.shape.deck & ~used)
    random.Random(12345).shuffle(rest)
    for s in range(n):
        while hands[s].bit_count() < h:
            hands[s] |= 1 << rest.pop()
        assert hands[s].bit_count() == h, f"seat {s} was given more than {h} cards"
    if kit is None:
        kit = sum(1 << c for c in rest)
        rest = []
    assert not rest and kit.bit_count() == rs.options.kitty, "the kitty does not fit"
    m = Match(rs, rng=random.Random(0), first_dealer=dealer, **match_options)
    m.start_deal(hands, kit)
    return m


def act(m: Match, seat: int, **action: Any) -> Sequence[Any]:
    """Apply an action written in the record's shape, e.g. ``act(m, 1, play="4H", call="AH")``."""
    return m.apply(seat, parse_action(action))


def current_deal(m: Match) -> DealState:
    """``m.deal``, which must be there (a deal was started): typed without ``None``."""
    deal = m.deal
    assert deal is not None, "no deal was started"
    return deal


def bids(m: Match, *values: int | str) -> None:
    """Bid these values (or ``"pass"``) in turn, whoever is to act."""
    for value in values:
        assert m.turn is not None
        m.apply(m.turn, parse_action({"bid": value}))


def replay_example(path: Path) -> Match:
    """The first deal of a spec example record, played through ``Match`` action by action
    (hands parsed with app.rules.cards)."""
    data = json.loads(path.read_text())
    deal = data["deals"][0]
    hands = [mask_of(parse_card(c) for c in hand) for hand in deal["hands"]]
    m = Match(RuleSet.from_json(data["rules"]), rng=random.Random(0),
              first_dealer=deal["dealer"])
    m.start_deal(hands, mask_of(parse_card(c) for c in deal["kitty"]))
    for action in deal["actions"]:
        m.apply(action["seat"], parse_action(action))
    return m


def legal_json(m: Match, seat: int | None = None) -> list[ActionJson | LegalActionJson]:
    return [a.to_json() for a in m.legal_actions(seat)]


def played_mask(deal: DealState) -> int:
    mask = 0
    for _, trick, _ in deal.tricks:
        for c in trick:
            mask |= 1 << c
    for c in deal.trick_cards:
        mask |= 1 << c
    return mask


def card_of(action: Action) -> int:
    """The card of a play or a lead (typed: any other action has no card)."""
    assert isinstance(action, Play | Lead), f"{action} has no card"
    return action.card


def points_of(deal: DealState) -> tuple[int, ...]:
    """The points of a deal that ended (typed without ``None``)."""
    assert deal.points is not None, "the deal has no points yet"
    return deal.points


def holder(deal: DealState, card: int) -> int | None:
    """The seat that was dealt ``card`` (``None``: in the kitty or out of the deck)."""
    return next((s for s, h in enumerate(deal.dealt) if h >> card & 1), None)
