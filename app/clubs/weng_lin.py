"""Weng-Lin ratings in plain floats: the Plackett-Luce update of ``openskill``.

The standings fold a club's every match (standings.py), and openskill's ``rate`` spends
most of a fold making objects (a deep copy of every rating and a UUID for each, at every
match): a club of 1,000 matches took about 45 ms of CPU, 90 % of it there.  This is the
same arithmetic (openskill's ``PlackettLuce`` with its defaults: ``mu`` 25, ``sigma``
25/3, ``beta`` 25/6, ``kappa`` 0.0001, ``tau`` 25/300, the default ``gamma``) on tuples
of floats, for teams of one player, as the clubs rate: tests/rooms/test_weng_lin.py
checks it against openskill itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
KAPPA = 0.0001
TAU = MU / 300
TAU2 = TAU * TAU
BETA2 = BETA * BETA


class Skill(NamedTuple):
    """One player's rating: ``mu`` the skill, ``sigma`` how unsure it is."""

    mu: float
    sigma: float


DEFAULT = Skill(MU, SIGMA)


def rate(players: Sequence[Skill], ranks: Sequence[float]) -> list[Skill]:
    """The players' new ratings after one game where ``ranks[i]`` is player ``i``'s place
    (lower is better; equal ranks tie), each a team of one, in the order given."""
    n = len(players)
    # openskill widens each sigma by tau before the game (its default, so that a rating
    # played often keeps moving)
    sig2 = [sigma * sigma + TAU2 for _, sigma in players]
    c = math.sqrt(sum(sig2) + n * BETA2)
    e = [math.exp(mu / c) for mu, _ in players]
    # per player q: its rank, 1 / the sum over the players placed at its rank or below,
    # 1 / how many share its rank
    qs: list[tuple[float, float, float]] = []
    for rq in ranks:
        below = 0.0
        tied = 0
        for ri, ei in zip(ranks, e, strict=True):
            if ri >= rq:
                below += ei
                tied += ri == rq
        qs.append((rq, 1.0 / below, 1.0 / tied))
    out: list[Skill] = []
    for i in range(n):
        ri, ei = ranks[i], e[i]
        # openskill's omega adds (1 - share) / a for q = i and -share / a for the others
        omega = qs[i][2]
        delta = 0.0
        for rq, inv_sum, inv_tied in qs:
            if rq <= ri:
                share = ei * inv_sum
                delta += share * (1 - share) * inv_tied
                omega -= share * inv_tied
        s2 = sig2[i]
        sigma = math.sqrt(s2)
        # gamma (openskill's default): sqrt(sigma^2) / c; a team of one holds all of its
        # team's variance
        delta *= s2 / (c * c) * sigma / c
        out.append(Skill(players[i][0] + omega * s2 / c,
                         sigma * math.sqrt(max(1 - delta, KAPPA))))
    return out
