"""The pure room before the start, in-process: joining and leaving seats, hello, the
host's commands (rules, bot levels, settings, start) and who may give them, chat.

Every refusal raises ``RoomError`` and leaves the version, the game number and the log
as they were (``Table.refused``); every accepted change is in the log and replays."""

from __future__ import annotations

import pytest
from core_table import CODE, Table

from app.bots import BEST_BOT
from app.rooms.core.effects import Connect, JoinRequest
from app.rooms.core.messages import Hello


def test_a_new_room_has_its_creator_as_host_and_starts_its_log_with_a_checkpoint() -> None:
    t = Table()
    state = t.core.state
    assert state.host == 0 and state.seats[0].human and state.seats[0].name == "Ann"
    assert [s.bot for s in state.seats] == [None, BEST_BOT, BEST_BOT, BEST_BOT]
    assert t.log[0].k == "room" and t.first == 0
    assert state.game == 0 and state.match is None
    assert t.tokens[0] not in str(t.log) and "token_hash" in str(t.log)  # the hash only
    t.assert_consistent()


def test_hello_with_a_token_or_as_a_spectator_gets_welcome_then_state() -> None:
    t = Table()
    ann = t.connect(0)
    welcome, state = t.frames_to(ann)
    assert welcome == {"type": "welcome", "room": CODE, "seat": 0, "version": t.core.version,
                       "game": 0}
    assert state["type"] == "state" and state["version"] == t.core.version
    view = state["view"]
    assert view["phase"] == "lobby" and view["room"]["your_seat"] == 0
    assert view["room"]["you_are_host"] and view["room"]["seats"][0]["connected"]
    eve = t.connect(None)
    seen = t.state_to(eve)["view"]
    assert seen["you"] is None and seen["room"]["your_seat"] is None
    assert not seen["room"]["you_are_host"] and seen["room"]["spectators"] == 1
    assert t.state_to(ann)["view"]["room"]["spectators"] == 1  # everyone hears of it
    assert t.core.state.game == 0, "a spectator is no change of the match"
    t.refused_input(lambda: t.handle(Connect(99, Hello(type="hello", token="x" * 22))),
                    "bad_token")
    t.refused_input(lambda: t.handle(Connect(99, Hello(type="hello", token=t.tokens[0],
                                                       spectate=True))), "bad_message")
    t.refused_input(lambda: t.handle(Connect(99, Hello(type="hello"))), "bad_message")
    t.refused(99, {"type": "chat", "text": "who am I"}, "hello_required")
    t.disconnect(eve)
    assert t.state_to(ann)["view"]["room"]["spectators"] == 0
    t.assert_consistent()


def test_join_takes_the_first_free_seat_or_the_chosen_one() -> None:
    t = Table()
    ann = t.connect(0)
    assert t.join("Bo", 2) == 2
    assert {"type": "seat_taken", "seat": 2, "name": "Bo"} in t.events_to(ann)
    assert t.join("  Cy  ") == 1
    assert t.core.state.seats[1].name == "Cy" and t.core.state.seats[1].bot is None
    t.refused_input(lambda: t.handle(JoinRequest("Di", 2)), "seat_taken")
    t.refused_input(lambda: t.handle(JoinRequest("Di", 4)), "bad_seat")
    t.refused_input(lambda: t.handle(JoinRequest("   ", None)), "bad_name")
    t.refused_input(lambda: t.handle(JoinRequest("x" * 33, None)), "bad_name")
    assert t.join("Di") == 3
    t.refused_input(lambda: t.handle(JoinRequest("Ed", None)), "no_free_seat")
    assert t.core.state.game == 0
    t.assert_consistent()


def test_a_practice_table_takes_nobody_else() -> None:
    t = Table(practice=True)
    t.refused_input(lambda: t.handle(JoinRequest("Bo", None)), "private_room")
    t.refused_input(lambda: t.handle(Connect(5, Hello(type="hello", spectate=True))),
                    "private_room")


def test_leave_gives_the_seat_back_and_the_person_keeps_watching() -> None:
    t = Table()
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    eve = t.connect(None)
    t.refused(eve, {"type": "leave"}, "not_seated")
    t.refused(ann, {"type": "leave"}, "host_cannot_leave")
    t.send(bo, {"type": "leave"})
    assert {"type": "seat_left", "seat": 1} in t.events_to(ann)
    view = t.state_to(bo)["view"]
    assert view["room"]["your_seat"] is None and view["you"] is None
    assert not t.core.state.seats[1].human and t.core.state.seats[1].bot == BEST_BOT
    assert t.core.seat_for_token(t.tokens[1]) is None  # the token no longer works
    t.send(ann, {"type": "settings", "spectator_chat": False})
    t.refused(bo, {"type": "chat", "text": "still here"}, "not_seated")
    t.assert_consistent()


