"""``decide`` is a decider: it reads the room and returns records, never changing the state
it is given; ``evolve`` alone applies records.

Every kind of input (a message of each kind from the host, another person, a spectator
and a connection that said no hello; a tick; a bot's move, current or stale; a hello, good
or bad; a disconnection; a hint and a review coming back; a join), accepted or refused,
on rooms of several rule sets in every stage (lobby, auction, play, a deal over, a match
over; a practice table too):

- the ``RoomState`` given to ``decide`` is equal, to its last field (the match's deals
  included), before and after, whatever it answered;
- a refusal leaves the runtime as it was too;
- folding ``evolve`` over the step's records gives the room the log replays to, to its
  last field.
"""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Callable
from functools import partial
from types import BuiltinFunctionType, FunctionType, MethodType
from typing import Any

import pytest
from core_table import Table, play_until
from example_budget import QUICK, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from option_tables import setting_messages
from pydantic import BaseModel

from app.rooms.core.effects import (
    BotMoved,
    Connect,
    Disconnect,
    HintReady,
    Input,
    JoinRequest,
    Received,
    ReviewReady,
    Tick,
)
from app.rooms.core.errors import RoomError
from app.rooms.core.messages import Hello, RoomMessage
from app.rooms.core.room import decide
from app.rooms.server.connection import parse_client_message
from app.rooms.server.thinking import choose_bot_action, hint_job, job_of
from app.rules import PASS, RuleSet
from app.rules.view import WireMemo

RULES: list[dict[str, Any]] = [
    {"preset": "standard", "match": "deals:2"},
    {"preset": "guide", "match": "deals:2"},
    {"preset": "norsk", "match": "deals:2"},
    {"preset": "fullstokk", "match": "deals:2"},
    {"preset": "standard", "players": 3, "match": "deals:2"},
    {"preset": "standard", "players": 5, "match": "deals:2"},
]
STAGES = ["lobby", "auction", "play", "deal_over", "match_over"]
SKIP = frozenset({"chance", "rng", "wire_memo"})  # drawn from outside; a cache of views
_TABLES: dict[int, tuple[tuple[Any, ...], Any]] = {}


PLAIN = frozenset({type(None), bool, int, float, str, bytes})  # (exactly these types)


def full(x: Any, depth: int = 0) -> Any:
    """``x`` as plain, comparable data, every field of every object it holds (what the
    room draws chance from, and the views' cache, left out).

    Called on the whole room several times a step: the common cases come first (a value
    of a plain type, a list of them) and each class's field names are found once."""
    assert depth < 40, "a cycle?"
    if type(x) in PLAIN:
        return x
    if isinstance(x, list) or (isinstance(x, tuple) and len(x) <= 64):
        return (type(x).__name__, tuple([v if type(v) in PLAIN else full(v, depth + 1)
                                         for v in x]))
    if x is None or isinstance(x, bool | int | float | str | bytes):  # enums, say
        return x
    if isinstance(x, RuleSet):
        return ("RuleSet", full(x.to_json(), depth + 1))
    if isinstance(x, FunctionType | BuiltinFunctionType | MethodType | partial | WireMemo
                  | random.Random):
        return "-"
    if isinstance(x, BaseModel):
        return (type(x).__name__, full(x.model_dump(), depth + 1))
    if isinstance(x, dict):
        return ("dict", tuple((full(k, depth + 1), full(v, depth + 1)) for k, v in x.items()))
    if isinstance(x, set | frozenset):
        return ("set", frozenset(full(v, depth + 1) for v in x))
    if isinstance(x, deque):
        return ("deque", x.maxlen, tuple(full(v, depth + 1) for v in x))
    if isinstance(x, tuple):
        # the engine's tables derived from the rules (a deal's ``led_plays``: 8,192
        # entries), immutable and shared: their hash stands for them, made once each
        kept = _TABLES.get(id(x))
        if kept is None or kept[0] is not x:
            kept = _TABLES[id(x)] = (x, ("tuple", len(x), hash(x)))
        return kept[1]
    slots = _SLOTS.get(type(x))
    if slots is None:
        slots = _SLOTS[type(x)] = frozenset(
            n for c in type(x).__mro__ for n in getattr(c, "__slots__", ()))
    names = sorted((slots | set(x.__dict__) if hasattr(x, "__dict__") else slots) - SKIP)
    return (type(x).__name__, tuple((n, full(getattr(x, n), depth + 1))
                                    for n in names if hasattr(x, n)))


