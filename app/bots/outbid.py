"""What a bid is worth when the other seats may still outbid it.

The search prices a numeric bid by the tricks its side takes when this seat wins the
auction (search.py).  At a real table the others answer: a seat with a good hand bids
over it, and the deal is then theirs to play, often at a contract higher than they would
have bid alone.  So in each sample the search also lets the heuristic finish the auction
after each candidate bid, every seat bidding as ``easy`` does (the model of the others
that the sampling already uses, sampling.py): where this seat keeps the contract the bid
is priced as before, by the side's tricks; where another seat takes it, by that deal
played out (heuristic play, the last tricks exact), relative to the table.  Pushing an
opponent one trick higher, or letting it have a contract it will fail, is then worth
what it is worth.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.rules import PASS, Action, Bid, DealState
from app.rules.actions import bid
from app.rules.phases import Phase

from .rollout import finish, play_heuristic

# Per sample, what a candidate bid led to: the contract this seat ended with (an int,
# priced later from the side's tricks over all samples), or the points of the deal
# another seat won (a float).
End = int | float


def auction_ends(state: DealState, seat: int, bids: list[int], exact: int,
                 rng: random.Random, relative: bool = True) -> dict[int, End]:
    """For each of ``bids``: this seat bids it in ``state`` (left unchanged) and every
    seat then bids as the heuristic does until the auction ends.  A deal the others win
    is played out once per contract they end with (several bids often lead to the same)
    and scored as the search scores (``relative`` to the table, or the seat's own
    points, as a review judges a player's choices)."""
    out: dict[int, End] = {}
    played: dict[tuple[int | None, int | str | None], float] = {}
    for b in bids:
        after = state.copy()
        try:
            after.apply(seat, Bid(b))
        except ValueError:  # not in a sample of a legal view; priced as if kept
            out[b] = b
            continue
        play_heuristic(after, rng, auction_only=True)
        if after.bidder == seat and isinstance(after.contract_bid, int):
            out[b] = after.contract_bid
            continue
        key = (after.bidder, after.contract_bid)
        if key not in played:
            played[key] = finish(after, seat, exact, rng, relative=relative)[0]
        out[b] = played[key]
    return out


def bid_value(ends: list[End], won: Callable[[int], float]) -> float:
    """A bid's mean value over the samples: ``won(contract)`` where this seat kept the
    contract (priced from the side's tricks in every sample; the tricks of the samples
    where it kept it alone, where the others are weaker, measured no better), the deal's
    points where another seat took it."""
    return sum(won(e) if isinstance(e, int) else e for e in ends) / len(ends)


def forced_auction(deal: DealState, seat: int, value: int | Bid) -> bool:
    """Finish the auction of ``deal`` with ``seat`` bidding ``value`` (a number, or the
    Amerikaner bid) and the others passing (a what-if for the auction's estimate); False
    if the engine refuses."""
    try:
        while deal.phase == Phase.AUCTION:
            turn = deal.turn
            assert turn is not None
            action: Action = PASS
            if turn == seat:
                if isinstance(value, Bid):
                    action = value  # Amerikaner ends the auction at once
                elif deal.high < value:
                    action = bid(value)
            deal.apply(turn, action)
    except ValueError:
        return False
    return deal.bidder == seat


__all__ = ["End", "auction_ends", "bid_value", "forced_auction"]
