"""A bot's turn in a room: what the runner plays when the chosen bot fails or breaks a
rule (the random bot plays instead, on the same copy), and that a good choice stands."""

from __future__ import annotations

import random

import pytest

from app.bots import BOTS
from app.rooms.server.thinking import choose_bot_action
from app.rules import PASS, Action, DiscardAny, Match, RuleSet, SeatView
from app.rules.deal import DISCARD


class _Broken:
    """A bot that returns a fixed action, or raises."""

    def __init__(self, action: Action | None) -> None:
        self.action = action

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        if self.action is None:
            raise RuntimeError("this bot is broken")
        return self.action


def _at_discard() -> Match:
    """A standard match at the bidder's discard: the only legal entry is a pattern."""
    match = Match(RuleSet("standard"), random.Random(3))
    match.start_deal()
    first = match.turn
    assert first is not None
    match.apply(first, match.legal_actions()[1])  # the lowest bid; everyone else passes
    while match.phase != DISCARD:
        seat = match.turn
        assert seat is not None
        match.apply(seat, PASS)
    return match


@pytest.mark.parametrize("bad", [None, PASS, DiscardAny(4)])
def test_a_failing_or_illegal_bot_is_replaced_by_the_random_bot(
        monkeypatch: pytest.MonkeyPatch, bad: Action | None) -> None:
    match = _at_discard()
    seat = match.turn
    assert seat is not None
    monkeypatch.setitem(BOTS, "broken", _Broken(bad))
    action = choose_bot_action("broken", match.copy(), seat, 1.0)
    match.apply(seat, action)  # legal: a real discard, not the bot's choice
    assert match.phase != DISCARD


def test_a_legal_choice_is_kept_and_the_room_match_is_untouched() -> None:
    match = _at_discard()
    seat = match.turn
    assert seat is not None
    before = match.deals[-1].hands[seat]
    action = choose_bot_action("heuristic", match.copy(), seat, 1.0)
    assert match.deals[-1].hands[seat] == before and match.phase == DISCARD
    assert action == BOTS["heuristic"].choose(SeatView(match, seat), random.Random(1))
