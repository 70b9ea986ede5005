"""What of the match being played may leave over HTTP: its finished deals only.

The room's match holds its deal in progress too, with every hand, the kitty, the
discards and, from the call on, the hidden partner; the engine's record and replay name
all of them (a record "knows every hand", docs/spec/GAME-RECORD.md).  A seat learns the deal in
progress from its own view alone (``SeatView``, over the WebSocket), so the record of the
live match that the replay is built from stops before that deal: no line of it, not even
its result line (``"outcome": "incomplete"``, which names the partner from the call on),
goes out over HTTP.  Issue 36.
"""

from __future__ import annotations

from pydantic import JsonValue

from app.rooms.core.errors import RoomError
from app.rooms.core.wire_enums import ErrorCode
from app.rules import Match
from app.rules.record import match_to_record


def finished_deals_record(match: Match, players: list[str]) -> dict[str, JsonValue]:
    """The game record of ``match`` without its deal in progress (if any): what every
    seat may know of it, once each of those deals is over."""
    record = match_to_record(match, players)
    deal = match.deal
    if deal is not None and not deal.over:
        deals = record["deals"]
        assert isinstance(deals, list)  # match_to_record's deals
        record["deals"] = deals[:-1]
    return record


def refuse_deal_in_progress(match: Match, asked: int | None) -> None:
    """``403 deal_not_over`` when the deal asked for (``None``: the default one, which
    is the deal in progress when no other is over yet) is the one being played; the
    record handed on holds no line of it to say so."""
    deal = match.deal
    if deal is None or deal.over:
        return
    in_progress = len(match.deals) - 1
    if asked == in_progress or (asked is None and in_progress == 0):
        raise RoomError(ErrorCode.DEAL_NOT_OVER, "this deal is still being played: its "
                        "replay is ready when it is over", 403)
