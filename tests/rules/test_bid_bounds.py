"""Numeric bids are range-checked before anything is interned (issue 9): what a client
sends never grows the action cache."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules import actions
from app.rules.actions import BID_LIMIT, Bid, bid, parse_action
from app.rules.errors import BadActionShape


@pytest.mark.slow  # a million actions parsed
def test_a_million_distinct_bids_leave_the_interning_cache_bounded() -> None:
    for value in range(-500_000, 500_000):
        with contextlib.suppress(BadActionShape):
            parse_action({"bid": value})
    for value in (10 ** 4000, -(10 ** 4000)):  # ~2 KB each, were interned for ever
        with pytest.raises(BadActionShape, match=f"from 0 to {BID_LIMIT}"):
            parse_action({"seat": 1, "bid": value})
    assert len(actions._NUMERIC_BIDS) <= BID_LIMIT + 1
    assert set(actions._NUMERIC_BIDS) <= set(range(BID_LIMIT + 1))


@given(st.integers())
def test_any_integer_bid_parses_within_the_limit_and_is_refused_outside(value: int) -> None:
    if 0 <= value <= BID_LIMIT:
        assert parse_action({"bid": value}) is bid(value) == Bid(value)
    else:
        with pytest.raises(BadActionShape):
            parse_action({"bid": value})
        assert bid(value) == Bid(value)  # made fresh, never cached
        assert value not in actions._NUMERIC_BIDS
