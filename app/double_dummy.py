"""A deal's double-dummy result as the deal review gives it, which the bots
(app/bots/review.py: the solve) and the rooms (the wire, and the room that keeps the
result for the deal's other reviews) both read: the rooms need the words, not the bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class DoubleDummySkipped(StrEnum):
    """Why a deal review has no double-dummy line (its ``double_dummy_skipped``)."""

    BUSY = "busy"          # the server was busy: the solve's wall-clock cap came first
    TOO_LONG = "too_long"  # the deal takes longer to solve than the review's budget


@dataclass(frozen=True, slots=True)
class DoubleDummy:
    """A deal's double-dummy result: the same for every seat's review of the deal."""

    tricks: int      # the bidder's side's tricks with perfect play (kitty trick included)
    from_trick: int  # 1: from the first lead; else from that trick, after the real play
