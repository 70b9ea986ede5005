"""A numeric bid's chance of being made, from the side tricks of the search's samples.

The search (search.py, ``_bid``) plays each sample out with this seat as bidder and counts
its side's tricks.  A few dozen samples are noisy, so they are pooled with
``PRIOR_SAMPLES`` worth of the fitted estimate that ``easy`` bids from (hand_eval.py,
calibrated on many deals).  Two ways to turn them into a chance of making ``b`` tricks
(``SearchSettings.chance_width``):

- width 0: one normal spread around the pooled mean (the levels' default);
- a width: each sample's own count, smoothed by a normal that wide (the side's tricks
  are skewed: a long trump suit makes its last tricks or none, which one normal spread
  misprices).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .heuristic import chance_at_least

PRIOR_SAMPLES = 8  # weight of the fitted spread against the samples' own, in samples


def pooled(tricks: list[float], prior: float, sigma: float) -> tuple[float, float]:
    """Mean and spread of the side's tricks: the samples' pooled with PRIOR_SAMPLES worth
    of the fitted estimate (``prior``, ``sigma``)."""
    k = len(tricks)
    raw = sum(tricks) / k if k else prior
    mean = (k * raw + PRIOR_SAMPLES * prior) / (k + PRIOR_SAMPLES)
    spread = sum((t - raw) ** 2 for t in tricks)
    return mean, math.sqrt((spread + PRIOR_SAMPLES * sigma * sigma) / (k + PRIOR_SAMPLES))


def chance_of_making(tricks: list[float], prior: float, sigma: float,
                     width: float) -> tuple[float, Callable[[int], float]]:
    """The side's pooled mean tricks (``pooled``) and ``contract -> P(side tricks >=
    contract)``: with ``width`` 0 from one normal spread around that mean, else from each
    sample's tricks spread ``width`` wide, pooled with PRIOR_SAMPLES worth of the fitted
    normal."""
    mean, sd = pooled(tricks, prior, sigma)
    if not width:
        return mean, lambda contract: chance_at_least(mean, sd, contract)

    def kernel(contract: int) -> float:
        own = sum(chance_at_least(t, width, contract) for t in tricks)
        fitted = PRIOR_SAMPLES * chance_at_least(prior, sigma, contract)
        return (own + fitted) / (len(tricks) + PRIOR_SAMPLES)

    return mean, kernel


__all__ = ["PRIOR_SAMPLES", "chance_of_making", "pooled"]
