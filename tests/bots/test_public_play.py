"""A rollout notes the completed tricks once (``table_facts.PublicPlay``) rather than
read them all again at every card: what each seat then sees, and so how the heuristic
plays a rollout, must be exactly what reading the view gives."""

from __future__ import annotations

import random

import pytest

from app.bots.heuristic import HeuristicBot
from app.bots.rollout import play_heuristic, shell
from app.bots.shapes import SHAPES, shape_rules
from app.bots.table_facts import PublicPlay, seen_play
from app.rules import DealState, Match, SeatView


def dealt(shape: str, seed: int) -> DealState:
    match = Match(shape_rules(shape), random.Random(seed))
    match.start_deal()
    return match.deals[-1]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_noted_tricks_see_what_the_view_shows(shape: str) -> None:
    policy = HeuristicBot()
    rng = random.Random(shape)
    checked = 0
    for seed in range(6):
        deal = dealt(shape, seed)
        match = shell(deal)
        public = PublicPlay(deal.n)
        while deal.turn is not None:
            seat = deal.turn
            view = SeatView(match, seat)
            public.note(deal.tricks)
            if deal.tricks:
                assert seen_play(view, public) == seen_play(view)
                checked += 1
            deal.apply(seat, policy.choose(view, rng))
    assert checked > 50


@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_rollout_plays_as_the_heuristic_does_card_by_card(shape: str) -> None:
    """From the deal's start and from a deal half played: the same cards, in order."""
    policy = HeuristicBot()
    for seed in range(4):
        for head in (0, 9):
            deal = dealt(shape, 100 + seed)
            for _ in range(head):  # a few moves first, so the rollout starts mid-deal
                seat = deal.turn
                assert seat is not None
                deal.apply(seat, policy.choose(SeatView(shell(deal), seat), random.Random(1)))
            mine, theirs = deal.copy(), deal.copy()
            play_heuristic(mine, random.Random(seed), 2)
            rng = random.Random(seed)
            match = shell(theirs)
            while theirs.turn is not None and not (
                    theirs.tricks_played >= theirs.hand_size - 2 and not theirs.trick_cards
                    and theirs.tricks_played):
                seat = theirs.turn
                theirs.apply(seat, policy.choose(SeatView(match, seat), rng))
            assert mine.tricks == theirs.tricks
            assert mine.hands == theirs.hands
