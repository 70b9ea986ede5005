"""Scoring a finished deal (docs/spec/RULES.md section 9) and deciding the match (section 10).

``deal_points`` is the whole of the deal's scoring as a pure function of the deal's facts
(its options, contract, bidder, partner, tricks as played: ``ScoredDeal``) and the tricks
per seat: the engine scores a finished deal with it, and the bots (app/bots/rollout.py)
score their sampled deals with it, passing the deal itself and the tricks still to come
shared out as fractions, so an option the engine scores is one the bots aim at, whatever
fact of the deal it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from .ruleset import Options, RuleSet

# Whole tricks in the engine; expected tricks (fractions) in the bots' rollouts.
Tricks = TypeVar("Tricks", int, float)


class ScoredDeal(Protocol):
    """What ``deal_points`` reads of a deal (``deal.DealState`` is one): a finished one for
    the engine, one in play for the bots' rollouts (the tricks still to come are not in
    ``tricks`` yet; the bots pass their expected share of them as ``deal_points``'s
    ``tricks``).

    A protocol rather than ``DealState`` itself so that the import runs one way: deal.py
    scores with this module, and this module knows nothing of deal.py."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def minus_round(self) -> bool: ...
    @property
    def tricks_won(self) -> Sequence[int]: ...
    @property
    def bidder(self) -> int | None: ...
    @property
    def partner(self) -> int | None: ...
    @property
    def amerikaner(self) -> bool: ...
    @property
    def contract_bid(self) -> int | str | None: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def tricks(self) -> Sequence[tuple[int, tuple[int, ...], int]]: ...  # (leader, cards, winner)


def kitty_tricks(options: Options) -> int:
    """The tricks the kitty adds to the bidder's side on a numeric contract."""
    return 1 if options.kitty_trick and options.kitty else 0


def bidder_stake(options: Options, contract: int) -> int:
    """What the bidder wins on a made numeric contract and loses on a failed one."""
    return contract * 2 if options.bidder_double else contract


def deal_points(deal: ScoredDeal,
                tricks: Sequence[Tricks]) -> tuple[list[Tricks], bool | None]:
    """Every seat's points and whether the contract was made (``None``: no contract), the
    seats having taken ``tricks`` (the deal's ``tricks_won``; the bots' expected tricks).

    The bots call this once a rollout, so it stays a few lines of arithmetic."""
    if deal.minus_round:
        return [-t for t in tricks], None
    options = deal.rules.options
    bidder = deal.bidder
    assert bidder is not None
    partner = deal.partner
    points = list(tricks)  # every other player: +1 per trick won personally
    if deal.amerikaner:
        made = tricks[bidder] >= deal.hand_size
        points[bidder] = options.amerikaner_points if made else -options.amerikaner_points
        return points, made
    contract = deal.contract_bid
    assert isinstance(contract, int)
    # The side's tricks in seat order, as the bots always added them (the same floats).
    if partner is None:
        side = tricks[bidder]
    elif partner < bidder:
        side = tricks[partner] + tricks[bidder]
    else:
        side = tricks[bidder] + tricks[partner]
    made = side + kitty_tricks(options) >= contract
    sign = 1 if made else -1
    points[bidder] = sign * bidder_stake(options, contract)
    if partner is not None:
        points[partner] = sign * contract
    return points, made


def score_deal(deal: ScoredDeal) -> tuple[tuple[int, ...], bool | None]:
    """The deal's points per seat and whether the contract was made (``None``: no contract)."""
    points, made = deal_points(deal, deal.tricks_won)
    return tuple(points), made


def match_winners(totals: list[int]) -> tuple[int, ...]:
    """The seats with the highest total (equal highest totals share the victory)."""
    best = max(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
