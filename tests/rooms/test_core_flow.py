"""The match in the pure room: actions on the game number (stale, out of turn, illegal:
refused, nothing changed), bots asked through ``Think`` and their answers (an old one is
ignored), ready and the next deal's timer, the record and the rematch, practice hints."""

from __future__ import annotations

import pytest
from core_table import Table, play_until

from app.rooms.core.effects import AskHint, AskReview, BotMoved, HintReady, ReviewReady, Send, Think
from app.rooms.core.flow import REMATCH_SECONDS
from app.rules import PASS


def started(**table: object) -> tuple[Table, int]:
    """A table with Ann (seat 0, connected) and three bots, the match started."""
    t = Table(**table)  # type: ignore[arg-type]
    ann = t.connect(0)
    t.send(ann, {"type": "start"})
    return t, ann


def test_actions_name_the_game_and_only_the_match_moves_it() -> None:
    t = Table()
    t.join("Bo")
    ann, bo, eve = t.connect(0), t.connect(1), t.connect(None)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.turn in (0, 1), {0: ann, 1: bo})
    turn = t.match.turn
    assert turn is not None
    actor, other = (ann, bo) if turn == 0 else (bo, ann)
    seen = t.core.state.game  # the game of the last state the actor saw
    # spectators, chat, connections and settings change the room but not the game
    t.disconnect(eve)
    eve = t.connect(None)
    t.send(other, {"type": "chat", "text": "hurry up"})
    t.send(ann, {"type": "settings", "next_deal_pause": 5})
    assert t.core.state.game == seen
    t.refused(actor, {"type": "action", "game": seen - 1, "action": {"bid": "pass"}},
              "stale_game")
    t.refused(actor, {"type": "action", "game": seen + 3, "action": {"bid": "pass"}},
              "stale_game")
    t.refused(other, {"type": "action", "game": seen, "action": {"bid": "pass"}},
              "not_your_turn")
    t.refused(eve, {"type": "action", "game": seen, "action": {"bid": "pass"}}, "not_seated")
    t.refused(actor, {"type": "action", "game": seen, "action": {"bid": 3}}, "illegal_bid")
    t.refused(actor, {"type": "action", "game": seen, "action": {"play": "AS"}},
              "wrong_phase")
    t.refused(actor, {"type": "action", "game": seen, "action": {"play": "ZZ"}}, "bad_action")
    t.refused(actor, {"type": "action", "game": seen, "action": {}}, "bad_action")
    version = t.core.version
    step = t.act(actor, {"bid": "pass"}, game=seen)
    assert t.core.state.game == seen + 1 and t.core.version == version + 1
    events = t.events_to(eve, step)
    assert events[0] == {"type": "bid", "seat": turn, "bid": "pass"}
    assert all(t.state_to(c, step)["game"] == seen + 1 for c in (ann, bo, eve))
    t.refused(actor, {"type": "action", "game": seen, "action": {"bid": "pass"}},
              "stale_game")  # the same action twice (a second tab): the second is stale
    t.assert_consistent()


def test_a_bot_is_asked_at_once_its_move_shown_at_its_time_and_an_old_answer_ignored(
        ) -> None:
    """The bot is asked as its turn begins (an effect), so its search runs while the
    pace's delay passes; its move is shown at the planned time however quickly it was
    found: a forced card, found at once, would otherwise tell the hand's shape."""
    t, ann = started(bot_delay=2.0)
    play_until(t, lambda: t.match.turn not in (0, None) and bool(t.thinks), {0: ann})
    turn = t.match.turn
    assert turn is not None
    asked_at = t.now
    [asked] = t.thinks
    assert (asked.seat, asked.game) == (turn, t.core.state.game)
    assert asked.match is not t.match  # a private copy for the bot's thread
    # an answer for another game, seat or level changes nothing
    before = t.snapshot()
    for wrong in (BotMoved(turn, asked.level, asked.game - 1, PASS),
                  BotMoved((turn + 1) % 4, asked.level, asked.game, PASS),
                  BotMoved(turn, "random" if asked.level != "random" else "heuristic",
                           asked.game, PASS)):
        step = t.handle(wrong)
        assert step.save is None and not [e for e in step.effects if isinstance(e, Send)]
    assert t.snapshot() == before
    game = t.core.state.game
    step = t.answer_bot(asked)  # found at once
    assert t.core.state.game == game and step.save is None, "shown before its time"
    plan = step.wake_at
    assert plan is not None and 1.2 <= plan - asked_at <= 2.8, "the bot's delay, jittered"
    step = t.tick(dt=max(0.0, plan - t.now - 0.5))
    assert t.core.state.game == game and not [e for e in step.effects if isinstance(e, Think)]
    t.wake()
    assert t.core.state.game == game + 1
    t.assert_consistent()


