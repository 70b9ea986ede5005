"""A late joiner's score sheet column: a person who takes a bot's seat during a match
plays it from a later deal, which the room records per seat (``from_deal``, the score
sheet's row they play from: the rows before are the bot's), shows in the view, keeps in
the match's history and rebuilds from the log; a new match starts everyone at 0."""

from __future__ import annotations

from core_table import Table, play_until


def test_a_late_joiner_plays_from_the_deal_after_the_one_in_play_when_they_joined(
        ) -> None:
    t = Table(rules={"preset": "standard", "match": "deals:3"})
    ann = t.connect(0)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.phase == "deal_over", {0: ann})
    assert len(t.match.scored) == 1
    seat = t.join("Cy", 2)  # after the first deal: the bot finished it
    cy = t.connect(seat)
    seats = t.core.state.seats
    assert seats[2].takeover and seats[2].from_deal == 0
    assert [s["from_deal"] for s in t.state_to(cy)["view"]["room"]["seats"]] == [0, 0, 0, 0]
    play_until(t, lambda: len(t.match.deals) > 1 and not seats[2].takeover, {0: ann, 2: cy})
    assert t.core.state.seats[2].from_deal == 1  # the second deal (0-based 1) is Cy's first
    room = t.state_to(cy)["view"]["room"]
    assert [s["from_deal"] for s in room["seats"]] == [0, 0, 1, 0]
    assert room["seats"][2]["name"] == "Cy"
    assert t.replayed().seats[2].from_deal == 1, "the log rebuilds it"
    t.assert_consistent()

    # Away and back, ready between deals: still the same person, from the same deal.
    t.disconnect(cy)
    play_until(t, lambda: t.core.state.seats[2].away or t.match.finished, {0: ann})
    cy = t.connect(2)
    assert t.core.state.seats[2].from_deal == 1
    play_until(t, lambda: t.match.finished, {0: ann, 2: cy})
    assert t.core.state.history[-1]["from_deal"] == [0, 0, 1, 0]
    assert t.core.state.history[-1]["players"][2] == "Cy"
    t.assert_consistent()

    t.send(ann, {"type": "rematch"})  # Cy is seated as the new match starts: from deal 0
    play_until(t, lambda: t.core.state.match_number == 2, {0: ann, 2: cy})
    assert [s.from_deal for s in t.core.state.seats] == [0, 0, 0, 0]
    assert [s["from_deal"] for s in t.state_to(cy)["view"]["room"]["seats"]] == [0, 0, 0, 0]
    assert t.replayed().seats[2].from_deal == 0
    assert t.replayed().history[-1]["from_deal"] == [0, 0, 1, 0], "kept in the history"
    t.assert_consistent()


def test_a_person_who_joins_as_a_deal_starts_plays_it() -> None:
    """A takeover at a deal nobody has acted in yet is at once: that deal is theirs."""
    t = Table(rules={"preset": "standard", "match": "deals:3"})
    ann = t.connect(0)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.phase == "deal_over", {0: ann})
    t.send(ann, {"type": "ready"})  # Ann alone: the next deal is dealt at once
    assert len(t.match.deals) == 2 and not t.match.deal.action_count  # type: ignore[union-attr]
    t.join("Cy", 1)
    seat = t.core.state.seats[1]
    assert not seat.takeover and seat.from_deal == len(t.match.scored) == 1
    t.assert_consistent()
