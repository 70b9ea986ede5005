"""What a club's standings need of one finished match, beyond its summary: per seat, the
deals played as the bidder and as the bidder's partner (and made), and the Amerikaner
bids won, derived from the match's game record (app/rules/record.py, replayed by
``replay_record``).  Replaying costs a few milliseconds a match: it is done once per
match, off the event loop, and kept in the match's row (``club_matches.stats``).
"""

from __future__ import annotations

from pydantic import JsonValue
from typing_extensions import TypedDict

from app.rules.record import replay_record


class SeatStats(TypedDict):
    bidder_deals: int
    bidder_made: int
    partner_deals: int
    partner_made: int
    amerikaner_bids: int


def empty(seats: int) -> list[SeatStats]:
    return [{"bidder_deals": 0, "bidder_made": 0, "partner_deals": 0, "partner_made": 0,
             "amerikaner_bids": 0} for _ in range(seats)]


def stats_of_record(record: JsonValue, seats: int, from_deal: list[int] | None = None
                    ) -> list[SeatStats]:
    """Each seat's contracts in the match of ``record``, counting only the scored deals a
    seat's person played (``from_deal``: the score sheet's row each plays from; the rows
    before were a bot's).  A record that does not replay counts nothing."""
    out = empty(seats)
    result = replay_record(record)
    if not result["ok"]:
        return out
    starts = from_deal or [0] * seats
    row = -1  # the score sheet's row of the deal: void deals have none
    for deal in result["deals"]:
        if deal["points"] is None:
            continue  # void, or unfinished: not on the score sheet
        row += 1
        contract = deal["contract"]
        if contract is None:
            continue  # a minus round: nobody's contract
        made = bool(deal["made"])
        bidder, partner = contract["bidder"], contract["partner"]
        if 0 <= bidder < seats and row >= starts[bidder]:
            out[bidder]["bidder_deals"] += 1
            out[bidder]["bidder_made"] += made
            if contract["bid"] == "amerikaner":
                out[bidder]["amerikaner_bids"] += 1
        if partner is not None and partner != bidder and 0 <= partner < seats \
                and row >= starts[partner]:
            out[partner]["partner_deals"] += 1
            out[partner]["partner_made"] += made
    return out
