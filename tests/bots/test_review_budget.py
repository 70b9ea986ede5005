"""A review's double dummy counts its budget in CPU time, not wall time (issue 23): on a
busy server, where wall time runs faster than the worker's CPU time, it solves as much
as on a quiet one; past a wall-clock cap (``WALL_CAP`` times the budget) it stops, and
the review says the server was busy.  Its decisions count their shares the same way
(issue 25): as many samples each on a busy server as on a quiet one.  Both clocks are
fakes that move by a fixed step at every reading (the solver reads them every 1024
nodes), so the counts are the same on every machine.

The deal (seed 3 of the easy bots, standard rules) takes about 260 readings to solve
from the first lead and 9 from trick 5: with a budget of 2 s at 0.01 s a reading, the
first try (45 readings) gives up and the second (15) finds it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from bot_helpers import Ticking

from app.bots import BOTS
from app.bots import review as review_module
from app.bots import search as search_module
from app.bots.review import WALL_CAP, Budget, review_deal
from app.bots.search import Clocks
from app.bots.search_settings import SearchSettings
from app.double_dummy import DoubleDummy, DoubleDummySkipped
from app.rules import Phase, RuleSet
from app.rules.record import deal_to_record
from app.simulate import play_deal

STEP = 0.01  # CPU seconds a reading
SECONDS = 2.0  # the review's time: 0.45 CPU s for the first try, 0.15 for the second
# the decisions are not what is tested here: judged at once, on the heuristic's choice
QUICK = SearchSettings(budget=0.0, samples=1, exact=0, exact_now=0, search_auction=False,
                       search_bid=False)


@pytest.fixture
def clocks(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clocks]:
    monkeypatch.setattr(review_module, "REVIEW", QUICK)
    saved = search_module.CLOCKS
    search_module.CLOCKS = Clocks()
    yield search_module.CLOCKS
    search_module.CLOCKS = saved


def reviewed(clocks: Clocks, wall_step: float, seconds: float = SECONDS) -> dict[str, Any]:
    rules = RuleSet("standard", match="single_deal")
    deal = play_deal(rules, [BOTS["easy"]] * 4, 3).deals[-1]
    assert deal.bidder is not None and not deal.minus_round
    clocks.cpu = Ticking(STEP)
    clocks.wall = Ticking(wall_step)
    return review_deal(rules, deal_to_record(deal), deal.bidder, random.Random(1),
                       clocks.wall() + seconds).to_json()


def test_wall_time_running_faster_than_cpu_time_does_not_cut_the_double_dummy(
        clocks: Clocks) -> None:
    quiet = reviewed(clocks, wall_step=STEP)
    # wall time at 2.5 times the CPU time: a budget in wall time would give up at
    # 6 readings of the second try, short of the 9 it takes
    busy = reviewed(clocks, wall_step=2.5 * STEP)
    assert quiet["double_dummy_from_trick"] == 5 and quiet["double_dummy"] is not None
    assert quiet["double_dummy_skipped"] is None
    assert (busy["double_dummy"], busy["double_dummy_from_trick"]) == (
        quiet["double_dummy"], quiet["double_dummy_from_trick"])


def test_past_the_wall_clock_cap_the_review_says_the_server_was_busy(
        clocks: Clocks) -> None:
    # ten times: the cap (WALL_CAP times the budget) comes after 4 readings of the second
    swamped = reviewed(clocks, wall_step=10 * STEP)
    assert swamped["double_dummy"] is None and swamped["double_dummy_from_trick"] is None
    assert swamped["double_dummy_skipped"] == DoubleDummySkipped.BUSY


def test_a_budget_too_small_for_the_deal_says_so(clocks: Clocks) -> None:
    tight = reviewed(clocks, wall_step=STEP, seconds=0.5)  # 3 readings for the second try
    assert tight["double_dummy"] is None
    assert tight["double_dummy_skipped"] == DoubleDummySkipped.TOO_LONG


def test_the_budget_stops_on_cpu_time_and_is_capped_by_wall_time(clocks: Clocks) -> None:
    cpu, wall = [0.0], [0.0]
    clocks.cpu = lambda: cpu[0]
    clocks.wall = lambda: wall[0]
    budget = Budget(1.0, 1.0 * WALL_CAP)
    wall[0] = 2.5  # a busy machine: 2.5 s of wall time, 0.5 s of CPU time
    cpu[0] = 0.5
    assert not budget.over()
    cpu[0] = 1.0
    assert budget.over() and not budget.busy, "its CPU time spent: not the server's fault"
    capped = Budget(1.0, 1.0 * WALL_CAP)
    wall[0] += WALL_CAP
    assert capped.over() and capped.busy


# The decisions (issue 25, a busy machine in the e2e replay test): a cheap search whose
# sample cap is never reached, so only the budget decides how many samples each takes.
LIGHT = SearchSettings(budget=10.0, samples=10_000, exact=1, exact_now=1, search_auction=False,
                       search_bid=False)


def decision_samples(clocks: Clocks, wall_step: float, seconds: float = 2.0) -> list[int]:
    """The samples of each card the review of seed 3's bidder judged by search (LIGHT
    judges bids, the discard and the first lead at once), the double dummy known (so the
    decisions have the review's whole time)."""
    rules = RuleSet("standard", match="single_deal")
    deal = play_deal(rules, [BOTS["easy"]] * 4, 3).deals[-1]
    assert deal.bidder is not None
    clocks.cpu = Ticking(STEP)
    clocks.wall = Ticking(wall_step)
    done: dict[str, Any] = review_deal(rules, deal_to_record(deal), deal.bidder, random.Random(1),
                       clocks.wall() + seconds, known=DoubleDummy(8, 1)).to_json()
    return [d["samples"] for d in done["decisions"] if d["phase"] == Phase.PLAY]


def test_a_busy_machine_judges_each_decision_on_as_many_samples_as_a_quiet_one(
        clocks: Clocks, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_module, "REVIEW", LIGHT)
    # The wall clock is read several times a sample (the hard stop, at each candidate),
    # the CPU clock twice: a wall step of a tenth of the CPU step is a quiet machine, and
    # half of it has wall time run five times as fast, within the cap (WALL_CAP times a
    # decision's share).  A share of wall time would stop each decision far sooner.
    quiet = decision_samples(clocks, wall_step=STEP / 10)
    busy = decision_samples(clocks, wall_step=STEP / 2)
    assert len(quiet) > 3 and min(quiet) > 3
    assert busy == quiet
    # far past the cap, the wall clock stops them: the review still ends, with fewer
    swamped = decision_samples(clocks, wall_step=10 * STEP)
    assert len(swamped) == len(quiet) and sum(swamped) < sum(quiet) / 4
