"""What transitions return: small immutable event records, in the order things happened.

They are ``NamedTuple``s (cheap to make on the hot path of random play); ``kind`` is the
stable name used on the wire (``event_to_json``).  Events carry only public facts; the
rooms layer adds, for the bidder alone, the cards of the kitty it took and of its discards
(``wire.events_for``), by the same rule as the views.
"""

from __future__ import annotations

from typing import NamedTuple

from pydantic import JsonValue

from .outcomes import AllPassedOutcome, VoidReason


class DealStarted(NamedTuple):
    dealer: int
    number: int
    kind: str = "deal_started"


class BidMade(NamedTuple):
    seat: int
    bid: int | str
    kind: str = "bid"


class AuctionWon(NamedTuple):
    seat: int
    bid: int | str
    kind: str = "auction_won"


class AllPassed(NamedTuple):
    outcome: AllPassedOutcome
    kind: str = "all_passed"


class KittyShown(NamedTuple):
    cards: tuple[int, ...]
    kind: str = "kitty_shown"


class KittyTaken(NamedTuple):
    seat: int
    kind: str = "kitty_taken"


class Discarded(NamedTuple):
    seat: int
    number: int
    kind: str = "discarded"


class ContractSet(NamedTuple):
    bidder: int
    trump: int | None
    called: int | None
    grand: bool
    kind: str = "contract_set"


class CardPlayed(NamedTuple):
    seat: int
    card: int
    kind: str = "card_played"


# CARD_PLAYED[seat][card]: the events of a card that neither ends a trick nor reveals the
# partner, made once (deal.py returns them on its hot path).
CARD_PLAYED: tuple[tuple[tuple[CardPlayed], ...], ...] = tuple(
    tuple((CardPlayed(seat, card),) for card in range(54)) for seat in range(5))


class PartnerRevealed(NamedTuple):
    seat: int
    card: int
    kind: str = "partner_revealed"


class TrickWon(NamedTuple):
    seat: int
    cards: tuple[int, ...]
    kind: str = "trick_won"


class DealVoid(NamedTuple):
    reason: VoidReason
    kind: str = "deal_void"


class DealScored(NamedTuple):
    points: tuple[int, ...]
    made: bool | None
    kind: str = "deal_scored"


class MatchEnded(NamedTuple):
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    kind: str = "match_ended"


Event = (DealStarted | BidMade | AuctionWon | AllPassed | KittyShown | KittyTaken | Discarded
         | ContractSet | CardPlayed | PartnerRevealed | TrickWon | DealVoid | DealScored
         | MatchEnded)


def event_to_json(event: Event) -> dict[str, JsonValue]:
    """The wire form: card indices become ids (``wire.GameEventWire`` declares each kind's
    shape)."""
    from .cards import CARD_IDS

    out: dict[str, JsonValue] = {"type": event.kind}
    for key, value in zip(event._fields, event, strict=True):  # no dict per event
        if key == "kind":
            continue
        if key in ("card", "called") and isinstance(value, int):
            out[key] = CARD_IDS[value]
        elif key == "trump" and isinstance(value, int):
            out[key] = "SHDC"[value]
        elif isinstance(value, tuple):  # cards become ids; points, winners stay numbers
            out[key] = [CARD_IDS[c] for c in value] if key == "cards" else list(value)
        else:
            out[key] = value
    return out
