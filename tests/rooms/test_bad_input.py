"""Every kind of bad message gets ``{"type": "error"}`` and changes nothing: malformed,
stale, out of turn, illegal, not allowed for this sender; two people racing on one
game; the handshake's Origin check; the rate limit; a frame over the size limit."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from functools import partial
from types import SimpleNamespace
from typing import Any

import pytest
from rooms_harness import Client, ServerThread, create_room, join_room, my_turn
from shared_helpers import HTTP
from websockets.exceptions import ConnectionClosed, InvalidStatus

from app.rooms.core.wire_enums import CloseCode
from app.rooms.server import connection
from app.rooms.server.connection import FloodGuard, RateLimiter


def version_of(base: str, code: str) -> int:
    v: int = HTTP.get(f"{base}/api/rooms/{code}").json()["version"]
    return v


def settle(*clients: Client) -> None:
    """Read each client's frames up to the pong of a ping.  The server answers a
    connection's messages in order, so every frame it sent that connection before the
    ping (the states of whatever the room did meanwhile) has then been read: an event,
    where a quiet gap of so many seconds would be a guess about the machine's speed."""
    for c in clients:
        c.send({"type": "ping"})
        c.wait_for(lambda m: m["type"] == "pong")


def assert_refused(client: Client, base: str, code: str, send: Callable[[], None],
                   error: str, still: bool = True) -> dict[str, Any]:
    """``send`` is answered with ``error``; in a still room (no bot playing), nothing
    else is sent and the version stays.  A still room's client must have read all it was
    sent before (``settle``)."""
    before = version_of(base, code)
    mark = len(client.frames)
    send()
    if still:
        # a ping after it: its pong ends the answer (messages are answered in order), so
        # "nothing else" is exactly the error, then the pong, however slow the server
        settle(client)
        got = client.frames[mark:]
        assert [m["type"] for m in got] == ["error", "pong"], got
        msg = got[0]
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


def test_malformed_messages_get_an_error_and_change_nothing(server: ServerThread) -> None:
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
    settle(bo, ann)  # the states of Bo's and Eve's arrival

    def refused(c: Client, msg: dict[str, Any], error: str) -> None:
        assert_refused(c, base, code, lambda: c.send(msg), error)

    refused(bo, {"type": "start"}, "not_host")
    refused(bo, {"type": "rules", "rules": {"preset": "guide"}}, "not_host")
    refused(bo, {"type": "seat_bot", "seat": 2, "level": "random"}, "not_host")
    refused(bo, {"type": "settings", "grace_seconds": 5}, "not_host")
    refused(eve, {"type": "start"}, "not_host")
    ann.send({"type": "settings", "spectator_chat": False})  # spectators may chat, unless
    eve.wait_state(lambda v: not v["room"]["settings"]["spectator_chat"])
    settle(ann, bo, eve)
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
    settle(ann)  # the join has answered, so its state went out before this pong
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


def test_stale_out_of_turn_and_illegal_actions(server: ServerThread) -> None:
    base = server.base
    room = create_room(base, rules={"preset": "standard"})
    code = room["room"]
    tokens = [room["token"]] + [join_room(base, code, n)["token"] for n in ("Bo", "Cy", "Di")]
    people = [Client(base, code, token=t) for t in tokens]
    people[0].send({"type": "start"})
    for p in people:
        p.wait_state(lambda v: v["phase"] == "auction")
        settle(p)
    turn = people[0].state["turn"]  # type: ignore[index]
    actor, other = people[turn], people[(turn + 1) % 4]
    g = actor.game

    def refused(c: Client, action: Any, error: str, game: int | None = None) -> dict[str, Any]:
        return assert_refused(c, base, code, lambda: c.act(action, game), error)

    def why(msg: dict[str, Any]) -> tuple[Any, Any]:
        return msg.get("reason"), msg.get("params")

    refused(actor, {"bid": "pass"}, "stale_game", game=g - 1)
    refused(actor, {"bid": "pass"}, "stale_game", game=g + 5)
    refused(other, {"bid": "pass"}, "not_your_turn")
    # the rules' reason and its figure, for the client to word in any language (issue 39)
    assert why(refused(actor, {"bid": 3}, "illegal_bid")) == ("bid_lowest", {"n": 7})
    assert why(refused(actor, {"bid": 14}, "illegal_bid")) == ("bid_highest", {"n": 13})
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
    settle(nxt)
    assert why(refused(nxt, {"bid": 7}, "illegal_bid")) == ("bid_higher", {"n": 7})


def turn_of_one_of(c: Client, seats: set[int | None], after: int) -> int:
    """Read ``c``'s states up to the first one past game ``after`` where one of ``seats``
    is to act (the one already read, if it is); its game."""
    def found(game: int, view: dict[str, Any] | None) -> bool:
        return game > after and view is not None and view["turn"] in seats

    if not found(c.game, c.state):
        c.wait_for(lambda m: m["type"] == "state" and found(m["game"], m["view"]))
    return c.game


