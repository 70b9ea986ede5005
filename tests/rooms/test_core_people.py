"""People come and go, in the pure room with a hand-driven clock: the host role passes on
after its grace, a disconnected person's turn waits ``grace_seconds`` and then their bot
steps in until they return, a connected person's turn time runs out (its seconds as long
as ``AMERIKANER_TURN_TIME_SCALE`` makes them) and the best bot makes that move, a late
friend takes a bot's seat at the next deal, and nothing runs while no person is
connected."""

from __future__ import annotations

import pytest
from core_table import Table, play_until

from app.bots import ADVISOR_BOT, BEST_BOT
from app.rooms.core.effects import Think


def test_the_host_role_waits_out_its_grace_then_passes_to_the_next_connected_person(
        ) -> None:
    t = Table(host_grace=5.0)
    t.join("Bo", 1)
    t.join("Cy", 2)
    ann, cy = t.connect(0), t.connect(2)
    step = t.disconnect(ann, dt=1.0)
    gone = t.now
    assert step.wake_at == gone + 5.0 and t.core.state.host == 0
    t.tick(dt=4.9)  # a reload's time: the role stays
    assert t.core.state.host == 0
    step = t.tick(dt=0.1)
    assert t.core.state.host == 2
    assert {"type": "host_changed", "seat": 2} in t.events_to(cy, step)
    assert t.state_to(cy, step)["view"]["room"]["you_are_host"]
    t.send(cy, {"type": "seat_bot", "seat": 3, "level": "random"})  # the host's commands
    ann = t.connect(0)
    t.refused(ann, {"type": "start"}, "not_host")  # back too late: the role stays with Cy
    t.assert_consistent()


def test_a_host_back_within_the_grace_keeps_the_role() -> None:
    t = Table(host_grace=5.0)
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    t.disconnect(ann, dt=1.0)
    ann = t.connect(0)
    t.tick(dt=10.0)
    assert t.core.state.host == 0 and t.last is not None and t.last.wake_at is None
    t.disconnect(bo)
    t.disconnect(ann, dt=1.0)
    t.tick(dt=60.0)  # nobody else is connected: the role stays where it is
    assert t.core.state.host == 0


def test_without_a_grace_the_host_role_passes_at_once() -> None:
    t = Table(host_grace=0.0)
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    step = t.disconnect(ann)
    assert t.core.state.host == 1
    assert {"type": "host_changed", "seat": 1} in t.events_to(bo, step)
    t.assert_consistent()


def _to_turn_of(t: Table, seat: int, people: dict[int, int]) -> None:
    play_until(t, lambda: t.match.turn == seat, people)


def test_a_disconnected_persons_turn_waits_then_their_bot_plays_until_they_return() -> None:
    t = Table(grace_seconds=10)
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    people = {0: ann, 1: bo}
    t.send(ann, {"type": "start"})
    # Bo leaves during trick play, and it comes to his turn
    play_until(t, lambda: t.match.phase == "play" and t.match.turn == 0, people)
    t.disconnect(bo)
    _to_turn_of(t, 1, {0: ann})
    wait_from = t.now
    assert t.last is not None and t.last.wake_at == wait_from + 10
    assert not t.thinks, "no bot for a person within the grace"
    t.tick(dt=9.0)
    assert not t.core.state.seats[1].away and not t.thinks
    step = t.wake()
    assert t.now == wait_from + 10
    assert t.core.state.seats[1].away
    assert {"type": "stand_in", "seat": 1} in t.events_to(ann, step)
    thinks = [e for e in step.effects if isinstance(e, Think)]
    assert [(e.seat, e.level, e.game) for e in thinks] == [(1, BEST_BOT, t.core.state.game)]
    game = t.core.state.game
    t.answer_bot()
    assert t.core.state.game == game + 1, "the away bot played Bo's turn"
    assert t.core.state.seats[1].away
    t.tick(dt=1.0)
    # Bo comes back: the seat is his at once
    bo = t.connect(1)
    assert not t.core.state.seats[1].away
    assert {"type": "returned", "seat": 1} in t.events_to(ann)
    assert t.core.controller(1) is None
    _to_turn_of(t, 1, {0: ann})
    assert not t.thinks and t.last is not None and t.last.wake_at is None, \
        "nobody plays for a connected person"
    t.act(bo, t.legal_for(1))
    t.assert_consistent()


def test_a_stand_in_passes_in_the_auction_and_never_commits_its_person() -> None:
    t = Table(grace_seconds=5)
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    t.disconnect(bo)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.turn == 1 or t.match.phase != "auction", {0: ann})
    assert t.match.phase == "auction"  # (seed 1: Bo's turn comes in the first auction)
    step = t.wake()
    assert t.core.state.seats[1].away
    bids = [e for e in t.events_to(ann, step) if e["type"] == "bid"]
    assert {"type": "bid", "seat": 1, "bid": "pass"} in bids
    assert not [e for e in step.effects if isinstance(e, Think) and e.seat == 1]
    t.assert_consistent()