def test_a_slow_search_is_shown_when_it_is_found() -> None:
    t, ann = started(bot_delay=2.0)
    play_until(t, lambda: t.match.turn not in (0, None) and bool(t.thinks), {0: ann})
    game = t.core.state.game
    t.tick(dt=5.0)  # the search took longer than the delay
    assert t.core.state.game == game
    t.answer_bot()
    assert t.core.state.game == game + 1
    t.assert_consistent()


def test_ready_deals_at_once_when_every_connected_person_is_ready_else_the_timer_does(
        ) -> None:
    t = Table(next_deal_pause=20, rules={"preset": "standard", "match": "deals:3"})
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    t.refused(ann, {"type": "ready"}, "wrong_phase")
    t.send(ann, {"type": "start"})
    t.refused(ann, {"type": "ready"}, "wrong_phase")
    people = {0: ann, 1: bo}
    play_until(t, lambda: t.match.phase == "deal_over", people)
    over_at = t.now
    assert t.core.state.next_deal_at == over_at + 20
    assert t.last is not None and t.last.wake_at == over_at + 20
    assert t.state_to(bo)["view"]["room"]["next_deal_at"] == over_at + 20
    eve = t.connect(None)
    t.refused(eve, {"type": "ready"}, "not_seated")
    deals = len(t.match.deals)
    t.send(ann, {"type": "ready"}, dt=1.0)
    t.send(ann, {"type": "ready"})  # twice: no harm
    assert t.core.state.seats[0].ready and len(t.match.deals) == deals
    t.send(bo, {"type": "ready"})
    assert len(t.match.deals) == deals + 1 and t.match.phase != "deal_over"
    assert not any(s.ready for s in t.core.state.seats)
    assert t.core.state.next_deal_at is None
    # the next time, nobody says ready: the timer deals
    play_until(t, lambda: t.match.phase == "deal_over", people)
    at = t.core.state.next_deal_at
    assert at is not None
    t.tick(dt=at - t.now - 1.0)
    assert t.match.phase == "deal_over"
    step = t.wake()
    assert t.match.phase != "deal_over" and t.now == at
    assert t.events_to(ann, step)[0]["type"] == "deal_started"
    t.assert_consistent()


def test_a_finished_match_keeps_its_record_once_and_the_host_starts_a_rematch() -> None:
    t, ann = started(rules={"preset": "guide", "match": "single_deal"})
    t.join("Bo")  # a bot seat: taken over at the next deal (the rematch's)
    bo = t.connect(1)
    play_until(t, lambda: t.match.finished, {0: ann, 1: bo})  # Bo's, after a redeal
    assert [n for n, _ in t.records] == [1] and t.core.state.recorded_match == 1
    record = t.records[0][1]
    assert record["format"] == "amerikaner-record/1" and record["players"][0] == "Ann"
    t.tick(dt=5.0)
    assert len(t.records) == 1, "the record is kept once"
    t.refused(bo, {"type": "rematch"}, "not_host")
    t.refused(ann, {"type": "action", "game": t.core.state.game, "action": {"bid": "pass"}},
              "match_over")
    t.send(ann, {"type": "rematch"})
    step = t.wake()  # after the countdown every screen showed
    assert step.save is not None and step.save.checkpoint
    assert t.first == step.save.first_seq, "the log before the rematch may be forgotten"
    assert t.core.state.match_number == 2 and t.match.totals == [0, 0, 0, 0]
    assert {"type": "match_started", "number": 2} in t.events_to(bo, step)
    assert t.core.state.seats[1].bot is None, "Bo plays from the new match on"
    t.refused(ann, {"type": "rematch"}, "wrong_phase")
    t.assert_consistent()


