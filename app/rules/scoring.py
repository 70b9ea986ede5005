"""Scoring a finished deal (docs/spec/RULES.md section 9) and deciding the match (section 10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .deal import DealState


def score_deal(deal: DealState) -> tuple[tuple[int, ...], bool | None]:
    """The deal's points per seat and whether the contract was made (``None``: no contract)."""
    won = deal.tricks_won
    if deal.minus_round:
        return tuple(-t for t in won), None
    bidder = deal.bidder
    assert bidder is not None
    o = deal.rules.options
    points = list(won)  # every other player: +1 per trick won personally
    if deal.amerikaner:
        made = won[bidder] == deal.hand_size
        points[bidder] = o.amerikaner_points if made else -o.amerikaner_points
        return tuple(points), made
    contract = deal.contract_bid
    assert isinstance(contract, int)
    partner = deal.partner
    side = won[bidder] + (1 if o.kitty_trick and o.kitty else 0)
    if partner is not None:
        side += won[partner]
    made = side >= contract
    sign = 1 if made else -1
    points[bidder] = sign * contract * (2 if o.bidder_double else 1)
    if partner is not None:
        points[partner] = sign * contract
    return tuple(points), made


def match_winners(totals: list[int]) -> tuple[int, ...]:
    """The seats with the highest total (equal highest totals share the victory)."""
    best = max(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
