"""The oracle: an independent restatement of docs/spec/RULES.md for the rules tests.

The oracle functions (``expected_*``) read only the public fields of a ``DealState`` (hands,
tricks, actions, ...) and never call the engine's own rule functions, so that a test which
compares the engine with them checks the engine against the rules, not against itself.
"""

from __future__ import annotations

from helpers import JOKER_CARDS, SUIT, holder, played_mask, whole_deck

from app.rules import DealState
from app.rules.actions import Bid
from app.rules.cards import cards_of

# -- the oracle: docs/spec/RULES.md restated -------------------------------------------------------


def high_bid(deal: DealState) -> int:
    return max((a.value for _, a in deal.actions
                if isinstance(a, Bid) and isinstance(a.value, int)), default=0)


def expected_bids(deal: DealState) -> list[int | str]:
    """Section 4.2: pass, a higher number in range, Amerikaner when on (nobody bid it yet:
    the auction would be over)."""
    shape, o = deal.rules.shape, deal.rules.options
    out: list[int | str] = ["pass"]
    out += list(range(max(high_bid(deal) + 1, shape.min_bid), shape.max_bid + 1))
    if o.amerikaner:
        out.append("amerikaner")
    return out


def live_cards(deal: DealState, seat: int) -> int:
    """Cards that ``seat`` may call: of the deck, not removed, not its own, not discarded,
    not played, not a kitty left untaken (section 6.2), derived from the whole deck."""
    mask = whole_deck(deal.rules) & ~deal.rules.shape.removed & ~deal.hands[seat]
    mask &= ~deal.discards & ~played_mask(deal)
    if deal.bidder is None:
        mask &= ~deal.kitty
    for j in JOKER_CARDS:
        mask &= ~(1 << j)
    return mask


def expected_leads(deal: DealState) -> set[tuple[int, int | None, bool]]:
    """Section 6: (card, call, grand) for every allowed first lead of a numeric contract."""
    assert deal.bidder is not None
    o = deal.rules.options
    live = live_cards(deal, deal.bidder)
    out: set[tuple[int, int | None, bool]] = set()
    for card in cards_of(deal.hands[deal.bidder]):
        if card in JOKER_CARDS:
            continue  # 6.1
        calls: list[int | None] = list(cards_of(live & SUIT[card // 13]))
        if not calls:
            if o.no_callable != "play_alone":
                continue  # 6.4 redeal: such a lead is not allowed
            calls = [None]
        for call in calls:
            for grand in (False, True) if o.grand else (False,):
                out.add((card, call, grand))
    return out


def expected_plays(deal: DealState, seat: int) -> int:
    """Section 8 (and 6.3): the cards ``seat`` may play to the current trick."""
    hand = deal.hands[seat]
    if not deal.trick_cards:
        return hand
    led = deal.trick_cards[0]
    if led in JOKER_CARDS:
        return hand  # 8.4: no led suit after a led joker
    follow = hand & SUIT[led // 13]
    if not follow:
        return hand
    if deal.called is not None and not deal.tricks and hand >> deal.called & 1:
        return 1 << deal.called
    return follow


def expected_discard_ok(deal: DealState, mask: int) -> bool:
    """Section 5.2 and the 6.4 convention."""
    assert deal.bidder is not None
    hand = deal.hands[deal.bidder]
    if mask & ~hand or mask.bit_count() != deal.rules.options.kitty:
        return False
    if deal.rules.options.no_callable != "redeal" or deal.contract_bid == "amerikaner":
        return True
    live = live_cards(deal, deal.bidder)

    def can_lead(h: int) -> bool:
        return any(h & s and live & s for s in SUIT)

    return not can_lead(hand) or can_lead(hand & ~mask)


def expected_winner(trick: tuple[int, ...], trump: int | None, led_two_wins: bool) -> int:
    """Section 8.2-8.4: the index in play order of the winning card."""
    led = trick[0]
    if led in JOKER_CARDS or (led_two_wins and led % 13 == 0):
        return 0
    suited = [(i, c) for i, c in enumerate(trick) if c not in JOKER_CARDS]
    if trump is not None:
        trumps = [(c, i) for i, c in suited if c // 13 == trump]
        if trumps:
            return max(trumps)[1]
    return max((c, i) for i, c in suited if c // 13 == led // 13)[1]


def expected_points(deal: DealState) -> tuple[int, ...]:
    """Section 9, from the tricks as played and the call as made."""
    o, n = deal.rules.options, deal.rules.options.players
    won = [0] * n
    for _, _, winner in deal.tricks:
        won[winner] += 1
    if deal.bidder is None:  # minus round
        return tuple(-w for w in won)
    points = list(won)
    bidder = deal.bidder
    if deal.contract_bid == "amerikaner":
        ok = won[bidder] == deal.rules.shape.hand_size
        points[bidder] = o.amerikaner_points if ok else -o.amerikaner_points
        return tuple(points)
    bid = deal.contract_bid
    assert isinstance(bid, int)
    partner = holder(deal, deal.called) if deal.called is not None else None
    side = won[bidder] + (won[partner] if partner is not None else 0)
    side += 1 if o.kitty_trick and o.kitty else 0
    sign = 1 if side >= bid else -1
    points[bidder] = sign * bid * (2 if o.bidder_double else 1)
    if partner is not None:
        points[partner] = sign * bid
    return tuple(points)
