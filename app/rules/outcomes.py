"""How a deal ended, and why a deal was void: the engine's outcome words, one ``StrEnum`` each.

``DealState.outcome`` is an ``Outcome`` once the deal is over; a void deal says why in
``void_reason`` (a ``VoidReason``); the ``all_passed`` event says what everybody passing
led to (an ``AllPassedOutcome``).  The members are strings, so the wire, the game record
and the views show their values (``"void"``) unchanged.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """How a finished deal ended (``result.outcome``)."""

    PLAYED = "played"            # the contract was played out and scored
    VOID = "void"                # nobody scored: the deal is dealt again
    MINUS_ROUND = "minus_round"  # everybody passed and the deal was played as a minus round


class VoidReason(StrEnum):
    """Why a deal was void (``deal_void.reason``, ``view.redeal``)."""

    ALL_PASSED = "all_passed"    # everybody passed (and the rules redeal)
    NO_CALLABLE = "no_callable"  # the bidder could call no card (under no_callable: redeal)


class AllPassedOutcome(StrEnum):
    """What everybody passing led to (``all_passed.outcome``)."""

    REDEAL = "redeal"            # the deal is void and dealt again
    MINUS_ROUND = "minus_round"  # the deal is played as a minus round
