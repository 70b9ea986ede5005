"""Scoring a deal (docs/spec/RULES.md section 9), row by row, and the worked example of seed 000."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import bids, current_deal, exact_match, replay_example, rules

from app.rules import DealState
from app.rules.cards import parse_card
from app.rules.scoring import match_winners, score_deal


def score(won: list[int], bidder: int | None = 1, bid: int | str = 7,
          partner: int | None = 2, **options: Any) -> tuple[tuple[int, ...], bool | None]:
    """Score a finished deal with these tricks per seat (``bidder=None``: a minus round)."""
    rs = rules(**options)
    deal = DealState(rs, 0, current_deal(exact_match(rs)).hands, 0)
    deal.tricks_won = list(won)
    deal.bidder = bidder
    deal.contract_bid = bid if bidder is not None else None
    deal.amerikaner = bid == "amerikaner"
    deal.partner = partner
    deal.minus_round = bidder is None
    return score_deal(deal)


@pytest.mark.parametrize(("won", "points", "made"), [
    ([3, 5, 3, 1], (3, 7, 7, 1), True),       # side 8 >= 7
    ([4, 4, 3, 1], (4, 7, 7, 1), True),       # side exactly 7
    ([4, 1, 5, 2], (4, -7, -7, 2), False),    # side 6
    ([0, 12, 0, 0], (0, 7, 7, 0), True),      # overtricks score nothing extra
    ([6, 0, 0, 6], (6, -7, -7, 6), False),
])
def test_numeric_contract(won: list[int], points: tuple[int, ...], made: bool) -> None:
    assert score(won, preset="guide") == (points, made)


@pytest.mark.parametrize(("won", "points", "made"), [
    ([3, 5, 3, 1], (3, 14, 7, 1), True),
    ([4, 1, 5, 2], (4, -14, -7, 2), False),
])
def test_bidder_double(won: list[int], points: tuple[int, ...], made: bool) -> None:
    assert score(won, preset="guide", bidder_double=True) == (points, made)


def test_bidder_double_does_not_touch_amerikaner() -> None:
    assert score([0, 12, 0, 0], bid="amerikaner", partner=None, preset="guide",
                 bidder_double=True) == ((0, 52, 0, 0), True)


@pytest.mark.parametrize(("won", "points", "made"), [
    ([3, 7, 1, 1], (3, 7, 1, 1), True),
    ([3, 6, 2, 1], (3, -7, 2, 1), False),
])
def test_playing_alone_has_no_partner_score(won: list[int], points: tuple[int, ...],
                                            made: bool) -> None:
    assert score(won, partner=None, preset="guide") == (points, made)


def test_playing_alone_with_bidder_double() -> None:
    assert score([3, 7, 1, 1], partner=None, preset="guide", bidder_double=True) == (
        (3, 14, 1, 1), True)


@pytest.mark.parametrize(("options", "made"), [
    ({"preset": "standard"}, True),                          # 3 + 3 + kitty trick = 7
    ({"preset": "guide"}, False),                            # no kitty trick: 6
    ({"preset": "guide", "kitty_trick": True}, True),
    ({"preset": "standard", "kitty": 0, "min_bid": 7}, False),  # no kitty: no kitty trick
])
def test_kitty_trick_counts_for_the_bidders_side(options: dict[str, Any], made: bool) -> None:
    won = [3, 3, 3, 3] if options.get("kitty") != 0 else [3, 3, 3, 4]
    points, was_made = score(won, **options)
    assert was_made is made and points[1] == points[2] == (7 if made else -7)
    assert points[0] == 3 and points[3] == won[3]  # defenders: +1 per trick


@pytest.mark.parametrize(("won", "points_value", "points", "made"), [
    ([0, 12, 0, 0], 52, (0, 52, 0, 0), True),
    ([1, 11, 0, 0], 52, (1, -52, 0, 0), False),
    ([0, 0, 12, 0], 52, (0, -52, 12, 0), False),
    ([1, 11, 0, 0], 30, (1, -30, 0, 0), False),
    ([0, 12, 0, 0], 30, (0, 30, 0, 0), True),
])
def test_amerikaner(won: list[int], points_value: int, points: tuple[int, ...],
                    made: bool) -> None:
    assert score(won, bid="amerikaner", partner=None, preset="standard",
                 amerikaner_points=points_value) == (points, made)


def test_amerikaner_needs_every_trick_of_the_hand_not_the_kitty_trick() -> None:
    # standard: 12 tricks, kitty trick on; 12 personal tricks are all of them
    assert score([0, 12, 0, 0], bid="amerikaner", partner=None)[1] is True
    assert score([0, 13, 0, 0], bid="amerikaner", partner=None, preset="norsk")[1] is True
    assert score([1, 12, 0, 0], bid="amerikaner", partner=None, preset="norsk")[1] is False


def test_minus_round_is_minus_one_per_trick_for_everyone() -> None:
    assert score([3, 4, 5, 0], bidder=None, partner=None) == ((-3, -4, -5, 0), None)


def test_a_void_deal_scores_nothing() -> None:
    m = exact_match(rules(preset="guide"), dealer=0)
    bids(m, "pass", "pass", "pass", "pass")
    assert m.deals[0].points == (0, 0, 0, 0) and m.totals == [0, 0, 0, 0] and m.scored == []


def test_match_winners_share_equal_totals() -> None:
    assert match_winners([3, 7, 7, 1]) == (1, 2)
    assert match_winners([-3, -1, -2]) == (1,)


# The worked example of seed 000 section 06 (docs/spec/RULES.md 9), from the spec's two records.

WORKED = [
    ("seed000-made-8.json", [3, 5, 3, 1], True, (3, 7, 7, 1)),
    ("seed000-down-6.json", [4, 1, 5, 2], False, (4, -7, -7, 2)),
]


@pytest.mark.parametrize(("name", "tricks", "made", "points"), WORKED)
def test_the_worked_example(examples_dir: Path, name: str, tricks: list[int], made: bool,
                            points: tuple[int, ...]) -> None:
    m = replay_example(examples_dir / name)
    deal = m.deals[0]
    assert deal.outcome == "played" and deal.contract_bid == 7 and deal.bidder == 1
    assert deal.trump == 1 and deal.called == parse_card("AH") and deal.partner == 2
    assert deal.tricks_won == tricks
    side = tricks[1] + tricks[2]
    assert side == (8 if made else 6)  # "bidder and partner win 8 tricks" / "only 6"
    assert deal.made is made and deal.points == points
    assert m.totals == list(points) and m.scored == [points]
    assert not m.finished and m.phase == "deal_over" and m.dealer == 1
