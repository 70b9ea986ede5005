"""A property of the pure room: whatever several connections send, in whatever order
(valid, invalid, stale, out of turn, from spectators, from connections gone), and
whenever timers, bots and hints answer (late ones included), the room stays consistent:

- nothing raises but ``RoomError``, and a refusal changes nothing (version, game, log);
- every frame sent validates against the protocol's models, extra keys forbidden;
- after every step the log replays to exactly the live room (seats, host, rules,
  settings, chat, match totals, game number, hands...);
- the game number never goes back, and a move of it comes with a new version.
"""

from __future__ import annotations

from typing import Any

from core_table import Table
from example_budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from option_tables import setting_messages

from app.rooms.core.effects import Connect, JoinRequest
from app.rooms.core.errors import RoomError
from app.rooms.core.messages import Hello

MESSAGES: list[dict[str, Any]] = [
    {"type": "start"}, {"type": "ready"}, {"type": "rematch"}, {"type": "again"},
    {"type": "lobby"}, {"type": "leave"}, {"type": "chat", "text": "hi"},
    {"type": "chat", "text": "  "}, {"type": "react", "reaction": "nice"},
    {"type": "rules", "rules": {"preset": "guide", "match": "deals:1"}},
    {"type": "rules", "rules": {"preset": "standard", "players": 3, "match": "deals:1"}},
    {"type": "rules", "rules": {"preset": "standard", "players": 5, "match": "deals:1"}},
    {"type": "rules", "rules": {"min_bid": 9, "max_bid": 8}},
    {"type": "seat_bot", "seat": 2, "level": "random"},
    {"type": "seat_bot", "seat": 1, "level": "nobody"},
]
# each value of each room setting (tests/option_tables.py), a third of the messages sent
SETTINGS_MESSAGES = setting_messages()

CONN = st.integers(0, 12)  # an index into the connections made so far (also gone ones)
SEND = st.tuples(st.just("send"), CONN, st.one_of(
    st.sampled_from(MESSAGES), st.sampled_from(MESSAGES), st.sampled_from(SETTINGS_MESSAGES)))
ACT = st.tuples(st.just("act"), CONN, st.sampled_from(["legal", "stale", "ahead", "pass"]))
OPS = st.one_of(
    st.tuples(st.just("connect"), st.sampled_from([0, 1, 2, 3, 4, None, -1])),
    st.tuples(st.just("disconnect"), CONN),
    SEND, SEND, ACT, ACT,
    st.tuples(st.just("join"), st.sampled_from([None, 1, 2, 3, 4, 7])),
    st.tuples(st.just("tick"), st.sampled_from([0.0, 0.5, 3.0, 25.0, 90.0])),
    st.tuples(st.just("bot"), st.integers(0, 3)),
    st.tuples(st.just("hint"), st.integers(0, 3)),
    st.tuples(st.just("play"), st.integers(1, 40)),
)


def apply(t: Table, conns: list[int], op: tuple[Any, ...]) -> None:
    """One input of ``op``'s kind; ``RoomError`` if the room refuses it."""
    kind = op[0]
    if kind == "connect":
        seat = op[1]
        if seat == -1 or (seat is not None and seat not in t.tokens):
            hello = Hello(type="hello", token="not-a-token-at-all")
        elif seat is None:
            hello = Hello(type="hello", spectate=True)
        else:
            hello = Hello(type="hello", token=t.tokens[seat])
        conn = 100 + len(conns)
        t.handle(Connect(conn, hello))
        conns.append(conn)  # kept after it goes: a gone connection's messages are refused
    elif kind == "join":
        reply = t.handle(JoinRequest("Guest", op[1])).reply
        assert reply is not None
        t.tokens[reply["seat"]] = reply["token"]
    elif kind == "tick":
        t.tick(dt=op[1])
    elif kind == "bot":
        if t.thinks:
            t.answer_bot(t.thinks[op[1] % len(t.thinks)])
    elif kind == "hint":
        if t.hints:
            t.answer_hint(t.hints[op[1] % len(t.hints)])
    elif kind == "play":
        advance(t, op[1])
    elif not conns:
        return
    else:
        live = [c for c in conns if c in t.core.conns]
        pool = live if live and op[1] % 4 else conns  # now and then a gone connection
        conn = pool[op[1] % len(pool)]
        if kind == "disconnect":
            t.disconnect(conn)
        elif kind == "send":
            t.send(conn, op[2])
        else:
            act(t, conn, op[2])


def act(t: Table, conn: int, how: str) -> None:
    state = t.core.state
    match = state.match
    if match is None or match.turn is None:
        t.act(conn, {"bid": "pass"})
        return
    action = t.legal_for(match.turn)  # the turn's, whoever sends it
    game = {"legal": state.game, "stale": state.game - 1, "ahead": state.game + 1,
            "pass": state.game}[how]
    t.act(conn, {"bid": "pass"} if how == "pass" else action, game)


def advance(t: Table, moves: int) -> None:
    """Up to ``moves`` steps of the game: people's turns through a connection of theirs,
    bots' answers, ready between deals, the timers."""
    for _ in range(moves):
        match = t.core.state.match
        if match is None or match.finished:
            return
        by_seat = {c.seat: i for i, c in t.core.conns.items() if c.seat is not None}
        turn = match.turn
        if t.thinks:
            t.answer_bot()
        elif turn is not None and turn in by_seat and t.core.controller(turn) is None:
            t.act(by_seat[turn], t.legal_for(turn))
        elif match.phase == "deal_over" and by_seat:
            t.send(next(iter(by_seat.values())), {"type": "ready"})
        elif t.last is not None and t.last.wake_at is not None:
            t.wake()
        else:
            return


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(OPS, max_size=45), practice=st.booleans(), start=st.booleans(),
       host_grace=st.sampled_from([0.0, 2.0]))
def test_any_inputs_leave_the_room_consistent(ops: list[tuple[Any, ...]], practice: bool,
                                              start: bool, host_grace: float) -> None:
    t = Table(rules={"preset": "standard", "match": "deals:1"}, practice=practice,
              host_grace=host_grace, grace_seconds=5, next_deal_pause=10)
    conns = [t.connect(0)]
    if start:
        t.send(conns[0], {"type": "start"})
    for op in ops:
        before = t.snapshot()
        try:
            apply(t, conns, op)
        except RoomError as exc:
            assert exc.code and exc.message
            assert t.snapshot() == before, f"{op} was refused but changed the room"
        t.assert_consistent()
        version, game = before[0], before[1]
        assert t.core.state.game >= game, "the game number went back"
        assert t.core.version >= version
        if t.core.state.game != game:
            assert t.core.version > version, "the match moved without a new state"
