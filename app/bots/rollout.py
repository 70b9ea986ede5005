"""Playing a sampled deal out and scoring it for one seat.

``finish(deal, seat, exact, rng)`` plays the deal on with the heuristic bot in every seat
until ``exact`` tricks are left, solves those exactly (solver.py) and returns what the
deal is worth to ``seat`` under the game's scoring (docs/spec/RULES.md section 9), the engine's own
``app.rules.scoring.deal_points`` on the tricks taken and expected.  In the solved part the
seat's side maximises its tricks and the other side minimises them; a defender's share
of its side's tricks still to come counts as an even split between the defenders.

The heuristic plays through a ``SeatView`` of the sampled deal, as it does at a table:
the rollout never lets it see more than that seat could.
"""

from __future__ import annotations

import random

from app.rules import DealState, Match, Play, SeatView, scoring
from app.rules.outcomes import Outcome
from app.rules.phases import Phase

from .heuristic import HeuristicBot
from .sighted import sighted_follow
from .solver import Endgame
from .table_facts import PublicPlay

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


def play_heuristic(deal: DealState, rng: random.Random, tricks_left: int = 0,
                   auction_only: bool = False, sighted: int = -1) -> None:
    """Let the heuristic play every seat until ``tricks_left`` tricks remain (at a trick
    boundary) or the deal is over; the auction and kitty included if they are not done.
    With ``auction_only`` it stops when the auction is over.  Seat ``sighted`` follows
    seeing the deal where it can (sighted.py)."""
    match = shell(deal)
    views = [SeatView(match, s) for s in range(deal.n)]
    choose = POLICY.choose_seen
    size = deal.hand_size
    public = PublicPlay(deal.n)
    tricks = deal.tricks
    while deal.turn is not None:
        if auction_only and deal.phase != Phase.AUCTION:
            return
        if (tricks_left and deal.phase == Phase.PLAY and not deal.trick_cards
                and size - deal.tricks_played <= tricks_left):
            return
        seat = deal.turn
        if seat == sighted and deal.trick_cards:
            plays = {a.card: a for a in deal.legal_actions() if isinstance(a, Play)}
            card = sighted_follow(deal, seat, sum(1 << c for c in plays), sides(deal, seat)[0])
            if card is not None:
                deal.apply(seat, plays[card])
                continue
        if len(tricks) != public.tricks:
            public.note(tricks)
        deal.apply(seat, choose(views[seat], rng, public))


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


def score(deal: DealState, seat: int, future: int,
          relative: bool = False, together: bool = False) -> tuple[float, float]:
    """(points for ``seat``, tricks of its side) once ``future`` more tricks go to the
    counted seats of ``solver_for`` (``deal`` as it stands, unfinished or not).  With
    ``relative``, the points are the seat's minus the mean of the other seats' (what a
    duplicate comparison and a match to a target reward: beating a contract costs the
    opponents, a partner's plus is an opponent's plus too).  With ``together`` too, a
    defender's points are the defenders' mean relative points (its own trick and the
    other defender's count alike)."""
    points, total = deal_points(deal, seat, future)
    mine = points[seat]
    if relative:
        n = deal.n
        everyone = sum(points)
        mine -= (everyone - mine) / (n - 1)
        if together and not deal.minus_round and deal.bidder is not None:
            side, _ = sides(deal, seat)
            if not side >> deal.bidder & 1:
                defenders = _seats(side)
                mine = sum(points[d] - (everyone - points[d]) / (n - 1)
                           for d in defenders) / len(defenders)
    return mine, total


def deal_points(deal: DealState, seat: int, future: int) -> tuple[list[float], float]:
    """(every seat's points, the tricks of ``seat``'s side) once ``future`` more tricks
    go to the counted seats of ``solver_for``; tricks nobody is known to take are shared
    evenly between the seats that may take them."""
    won = deal.tricks_won
    n = deal.n
    if deal.outcome == Outcome.VOID:  # passed out: nobody scores, the deal is dealt again
        return [0.0] * n, 0.0
    side, _ = sides(deal, seat)
    members = _seats(side)
    if deal.phase == Phase.OVER and deal.points is not None:
        return [float(p) for p in deal.points], float(sum(won[s] for s in members))
    rest = deal.hand_size - deal.tricks_played - future  # tricks the others take
    if deal.minus_round:
        share = rest / (n - 1)
        tricks = [won[s] + share for s in range(n)]
        tricks[seat] = float(won[seat] + future)
        points, _ = scoring.deal_points(deal, tricks)
        return points, points[seat]
    o = deal.rules.options
    bidder = deal.bidder
    assert bidder is not None
    tricks = [float(t) for t in won]
    outside = [s for s in range(n) if not side >> s & 1]
    for s in members:
        tricks[s] += future / len(members)
    for s in outside:
        tricks[s] += rest / len(outside)
    # The engine's own scoring (app/rules/scoring.py) of the deal, on the expected tricks.
    points, _ = scoring.deal_points(deal, tricks)
    side_total = sum(tricks[s] for s in members)
    if side >> bidder & 1 and not deal.amerikaner:
        side_total += scoring.kitty_tricks(o)
    return [float(p) for p in points], side_total


def _seats(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


def finish(deal: DealState, seat: int, exact: int, rng: random.Random,
           solver: Endgame | None = None, relative: bool = False,
           together: bool = False, sighted: bool = False) -> tuple[float, float]:
    """Play ``deal`` (changed in place) on to the end for ``seat``: heuristic play until
    ``exact`` tricks are left, then the exact endgame.  (points, side tricks).  With
    ``sighted``, ``seat`` follows seeing the deal where it can (sighted.py)."""
    play_heuristic(deal, rng, exact, sighted=seat if sighted else -1)
    if deal.turn is None:
        return score(deal, seat, 0, relative, together)
    if solver is None:
        solver = solver_for(deal, seat)
    future = solver.value(deal.hands, deal.leader if deal.trick_cards else deal.turn,
                          deal.trick_cards)
    return score(deal, seat, future, relative, together)


def value(points: float, tricks: float) -> float:
    """How ``finish``'s pair is compared: points, then tricks."""
    return points + TRICK_WEIGHT * tricks


__all__ = ["deal_points", "finish", "play_heuristic", "score", "shell", "sides", "solver_for",
           "value"]
