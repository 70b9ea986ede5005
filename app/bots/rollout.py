"""Playing a sampled deal out and scoring it for one seat.

``finish(deal, seat, exact, rng)`` plays the deal on with the heuristic bot in every seat
until ``exact`` tricks are left, solves those exactly (solver.py) and returns what the
deal is worth to ``seat`` under the game's scoring (RULES.md section 9): the bidder's side
scores the contract all or nothing (doubled for the bidder under ``bidder_double``), a
defender its own tricks, a minus round minus the tricks taken.  In the solved part the
seat's side maximises its tricks and the other side minimises them; a defender's share
of its side's tricks still to come counts as an even split between the defenders.

The heuristic plays through a ``SeatView`` of the sampled deal, as it does at a table:
the rollout never lets it see more than that seat could.
"""

from __future__ import annotations

import random

from app.rules import DealState, Match, SeatView

from .heuristic import HeuristicBot
from .solver import Endgame

POLICY = HeuristicBot()
TRICK_WEIGHT = 0.01  # tie-break: among equal scores, more tricks for my side


def shell(deal: DealState) -> Match:
    """A match around one sampled deal, for ``SeatView`` (no shuffle, no totals)."""
    match = Match.__new__(Match)
    match.rules = deal.rules
    match.n = deal.n
    match.deals = [deal]
    match.totals = [0] * deal.n
    match.scored = []
    match.finished = False
    match.winners = ()
    match.auto_redeal = False
    match.dealer = deal.dealer
    return match


def play_heuristic(deal: DealState, rng: random.Random, tricks_left: int = 0) -> None:
    """Let the heuristic play every seat until ``tricks_left`` tricks remain (at a trick
    boundary) or the deal is over; the auction and kitty included if they are not done."""
    match = shell(deal)
    views = [SeatView(match, s) for s in range(deal.n)]
    choose = POLICY.choose
    size = deal.hand_size
    while deal.turn is not None:
        if (tricks_left and deal.phase == "play" and not deal.trick_cards
                and size - deal.tricks_played <= tricks_left):
            return
        seat = deal.turn
        deal.apply(seat, choose(views[seat], rng))


def sides(deal: DealState, seat: int) -> tuple[int, int]:
    """(mask of seat's side, mask of seats whose tricks count) in this complete deal."""
    n = deal.n
    everyone = (1 << n) - 1
    if deal.minus_round:
        return 1 << seat, 1 << seat
    bidder = deal.bidder
    assert bidder is not None
    side = 1 << bidder
    if deal.partner is not None:
        side |= 1 << deal.partner
    if side >> seat & 1:
        return side, side
    return everyone & ~side, everyone & ~side


def solver_for(deal: DealState, seat: int) -> Endgame:
    """The exact solver for the rest of ``deal`` from ``seat``'s point of view."""
    side, counted = sides(deal, seat)
    n = deal.n
    if deal.minus_round:
        # Paranoid: I keep my tricks down, everyone else pushes them up.
        maxers = ((1 << n) - 1) & ~(1 << seat)
    else:
        maxers = side
    forced = 0
    if deal.tricks_played == 0 and deal.called is not None and deal.reveals >= 0:
        forced = 1 << deal.called
    o = deal.rules.options
    return Endgame(n, deal.trump, bool(o.led_two_wins), counted, maxers, forced)


def score(deal: DealState, seat: int, future: int) -> tuple[float, float]:
    """(points for ``seat``, tricks of its side) once ``future`` more tricks go to the
    counted seats of ``solver_for`` (``deal`` as it stands, unfinished or not)."""
    won = deal.tricks_won
    if deal.phase == "over" and deal.points is not None:
        side, _ = sides(deal, seat)
        return float(deal.points[seat]), float(sum(won[s] for s in _seats(side)))
    side, _ = sides(deal, seat)
    if deal.minus_round:
        mine = won[seat] + future
        return -float(mine), -float(mine)
    o = deal.rules.options
    bidder = deal.bidder
    assert bidder is not None
    members = _seats(side)
    if not side >> bidder & 1:  # a defender: its own tricks, an even share of the rest
        share = future / len(members)
        total = sum(won[s] for s in members) + future
        return won[seat] + share, float(total)
    total = sum(won[s] for s in members) + future
    if deal.amerikaner:
        made = total == deal.hand_size
        return float(o.amerikaner_points if made else -o.amerikaner_points), float(total)
    if o.kitty and o.kitty_trick:
        total += 1
    contract = deal.contract_bid
    assert isinstance(contract, int)
    points = contract if total >= contract else -contract
    if seat == bidder and o.bidder_double:
        points *= 2
    return float(points), float(total)


def _seats(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


def finish(deal: DealState, seat: int, exact: int, rng: random.Random,
           solver: Endgame | None = None) -> tuple[float, float]:
    """Play ``deal`` (changed in place) on to the end for ``seat``: heuristic play until
    ``exact`` tricks are left, then the exact endgame.  (points, side tricks)."""
    play_heuristic(deal, rng, exact)
    if deal.turn is None:
        return score(deal, seat, 0)
    if solver is None:
        solver = solver_for(deal, seat)
    future = solver.value(deal.hands, deal.leader if deal.trick_cards else deal.turn,
                          deal.trick_cards)
    return score(deal, seat, future)


def value(points: float, tricks: float) -> float:
    """How ``finish``'s pair is compared: points, then tricks."""
    return points + TRICK_WEIGHT * tricks


__all__ = ["finish", "play_heuristic", "score", "shell", "sides", "solver_for",
           "value"]