_SLOTS: dict[type, frozenset[str]] = {}  # a class's slot names, its bases' included


# -- rooms in every stage ------------------------------------------------------------


def room(rules: dict[str, Any], stage: str, practice: bool, seed: int) -> Table:
    """A room at ``stage``: Ann (host, seat 0) and, off a practice table, Bo (seat 1)
    connected, a spectator watching; the other seats bots."""
    t = Table(rules=rules, practice=practice, grace_seconds=5, next_deal_pause=10,
              seed=seed)
    people = {0: t.connect(0)}
    if not practice:
        bo = t.join("Bo")
        people[bo] = t.connect(bo)
        t.connect(None)
    if stage == "lobby":
        return t
    t.send(people[0], {"type": "start"})
    done: dict[str, Callable[[], bool]] = {
        "auction": lambda: t.match.phase == "auction",
        "play": lambda: t.match.phase == "play",
        "deal_over": lambda: t.match.phase == "deal_over",
        "match_over": lambda: t.match.finished,
    }
    play_until(t, done[stage], people)
    return t


def _conns(t: Table) -> dict[str, int]:
    """Who may send: the host, another person, a spectator (each if connected), and a
    connection that said no hello."""
    out = {"nobody": 999}
    for conn, c in t.core.conns.items():
        who = "spectator" if c.seat is None else "host" if c.seat == t.core.state.host \
            else "person"
        out.setdefault(who, conn)
    return out


def _message(msg: dict[str, Any]) -> RoomMessage:
    parsed = parse_client_message(json.dumps(msg), 64 * 1024)
    assert not isinstance(parsed, Hello) and parsed.type != "ping"
    return parsed


def _actions(t: Table) -> list[dict[str, Any]]:
    """Action messages: legal and on time, stale, ahead, a pass, and not an action."""
    state = t.core.state
    match = state.match
    g = state.game
    legal = {"bid": "pass"}
    if match is not None and match.turn is not None:
        legal = t.legal_for(match.turn)
    return [{"type": "action", "game": g, "action": legal},
            {"type": "action", "game": max(0, g - 1), "action": legal},
            {"type": "action", "game": g + 1, "action": legal},
            {"type": "action", "game": g, "action": {"bid": "pass"}},
            {"type": "action", "game": g, "action": {"play": "ZZ"}}]


MESSAGES: list[dict[str, Any]] = [
    {"type": "ready"}, {"type": "chat", "text": "hi"}, {"type": "chat", "text": "  "},
    {"type": "react", "reaction": "nice"}, {"type": "start"},
    {"type": "rules", "rules": {"preset": "guide", "match": "deals:1"}},
    {"type": "rules", "rules": {"min_bid": 9, "max_bid": 8}},
    {"type": "seat_bot", "seat": 2, "level": "random"},
    {"type": "seat_bot", "seat": 1, "level": "nobody"},
    {"type": "settings", "grace_seconds": 20}, *setting_messages(),  # every setting's values
    {"type": "review"}, {"type": "review", "deal": 0, "match": 1},
    {"type": "review", "deal": 99}, {"type": "review", "deal": 0, "match": 7},
    {"type": "rematch"}, {"type": "again"}, {"type": "lobby"}, {"type": "leave"},
]
REVIEW: dict[str, Any] = {
    "seat": 0, "decisions": [], "bidder": None, "contract": None, "side_tricks": None,
    "double_dummy": None, "double_dummy_from_trick": None, "double_dummy_skipped": None,
    "points": 0.0, "total_loss": 0.0}
HINT: dict[str, Any] = {"action": {"bid": "pass"}, "key": "hint.pass", "params": {}}


