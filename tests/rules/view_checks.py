"""Checks of a seat's view for the rules tests: a view (and its legal actions, in the
record's shape) holds nothing that seat may not know (docs/spec/PROTOCOL.md,
docs/spec/RULES.md).
"""

from __future__ import annotations

from helpers import holder, ids, played_mask
from rules_oracle import live_cards
from shared_helpers import card_ids_in

from app.rules import Match, SeatView, parse_action
from app.rules.actions import Lead, LegalActionJson, Play
from app.rules.cards import CARD_INDEX
from app.rules.wire import WireView

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
