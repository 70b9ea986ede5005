"""Par (app/bots/par.py): the same cards, played by the bots from every seat.

Par is reproducible (the same deal and seed give the same par, whatever the clocks
say), every play is dealt exactly the recorded hands and kitty with the recorded dealer,
and every play's points are the engine's for that play (its record replayed by
``replay_record``, scored by ``scoring.deal_points``). The properties run on ``easy``,
which costs microseconds; ``strong``, the production level, is checked once for
determinism on a clock that would stop any time-bounded search at once."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from bot_helpers import Ticking

from app.bots import BOTS, par
from app.bots import search as search_module
from app.bots.search import Clocks
from app.bots.shapes import SHAPES, shape_rules
from app.rules import Match, RuleSet, SeatView, parse_action, scoring
from app.rules.cards import mask_of_ids
from app.rules.record import FORMAT, deal_to_record, match_of_deal, replay_record


def dealt(rules: RuleSet, seed: int) -> dict[str, Any]:
    """A deal of ``rules`` as a record holds it, played to its end by ``easy``
    (a finished deal, as the clubs will ask par for)."""
    match = Match(rules.with_changes({"match": "single_deal"}), rng=random.Random(seed))
    match.start_deal()
    rng = random.Random(seed)
    deal = match.deals[-1]
    while deal.turn is not None:
        seat = deal.turn
        match.apply(seat, BOTS["easy"].choose(SeatView(match, seat), rng))
    return deal_to_record(deal)


@pytest.fixture
def clocks() -> Iterator[Clocks]:
    saved = search_module.CLOCKS
    search_module.CLOCKS = Clocks()
    yield search_module.CLOCKS
    search_module.CLOCKS = saved


def played_record(rules: RuleSet, deal: dict[str, Any],
                  play: par.ParPlay) -> dict[str, Any]:
    n = rules.options.players
    return {"format": FORMAT, "rules": rules.to_json(),
            "players": [f"bot {s}" for s in range(n)], "deals": [play.deal_record(deal)]}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_play_is_the_recorded_cards_scored_by_the_engine(shape: str) -> None:
    rules = shape_rules(shape, target=30)
    for seed in range(3):
        deal = dealt(rules, seed)
        plays = [par.play_par(rules, deal, k, 99, "easy") for k in range(3)]
        for play in plays:
            record = play.deal_record(deal)
            # exactly the recorded cards and dealer: the play's own record holds them,
            # and the engine accepts every action of it with them
            assert (record["dealer"], record["hands"], record["kitty"]) == \
                (deal["dealer"], deal["hands"], deal["kitty"])
            result = replay_record(played_record(rules, deal, play))
            assert result["ok"], result
            [scored] = result["deals"]
            assert scored["points"] is not None
            assert tuple(scored["points"]) == play.points
            # every card a seat played was in its recorded hand, or in the recorded kitty
            # for the bidder who took it
            plays_seen = 0
            for action in play.actions:
                if "play" in action:
                    held = mask_of_ids(deal["hands"][action["seat"]]) | mask_of_ids(
                        deal["kitty"])
                    assert mask_of_ids([action["play"]]) & held, action
                    plays_seen += 1
            assert plays_seen in (0, len(deal["hands"]) * len(deal["hands"][0]))
            # the points sum as the engine's scoring of that play does
            again = match_of_deal(rules, record)
            for entry in record["actions"]:
                again.apply(int(entry["seat"]), parse_action(entry))
            state = again.deals[-1]
            if state.outcome != "void":
                points, _ = scoring.score_deal(state)
                assert sum(points) == sum(play.points)
        result_par = par.par_from_plays("easy", 99, plays)
        for s in range(rules.options.players):
            assert result_par.seat_means[s] == pytest.approx(
                sum(p.points[s] for p in plays) / 3)
        assert result_par.plays == 3 and result_par.play_points == tuple(p.points for p in plays)


def test_par_is_the_same_for_the_same_deal_and_seed() -> None:
    rules = RuleSet("standard", target=30)
    deal = dealt(rules, 5)
    first = par.par_of_deal(rules, deal, plays=4, level="easy")
    again = par.par_of_deal(rules, deal, plays=4, level="easy")
    assert first.seed == again.seed == par.deal_seed(rules, deal)
    stored = par.Par.from_json(first.to_json())
    assert (stored.seat_means, stored.play_points, stored.plays) == \
        (first.seat_means, first.play_points, first.plays)
    assert (first.seat_means, first.play_points) == (again.seat_means, again.play_points)
    # what was played at the table does not change par: only the cards do
    assert par.par_of_deal(rules, {**deal, "actions": []}, plays=4,
                           level="easy").seat_means == first.seat_means
    # the plays draw from the seed's streams: the random bot plays otherwise by seed
    others = {par.par_of_deal(rules, deal, plays=2, level="random", seed=s).play_points
              for s in range(6)}
    assert len(others) > 1
    assert par.deal_seed(rules, dealt(rules, 6)) != first.seed


def test_strong_par_does_not_depend_on_the_clocks(clocks: Clocks) -> None:
    """One play by the production level, twice: on the real clocks, then on clocks
    that move a second at every reading (any search bounded by CPU or wall time would
    stop at its first sample there). The same actions, the same points."""
    rules = RuleSet("standard", target=30)
    deal = dealt(rules, 11)
    quiet = par.play_par(rules, deal, 0, 1234)
    clocks.cpu = Ticking(1.0)
    clocks.wall = Ticking(1.0)
    stalled = par.play_par(rules, deal, 0, 1234)
    assert (stalled.actions, stalled.points) == (quiet.actions, quiet.points)
    assert quiet.cpu_seconds > 0


def test_a_deal_of_other_rules_is_refused() -> None:
    deal = dealt(RuleSet("standard"), 1)
    with pytest.raises(par.ParError):
        par.play_par(RuleSet("standard", players=3), deal, 0, 1, "easy")
    with pytest.raises(ValueError):
        par.par_bot("normal")
