"""The protocol fuzz's Hypothesis state machine (tests/test_fuzz_protocol.py): one room
of four seated players and two spectators, each a real WebSocket client, sent valid,
invalid, out-of-turn, stale, oversized, nested, binary and rapid-reconnect messages and
HTTP calls; after every step a refusal changed nothing and the server logged no
traceback, and at the end the table plays its match out.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote

import httpx
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from fuzz_inputs import (
    ACTION_CODES,
    CHATTER,
    COMMANDS,
    GARBAGE,
    GARBAGE_CODES,
    ILLEGAL_ACTIONS,
    JSON,
    MESSAGE,
    NAMES,
    RULES,
    SPECTATORS,
)
from fuzz_server import LiveServer
from rooms_harness import OPEN_CLIENTS, WS_MAX, Client, create_room, join_room, my_turn, pick_action
from shared_helpers import HANG_GUARD

# -- the machine -----------------------------------------------------------------------


class ProtocolFuzz(RuleBasedStateMachine):
    """One room: ``clients[0..3]`` are the seats, the rest spectators."""

    server: LiveServer
    rooms: ClassVar[list[str]] = []  # every run's room, in order

    def __init__(self) -> None:
        super().__init__()
        base = self.server.base
        self.http = httpx.Client(base_url=base, timeout=HANG_GUARD)
        room = create_room(base, rules=RULES)
        self.code: str = room["room"]
        self.rooms.append(self.code)
        self.tokens: list[str | None] = [room["token"]] + [
            join_room(base, self.code, name)["token"] for name in NAMES]
        self.tokens += [None] * SPECTATORS
        self.clients = [self.connect(i) for i in range(len(self.tokens))]
        self.settle()  # (each connection's hello was answered: nothing is on its way)

    # helpers

    def connect(self, i: int) -> Client:
        token = self.tokens[i]
        return Client(self.server.base, self.code, token=token, spectate=token is None)

    def room(self) -> dict[str, Any]:
        r = self.http.get(f"/api/rooms/{self.code}")
        assert r.status_code == 200, r.text
        info: dict[str, Any] = r.json()
        return info

    def settle(self, version: int = 0, info: dict[str, Any] | None = None) -> None:
        """Wait until every client has the room's latest state.  ``version``: the version
        the room reaches once the server has taken the close of every socket the test
        closed, a new version each (``Disconnect``), which it does a moment after the
        client saw the close: first until the room is there (polled, 20 s at most).  A
        hello's version is there by the time its welcome came, and the room has no clock
        of its own within reach, so it is still from then on.  ``info``: the room as
        just asked, once the last message's answer had come (not asked again)."""
        deadline = time.monotonic() + 20
        info = info or self.room()
        while info["version"] < version:
            assert time.monotonic() < deadline, \
                f"version {info['version']}, not {version}: a closed socket was not taken"
            time.sleep(0.01)
            info = self.room()
        version = info["version"]
        for c in self.clients:
            if c.version < version:
                c.wait_for(lambda m: m["type"] == "state" and m["version"] >= version)

    def barrier(self, c: Client) -> None:
        """A ping's pong comes after everything sent to ``c`` before it: no state frame
        may come first."""
        c.send({"type": "ping"})
        while True:
            msg = c.recv(10)
            assert msg["type"] != "state", f"a state frame followed a refusal: {msg}"
            if msg["type"] == "pong":
                return

    def exchange(self, c: Client, payload: str | bytes, refusals: set[str] | None = None,
                 before: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send ``payload``; a refusal (one of ``refusals``, if given) must change
        nothing, an acceptance must move the room.  ``before``: the room as just asked,
        nothing sent since (not asked again)."""
        before = before or self.room()
        c.send_raw(payload)
        reply = c.wait_for(lambda m: m["type"] in ("error", "state", "pong"))
        if reply["type"] == "error":
            assert reply["message"], reply
            if refusals is not None:
                assert reply["code"] in refusals, (payload[:200], reply)
            self.barrier(c)
            after = self.room()
            assert (after["version"], after["game"]) == (before["version"], before["game"]), \
                f"refused ({reply['code']}) but the room changed: {payload[:200]!r}"
        elif reply["type"] == "state":
            assert refusals is None, f"accepted: {payload[:200]!r}"
            after = self.room()
            assert after["version"] > before["version"]
            self.settle(info=after)
        return reply

    def actor(self) -> Client | None:
        return next((c for c in self.clients[:4] if c.state and my_turn(c.state)), None)

    def replace(self, i: int, version: int) -> None:
        """``clients[i]`` was closed by the server, the room being at ``version`` before:
        connect it again and catch everyone up."""
        self.clients[i].close()
        OPEN_CLIENTS.remove(self.clients[i])
        self.clients[i] = self.connect(i)
        self.settle(version + 2)  # its close and the new socket's hello

    # rules

    @rule(who=st.integers(0, 5), raw=GARBAGE)
    def garbage(self, who: int, raw: str | bytes) -> None:
        """Not JSON, binary, too deep, too large, not an object..."""
        c = self.clients[who]
        # short text may happen to be a message; a nested action, refused as an action
        expected = None if isinstance(raw, str) and '"type"' in raw and len(raw) < 64 \
            else GARBAGE_CODES | ACTION_CODES
        self.exchange(c, raw, expected)

    @rule(who=st.integers(0, 5), msg=MESSAGE)
    def made_up_message(self, who: int, msg: dict[str, Any]) -> None:
        """A known or unknown type with made-up fields: refused, or a valid message."""
        text = json.dumps(msg)
        self.exchange(self.clients[who], text, GARBAGE_CODES | ACTION_CODES | {
            "not_seated", "not_host", "already_hello", "bad_seat", "bad_level",
            "rate_limited"} if msg["type"] in ("hello", "shout", "") else None)

    @rule(who=st.integers(0, 5), msg=st.sampled_from(COMMANDS))
    def command(self, who: int, msg: dict[str, Any]) -> None:
        """Host commands, chat, reactions, ready...: from anyone, in any phase."""
        if msg["type"] == "leave" and who < 4:
            msg = {"type": "leave", "now": True}  # a seat given back leaves the table
        self.exchange(self.clients[who], json.dumps(msg))

    def phase(self) -> str:
        view = self.clients[0].state
        assert view is not None
        phase: str = view["phase"]
        return phase

    @precondition(lambda self: self.phase() == "lobby")
    @rule()
    def start(self) -> None:
        host = self.room()["host"]
        self.exchange(self.clients[host], json.dumps({"type": "start"}))

    @precondition(lambda self: self.phase() not in ("lobby", "match_over"))
    @rule(moves=st.integers(1, 20), seed=st.integers(0, 2**16))
    def play_on(self, moves: int, seed: int) -> None:
        """Legal moves, to reach every phase of the deal (``finish_match`` ends it)."""
        self.finish_match(random.Random(seed), moves)

    @rule(kind=st.sampled_from(["legal", "legal", "stale", "ahead", "out_of_turn",
                                "spectator", "illegal"]),
          k=st.integers(1, 3), seed=st.integers(0, 2**16), illegal=st.sampled_from(
              ILLEGAL_ACTIONS))
    def action(self, kind: str, k: int, seed: int, illegal: dict[str, Any]) -> None:
        """A legal move by the seat to act, or one refused: naming an old or a future
        game, from another seat, from a spectator, against the rules or malformed."""
        actor = self.actor()
        rng = random.Random(seed)
        if actor is None or actor.state is None:  # lobby or between deals: never a turn
            c = self.clients[rng.randrange(4)]
            self.exchange(c, json.dumps({"type": "action", "game": c.game,
                                         "action": {"bid": "pass"}}), ACTION_CODES)
            return
        view = actor.state
        good = pick_action(view, rng)
        if kind == "legal":  # a discard of any K cards may still break the rules
            reply = self.exchange(actor, json.dumps(
                {"type": "action", "game": actor.game, "action": good}))
            if reply["type"] == "error":
                assert reply["code"] == "illegal_discard", reply
            return
        if kind in ("stale", "ahead"):
            game = actor.game + k if kind == "ahead" else max(actor.game - k, 0)
            if game == actor.game:
                game += 1
            self.exchange(actor, json.dumps({"type": "action", "game": game, "action": good}),
                          {"stale_game"})
        elif kind == "out_of_turn":
            other = self.clients[(view["you"] + k) % 4]
            self.exchange(other, json.dumps({"type": "action", "game": other.game,
                                             "action": good}), {"not_your_turn"})
        elif kind == "spectator":
            spectator = self.clients[4 + k % SPECTATORS]
            self.exchange(spectator, json.dumps(
                {"type": "action", "game": spectator.game, "action": good}), {"not_seated"})
        else:
            self.exchange(actor, json.dumps({"type": "action", "game": actor.game,
                                             "action": illegal}), ACTION_CODES)

    @rule(who=st.integers(0, 5), times=st.integers(1, 4), tabs=st.booleans())
    def rapid_reconnect(self, who: int, times: int, tabs: bool) -> None:
        """Close and open again, several times in a row, at once; ``tabs``: the new
        connection opens before the old one closes (two tabs on one seat)."""
        version = self.room()["version"]
        for _ in range(times):
            old = self.clients[who]
            if tabs:
                self.clients[who] = self.connect(who)
                old.close()
            else:
                old.close()
                self.clients[who] = self.connect(who)
            OPEN_CLIENTS.remove(old)
            version += 2  # the old socket's close and the new one's hello
        self.settle(version)

    @rule(who=st.integers(0, 5))
    def huge_frame(self, who: int) -> None:
        """A frame over the WebSocket limit closes that socket (1009), nothing else."""
        before = self.room()
        c = self.clients[who]
        c.send_raw('{"type": "chat", "text": "' + "x" * WS_MAX + '"}')
        with pytest.raises(ConnectionClosed) as closed:
            c.wait_for(lambda m: False, timeout=HANG_GUARD)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        assert self.room()["game"] == before["game"]
        self.replace(who, before["version"])

    @rule(first=st.one_of(GARBAGE, MESSAGE.map(json.dumps),
                          st.just(json.dumps({"type": "hello", "token": "no-such-token"}))))
    def bad_hello(self, first: str | bytes) -> None:
        """A stranger's first message that is not a good hello: an error, then closed."""
        before = self.room()
        c = Client(self.server.base, self.code, hello=False)
        welcomed = False
        try:
            c.send_raw(first)
            reply = c.wait_for(lambda m: m["type"] in ("error", "welcome"))
            if reply["type"] == "welcome":
                welcomed = True
                return  # {"type": "hello"} and some made-up fields may be a good hello
            with pytest.raises(ConnectionClosed) as closed:
                c.wait_for(lambda m: False, timeout=HANG_GUARD)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code in (4400, 4401, 1009), closed.value.rcvd
            assert (self.room()["version"], self.room()["game"]) == (before["version"],
                                                                     before["game"])
        finally:
            c.close()
            OPEN_CLIENTS.remove(c)
            # welcomed: its hello and its close; refused: it never was in the room
            self.settle(before["version"] + 2 if welcomed else 0)

    @rule(who=st.integers(0, 5), burst=st.lists(st.one_of(
        st.sampled_from(CHATTER), MESSAGE, GARBAGE.filter(lambda g: len(g) < 1000)),
        min_size=2, max_size=30))
    def rapid_fire(self, who: int, burst: list[Any]) -> None:
        """Messages back to back, without waiting: every ping gets its pong, every frame
        is well-formed, and the room settles."""
        c = self.clients[who]
        pings = 0
        for item in burst:
            if isinstance(item, dict):
                pings += item == {"type": "ping"}
                item = json.dumps(item)
            c.send_raw(item)
        c.send({"type": "ping"})
        while pings >= 0:
            pings -= c.recv(10)["type"] == "pong"
        self.settle()  # (the last pong came after every message of the burst was handled)

    # one path segment once decoded (a "/", even as %2F, would be another path)
    @rule(code=st.text(min_size=1, max_size=40).filter(
        lambda code: "/" not in code and code not in (".", "..")))
    def unknown_room(self, code: str) -> None:
        """A code that is no room: 404 over HTTP; a socket is told and closed (4404)."""
        if code.lower() == self.code:
            return
        path = quote(code, safe="")
        r = self.http.get(f"/api/rooms/{path}")
        assert r.status_code == 404, (code, r.status_code, r.text)
        assert r.json()["error"]["code"] == "room_not_found", r.text
        c = Client(self.server.base, path, hello=False)
        try:
            assert c.error()["code"] == "room_not_found"
            with pytest.raises(ConnectionClosed) as closed:
                c.wait_for(lambda m: False, timeout=HANG_GUARD)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        finally:
            c.close()
            OPEN_CLIENTS.remove(c)

    @rule(body=st.one_of(JSON, st.fixed_dictionaries({"name": st.text(max_size=40)},
                                                       optional={"seat": JSON})))
    def http_join(self, body: Any) -> None:
        """Joining a full table, with any body: a 4xx in our shape, nothing changed."""
        before = self.room()
        r = self.http.post(f"/api/rooms/{self.code}/join", content=json.dumps(body),
                           headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
        assert set(r.json()["error"]) <= {"code", "message", "option"}
        after = self.room()
        assert (after["version"], after["game"]) == (before["version"], before["game"])

    @invariant()
    def the_server_logged_no_traceback(self) -> None:
        self.server.check()

    # the end: the table still finishes its match

    def teardown(self) -> None:
        try:
            self.finish_match(random.Random(self.code))
        finally:
            for c in self.clients:
                c.close()
                if c in OPEN_CLIENTS:
                    OPEN_CLIENTS.remove(c)
            self.http.close()

    def finish_match(self, rng: random.Random, moves: int = 1000) -> None:
        """Play legal moves until the match is over (at most ``moves``)."""
        for _ in range(moves):
            info = self.room()
            if info["phase"] == "match_over":
                assert self.clients[0].state is not None
                assert self.clients[0].state["winners"]
                self.server.check()
                return
            if info["phase"] == "lobby":
                self.exchange(self.clients[info["host"]], json.dumps({"type": "start"}),
                              before=info)
                continue
            if info["phase"] == "deal_over":
                for c in self.clients[:4]:
                    c.send({"type": "ready"})
                self.settle()
                continue
            actor = self.actor()
            before: dict[str, Any] | None = info  # (nothing sent since it was asked)
            if actor is None:
                # The clients' views may trail the room (a busy machine), or a bot standing
                # in for a closed socket holds the turn: catch everyone up, and if it is
                # still nobody's turn here, wait for the room to move on.
                self.settle()
                before = None  # (the room may have moved meanwhile: asked again)
                actor = self.actor()
                if actor is None:
                    self.settle(info["version"] + 1)
                    continue
            assert actor.state is not None, info
            reply = self.exchange(actor, json.dumps(
                {"type": "action", "game": actor.game, "action": pick_action(actor.state, rng)}),
                before=before)
            assert reply["type"] == "state" or reply["code"] == "illegal_discard", reply
        assert moves < 1000, "the match did not end"
