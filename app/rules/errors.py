"""Precise errors for actions that are not allowed, each with a stable wire ``code``.

Every one is a ``ValueError`` (the Connect Four tutorial's server turns those into an
error event); the message is written for the player who tried the action.
"""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """Why the rules refuse an action: an error frame's ``reason``, which a client words
    in its player's language; the frame's ``params`` carry what the sentence names (``n``
    a number, ``card`` a card id, ``suit`` a suit letter), never English text."""

    AUCTION_ON = "auction_on"  # the auction is on: bid or pass
    NO_AMERIKANER = "no_amerikaner"  # these rules have no Amerikaner bid
    BID_SHAPE = "bid_shape"  # a bid is a whole number, pass or Amerikaner
    BID_HIGHER = "bid_higher"  # bid more than ``n`` (the highest bid so far), or pass
    BID_LOWEST = "bid_lowest"  # the lowest bid is ``n``
    BID_HIGHEST = "bid_highest"  # the highest bid is ``n``
    DISCARD_FIRST = "discard_first"  # discard ``n`` cards first
    DISCARD_COUNT = "discard_count"  # discard exactly ``n`` cards
    DISCARD_FROM_HAND = "discard_from_hand"  # only cards of your hand can be discarded
    DISCARD_KEEPS_LEAD = "discard_keeps_lead"  # keep a card of a suit another player holds
    DISCARD_DONE = "discard_done"  # the discard is done: lead the first card and call
    LEAD_FIRST = "lead_first"  # lead the first card and call your partner's card
    NOT_IN_HAND = "not_in_hand"  # that card (``card``, when named) is not in your hand
    LEAD_JOKER = "lead_joker"  # the first lead cannot be a joker
    NO_GRAND = "no_grand"  # these rules have no grand
    CALL_NEEDED = "call_needed"  # call a card of ``suit`` that another player holds
    NO_CALLABLE = "no_callable"  # no other player holds ``suit``: lead another suit
    CALL_SUIT = "call_suit"  # the called card must be of ``suit``, the suit led
    CALL_OWN = "call_own"  # you cannot call a card of your own
    CALL_NOT_LIVE = "call_not_live"  # that card is not in play: call a live card
    CALL_FIRST_LEAD_ONLY = "call_first_lead_only"  # a call goes with the first lead only
    PLAY_A_CARD = "play_a_card"  # the play is on: play a card
    PLAY_CALLED = "play_called"  # you hold the called card ``card``: play it
    JOKER_FOLLOW = "joker_follow"  # you can follow ``suit``: a joker only when you cannot
    MUST_FOLLOW = "must_follow"  # you must follow ``suit``
    DEAL_OVER = "deal_over"  # the deal is over
    NEXT_DEAL = "next_deal"  # wait for the next deal


Params = dict[str, str | int]


class Why(str):
    """A refusal's message (in English, for logs and ``amerikaner replay``) that also
    carries its ``Refusal`` and parameters: a ``str``, so that the functions returning
    "" for "allowed" keep their callers' tests (``if why:``)."""

    reason: Refusal
    params: Params

    def __new__(cls, message: str, reason: Refusal, **params: str | int) -> Why:
        why = super().__new__(cls, message)
        why.reason = reason
        why.params = params
        return why


class ActionError(ValueError):
    """An action that the rules do not allow now; nothing changed.  ``reason`` and
    ``params`` say why in a form any language can word (None: the code says it all)."""

    code = "illegal_action"

    def __init__(self, message: str, reason: Refusal | None = None,
                 **params: str | int) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else getattr(message, "reason", None)
        self.params: Params = params or dict(getattr(message, "params", {}))


class BadActionShape(ActionError):
    """Not an action at all: unknown keys, wrong types, an unknown card."""

    code = "bad_action"


class WrongPhase(ActionError):
    """The action belongs to another moment of the deal."""

    code = "wrong_phase"


class NotYourTurn(ActionError):
    code = "not_your_turn"


class IllegalBid(ActionError):
    code = "illegal_bid"


class IllegalDiscard(ActionError):
    code = "illegal_discard"


class IllegalLead(ActionError):
    """The bidder's first lead and call break section 6 of the rules."""

    code = "illegal_lead"


class IllegalPlay(ActionError):
    code = "illegal_play"


class MatchOver(ActionError):
    code = "match_over"
