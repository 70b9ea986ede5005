"""Every phase of a table, one ``StrEnum``: the deal's, the match's and the room's lobby.

A deal goes ``AUCTION -> DISCARD -> LEAD -> PLAY -> OVER``; a match reads its current deal
and adds ``DEAL_OVER`` and ``MATCH_OVER``; a room with no match yet is in ``LOBBY``.  The
members are strings, so the wire shows their values (``"auction"``) and the engine can
keep comparing phases by identity on its hot path.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a table is: the deal's phases, the match's between and after deals, the lobby."""

    LOBBY = "lobby"          # a room with no match yet
    AUCTION = "auction"      # bids and passes
    DISCARD = "discard"      # the bidder puts cards back after taking the kitty
    LEAD = "lead"            # the bidder's first lead, with the call of a partner's card
    PLAY = "play"            # tricks
    OVER = "over"            # a deal that is finished (scored or void)
    DEAL_OVER = "deal_over"  # the match between deals
    MATCH_OVER = "match_over"  # the last deal is scored: the match has its winners
