"""Helpers for the rules tests: exact deals, actions written in the record's shape, random
legal play, snapshots, and an independent restatement of docs/spec/RULES.md (the *oracle*).

The oracle functions (``expected_*``) read only the public fields of a ``DealState`` (hands,
tricks, actions, ...) and never call the engine's own rule functions, so that a test which
compares the engine with them checks the engine against the rules, not against itself.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shared_helpers import card_ids_in

from app.rules import DealState, Match, RuleSet, SeatView, parse_action
from app.rules.actions import (
    Action,
    ActionJson,
    Bid,
    Discard,
    DiscardAny,
    Lead,
    LegalActionJson,
    Play,
)
from app.rules.cards import CARD_IDS, CARD_INDEX, cards_of, mask_of, mask_of_ids, parse_card
from app.rules.wire import WireView

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


# -- views -------------------------------------------------------------------------------


def check_view(m: Match, seat: int | None, public: WireView | None = None) -> None:
    """The view of ``seat`` holds nothing that seat may not know (docs/spec/PROTOCOL.md,
    docs/spec/RULES.md).  ``public``: the spectator's view of this moment, when the
    caller checks every seat and builds it once for all of them (as a server does)."""
    deal = m.deal
    assert deal is not None
    wire = SeatView(m, seat).to_wire()
    if public is None:
        public = SeatView(m, None).to_wire()
    # a server builds the public part once and each seat's own fields on it: the same view
    built = SeatView(m, seat).to_wire(public)
    assert built == wire
    own = deal.hands[seat] if seat is not None else 0
    assert wire["you"] == seat
    assert sorted(wire["hand"]) == sorted(ids(own)) and len(wire["hand"]) == own.bit_count()
    o = deal.rules.options
    known = own | played_mask(deal) | deal.rules.shape.removed
    if deal.called is not None:
        known |= 1 << deal.called
    exchanged = deal.bidder is not None and o.kitty > 0
    is_bidder = seat is not None and seat == deal.bidder
    if exchanged and (o.show_kitty or is_bidder):
        known |= deal.kitty
        assert wire["kitty"] is not None and set(wire["kitty"]) == ids(deal.kitty)
    else:
        assert wire["kitty"] is None
    if is_bidder and deal.discards:
        known |= deal.discards
        assert set(wire["discards"] or ()) == ids(deal.discards)
    else:
        assert wire["discards"] is None
    for key, value in built.items():  # (equal to ``wire``, and it shares public's fields)
        if key not in ("legal", "hand"):
            for cid in _cards_named(public, key, value):
                assert known >> CARD_INDEX[cid] & 1, f"seat {seat} sees {cid} in {key}: {value}"
    check_legal_wire(m, seat, wire["legal"])
    contract = wire["contract"]
    partner = holder(deal, deal.called) if deal.called is not None else None
    if contract is not None:
        revealed = deal.called is not None and played_mask(deal) >> deal.called & 1
        if revealed or (seat is not None and seat == partner):
            assert contract["partner"] == partner
        else:
            assert contract["partner"] is None, f"seat {seat} knows the partner too early"
    assert wire.get("you_are_partner", False) == (seat is not None and seat == partner)
    if seat is None:
        assert wire["hand"] == [] and wire["legal"] == []


# The public view whose fields' cards were last listed, and those lists by field: every
# seat's view of a moment shares most of its fields with it (the same objects).
_PUBLIC_CARDS: tuple[WireView | None, dict[str, list[str]]] = (None, {})


def _cards_named(public: WireView, key: str, value: object) -> list[str]:
    """The card ids in ``value``, a view's field ``key``: listed once per public view when
    the field is the public view's own object."""
    global _PUBLIC_CARDS
    if public.get(key, None) is not value:
        return card_ids_in(value)
    if _PUBLIC_CARDS[0] is not public:
        _PUBLIC_CARDS = (public, {})
    cards = _PUBLIC_CARDS[1]
    if key not in cards:
        cards[key] = card_ids_in(value)
    return cards[key]


def check_legal_wire(m: Match, seat: int | None, legal: list[LegalActionJson]) -> None:
    """``legal`` is in the record's shape, only for the seat to act, and names no card that
    seat may not know."""
    deal = m.deal
    assert deal is not None
    if seat is None or seat != m.turn:
        assert legal == []
        return
    if deal.phase == "discard":
        assert legal == [{"discard": deal.rules.options.kitty}]
        return
    assert legal, "the seat to act has nothing to do"
    own, live = deal.hands[seat], live_cards(deal, seat)
    for entry in legal:
        action = parse_action(entry)
        assert action.to_json() == entry
        if isinstance(action, Play | Lead):
            assert own >> action.card & 1
        if isinstance(action, Lead) and action.call is not None:
            assert live >> action.call & 1
