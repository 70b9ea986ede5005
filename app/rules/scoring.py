"""Scoring a finished deal (docs/spec/RULES.md section 9) and deciding the match (section 10).

``deal_points`` is the whole of the deal's scoring as a pure function of the contract,
the tricks per seat and the options: the engine scores a finished deal with it, and the
bots (app/bots/rollout.py) score their sampled deals with it, tricks still to come
shared out as fractions, so an option the engine scores is one the bots aim at.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from .ruleset import Options, RuleSet

# Whole tricks in the engine; expected tricks (fractions) in the bots' rollouts.
Tricks = TypeVar("Tricks", int, float)


class ScoredDeal(Protocol):
    """What ``score_deal`` reads of a finished deal (``deal.DealState`` is one).

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


def kitty_tricks(options: Options) -> int:
    """The tricks the kitty adds to the bidder's side on a numeric contract."""
    return 1 if options.kitty_trick and options.kitty else 0


def bidder_stake(options: Options, contract: int) -> int:
    """What the bidder wins on a made numeric contract and loses on a failed one."""
    return contract * 2 if options.bidder_double else contract


def deal_points(options: Options, tricks: Sequence[Tricks], bidder: int | None,
                partner: int | None, contract: int | None,
                hand_size: int) -> tuple[list[Tricks], bool | None]:
    """Every seat's points and whether the contract was made (``None``: no contract).

    ``bidder`` is ``None`` in a minus round; ``contract`` is ``None`` for Amerikaner;
    ``partner`` is ``None`` when the bidder plays alone.  The bots call this once a
    rollout, so it stays a few lines of arithmetic."""
    if bidder is None:
        return [-t for t in tricks], None
    points = list(tricks)  # every other player: +1 per trick won personally
    if contract is None:
        made = tricks[bidder] >= hand_size
        points[bidder] = options.amerikaner_points if made else -options.amerikaner_points
        return points, made
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
    if deal.minus_round:
        points, made = deal_points(deal.rules.options, deal.tricks_won, None, None, None,
                                   deal.hand_size)
        return tuple(points), made
    assert deal.bidder is not None
    contract = None if deal.amerikaner else deal.contract_bid
    assert contract is None or isinstance(contract, int)
    points, made = deal_points(deal.rules.options, deal.tricks_won, deal.bidder,
                               deal.partner, contract, deal.hand_size)
    return tuple(points), made


def match_winners(totals: list[int]) -> tuple[int, ...]:
    """The seats with the highest total (equal highest totals share the victory)."""
    best = max(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)