@pytest.mark.parametrize("scale", [1.0, 0.25])
def test_a_turn_time_runs_out_after_its_scaled_seconds_and_a_bot_moves(scale: float) -> None:
    t = Table(turn_time_scale=scale)
    ann = t.connect(0)
    t.send(ann, {"type": "settings", "turn_seconds": 30})
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.turn == 0 and not t.thinks, {})
    game, started = t.core.state.game, t.now
    view = t.state_to(ann)["view"]
    assert view["room"]["clock"] == {"seat": 0, "until": started + 30 * scale, "kind": "turn"}
    assert t.last is not None and t.last.wake_at == started + 30 * scale
    t.tick(dt=30 * scale - 0.1)
    assert not t.thinks and t.core.state.game == game, "the time is not out yet"
    step = t.wake()
    assert t.now == started + 30 * scale
    assert {"type": "timed_out", "seat": 0} in t.events_to(ann, step)
    assert [(e.seat, e.level, e.game) for e in step.effects if isinstance(e, Think)] == [
        (0, ADVISOR_BOT, game)]
    t.answer_bot()
    assert t.core.state.game == game + 1, "the bot made Ann's move"
    t.assert_consistent()


def test_a_late_friend_takes_a_bot_seat_at_the_next_deal() -> None:
    t = Table(rules={"preset": "standard", "match": "deals:3"})
    ann = t.connect(0)
    t.send(ann, {"type": "start"})
    if not t.thinks:
        t.act(ann, t.legal_for(0))  # someone acts: this deal is under way
    while t.thinks:
        t.answer_bot()
        if t.match.turn == 0:
            break
    seat = t.join("Cy", 2)
    assert seat == 2 and t.core.state.seats[2].takeover
    assert t.core.controller(2) == BEST_BOT
    cy = t.connect(2)
    view = t.state_to(cy)["view"]
    assert view["you"] is None and view["hand"] == [] and view["room"]["your_seat"] == 2
    t.refused(cy, {"type": "action", "game": t.core.state.game, "action": {"bid": "pass"}},
              "not_your_turn")
    first_deal = len(t.match.deals)
    play_until(t, lambda: len(t.match.deals) > first_deal, {0: ann, 2: cy})
    assert not t.core.state.seats[2].takeover and t.core.state.seats[2].bot is None
    assert {"type": "took_over", "seat": 2} in t.events_to(cy)
    view = t.state_to(cy)["view"]
    assert view["you"] == 2 and len(view["hand"]) == 12
    play_until(t, lambda: t.match.turn == 2 and not t.thinks, {0: ann, 2: cy})
    t.act(cy, t.legal_for(2))
    t.assert_consistent()


def test_nothing_runs_while_no_person_is_connected() -> None:
    t = Table()
    ann = t.connect(0)
    t.send(ann, {"type": "start"})
    for _ in range(100):  # everyone leaves while a bot thinks, before another bot's turn
        play_until(t, lambda: bool(t.thinks), {0: ann})
        t.disconnect(ann)
        t.answer_bot()  # the bot asked before everyone left still moves
        turn = t.match.turn
        if turn is not None and t.core.controller(turn) is not None:
            break
        ann = t.connect(0)
    else:
        raise AssertionError("never a bot's turn after a bot's")
    assert not t.thinks and t.last is not None and t.last.wake_at is None, \
        "no bot is asked to play to an empty room"
    game = t.core.state.game
    step = t.tick(dt=3600)
    assert step.save is None and not t.thinks and t.core.state.game == game
    t.connect(0)  # someone is back: the bot whose turn it is is asked
    assert [e.seat for e in t.thinks] == [turn]


def test_the_wait_for_a_dropped_person_is_named_in_the_chat_once() -> None:
    t = Table(grace_seconds=10)
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.phase == "play" and t.match.turn == 0, {0: ann, 1: bo})
    t.disconnect(bo)
    _to_turn_of(t, 1, {0: ann})
    waiting = [e for e in t.events_to(ann)
               if e["type"] == "chat" and e["text"] == "waiting_for"]
    assert waiting == [{"type": "chat", "seat": None, "name": "Bo", "text": "waiting_for",
                        "at": waiting[0]["at"], "kind": "system"}]
    t.tick(dt=3.0)
    t.tick(dt=3.0)
    said = [line for line in t.core.state.chat if line["text"] == "waiting_for"]
    assert len(said) == 1, "one line when the wait starts, none while it runs"