def catch_up(c: Client, game: int) -> None:
    """Read ``c``'s states up to game ``game`` (reached by another client already)."""
    if c.game != game:
        c.wait_for(lambda m: m["type"] == "state" and m["game"] == game)


def test_two_people_racing_on_one_game(server: ServerThread) -> None:
    """Two tabs of one seat race on a person's turn: exactly one action is taken."""
    base = server.base
    room = create_room(base)
    code = room["room"]
    bo_token = join_room(base, code, "Bo")["token"]
    ann = Client(base, code, token=room["token"])
    bo = Client(base, code, token=bo_token)
    people = {ann.seat: (ann, room["token"]), bo.seat: (bo, bo_token)}
    ann.send({"type": "settings", "grace_seconds": 600})
    ann.send({"type": "start"})
    game = -1
    # each person bids in the first round of the auction, and plays if a contract is
    # made; a deal all pass is dealt again at once: three turns of a person always come
    for _ in range(3):
        # Ann sees every state: the next one with a person to act (the bots play
        # meanwhile; nothing moves on from it until that person acts)
        game = turn_of_one_of(ann, set(people), after=game)
        assert ann.state is not None
        holder, token = people[ann.state["turn"]]
        catch_up(holder, game)
        assert holder.state is not None and my_turn(holder.state)
        twin = Client(base, code, token=token)  # a second tab of the same seat
        # the same moment of the game (the version may differ: a tab coming or going is
        # a new version, and the last round's twin may still be leaving)
        assert twin.game == holder.game and twin.state is not None and my_turn(twin.state)
        action = holder.state["legal"][0]
        if isinstance(action.get("discard"), int):
            action = {"discard": holder.state["hand"][:action["discard"]]}
        payload = json.dumps({"type": "action", "game": game, "action": action})
        go = threading.Barrier(2)

        def fire(c: Client, p: str = payload, b: threading.Barrier = go) -> None:
            b.wait()
            c.send_raw(p)

        threads = [threading.Thread(target=fire, args=(c,)) for c in (holder, twin)]
        marks = [len(holder.frames), len(twin.frames)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        settle(holder, twin)  # each tab's answer to its action came before its pong
        errors = [m for c, mark in zip((holder, twin), marks, strict=True)
                  for m in c.frames[mark:] if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["stale_game"], errors
        twin.close()


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
            c.recv(30)  # a generous wait for an event, the close
        assert closed.value.rcvd is not None and closed.value.rcvd.code == close


def test_the_token_bucket_refills_with_time_and_warns_once_a_streak(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The limiter's arithmetic on a fake clock (it reads ``time.monotonic`` of its
    module): the server test below cannot let time pass on purpose."""
    now = [1000.0]
    monkeypatch.setattr(connection, "time", SimpleNamespace(monotonic=lambda: now[0]))
    limiter = RateLimiter(rate=4, burst=10)  # steps of 1/8 s: exact in binary
    assert [limiter.allow() for _ in range(12)] == [True] * 10 + [False] * 2
    assert limiter.strikes == 2  # the session warns at the first strike of a streak only
    now[0] += 0.125  # half a token: still refused
    assert not limiter.allow() and limiter.strikes == 3
    now[0] += 0.125  # another half: one token
    assert limiter.allow() and limiter.strikes == 0  # a new streak gets a new warning
    assert not limiter.allow() and limiter.strikes == 1
    now[0] += 3600  # a long quiet: back to a full burst, never more
    assert [limiter.allow() for _ in range(11)] == [True] * 10 + [False]


def test_rate_limit_and_frame_size_limit(make_server: Callable[..., ServerThread]) -> None:
    # A token per 1000 s: however slow the machine, no token comes back during the test,
    # so the burst decides alone.  The flood guard closes the connection at the message
    # after its limit: that close (sent after the answers to all messages before it) ends
    # the answers, where waiting for a quiet gap would be a guess.  Its window (10^4 s)
    # holds every message of the test.
    srv = make_server(rate=0.001, burst=10, flood_window=10_000.0)
    flood_limit = FloodGuard.for_rate(0.001, 10, 10_000.0).limit
    assert flood_limit > 20  # room for a streak of refusals after the burst
    room = create_room(srv.base)
    code = room["room"]
    ann = Client(srv.base, code, token=room["token"])
    mark = len(ann.frames)
    for _ in range(flood_limit + 1):
        ann.send({"type": "ping"})
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ann.recv(30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.FLOOD
    got = [m["type"] if m["type"] == "pong" else m["code"] for m in ann.frames[mark:]]
    # the burst answered; then one warning for the whole streak of refusals
    assert got == ["pong"] * 10 + ["rate_limited"], got
    big = Client(srv.base, code, token=room["token"])
    big.send_raw("x" * (70 * 1024))  # over the 64 KiB frame limit: closed (1009)
    with pytest.raises(ConnectionClosed) as closed:
        big.recv(30)  # a generous wait for an event, the close
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert HTTP.get(f"{srv.base}/healthz").status_code == 200
