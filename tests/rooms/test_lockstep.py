"""Four people in lock step, plus a spectator: every frame each of them receives is
validated against the protocol's models with extra fields forbidden (the harness does it
for every frame), and its view and every event in it are checked against what that seat
may know (docs/spec/RULES.md, docs/spec/PROTOCOL.md), with the server's own match as the
ground truth (read between steps, while the room is still): the oracle of lockstep_table.py."""

from __future__ import annotations

from typing import Any

import pytest
from lockstep_table import LockstepTable, every_frame_valid
from rooms_harness import ServerThread


@pytest.mark.parametrize("rules", [
    {"preset": "standard", "match": "deals:2"},
    {"preset": "guide", "show_kitty": True, "grand": True, "match": "single_deal"},
])
def test_four_people_and_a_spectator_see_only_what_they_may(
        server: ServerThread, rules: dict[str, Any]) -> None:
    table = LockstepTable(server, rules, seed=2024)
    people = table.people

    def out_of_turn(action: dict[str, Any]) -> None:
        # the others cannot discard or call now: out of turn, nothing changes
        now = table.match.turn
        other = next(p for i, p in enumerate(people) if i != now)
        other.act(action)
        assert other.error()["code"] == "not_your_turn"

    table.start()
    table.play(lambda m: m.finished, on_call=out_of_turn)
    assert table.steps > 40
    watcher = table.watcher
    assert watcher.state is not None and watcher.state["phase"] == "match_over"
    # the events were there to check: every kind of game event, the bidder's cards
    seen = table.seen
    for kind in ("deal_started", "bid", "auction_won", "kitty_taken", "discarded",
                 "contract_set", "card_played", "trick_won", "deal_scored", "match_ended",
                 "kitty_taken with cards", "discarded with cards"):
        assert seen[kind] > 0, (kind, seen)
    assert every_frame_valid(table.everyone)
