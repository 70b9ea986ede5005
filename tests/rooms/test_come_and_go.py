"""People come and go: reconnecting mid-trick, the away bot and the hand-back, the host
role passing on, a late friend taking a bot's seat, rooms leaving memory when idle.

How long each grace lasts, to the tick, is the pure room's to test with its hand-driven
clock (test_core_people.py); here the server's wiring of them: the room's timer set and
fired, its bot asked, frames to everyone.  Graces are 0 or far longer than a test, or
short and waited for generously, and nothing is timed."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from rooms_harness import (
    Client,
    ServerThread,
    act_until,
    create_room,
    join_room,
    my_turn,
    pick_action,
)
from shared_helpers import HTTP

from app.rules import Action, Match


def record_bot_requests(server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seats the server's bots are asked to play, in order.  A room asks in the step
    that gave the turn (a ``Think`` effect starts a task, which asks at its first run), so
    once a client's ping is answered every request made before it is in the list."""
    asked: list[int] = []
    thinkers = server.registry.thinkers
    think = thinkers.think

    async def recorded(level: str, match: Match, seat: int, seed: float) -> Action:
        asked.append(seat)
        action: Action = await think(level, match, seat, seed)
        return action

    monkeypatch.setattr(thinkers, "think", recorded)
    return asked


def answered_ping(client: Client) -> None:
    """A ping and its pong: what the server sent this client before has arrived, and what
    it did before (a step carried out, a bot asked) is done."""
    client.send({"type": "ping"})
    client.wait_for(lambda m: m["type"] == "pong")


def test_reconnect_in_the_middle_of_a_trick_returns_the_seat_and_full_view(
        server: ServerThread) -> None:
    room = create_room(server.base)
    code, token = room["room"], room["token"]
    ann = Client(server.base, code, token=token)
    ann.send({"type": "start"})
    rng = random.Random(3)
    before = act_until(ann, lambda v: my_turn(v) and v["phase"] == "play"
                       and len(v["trick"]) > 0, rng)
    ann.close()
    again = Client(server.base, code, token=token)  # a reload: same token
    assert again.seat == 0
    welcome = next(m for m in again.frames if m["type"] == "welcome")
    after = again.state
    assert after is not None and welcome["version"] == again.version
    for key in ("hand", "legal", "trick", "contract", "tricks_won", "scores", "turn", "phase",
                "auction", "kitty", "discards", "score_sheet"):
        assert after[key] == before[key], key
    assert after["room"]["seats"][0]["connected"] and after["room"]["you_are_host"]
    again.act(pick_action(after, rng))
    assert again.wait_for(lambda m: m["type"] in ("state", "error"))["type"] == "state"


