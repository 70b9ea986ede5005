"""Par's work budget (app/bots/par_budget.py): a play's decisions take their samples
from its units, so a costly deal thins its samples instead of running long, and what a
decision gets is a function of the deal and the play alone (par stays reproducible)."""

from __future__ import annotations

import random

from test_par import dealt

from app.bots import BOTS, par_budget
from app.bots.par_budget import MIN_SAMPLES, PlayBudget, unit_cost
from app.rules import Play, RuleSet, SeatView
from app.rules.record import match_of_deal


def budgeted_play(seed: int, units: float) -> tuple[list[float], list[int], float]:
    """A deal played by easy (the same actions whatever the budget) with a budget asked
    at each decision as par asks it: each decision's units a sample, its samples, and
    the units spent."""
    rules = RuleSet("standard", target=30)
    match = match_of_deal(rules, dealt(rules, seed))
    state = match.deals[-1]
    rng = random.Random(seed)
    budget = PlayBudget(units, 8)
    costs, samples = [], []
    while state.turn is not None:
        view = SeatView(match, state.turn)
        costs.append(unit_cost(view))
        samples.append(budget.samples(view))
        match.apply(state.turn, BOTS["easy"].choose(view, rng))
    return costs, samples, budget.spent


def test_a_play_within_its_units_searches_every_decision_fully() -> None:
    costs, _, _ = budgeted_play(3, 1e9)
    full = sum(c * 8 for c in costs)
    _, samples, spent = budgeted_play(3, full * 2)
    assert samples == [8] * len(costs)
    assert spent == full


def test_a_costly_play_thins_its_samples_and_keeps_to_its_units() -> None:
    for seed in range(4):
        costs, _, _ = budgeted_play(seed, 1e9)
        units = sum(c * 8 for c in costs) * 0.6
        _, samples, spent = budgeted_play(seed, units)
        assert all(MIN_SAMPLES <= k <= 8 for k in samples)
        assert any(k < 8 for k in samples)
        # beyond its units only by the decisions held at the least samples
        floor = sum(c * MIN_SAMPLES for c, k in zip(costs, samples, strict=True)
                    if k == MIN_SAMPLES)
        assert spent <= units + floor + 1e-9
        assert budgeted_play(seed, units)[1:] == (samples, spent)  # the same every time


def test_nothing_to_search_costs_nothing() -> None:
    rules = RuleSet("standard", target=30)
    match = match_of_deal(rules, dealt(rules, 2))
    state = match.deals[-1]
    rng = random.Random(2)
    forced = 0
    while state.turn is not None:
        view = SeatView(match, state.turn)
        if len(view.legal) == 1 and isinstance(view.legal[0], Play):
            assert unit_cost(view) == 0.0
            forced += 1
        match.apply(state.turn, BOTS["easy"].choose(view, rng))
    assert forced  # the last trick's cards at least
    assert par_budget.play_cost(16) > par_budget.play_cost(12)
