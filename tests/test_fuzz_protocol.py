"""Protocol fuzzing against the live app (issue 9): a Hypothesis state machine drives a
room of four seated players and two spectators, each a real WebSocket client of a real
``amerikaner serve`` process on loopback, with sequences of valid, invalid, out-of-turn,
stale, oversized, deeply nested, binary and rapid-reconnect messages, and HTTP calls
beside them.

After every step: no traceback (nor any ERROR line) in the server's log, no 5xx, every
frame validates against the protocol's models (``rooms_harness.Client`` checks each one,
extra keys forbidden), and a refused message changed nothing: the room's ``version`` and
``game`` (``GET /api/rooms/{code}``) stay, and no state frame follows the refusal.  At the
end of every run the table still plays its match to the end with legal moves.

Bounded: few examples of few steps, derandomized, no example database.  Nothing waits on
the machine's speed: the room has no clock the steps could reach, so it moves only when a
client does, and a socket the test closed is waited for through the room version its
close brings; what the server logs late is read once it has stopped."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from option_tables import setting_messages
from rooms_harness import (
    OPEN_CLIENTS,
    WS_MAX,
    Client,
    create_room,
    join_room,
    my_turn,
    pick_action,
)
from serve_process import ServeProcess
from shared_helpers import HTTP

from app.rooms.core.messages import CLIENT_TYPES
from app.rooms.server.json_depth import MAX_DEPTH
from app.settings import Settings

RULES = {"preset": "standard", "match": "deals:1"}  # one deal: quick to play out
NAMES = ("Bo", "Cy", "Di")
SPECTATORS = 2
MAX_MESSAGE = Settings().max_message_bytes  # a longer message is refused (too_large)

# What a refusal of each kind of input may say (anything else is a failure).
GARBAGE_CODES = {"bad_json", "bad_message", "unknown_type", "too_large"}
ACTION_CODES = {"bad_action", "illegal_bid", "illegal_discard", "illegal_lead",
                "illegal_play", "wrong_phase", "not_your_turn", "stale_game", "match_over"}

# -- inputs ------------------------------------------------------------------------------

JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30),
                      st.floats(allow_nan=False), st.text(max_size=20))
JSON = st.recursive(JSON_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
# a message of a known type with made-up fields ("leave" and "rules" are left to COMMANDS:
# a seat given back or a long match would change the table under test)
FUZZ_TYPES = [t for t in CLIENT_TYPES if t not in ("leave", "rules")] + ["shout", ""]


def keeps_the_room_still(msg: dict[str, Any]) -> bool:
    """Whether ``msg`` cannot shorten a dropped person's grace under half a minute (the
    shortest COMMANDS set is 40 s): a reconnection would then race the timer that gives
    that person's turn to a bot (on a busy machine the bot could win), and the room
    would move by itself between two checks."""
    grace = msg.get("grace_seconds")
    return not (msg["type"] == "settings" and isinstance(grace, int) and grace < 30)


MESSAGE = st.builds(lambda kind, fields: {**fields, "type": kind},
                    st.sampled_from(FUZZ_TYPES),
                    st.dictionaries(st.sampled_from(["game", "action", "text", "seat", "level",
                                                     "token", "spectate", "reaction", "x",
                                                     "grace_seconds", "bot_pace"]),
                                    JSON, max_size=3)).filter(keeps_the_room_still)


def nested(depth: int, kind: str) -> str:
    """JSON (or not) nested ``depth`` deep, at most MAX_MESSAGE bytes."""
    if kind == "open":
        return "[" * depth
    if kind == "list":
        return "[" * depth + "]" * depth
    if kind == "object":
        return '{"a":' * depth + "1" + "}" * depth
    inner = "[" * depth + "]" * depth  # inside a message that is otherwise good
    return '{"type": "action", "game": 0, "action": {"bid": ' + inner + "}}"


NESTED = st.builds(nested, st.integers(MAX_DEPTH - 2, 800),
                   st.sampled_from(["open", "list", "object", "action"]))
OVERSIZED = st.builds(  # over the message limit, under the frame limit
    lambda n, text: json.dumps({"type": "chat", "text": text * n}, ensure_ascii=False),
    st.integers(MAX_MESSAGE, (WS_MAX - 100) // 4), st.sampled_from(["x", "é", "🂡"]))
GARBAGE = st.one_of(st.text(max_size=64), st.binary(max_size=64), NESTED, OVERSIZED,
                    st.just(""), st.just("null"), st.just('{"type": "chat"'))

CHATTER: list[dict[str, Any]] = [
    {"type": "ping"}, {"type": "chat", "text": "hi"}, {"type": "chat", "text": "  "},
    {"type": "chat", "text": "a\x00b"}, {"type": "chat", "text": "\u202egnp.exe"},
    {"type": "chat", "text": "\x1b[31mred"}, {"type": "chat", "text": "👩‍👩‍👧 ok"},
    {"type": "chat", "text": "a\ud800b"},  # a lone surrogate, sent as JSON's \ud800
    {"type": "chat", "text": "x" * 201}, {"type": "react", "reaction": "gg"},
    {"type": "react", "reaction": "boo"},
]
COMMANDS: list[dict[str, Any]] = [
    *CHATTER, {"type": "start"}, {"type": "ready"}, {"type": "rematch"}, {"type": "again"},
    {"type": "lobby"}, {"type": "leave"},
    {"type": "rules", "rules": {"preset": "guide", "match": "deals:1"}},
    {"type": "rules", "rules": {**RULES, "kitty": 0, "grand": True}},
    {"type": "rules", "rules": {**RULES, "players": 3}},
    {"type": "rules", "rules": {"min_bid": 9, "max_bid": 8}},
    {"type": "rules", "rules": {**RULES, "target": 10**40}},
    {"type": "rules", "rules": {"preset": "nope"}},
    {"type": "seat_bot", "seat": 2, "level": "random"},
    {"type": "seat_bot", "seat": 4, "level": "heuristic"},
    {"type": "settings", "grace_seconds": 40, "next_deal_pause": 60},
    *setting_messages(),  # every setting's values (tests/option_tables.py)
    {"type": "settings", "turn_seconds": 7},
    {"type": "settings", "grace_seconds": 10**20},
]
ILLEGAL_ACTIONS: list[dict[str, Any]] = [
    {"bid": 99}, {"bid": -1}, {"bid": 10**40}, {"bid": "double"}, {"bid": 7.5},
    {"bid": True}, {"play": "ZZ"}, {"play": "AS", "call": "XX"}, {}, {"discard": 3},
    {"discard": ["AS", "AS", "AS", "AS"]}, {"bid": "pass", "x": 1}, {"play": None},
    {"play": "AS", "grand": "yes"}, {"discard": "AS"},
]

# -- the server and its log ------------------------------------------------------------

# a traceback, or a line at ERROR or above: uvicorn's own format ("ERROR:    ...") and the
# app's (``amerikaner serve``: "2026-01-01 12:00:00,000 ERROR name: ...")
BAD_LINE = re.compile(r"^(Traceback \(most recent call last\)|ERROR:|CRITICAL:"
                      r"|\S+ \S+ (ERROR|CRITICAL) )", re.MULTILINE)


class LiveServer:
    """A real ``amerikaner serve`` process and what it logged."""

    def __init__(self, process: ServeProcess) -> None:
        self.process = process
        self.base = process.base
        self.seen = 0  # the log's length when the last check found it clean

    def alive(self) -> bool:
        return self.process.proc is not None and self.process.proc.poll() is None

    def problems(self) -> list[str]:
        """The log's new lines that are a traceback or an error."""
        text = self.process.output()[self.seen:]
        return [text[m.start():m.start() + 2000] for m in BAD_LINE.finditer(text)]

    def check(self) -> None:
        """Nothing bad logged since the last check (then the log so far is clean); a
        server ``check_to_the_end`` stopped is started again first."""
        if self.process.proc is None:
            self.process.start()  # on the same data (and port, unless another took it)
            self.base = self.process.base
        assert self.alive(), self.process.output()[-3000:]
        problems = self.problems()
        assert not problems, "\n---\n".join(problems)
        self.seen = len(self.process.output())

    def check_to_the_end(self) -> None:
        """``check``, on a log the server can add nothing to: what it writes late (about
        a socket whose client already saw it close) is in once the process has stopped.
        The next ``check`` starts it again (not here: after the module's last test that
        start was for nothing); the log so far counts as checked either way."""
        assert self.alive(), self.process.output()[-3000:]
        self.process.stop()
        problems = self.problems()
        self.seen = len(self.process.output())
        assert not problems, "\n---\n".join(problems)

    def wait_gone(self, code: str) -> None:
        """Wait until nobody is connected to room ``code``: the server has taken the close
        of every socket it had (polled, 20 s at most)."""
        deadline = time.monotonic() + 20
        while True:
            info = HTTP.get(f"{self.base}/api/rooms/{code}", timeout=10).json()
            if info["spectators"] == 0 and not any(s["connected"] for s in info["seats"]):
                return
            assert time.monotonic() < deadline, f"sockets of room {code} still there: {info}"
            time.sleep(0.01)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose rooms stay still between messages: bots act at once (there are none
    at the table under test), no per-client room limits, generous message rates, the host
    role passes at once (no host-grace timer), long deal pauses and grace."""
    env = {"AMERIKANER_RATE": "500", "AMERIKANER_BURST": "1000",
           "AMERIKANER_NEXT_DEAL_PAUSE": "60", "AMERIKANER_GRACE_SECONDS": "60",
           "AMERIKANER_HOST_GRACE": "0", "AMERIKANER_ROOMS_HELD": "0",
           "AMERIKANER_LOG_LEVEL": "warning"}
    process = ServeProcess(tmp_path_factory.mktemp("fuzz") / "data", env)
    process.start()
    try:
        yield LiveServer(process)
    finally:
        process.stop()


# -- the machine -----------------------------------------------------------------------


class ProtocolFuzz(RuleBasedStateMachine):
    """One room: ``clients[0..3]`` are the seats, the rest spectators."""

    server: LiveServer
    rooms: ClassVar[list[str]] = []  # every run's room, in order

    def __init__(self) -> None:
        super().__init__()
        base = self.server.base
        self.http = httpx.Client(base_url=base, timeout=10)
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
            c.wait_for(lambda m: False, timeout=10)
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
                c.wait_for(lambda m: False, timeout=10)
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
                c.wait_for(lambda m: False, timeout=10)
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


def test_protocol_fuzz(live: LiveServer) -> None:
    live.check()
    ProtocolFuzz.server = live
    ProtocolFuzz.rooms.clear()
    run_state_machine_as_test(
        ProtocolFuzz, settings=settings(
            max_examples=6, stateful_step_count=30, deadline=None, derandomize=True,
            database=None, suppress_health_check=list(HealthCheck),
            # no shrinking: each step costs real sockets, and a failing run of at most 30
            # steps reads well as it is (shrinking one took over five minutes)
            phases=[Phase.explicit, Phase.generate]))
    # a late line of the last run: every room has taken the close of every socket, and
    # the whole log is read once the server can write no more
    for code in ProtocolFuzz.rooms:
        live.wait_gone(code)
    live.check_to_the_end()


def test_a_text_frame_that_is_not_utf8_is_closed_without_a_traceback(
        live: LiveServer) -> None:
    server = live
    server.check()
    room = create_room(server.base, rules=RULES)
    c = Client(server.base, room["room"], hello=False)
    try:
        c.ws.send(b'{"type": "hello", "spectate": true, "x": "\xff"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            c.recv(10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        server.check_to_the_end()  # what the server logged of that socket, late lines too
    finally:
        server.seen = len(server.process.output())  # the fuzz checks its own steps only
        c.close()
        OPEN_CLIENTS.remove(c)
