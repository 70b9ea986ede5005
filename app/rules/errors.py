"""Precise errors for actions that are not allowed, each with a stable wire ``code``.

Every one is a ``ValueError`` (the Connect Four tutorial's server turns those into an
error event); the message is written for the player who tried the action.
"""

from __future__ import annotations


class ActionError(ValueError):
    """An action that the rules do not allow now; nothing changed."""

    code = "illegal_action"


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