def test_practice_hints_are_asked_as_effects_and_reach_that_seat_only() -> None:
    t, ann = started(practice=True, rules={"preset": "guide", "match": "single_deal"})
    hints = 0
    while not t.match.finished and hints < 4:
        play_until(t, lambda: t.match.turn == 0 or t.match.finished, {})
        if t.match.finished:
            break
        game = t.core.state.game
        [asked] = [h for h in t.hints if h.game == game]
        assert asked.seat == 0 and asked.match is not t.match
        step = t.answer_hint(asked)
        [send] = [e for e in step.effects if isinstance(e, Send)]
        assert send.to == (ann,) and send.frame["type"] == "hint"
        assert send.frame["game"] == game and send.frame["seat"] == 0
        assert step.save is None and t.core.state.game == game
        # a second tab of the same seat gets the hint after its state
        twin = t.connect(0)
        frames = t.frames_to(twin)
        assert [f["type"] for f in frames] == ["welcome", "state", "hint"]
        t.disconnect(twin)
        hint = send.frame["action"]
        t.act(ann, dict(hint))
        # an answer that comes after the game moved on is dropped
        step = t.handle(HintReady(0, game, {"action": {"play": "2C"}, "key": "hint.play",
                                            "params": {}}))
        assert not step.effects
        hints += 1
    assert hints >= 1
    assert all(h.seat == 0 for h in t.hints), "no hints for the bots' turns"
    assert not [e for e in (t.last.effects if t.last else []) if isinstance(e, AskHint)
                and e.seat != 0]


@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_bots_play_a_whole_match_through_think_effects(level: str) -> None:
    t = Table(rules={"preset": "standard", "match": "deals:2"})
    ann = t.connect(0)
    for seat in (1, 2, 3):
        t.send(ann, {"type": "seat_bot", "seat": seat, "level": level})
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.finished, {0: ann})
    assert len(t.match.scored) == 2 and t.core.state.recorded_match == 1
    t.assert_consistent()


def table_lines(t: Table, conn: int, step: object = None) -> list[tuple[str, str]]:
    """The table's own chat lines in ``step``'s frames to ``conn``: (what, about whom)."""
    events = t.events_to(conn, step)  # type: ignore[arg-type]
    return [(e["text"], e["name"]) for e in events
            if e["type"] == "chat" and e["kind"] == "system"]


def test_the_table_says_in_the_chat_when_bots_start_a_new_match_and_back_to_the_lobby(
) -> None:
    t = Table(rules={"preset": "guide", "match": "single_deal"})
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    people = {0: ann, 1: bo}
    step = t.send(ann, {"type": "start"})
    assert table_lines(t, ann, step) == [("started_with_bots", "Ann")]
    play_until(t, lambda: t.match.finished, people)
    step = t.send(ann, {"type": "rematch"})
    assert table_lines(t, bo, step) == [("new_match", "Ann")]
    play_until(t, lambda: t.match.finished, people)
    step = t.send(ann, {"type": "lobby"})
    assert table_lines(t, bo, step) == [("back_to_lobby", "Ann")]
    assert t.core.state.chat[-1]["text"] == "back_to_lobby", "the line is kept in the chat"
    t.assert_consistent()


