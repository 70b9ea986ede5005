"""The wire shapes of the engine's output: a seat's view and the events it may hear.

``SeatView.to_wire()`` returns a ``WireView``; ``events_for`` turns the events of one
change into what one recipient may hear.  Both are ``TypedDict``s, so mypy checks every
key where they are built, and the rooms layer validates frames against them with extra
keys forbidden (pydantic reads the ``with_config`` below).  Events hold only public facts,
except that the bidder alone hears which cards the kitty held and which it discarded,
by the same rule as the views (docs/spec/RULES.md section 5).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NotRequired, cast

from pydantic import with_config
from typing_extensions import TypedDict

from . import events as ev
from .actions import FORBID as FORBID
from .actions import ActionJson as ActionJson
from .actions import LegalActionJson as LegalActionJson
from .cards import ids_of
from .deal import DealState
from .outcomes import AllPassedOutcome, Outcome, VoidReason
from .phases import Phase

BidWire = int | str


@with_config(FORBID)
class TrickCard(TypedDict):
    seat: int
    card: str


@with_config(FORBID)
class LastTrick(TypedDict):
    cards: list[TrickCard]
    winner: int


@with_config(FORBID)
class ContractWire(TypedDict):
    bidder: int
    bid: BidWire | None
    trump: str | None
    called: str | None
    partner: int | None
    grand: bool


@with_config(FORBID)
class AuctionEntry(TypedDict):
    seat: int
    bid: BidWire


@with_config(FORBID)
class ResultWire(TypedDict):
    outcome: Outcome
    points: list[int]
    made: bool | None
    tricks_won: list[int]
    kitty_trick: bool          # the kitty counted as one trick for the bidder's side


@with_config(FORBID)
class WireView(TypedDict):
    """The protocol's ``view`` (docs/spec/PROTOCOL.md), without the room around the game."""

    phase: Phase               # lobby, auction, discard, lead, play, deal_over, match_over
    you: int | None            # this connection's seat; null for a spectator or a pending takeover
    turn: int | None           # the seat to act; null when nobody is
    hand: list[str]            # this seat's cards, sorted (trump first once known)
    legal: list[LegalActionJson]  # legal actions, record shape; the discard is {"discard": K}
    contract: ContractWire | None  # from the end of the auction on
    trick: list[TrickCard]     # the current trick in play order
    tricks_won: list[int]      # per seat, this deal
    scores: list[int]          # running totals per seat
    players: int
    dealer: int | None
    deal_number: int           # 1, 2... (a redeal keeps its number)
    hand_size: int
    hand_counts: list[int]     # cards in each hand now
    auction: list[AuctionEntry]  # the bids so far
    kitty: list[str] | None    # when this seat may know it: shown, or the bidder after the auction
    kitty_size: int
    discards: list[str] | None  # the bidder's own discards (bidder only)
    last_trick: LastTrick | None
    tricks: list[LastTrick]    # the completed tricks of this deal, in order (public)
    tricks_played: int
    minus_round: bool
    result: ResultWire | None  # after a deal
    score_sheet: list[list[int]]  # points of each scored deal, in order
    winners: list[int]         # once the match is over (several on equal totals)
    redeal: VoidReason | None  # why the previous deal was redealt: all_passed, no_callable
    you_are_partner: bool      # this seat holds the called card (it knows from the call)


# -- events ---------------------------------------------------------------------------


@with_config(FORBID)
class DealStartedWire(TypedDict):
    type: Literal["deal_started"]
    dealer: int
    number: int


@with_config(FORBID)
class BidWireEvent(TypedDict):
    type: Literal["bid"]
    seat: int
    bid: BidWire


@with_config(FORBID)
class AuctionWonWire(TypedDict):
    type: Literal["auction_won"]
    seat: int
    bid: BidWire


@with_config(FORBID)
class AllPassedWire(TypedDict):
    type: Literal["all_passed"]
    outcome: AllPassedOutcome


@with_config(FORBID)
class KittyShownWire(TypedDict):
    type: Literal["kitty_shown"]
    cards: list[str]


@with_config(FORBID)
class KittyTakenWire(TypedDict):
    type: Literal["kitty_taken"]
    seat: int
    cards: NotRequired[list[str]]     # the bidder only


@with_config(FORBID)
class DiscardedWire(TypedDict):
    type: Literal["discarded"]
    seat: int
    number: int
    cards: NotRequired[list[str]]     # the bidder only


@with_config(FORBID)
class ContractSetWire(TypedDict):
    type: Literal["contract_set"]
    bidder: int
    trump: str | None
    called: str | None
    grand: bool


@with_config(FORBID)
class CardPlayedWire(TypedDict):
    type: Literal["card_played"]
    seat: int
    card: str


@with_config(FORBID)
class PartnerRevealedWire(TypedDict):
    type: Literal["partner_revealed"]
    seat: int
    card: str


@with_config(FORBID)
class TrickWonWire(TypedDict):
    type: Literal["trick_won"]
    seat: int
    cards: list[str]


@with_config(FORBID)
class DealVoidWire(TypedDict):
    type: Literal["deal_void"]
    reason: VoidReason


@with_config(FORBID)
class DealScoredWire(TypedDict):
    type: Literal["deal_scored"]
    points: list[int]
    made: bool | None


@with_config(FORBID)
class MatchEndedWire(TypedDict):
    type: Literal["match_ended"]
    winners: list[int]
    totals: list[int]


GameEventWire = (DealStartedWire | BidWireEvent | AuctionWonWire | AllPassedWire
                 | KittyShownWire | KittyTakenWire | DiscardedWire | ContractSetWire
                 | CardPlayedWire | PartnerRevealedWire | TrickWonWire | DealVoidWire
                 | DealScoredWire | MatchEndedWire)


def event_wire(event: ev.Event) -> GameEventWire:
    """The public wire form of one event (``events.event_to_json``; the TypedDicts above
    declare each kind's shape, and the tests validate every event against them)."""
    return cast(GameEventWire, ev.event_to_json(event))


# The kinds of event whose wire form the bidder hears with cards (the kitty it took, its
# discards): every other event sounds the same to every seat and to spectators.
BIDDER_HEARS = frozenset({"kitty_taken", "discarded"})


def events_for(events: Iterable[ev.Event], deal: DealState | None,
               seat: int | None) -> list[GameEventWire]:
    """What ``seat`` (``None``: a spectator) may hear of ``events``, which happened in
    ``deal`` (the deal an action was applied to): the public forms, with the kitty's and
    the discards' cards for the bidder alone."""
    out = [event_wire(e) for e in events]
    if deal is None or seat is None or seat != deal.bidder:
        return out
    for wire in out:
        if wire["type"] == "kitty_taken":
            wire["cards"] = ids_of(deal.kitty)
        elif wire["type"] == "discarded" and deal.discards:
            wire["cards"] = ids_of(deal.discards)
    return out
