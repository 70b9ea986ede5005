"""Why an action is not allowed, in words a player understands.

Only called after ``legal_actions`` has said no (it alone decides); these functions find
the precise reason and the error type with its stable wire code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from .actions import Action, Bid, Discard, Lead, Play, lead
from .calling import lead_error
from .cards import JOKER1, SUIT_MASKS, SUITS, card_id, card_name, suit_name
from .errors import ActionError, IllegalBid, IllegalLead, IllegalPlay, Refusal, WrongPhase

if TYPE_CHECKING:
    from .ruleset import RuleSet


class RefusedDeal(Protocol):
    """What a refusal reads of the deal it refuses in (``deal.DealState`` is one).

    A protocol rather than ``DealState`` itself so that the import runs one way: deal.py
    calls these functions, and this module knows nothing of deal.py."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def high(self) -> int: ...  # the highest numeric bid so far (0: none)
    @property
    def hands(self) -> Sequence[int]: ...
    @property
    def forced(self) -> int: ...  # the called card's bit while it must be played
    @property
    def trick_cards(self) -> Sequence[int]: ...
    def others_mask(self, seat: int) -> int: ...


def bid_error(deal: RefusedDeal, action: Action) -> ActionError:
    if not isinstance(action, Bid):
        return WrongPhase("the auction is on: bid or pass", Refusal.AUCTION_ON)
    value = action.value
    shape = deal.rules.shape
    if value == "amerikaner":
        return IllegalBid("Amerikaner is not allowed by these rules", Refusal.NO_AMERIKANER)
    if not isinstance(value, int) or isinstance(value, bool):
        return IllegalBid('bid a whole number, "pass" or "amerikaner"', Refusal.BID_SHAPE)
    if deal.high and value <= deal.high:
        return IllegalBid(f"bid more than {deal.high}, or pass", Refusal.BID_HIGHER, n=deal.high)
    if value < shape.min_bid:
        return IllegalBid(f"the lowest bid is {shape.min_bid}", Refusal.BID_LOWEST, n=shape.min_bid)
    return IllegalBid(f"the highest bid is {shape.max_bid}", Refusal.BID_HIGHEST,
                      n=shape.max_bid)


def lead_error_for(deal: RefusedDeal, seat: int, action: Action) -> ActionError:
    if isinstance(action, Discard):
        return WrongPhase("the discard is done: lead the first card and call your partner",
                          Refusal.DISCARD_DONE)
    if isinstance(action, Play):  # a plain play is a lead alone (docs/spec/GAME-RECORD.md)
        action = lead(action.card, None, False)
    if not isinstance(action, Lead):
        return WrongPhase("lead the first card and call your partner's card", Refusal.LEAD_FIRST)
    o = deal.rules.options
    why = lead_error(action, deal.hands[seat], deal.others_mask(seat),
                     o.no_callable == "play_alone", o.grand)
    return IllegalLead(why or "that lead is not allowed")  # (a Why: its reason goes along)


def play_error(deal: RefusedDeal, seat: int, action: Action) -> ActionError:
    if isinstance(action, Lead):
        return IllegalPlay("a call goes only with the bidder's first lead (and so does grand)",
                           Refusal.CALL_FIRST_LEAD_ONLY)
    if not isinstance(action, Play):
        return WrongPhase("play a card", Refusal.PLAY_A_CARD)
    card = action.card
    hand = deal.hands[seat]
    if not hand >> card & 1:
        return IllegalPlay(f"the {card_name(card)} is not in your hand", Refusal.NOT_IN_HAND,
                           card=card_id(card))
    if deal.forced and hand & deal.forced:
        called = deal.forced.bit_length() - 1
        return IllegalPlay(f"you hold the called card: play the {card_name(called)}",
                           Refusal.PLAY_CALLED, card=card_id(called))
    led = deal.trick_cards[0]
    suit = led // 13
    if card >= JOKER1:
        return IllegalPlay(f"you can follow {suit_name(suit)}: a joker may only be played "
                           "when you cannot follow suit", Refusal.JOKER_FOLLOW, suit=SUITS[suit])
    if hand & SUIT_MASKS[suit]:
        return IllegalPlay(f"you must follow {suit_name(suit)}", Refusal.MUST_FOLLOW,
                           suit=SUITS[suit])
    return IllegalPlay("that card cannot be played now")