def test_a_rematch_counts_down_on_every_screen_before_the_new_match() -> None:
    t = Table(rules={"preset": "guide", "match": "single_deal"})
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.finished, {0: ann, 1: bo})
    step = t.send(ann, {"type": "rematch"})
    at = t.now + REMATCH_SECONDS
    assert step.wake_at == at and t.core.state.match_number == 1, "not yet"
    assert t.state_to(bo, step)["view"]["room"]["next_deal_at"] == at
    t.refused(ann, {"type": "rematch"}, "wrong_phase")
    t.tick(dt=REMATCH_SECONDS - 1)
    assert t.match.finished, "the final sheet stays while the countdown runs"
    step = t.wake()
    assert t.now == at and t.core.state.match_number == 2
    assert {"type": "match_started", "number": 2} in t.events_to(bo, step)
    assert t.state_to(bo, step)["view"]["room"]["next_deal_at"] is None
    t.assert_consistent()


def test_everyone_saying_play_again_counts_down_too_and_back_to_the_lobby_stops_it(
) -> None:
    t = Table(rules={"preset": "guide", "match": "single_deal"})
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    t.send(ann, {"type": "start"})
    play_until(t, lambda: t.match.finished, {0: ann, 1: bo})
    t.send(ann, {"type": "again"})
    step = t.send(bo, {"type": "again"})
    assert table_lines(t, ann, step) == [("new_match", "Bo")]
    assert t.core.state.next_deal_at == t.now + REMATCH_SECONDS
    step = t.send(ann, {"type": "lobby"})
    assert t.core.state.match is None and t.core.state.next_deal_at is None
    assert step.wake_at is None, "nothing left to start"


def test_a_person_alone_at_the_table_rematches_at_once() -> None:
    t, ann = started(rules={"preset": "guide", "match": "single_deal"})
    play_until(t, lambda: t.match.finished, {0: ann})
    step = t.send(ann, {"type": "rematch"})
    assert t.core.state.match_number == 2 and table_lines(t, ann, step) == []


def test_a_table_of_people_only_starts_without_the_bots_line() -> None:
    t = Table(rules={"preset": "standard", "players": 3})
    t.join("Bo")
    t.join("Cy")
    ann, _, _ = t.connect(0), t.connect(1), t.connect(2)
    step = t.send(ann, {"type": "start"})
    assert table_lines(t, ann, step) == []


def test_a_review_of_any_finished_deal_may_be_asked_while_the_match_goes_on() -> None:
    t, ann = started(rules={"preset": "guide", "match": "deals:3"})
    play_until(t, lambda: t.match.phase == "deal_over", {0: ann})
    first = len(t.match.deals) - 1  # void deals before it count
    assert t.state_to(ann)["view"]["room"]["reviewable"] == [first]
    t.send(ann, {"type": "ready"})  # the next deal starts: the review is not lost
    assert t.match.phase != "deal_over"
    step = t.send(ann, {"type": "review", "deal": first})
    asked = [e for e in step.effects if isinstance(e, AskReview)]
    assert [(e.seat, e.match, e.deal) for e in asked] == [(0, 1, first)]
    assert asked[0].record["actions"], "the deal as it was played"
    review = {"seat": 0, "decisions": [], "bidder": None, "contract": None,
              "side_tricks": None, "double_dummy": None, "double_dummy_from_trick": None,
              "double_dummy_skipped": None, "points": 0.0, "total_loss": 0.0}
    step = t.handle(ReviewReady(0, 1, first, review))  # type: ignore[arg-type]
    frames = [f for f in t.frames_to(ann, step) if f["type"] == "review"]
    assert frames == [{"type": "review", "match": 1, "deal": first, "seat": 0,
                       "review": review}]
    t.refused(ann, {"type": "review", "deal": first + 1}, "wrong_phase")  # being played
    t.refused(ann, {"type": "review", "deal": 99}, "no_deal")
    t.refused(ann, {"type": "review", "deal": -1}, "bad_message")