def test_only_the_host_changes_rules_bots_settings_and_starts() -> None:
    t = Table()
    t.join("Bo")
    ann, bo, eve = t.connect(0), t.connect(1), t.connect(None)
    for who, code in ((bo, "not_host"), (eve, "not_host")):
        t.refused(who, {"type": "start"}, code)
        t.refused(who, {"type": "rules", "rules": {"preset": "guide"}}, code)
        t.refused(who, {"type": "seat_bot", "seat": 2, "level": "random"}, code)
        t.refused(who, {"type": "settings", "grace_seconds": 5}, code)
    t.send(ann, {"type": "settings", "grace_seconds": 5, "next_deal_pause": 7})
    assert (t.core.state.grace_seconds, t.core.state.next_deal_pause) == (5, 7)
    assert t.state_to(bo)["view"]["room"]["settings"]["grace_seconds"] == 5
    t.send(ann, {"type": "seat_bot", "seat": 2, "level": "random"})
    assert t.core.state.seats[2].bot == "random"
    t.refused(ann, {"type": "seat_bot", "seat": 1, "level": "random"}, "bad_seat")  # Bo's
    t.refused(ann, {"type": "seat_bot", "seat": 4, "level": "random"}, "bad_seat")
    t.refused(ann, {"type": "seat_bot", "seat": 3, "level": "genius"}, "bad_level")
    assert t.core.state.game == 0, "the lobby's changes are no change of the match"
    t.assert_consistent()


def test_rule_changes_resize_the_table_but_never_drop_a_person() -> None:
    t = Table()
    ann = t.connect(0)
    err = t.refused(ann, {"type": "rules", "rules": {"min_bid": 9, "max_bid": 8}}, "bad_rules")
    assert err.option == "min_bid"  # a field, for the client to point at
    t.refused(ann, {"type": "rules", "rules": {"preset": "nope"}}, "bad_rules")
    t.send(ann, {"type": "rules", "rules": {"preset": "guide", "players": 5}})
    assert len(t.core.state.seats) == 5 and t.core.state.seats[4].bot == BEST_BOT
    view = t.state_to(ann)["view"]
    assert view["room"]["rules"] == {"preset": "guide", "players": 5}
    assert view["players"] == 5 and len(view["room"]["seats"]) == 5
    t.join("Ed", 4)
    t.refused(ann, {"type": "rules", "rules": {"players": 4}}, "seats_taken")
    t.send(ann, {"type": "rules", "rules": {"preset": "standard", "players": 5}})
    t.assert_consistent()


def test_the_start_fills_empty_seats_with_bots_and_starts_the_match() -> None:
    t = Table()
    t.join("Bo")
    ann, bo = t.connect(0), t.connect(1)
    t.send(ann, {"type": "seat_bot", "seat": 3, "level": "random"})
    version = t.core.version
    step = t.send(ann, {"type": "start"})
    assert step.save is not None and step.save.checkpoint  # a checkpoint before the match
    state = t.core.state
    assert state.match is not None and state.match_number == 1 and state.game >= 2
    assert [s.bot for s in state.seats] == [None, None, BEST_BOT, "random"]
    events = t.events_to(bo)
    assert events[0] == {"type": "match_started", "number": 1}
    assert events[1]["type"] == "deal_started"
    assert t.core.version == version + 1 == t.state_to(bo)["version"]
    assert len(t.state_to(bo)["view"]["hand"]) == 12
    for msg in ({"type": "start"}, {"type": "rules", "rules": {"preset": "guide"}},
                {"type": "seat_bot", "seat": 2, "level": "random"}, {"type": "leave"}):
        t.refused(ann if msg["type"] != "leave" else bo, msg, "wrong_phase")
    t.assert_consistent()


@pytest.mark.parametrize("text,said", [("hi", "hi"), ("  two   words ", "two words")])
def test_chat_reaches_everyone_as_an_event_and_never_moves_the_game(text: str,
                                                                    said: str) -> None:
    t = Table()
    t.join("Bo")
    ann, bo, eve = t.connect(0), t.connect(1), t.connect(None)
    t.send(ann, {"type": "start"})
    game = t.core.state.game
    step = t.send(bo, {"type": "chat", "text": text}, dt=1.5)
    line = {"type": "chat", "seat": 1, "name": "Bo", "text": said, "at": t.now}
    for conn in (ann, bo, eve):
        [event] = t.events_to(conn, step)
        assert {k: event[k] for k in line} == line
    assert t.core.state.game == game and list(t.core.state.chat)[-1]["text"] == said
    t.refused(ann, {"type": "chat", "text": "   "}, "bad_chat")
    t.send(ann, {"type": "settings", "spectator_chat": True})
    [event] = t.events_to(ann, t.send(eve, {"type": "chat", "text": "me too"}))
    assert event["type"] == "chat" and event["seat"] is None and event["text"] == "me too"
    t.send(ann, {"type": "settings", "spectator_chat": False})  # the host's choice
    t.refused(eve, {"type": "chat", "text": "me too"}, "not_seated")
    assert t.core.state.game == game
    t.assert_consistent()