def inputs() -> list[tuple[str, Callable[[Table], Input | None]]]:
    """Every kind of input, named; each made from the room as it is when it comes
    (``None``: the room has nothing of that kind to answer)."""

    def send(who: str, msg: Callable[[Table], dict[str, Any]]) -> Callable[[Table], Input | None]:
        def make(t: Table) -> Input | None:
            conn = _conns(t).get(who)
            return None if conn is None else Received(conn, _message(msg(t)))
        return make

    def bot(t: Table) -> Input | None:
        if not t.thinks:
            return None
        asked = t.thinks.pop(0)
        action = choose_bot_action(asked.level, asked.match, asked.seat, 0.5)
        return BotMoved(asked.seat, asked.level, asked.game, action)

    def hint(t: Table) -> Input | None:
        if not t.hints:
            return HintReady(0, t.core.state.game - 1, HINT)  # type: ignore[arg-type]
        asked = t.hints.pop(0)
        return HintReady(asked.seat, asked.game, hint_job(job_of(asked.match, asked.seat)))

    def hello(token: Callable[[Table], Hello]) -> Callable[[Table], Input]:
        return lambda t: Connect(500 + len(t.core.conns), token(t))

    def action(i: int) -> Callable[[Table], dict[str, Any]]:
        return lambda t: _actions(t)[i]

    def message(msg: dict[str, Any]) -> Callable[[Table], dict[str, Any]]:
        return lambda t: msg

    out: list[tuple[str, Callable[[Table], Input | None]]] = []
    for who in ("nobody", "spectator", "person", "host"):
        out += [(f"{who} action {i}", send(who, action(i))) for i in range(5)]
        out += [(f"{who} {msg}", send(who, message(msg))) for msg in MESSAGES]
    out += [
        ("tick now", lambda t: Tick()),
        ("bot", bot),
        ("stale bot", lambda t: BotMoved(1, "random", max(0, t.core.state.game - 1), PASS)),
        ("hint", hint),
        ("review", lambda t: ReviewReady(0, 1, 0, REVIEW)),  # type: ignore[arg-type]
        ("failed review", lambda t: ReviewReady(0, 1, 0, {"error": "no"})),
        ("hello Ann", hello(lambda t: Hello(type="hello", token=t.tokens[0]))),
        ("hello spectator", hello(lambda t: Hello(type="hello", spectate=True))),
        ("hello bad token", hello(lambda t: Hello(type="hello", token="not-a-token-at-all"))),
        ("disconnect unknown", lambda t: Disconnect(12345)),
        ("disconnect", lambda t: Disconnect(_conns(t).get("person", 12345))),
        ("join", lambda t: JoinRequest("Cy", None)),
        ("join taken", lambda t: JoinRequest("Di", 0)),
        ("join bad seat", lambda t: JoinRequest("Eve", 9)),
        ("join bad name", lambda t: JoinRequest("  ", None)),
    ]
    return out


INPUTS = inputs()
KINDS = [name for name, _ in INPUTS]


def step(t: Table, event: Input, dt: float) -> bool:
    """``event``, decided and checked; ``True`` if it was accepted."""
    t.now += dt
    core = t.core
    state = core.state
    before = full(state)
    runtime = full(core.rt)
    try:
        answer = decide(state, core.rt, core.timing, event, t.now)
    except RoomError as exc:
        assert exc.code and exc.message
        assert full(state) == before, f"a refused {event} changed the state"
        assert full(core.rt) == runtime, f"a refused {event} changed the runtime"
        return False
    assert core.state is state
    assert full(state) == before, f"decide changed the state it was given: {event}"
    t.take(answer)  # the records saved, then folded into the room by ``evolve``
    assert full(t.replayed()) == full(t.core.state), f"after {event}: not the log's room"
    return True


# -- every kind, every stage ---------------------------------------------------------


# every rule set at every stage; the quick loop, each rule set at one stage
GRID = [(r, s) for i, r in enumerate(RULES) for j, s in enumerate(STAGES)
        if not QUICK or j == i % len(STAGES)]


@pytest.mark.parametrize(("rules", "stage"), GRID,
                         ids=[f"{r['preset']}-{r.get('players', 4)}-{s}" for r, s in GRID])
def test_every_input_on_every_stage(rules: dict[str, Any], stage: str) -> None:
    t = room(rules, stage, practice=False, seed=len(stage))
    outcome = {True: 0, False: 0}
    for _name, make in INPUTS:
        event = make(t)
        if event is not None:
            outcome[step(t, event, 0.5)] += 1
    assert outcome[True] and outcome[False], outcome


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULES), stage=st.sampled_from(STAGES), practice=st.booleans(),
       seed=st.integers(0, 3),
       events=st.lists(st.tuples(st.sampled_from(KINDS),
                                 st.sampled_from([0.0, 0.5, 3.0, 25.0, 90.0])),
                       min_size=1, max_size=12))
def test_any_inputs_in_any_order(rules: dict[str, Any], stage: str, practice: bool,
                                 seed: int, events: list[tuple[str, float]]) -> None:
    t = room(rules, stage, practice, seed)
    for name, dt in events:
        make = dict(INPUTS)[name]
        event = make(t)
        if event is not None:
            step(t, event, dt)