def test_away_bot_plays_after_the_grace_period_and_hands_the_seat_back(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """The grace is 0: the room's timer fires as soon as Bo's turn sets it.  That the turn
    waits ``grace_seconds`` first, and that nobody plays for a connected person, is in
    test_core_people.py:
    test_a_disconnected_persons_turn_waits_then_their_bot_plays_until_they_return
    (and test_a_stand_in_passes_in_the_auction_and_never_commits_its_person)."""
    asked = record_bot_requests(server, monkeypatch)
    room = create_room(server.base)
    code = room["room"]
    bo_token = join_room(server.base, code, "Bo")["token"]
    ann = Client(server.base, code, token=room["token"])
    bo = Client(server.base, code, token=bo_token)
    ann.send({"type": "settings", "grace_seconds": 0})
    ann.wait_state(lambda v: v["room"]["settings"]["grace_seconds"] == 0)
    ann.send({"type": "start"})
    bo.wait_state(lambda v: v["phase"] != "lobby")
    bo.close()
    rng = random.Random(5)
    ann.wait_state(lambda v: not v["room"]["seats"][1]["connected"])
    # Ann plays on; when it is Bo's turn, the grace period runs out and a bot steps in
    seen_turn = act_until(ann, lambda v: v["turn"] == 1, rng)
    assert not seen_turn["room"]["seats"][1]["away"]  # the timer's step, not this one
    stand_in = ann.wait_for(lambda m: m["type"] == "state"
                            and {"type": "stand_in", "seat": 1} in m["events"])
    assert stand_in["view"]["room"]["seats"][1]["away"]
    # the stand-in plays Bo's turn (in the auction it passes at once: never a contract)
    assert stand_in["view"]["turn"] == 1 or \
        {"type": "bid", "seat": 1, "bid": "pass"} in stand_in["events"]
    moved = act_until(ann, lambda v: v["turn"] not in (1, None) or v["phase"] == "deal_over",
                      rng)
    assert moved["room"]["seats"][1]["away"]
    # Bo comes back: the seat is his at once, and the bot no longer plays it
    bo = Client(server.base, code, token=bo_token)
    back = len(asked)  # Bo's hello came after every request before it (see above)
    assert bo.seat == 1 and bo.state is not None
    assert not bo.state["room"]["seats"][1]["away"]
    # He is told what the stand-in did for him (issue 39); nobody else is
    stood_in = bo.state["room"]["stood_in"]
    assert stood_in and all(set(a) <= {"bid", "play", "call", "discard", "grand"}
                            for a in stood_in), stood_in
    assert stood_in[0] == {"bid": "pass"} or "play" in stood_in[0] or "discard" in stood_in[0]
    ann.wait_state(lambda v: v["room"]["seats"][1]["connected"]
                   and not v["room"]["seats"][1]["away"])
    assert ann.state is not None and ann.state["room"]["stood_in"] == []
    both = random.Random(9)
    for _ in range(3):
        view = None
        while view is None:
            for who in (ann, bo):
                who.drain(0.05)
            if bo.state is not None and my_turn(bo.state):
                view = bo.state
            elif ann.state is not None and my_turn(ann.state):
                ann.act(pick_action(ann.state, both))
                ann.wait_for(lambda m: m["type"] in ("state", "error"))
            elif ann.state is not None and ann.state["phase"] == "deal_over":
                ann.send({"type": "ready"})
                bo.send({"type": "ready"})
                ann.wait_state(lambda v: v["phase"] != "deal_over")
        # the step that gave Bo the turn would have asked a bot with it: none was
        answered_ping(bo)
        assert 1 not in asked[back:], "a bot was asked to play Bo's turn"
        assert bo.state is not None and bo.state["turn"] == 1
        bo.act(pick_action(bo.state, both))
        assert bo.wait_for(lambda m: m["type"] in ("state", "error"))["type"] == "state"
        # his own move: what the stand-in did is no longer news
        assert bo.state is not None and bo.state["room"]["stood_in"] == []


def test_the_host_role_passes_to_the_next_connected_person(server: ServerThread) -> None:
    room, ann, cy = host_and_guest(server)
    code = room["room"]
    watcher = Client(server.base, code, spectate=True)
    cy.send({"type": "start"})
    assert cy.error()["code"] == "not_host"
    ann.close()
    view = cy.wait_state(lambda v: v["room"]["host"] == 2)
    assert view["room"]["you_are_host"] and view["room"]["seats"][2]["host"]
    assert not view["room"]["seats"][0]["host"]
    assert watcher.wait_state(lambda v: v["room"]["host"] == 2)["room"]["you_are_host"] is False
    info = HTTP.get(f"{server.base}/api/rooms/{code}").json()
    assert info["host"] == 2 and info["phase"] == "lobby"  # the room stays
    ann = Client(server.base, code, token=room["token"])
    assert ann.state is not None and ann.state["room"]["host"] == 2
    ann.send({"type": "start"})
    assert ann.error()["code"] == "not_host"
    cy.send({"type": "start"})
    assert cy.wait_state(lambda v: v["phase"] != "lobby")["room"]["host"] == 2


def host_and_guest(server: ServerThread) -> tuple[dict[str, Any], Client, Client]:
    """A room with Ann (its host) and Cy (seat 2) connected: the room, Ann, Cy."""
    room = create_room(server.base)
    cy_token = join_room(server.base, room["room"], "Cy", seat=2)["token"]
    ann = Client(server.base, room["room"], token=room["token"])
    cy = Client(server.base, room["room"], token=cy_token)
    return room, ann, cy


def test_a_host_who_reloads_keeps_the_role(
        make_server: Callable[..., ServerThread]) -> None:
    """A grace far longer than the test: the role never moves while Ann reloads.  That it
    holds until the grace's last moment and passes then is in test_core_people.py:
    test_a_host_back_within_the_grace_keeps_the_role and
    test_the_host_role_waits_out_its_grace_then_passes_to_the_next_connected_person."""
    server = make_server(host_grace=600)
    room, ann, cy = host_and_guest(server)
    code = room["room"]
    ann.close()  # a reload: back within the grace
    gone = cy.wait_state(lambda v: not v["room"]["seats"][0]["connected"])
    assert gone["room"]["host"] == 0
    ann = Client(server.base, code, token=room["token"])
    assert ann.state is not None and ann.state["room"]["you_are_host"]
    answered_ping(cy)  # every state of the room since has reached Cy
    hosts = {f["view"]["room"]["host"] for f in cy.frames if f["type"] == "state"}
    assert hosts == {0}, "the role left Ann during her reload"


def test_a_host_who_stays_away_hands_the_role_on_when_the_grace_runs_out(
        make_server: Callable[..., ServerThread]) -> None:
    """The room's timer passes the role on (a short grace, waited for generously)."""
    server = make_server(host_grace=0.1)
    _room, ann, cy = host_and_guest(server)
    ann.close()  # and Ann stays away
    gone = cy.wait_state(lambda v: not v["room"]["seats"][0]["connected"])
    assert gone["room"]["host"] == 0  # the step of her leaving starts the grace
    view = cy.wait_state(lambda v: v["room"]["host"] == 2)  # the timer's step ends it
    assert view["room"]["you_are_host"] and view["room"]["seats"][2]["host"]
    assert not view["room"]["seats"][0]["connected"]


def test_a_late_friend_takes_a_bot_seat_from_the_next_deal_on(server: ServerThread) -> None:
    room = create_room(server.base)
    code = room["room"]
    ann = Client(server.base, code, token=room["token"])
    ann.send({"type": "start"})
    first = ann.wait_state(lambda v: v["phase"] != "lobby")
    if my_turn(first) and not first["auction"]:
        ann.act({"bid": "pass"})  # a deal nobody has acted in yet would be Cy's already
    ann.wait_state(lambda v: bool(v["auction"]))
    joined = join_room(server.base, code, "Cy", seat=2)
    assert joined["seat"] == 2 and joined["takeover"]
    cy = Client(server.base, code, token=joined["token"])
    assert cy.seat == 2 and cy.state is not None
    assert cy.state["you"] is None and cy.state["hand"] == []  # the public view meanwhile
    assert cy.state["room"]["your_seat"] == 2
    seat = cy.state["room"]["seats"][2]
    assert seat["takeover"] and seat["bot"] is not None  # the bot's seat until the deal ends
    assert seat["name"] == "Bot 3"
    cy.act({"bid": "pass"})
    assert cy.error()["code"] in ("not_your_turn", "stale_game")
    info = HTTP.get(f"{server.base}/api/rooms/{code}").json()
    assert info["joinable"] == [1, 3]
    assert join_room(server.base, code, "Di")["seat"] == 1
    assert join_room(server.base, code, "Ed")["seat"] == 3
    r = HTTP.post(f"{server.base}/api/rooms/{code}/join", json={"name": "Fa"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_free_seat"
    ann.send({"type": "settings", "grace_seconds": 0})  # Di and Ed never connect
    rng = random.Random(11)
    act_until(ann, lambda v: v["phase"] == "deal_over", rng)
    cy.send({"type": "ready"})
    ann.send({"type": "ready"})
    view = cy.wait_state(lambda v: v["phase"] not in ("deal_over", "lobby") and v["you"] == 2)
    assert len(view["hand"]) == 12
    assert view["room"]["seats"][2]["bot"] is None and not view["room"]["seats"][2]["takeover"]
    while not (cy.state is not None and my_turn(cy.state)):
        if ann.state is not None and my_turn(ann.state):
            ann.act(pick_action(ann.state, rng))
        for who in (ann, cy):
            who.drain(0.05)
    cy.act(pick_action(cy.state, rng))
    assert cy.wait_for(lambda m: m["type"] in ("state", "error"))["type"] == "state"


def test_an_idle_room_leaves_memory_and_comes_back_from_the_database(
        make_server: Callable[..., ServerThread]) -> None:
    srv = make_server(idle_seconds=0.3)
    room = create_room(srv.base)
    code = room["room"]
    ann = Client(srv.base, code, token=room["token"])
    ann.send({"type": "chat", "text": "back soon"})
    ann.wait_for(lambda m: m["type"] == "state"
                 and any(e["type"] == "chat" for e in m["events"]))
    ann.close()
    deadline = time.monotonic() + 10
    while code in srv.registry.rooms:
        assert time.monotonic() < deadline, "the idle room stayed in memory"
        time.sleep(0.1)
    info = HTTP.get(f"{srv.base}/api/rooms/{code}").json()
    assert info["seats"][0]["name"] == "Ann"
    ann = Client(srv.base, code, token=room["token"])
    assert ann.state is not None
    assert [c["text"] for c in ann.state["room"]["chat"] if c["kind"] == "text"] == \
        ["back soon"]
