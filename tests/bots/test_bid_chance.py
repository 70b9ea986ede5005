"""A bid's chance of being made from the samples' tricks (app/bots/bid_chance.py)."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from app.bots.bid_chance import PRIOR_SAMPLES, chance_of_making, pooled
from app.bots.heuristic import chance_at_least

TRICKS = st.lists(st.integers(0, 13).map(float), max_size=60)


def test_width_zero_is_one_normal_around_the_pooled_mean() -> None:
    tricks = [6.0, 7.0, 7.0, 11.0]
    mean, sd = pooled(tricks, 8.0, 1.5)
    pooled_mean, chance = chance_of_making(tricks, 8.0, 1.5, 0.0)
    assert pooled_mean == mean
    for b in range(5, 13):
        assert chance(b) == chance_at_least(mean, sd, b)


def test_the_kernel_keeps_a_skewed_spread_that_one_normal_smooths_away() -> None:
    # A side that makes 11 in a quarter of the samples and 6 in the rest: the chance of
    # 11 is about that quarter (less the prior's pull), where one normal gives a third
    # of it.
    tricks = [11.0] * 25 + [6.0] * 75
    prior, sigma = 7.25, 2.2
    kernel = chance_of_making(tricks, prior, sigma, 0.3)[1](11)
    own = 25 * chance_at_least(11.0, 0.3, 11) + 75 * chance_at_least(6.0, 0.3, 11)
    want = (own + PRIOR_SAMPLES * chance_at_least(prior, sigma, 11)) / (100 + PRIOR_SAMPLES)
    assert abs(kernel - want) < 1e-12
    assert kernel > 0.2
    assert chance_of_making(tricks, prior, sigma, 0.0)[1](11) < 0.08


def test_with_no_samples_the_kernel_is_the_fitted_estimate() -> None:
    _, chance = chance_of_making([], 8.0, 1.5, 0.7)
    assert chance(9) == chance_at_least(8.0, 1.5, 9)


@given(TRICKS, st.floats(0.0, 13.0), st.floats(0.5, 4.0), st.sampled_from([0.0, 0.3, 0.7]))
def test_a_higher_contract_is_never_likelier(tricks: list[float], prior: float,
                                             sigma: float, width: float) -> None:
    _, chance = chance_of_making(tricks, prior, sigma, width)
    values = [chance(b) for b in range(1, 14)]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert all(a >= b - 1e-12 for a, b in pairwise(values))
