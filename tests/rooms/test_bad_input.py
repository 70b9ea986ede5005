"""Every kind of bad message gets ``{"type": "error"}`` and changes nothing: malformed,
stale, out of turn, illegal, not allowed for this sender; two people racing on one
game; the handshake's Origin check; the rate limit; a frame over the size limit."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx
import pytest
from rooms_harness import Client, ServerThread, create_room, join_room, my_turn
from websockets.exceptions import ConnectionClosed, InvalidStatus


def version_of(base: str, code: str) -> int:
    v: int = httpx.get(f"{base}/api/rooms/{code}").json()["version"]
    return v


def assert_refused(client: Client, base: str, code: str, send: Callable[[], None],
                   error: str, still: bool = True) -> dict[str, Any]:
    """``send`` is answered with ``error``; in a still room (no bot playing), nothing
    else is sent and the version stays."""
    before = version_of(base, code)
    send()
    if still:
        msg = client.wait_for(lambda m: m["type"] in ("error", "state"))
    else:
        msg = client.error()
    assert msg["type"] == "error", msg
    assert msg["code"] == error, msg
    assert msg["message"]
    if still:
        assert version_of(base, code) == before, "a refused message changed the room"
    return msg


MALFORMED: list[tuple[str | bytes, str]] = [
    ("not json", "bad_json"),
    ("{", "bad_json"),
    (b"\x00\x01binary", "bad_message"),
    ("[1, 2]", "bad_message"),
    ('"hello"', "bad_message"),
    ("{}", "unknown_type"),
    ('{"type": "shout"}', "unknown_type"),
    ('{"type": 5}', "unknown_type"),
    ('{"type": "action"}', "bad_message"),
    ('{"type": "action", "game": "7", "action": {"bid": "pass"}}', "bad_message"),
    ('{"type": "action", "game": 7.0, "action": {"bid": "pass"}}', "bad_message"),
    ('{"type": "action", "game": true, "action": {"bid": "pass"}}', "bad_message"),
    ('{"type": "action", "game": -1, "action": {"bid": "pass"}}', "bad_message"),
    ('{"type": "action", "game": 1, "action": "pass"}', "bad_message"),
    ('{"type": "action", "game": 1, "action": {}, "extra": 1}', "bad_message"),
    ('{"type": "chat", "text": ""}', "bad_message"),
    ('{"type": "chat", "text": 5}', "bad_message"),
    ('{"type": "chat", "text": "' + "x" * 201 + '"}', "bad_message"),
    ('{"type": "seat_bot", "seat": true, "level": "random"}', "bad_message"),
    ('{"type": "seat_bot", "seat": 9, "level": "random"}', "bad_message"),
    ('{"type": "settings", "grace_seconds": -1}', "bad_message"),
    ('{"type": "settings", "next_deal_pause": "5"}', "bad_message"),
    ('{"type": "rules", "rules": "guide"}', "bad_message"),
    ('{"type": "start", "now": true}', "bad_message"),
    ('{"type": "hello", "token": "x"}', "already_hello"),
    ('{"type": "chat", "text": "' + "x" * 5000 + '"}', "too_large"),
]


def test_malformed_messages_get_an_error_and_change_nothing(either_server: ServerThread) -> None:
    server = either_server
    room = create_room(server.base)
    code = room["room"]
    ann = Client(server.base, code, token=room["token"])
    for raw, error in MALFORMED:
        assert_refused(ann, server.base, code, partial(ann.send_raw, raw), error)
    ann.send({"type": "ping"})
    assert ann.wait_for(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_commands_not_allowed_for_the_sender_or_not_now(server: ServerThread) -> None:
    base = server.base
    room = create_room(base)
    code = room["room"]
    bo_token = join_room(base, code, "Bo")["token"]
    ann = Client(base, code, token=room["token"])
    bo = Client(base, code, token=bo_token)
    eve = Client(base, code, spectate=True)
    bo.drain(0.1)
    ann.drain(0.1)

    def refused(c: Client, msg: dict[str, Any], error: str) -> None:
        assert_refused(c, base, code, lambda: c.send(msg), error)

    refused(bo, {"type": "start"}, "not_host")
    refused(bo, {"type": "rules", "rules": {"preset": "guide"}}, "not_host")
    refused(bo, {"type": "seat_bot", "seat": 2, "level": "random"}, "not_host")
    refused(bo, {"type": "settings", "grace_seconds": 5}, "not_host")
    refused(eve, {"type": "start"}, "not_host")
    ann.send({"type": "settings", "spectator_chat": False})  # spectators may chat, unless
    eve.wait_state(lambda v: not v["room"]["settings"]["spectator_chat"])
    ann.drain(0.1)
    bo.drain(0.1)
    refused(eve, {"type": "chat", "text": "hi"}, "not_seated")
    refused(eve, {"type": "action", "game": eve.game, "action": {"bid": "pass"}},
            "not_seated")
    refused(ann, {"type": "rules", "rules": {"preset": "nope"}}, "bad_rules")
    msg = assert_refused(ann, base, code, lambda: ann.send(
        {"type": "rules", "rules": {"min_bid": 9, "max_bid": 8}}), "bad_rules")
    assert msg["option"] == "min_bid"  # a field, not only inside the message
    refused(ann, {"type": "rules", "rules": {"players": 3, "remove_twos": "all"}}, "bad_rules")
    refused(ann, {"type": "seat_bot", "seat": 1, "level": "random"}, "bad_seat")  # Bo's
    refused(ann, {"type": "seat_bot", "seat": 2, "level": "genius"}, "bad_level")
    refused(ann, {"type": "ready"}, "wrong_phase")
    refused(ann, {"type": "rematch"}, "wrong_phase")
    refused(ann, {"type": "action", "game": ann.game, "action": {"bid": "pass"}},
            "wrong_phase")
    refused(ann, {"type": "leave"}, "host_cannot_leave")
    # a rule change that would drop a seated person is refused; one that fits is taken
    bo3 = join_room(base, code, "Cy", seat=3)
    assert bo3["seat"] == 3
    ann.drain(0.1)
    refused(ann, {"type": "rules", "rules": {"players": 3}}, "seats_taken")
    ann.send({"type": "rules", "rules": {"preset": "guide", "players": 5}})
    five = ann.wait_state(lambda v: len(v["room"]["seats"]) == 5)
    assert five["room"]["rules"] == {"preset": "guide", "players": 5}
    assert five["room"]["rules_resolved"]["hand_size"] == 9
    bo.send({"type": "leave"})  # Bo gives the seat back and keeps watching
    view = bo.wait_state(lambda v: not v["room"]["seats"][1]["human"])
    assert view["room"]["your_seat"] is None and view["you"] is None
    ann.send({"type": "start"})
    view = ann.wait_state(lambda v: v["phase"] != "lobby")
    for msg in ({"type": "start"}, {"type": "rules", "rules": {"preset": "guide"}},
                {"type": "seat_bot", "seat": 2, "level": "random"}, {"type": "ready"}):
        assert_refused(ann, base, code, partial(ann.send, msg), "wrong_phase",
                       still=False)  # the bots play meanwhile
    stale = Client(base, code, hello=False)
    stale.send({"type": "hello", "token": bo_token})  # given back: no longer a seat
    assert stale.error()["code"] == "bad_token"


def test_stale_out_of_turn_and_illegal_actions(either_server: ServerThread) -> None:
    server = either_server
    base = server.base
    room = create_room(base, rules={"preset": "standard"})
    code = room["room"]
    tokens = [room["token"]] + [join_room(base, code, n)["token"] for n in ("Bo", "Cy", "Di")]
    people = [Client(base, code, token=t) for t in tokens]
    people[0].send({"type": "start"})
    for p in people:
        p.wait_state(lambda v: v["phase"] == "auction")
        p.drain(0.1)
    turn = people[0].state["turn"]  # type: ignore[index]
    actor, other = people[turn], people[(turn + 1) % 4]
    g = actor.game

    def refused(c: Client, action: Any, error: str, game: int | None = None) -> None:
        assert_refused(c, base, code, lambda: c.act(action, game), error)

    refused(actor, {"bid": "pass"}, "stale_game", game=g - 1)
    refused(actor, {"bid": "pass"}, "stale_game", game=g + 5)
    refused(other, {"bid": "pass"}, "not_your_turn")
    refused(actor, {"bid": 3}, "illegal_bid")
    refused(actor, {"bid": 14}, "illegal_bid")
    refused(actor, {"bid": "7"}, "bad_action")
    refused(actor, {"bid": 7.0}, "bad_action")
    refused(actor, {"play": "AS"}, "wrong_phase")
    refused(actor, {"discard": ["AS", "KS", "QS", "JS"]}, "wrong_phase")
    refused(actor, {"play": "ZZ"}, "bad_action")
    refused(actor, {"play": "AS", "call": None}, "bad_action")
    refused(actor, {"bid": "pass", "seat": 2, "x": 1}, "bad_action")
    refused(actor, {}, "bad_action")
    actor.act({"bid": 7})
    msg = actor.wait_for(lambda m: m["type"] in ("state", "error"))
    assert msg["type"] == "state" and msg["view"]["auction"][-1] == {"seat": turn, "bid": 7}
    nxt = people[msg["view"]["turn"]]
    if nxt.version < msg["version"]:  # that person has not seen the bid yet
        nxt.wait_for(lambda m: m["type"] == "state" and m["version"] >= msg["version"])
    nxt.drain(0.1)
    refused(nxt, {"bid": 7}, "illegal_bid")


def test_two_people_racing_on_one_game(either_server: ServerThread) -> None:
    server = either_server
    """Two tabs of one seat (and a chat) race: exactly one action is taken."""
    base = server.base
    room = create_room(base)
    code = room["room"]
    bo_token = join_room(base, code, "Bo")["token"]
    ann = Client(base, code, token=room["token"])
    bo = Client(base, code, token=bo_token)
    ann.send({"type": "settings", "grace_seconds": 600})
    ann.send({"type": "start"})
    rounds = 0
    for _ in range(60):
        for c in (ann, bo):
            c.drain(0.05)
        holder = next((c for c in (ann, bo) if c.state and my_turn(c.state)), None)
        if holder is None:
            continue
        assert holder.state is not None
        token = room["token"] if holder is ann else bo_token
        twin = Client(base, code, token=token)  # a second tab of the same seat
        holder.drain(0.1)
        assert twin.version == holder.version
        action = holder.state["legal"][0]
        if isinstance(action.get("discard"), int):
            action = {"discard": holder.state["hand"][:action["discard"]]}
        payload = json.dumps({"type": "action", "game": holder.game, "action": action})
        go = threading.Barrier(2)

        def fire(c: Client, p: str = payload, b: threading.Barrier = go) -> None:
            b.wait()
            c.send_raw(p)

        threads = [threading.Thread(target=fire, args=(c,)) for c in (holder, twin)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        marks = [len(holder.frames), len(twin.frames)]
        for c in (holder, twin):
            c.drain(0.3)
        errors = [m for c, mark in zip((holder, twin), marks, strict=True)
                  for m in c.frames[mark:] if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["stale_game"], errors
        twin.close()
        rounds += 1
        if rounds == 3:
            break
    assert rounds == 3


def test_the_handshake_checks_origin(make_server: Callable[..., ServerThread]) -> None:
    srv = make_server(origins=("https://cards.example.org",))
    code = create_room(srv.base)["room"]
    with pytest.raises(InvalidStatus) as refused:
        Client(srv.base, code, spectate=True, origin="https://evil.example.com")
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):
        Client(srv.base, code, spectate=True, origin=f"http://127.0.0.1:{srv.port + 1}")
    own = Client(srv.base, code, spectate=True, origin=f"http://127.0.0.1:{srv.port}")
    listed = Client(srv.base, code, spectate=True, origin="https://cards.example.org")
    assert own.state is not None and listed.state is not None
    gone = Client(srv.base, "zzzzzzzzzz", hello=False)
    assert gone.error()["code"] == "room_not_found"


def test_hello_first_and_bad_tokens_close_the_connection(server: ServerThread) -> None:
    code = create_room(server.base)["room"]
    firsts: list[tuple[dict[str, Any], str, int]] = [
        ({"type": "ping"}, "hello_required", 4400),
        ({"type": "hello"}, "bad_message", 4400),
        ({"type": "hello", "token": "A" * 22}, "bad_token", 4401),
        ({"type": "hello", "token": "x", "spectate": True}, "bad_message", 4400),
    ]
    for first, error, close in firsts:
        c = Client(server.base, code, hello=False)
        c.send(first)
        assert c.error()["code"] == error
        with pytest.raises(ConnectionClosed) as closed:
            c.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == close


def test_rate_limit_and_frame_size_limit(make_server: Callable[..., ServerThread]) -> None:
    srv = make_server(rate=5, burst=10)
    room = create_room(srv.base)
    code = room["room"]
    ann = Client(srv.base, code, token=room["token"])
    for _ in range(30):
        ann.send({"type": "ping"})
    msgs = []
    while True:
        try:
            msgs.append(ann.recv(0.5))
        except TimeoutError:
            break
    pongs = [m for m in msgs if m["type"] == "pong"]
    limited = [m for m in msgs if m["type"] == "error" and m["code"] == "rate_limited"]
    assert 10 <= len(pongs) < 30 and len(limited) == 1
    big = Client(srv.base, code, token=room["token"])
    big.send_raw("x" * (70 * 1024))  # over the 64 KiB frame limit: closed (1009)
    with pytest.raises(ConnectionClosed) as closed:
        big.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert httpx.get(f"{srv.base}/healthz").status_code == 200
