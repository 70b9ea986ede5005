"""Test harness for the pure room (``RoomCore``): no sockets, no event loop, a clock the
test moves by hand.

``Table`` drives one room through ``RoomCore.handle`` the way the runner does, and checks
each step as it goes: every frame it sends validates against the protocol's models (extra
keys forbidden), and the saved entries are kept as the room's log, so that a test can
rebuild the room from it (``replayed``) and compare it with the live one (``summary``).
A refusal must raise ``RoomError`` and change nothing (``refused``).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable
from typing import Any

import pytest

from app.rooms.core.effects import (
    AskHint,
    BotMoved,
    Connect,
    Disconnect,
    HintReady,
    Input,
    JoinRequest,
    Received,
    Save,
    Send,
    Step,
    Think,
    Tick,
)
from app.rooms.core.errors import RoomError
from app.rooms.core.frames import Frame, StateFrame, frame_adapter
from app.rooms.core.messages import Hello, RoomMessage
from app.rooms.core.records import Checkpoint, Record
from app.rooms.core.restore import replay
from app.rooms.core.room import decide
from app.rooms.core.room_core import RoomCore
from app.rooms.core.state import RoomState, Timing, fold
from app.rooms.core.wire_enums import TableLine
from app.rooms.server import thinking
from app.rooms.server.chance import chance_of
from app.rooms.server.connection import parse_client_message
from app.rooms.server.thinking import HINT_SECONDS, hint_job, job_of
from app.rules import Match, RuleSet, SeatView

CODE = "abcdefghjk"
START = 1_000_000.0  # the test clock's start (epoch seconds)

LINES = frozenset(TableLine)


class Table:
    """One room under test, its log, its seat tokens and its clock."""

    def __init__(self, rules: dict[str, Any] | None = None, practice: bool = False,
                 grace_seconds: int = 30, next_deal_pause: int = 60, bot_delay: float = 0.0,
                 host_grace: float = 0.0, seed: int = 1, turn_time_scale: float = 1.0,
                 hint_seconds: float = HINT_SECONDS) -> None:
        self.now = START
        self.hint_seconds = hint_seconds  # a hint's search, as the server's setting
        core, token, save = RoomCore.create(
            CODE, RuleSet.from_json(rules or {"preset": "standard"}), practice, "Ann",
            grace_seconds, next_deal_pause, Timing(bot_delay, host_grace, turn_time_scale),
            chance_of(random.Random(seed)))
        self.core = core
        self.log: list[Record] = []
        self.first = 0              # the last checkpoint's number: replays start there
        self.records: list[tuple[int, dict[str, Any]]] = []
        self._keep(save)
        self.tokens: dict[int, str] = {0: token}
        self._conn_ids = itertools.count(1)
        self.rng = random.Random(seed)
        self.thinks: list[Think] = []    # bots asked and not answered yet
        self.hints: list[AskHint] = []   # hints asked and not answered yet
        self.last: Step | None = None

    # -- driving ----------------------------------------------------------------------

    def handle(self, event: Input, dt: float = 0.0) -> Step:
        """``event`` at ``dt`` seconds after the last one; the step, checked."""
        self.now += dt
        core = self.core
        step = decide(core.state, core.rt, core.timing, event, self.now)
        self.take(step)
        return step

    def take(self, step: Step) -> None:
        """Carry out ``step`` as the runner does: its records saved (to ``log``), then
        folded into the room (``fold``); its frames checked, its asks kept."""
        if step.save is not None:
            self._keep(step.save)
            fold(self.core.state, step.save.entries)
        for effect in step.effects:
            if isinstance(effect, Send):
                frame_adapter.validate_python(effect.frame)
                assert effect.to, "a frame to nobody"
                for item in effect.frame.get("events", ()):  # type: ignore[attr-defined]
                    if item.get("type") == "chat" and item.get("kind") == "system":
                        assert item["text"] in LINES, f"a line the client cannot word: {item}"
            elif isinstance(effect, Think):
                self.thinks.append(effect)
            elif isinstance(effect, AskHint):
                self.hints.append(effect)
        self.last = step

    def _keep(self, save: Save) -> None:
        assert save.first_seq == len(self.log), "the log has a gap or an overlap"
        self.log.extend(save.entries)
        if save.checkpoint:
            self.first = save.first_seq
        self.records.extend(save.records)

    def join(self, name: str, seat: int | None = None) -> int:
        """``POST /join``: the seat taken (its token kept)."""
        reply = self.handle(JoinRequest(name, seat)).reply
        assert reply is not None
        self.tokens[reply["seat"]] = reply["token"]
        return reply["seat"]

    def connect(self, seat: int | None = None) -> int:
        """A new connection's hello with ``seat``'s token (``None``: a spectator)."""
        conn = next(self._conn_ids)
        if seat is None:
            hello = Hello(type="hello", spectate=True)
        else:
            hello = Hello(type="hello", token=self.tokens[seat])
        self.handle(Connect(conn, hello))
        return conn

    def disconnect(self, conn: int, dt: float = 0.0) -> Step:
        return self.handle(Disconnect(conn), dt)

    def send(self, conn: int, msg: dict[str, Any], dt: float = 0.0) -> Step:
        """A message as the WebSocket endpoint would pass it on (parsed from JSON)."""
        parsed = parse_client_message(json.dumps(msg), 64 * 1024)
        assert not isinstance(parsed, Hello) and parsed.type != "ping"
        message: RoomMessage = parsed
        return self.handle(Received(conn, message), dt)

    def act(self, conn: int, action: dict[str, Any], game: int | None = None) -> Step:
        g = self.core.state.game if game is None else game
        return self.send(conn, {"type": "action", "game": g, "action": action})

    def tick(self, dt: float = 0.0) -> Step:
        return self.handle(Tick(), dt)

    def wake(self) -> Step:
        """Move the clock to the time the room asked to be woken at, and tick."""
        assert self.last is not None and self.last.wake_at is not None, "no wake-up asked"
        return self.tick(max(0.0, self.last.wake_at - self.now))

    def answer_bot(self, think_effect: Think | None = None) -> Step:
        """The bot's answer to ``think_effect`` (default: the oldest pending), computed as
        the runner does."""
        asked = think_effect or self.thinks[0]
        if asked in self.thinks:
            self.thinks.remove(asked)
        action = thinking.choose_bot_action(asked.level, asked.match, asked.seat, self.rng.random())
        return self.handle(BotMoved(asked.seat, asked.level, asked.game, action))

    def answer_hint(self, asked: AskHint | None = None) -> Step:
        asked = asked or self.hints[0]
        if asked in self.hints:
            self.hints.remove(asked)
        hint = hint_job(job_of(asked.match, asked.seat), self.hint_seconds)
        return self.handle(HintReady(asked.seat, asked.game, hint))

    # -- checking ---------------------------------------------------------------------

    def snapshot(self) -> tuple[Any, ...]:
        """What a refusal must not change."""
        state = self.core.state
        return (self.core.version, state.game, state.seq, len(self.log), summary(state),
                {i: c.seat for i, c in self.core.conns.items()})

    def refused(self, conn: int, msg: dict[str, Any], code: str) -> RoomError:
        """``msg`` from ``conn`` is refused with ``code`` and changes nothing."""
        return self.refused_input(lambda: self.send(conn, msg), code)

    def refused_input(self, do: Any, code: str) -> RoomError:
        before = self.snapshot()
        with pytest.raises(RoomError) as info:
            do()
        assert info.value.code == code, (info.value.code, info.value.message)
        assert info.value.message
        assert self.snapshot() == before, "a refusal changed the room"
        return info.value

    def replayed(self) -> RoomState:
        """The room rebuilt from its log since the last checkpoint."""
        return replay(self.log[self.first:], self.first, chance_of(random.Random(0)))

    def assert_consistent(self) -> None:
        """The log rebuilds exactly the live room."""
        assert summary(self.replayed()) == summary(self.core.state)

    # -- reading the effects ----------------------------------------------------------

    def frames_to(self, conn: int, step: Step | None = None) -> list[Frame]:
        step = step or self.last
        assert step is not None
        return [e.frame for e in step.effects if isinstance(e, Send) and conn in e.to]

    def state_to(self, conn: int, step: Step | None = None) -> StateFrame:
        """The one state frame ``conn`` got in ``step``."""
        states = [f for f in self.frames_to(conn, step) if f["type"] == "state"]
        assert len(states) == 1, states
        frame: StateFrame = states[0]
        return frame

    def events_to(self, conn: int, step: Step | None = None) -> list[dict[str, Any]]:
        return [dict(e) for e in self.state_to(conn, step)["events"]]

    @property
    def match(self) -> Match:
        match = self.core.state.match
        assert match is not None
        return match

    def legal_for(self, seat: int) -> dict[str, Any]:
        """A legal action for ``seat`` (which must be to act), in the wire's shape."""
        view = SeatView(self.match, seat).to_wire()
        choice: dict[str, Any] = dict(self.rng.choice(view["legal"]))
        if isinstance(choice.get("discard"), int):
            choice["discard"] = self.rng.sample(view["hand"], choice["discard"])
        return choice


# Everything lasting about a room but its match: the fields of its checkpoint record, read
# from the live state under the same names, so that a new setting or anything else a
# checkpoint keeps is compared after a replay with no change here (an attribute missing
# from RoomState fails every test that compares).
LASTING = tuple(name for name in Checkpoint.model_fields if name != "k")


def summary(state: RoomState) -> dict[str, Any]:
    """Everything lasting about a room, comparable with ``==``."""
    match = state.match
    out: dict[str, Any] = {name: _comparable(getattr(state, name)) for name in LASTING}
    out.update(rules=state.rules.to_json(),
               seats=[(s.to_data(), s.from_deal) for s in state.seats],
               next_deal_at=state.next_deal_at, seq=state.seq, match=None)
    if match is not None:
        out["match"] = {
            "phase": match.phase, "turn": match.turn, "dealer": match.dealer,
            "totals": list(match.totals), "scored": list(match.scored),
            "finished": match.finished, "winners": match.winners,
            "deals": [(d.dealer, list(d.dealt), d.kitty, list(d.hands), d.bidder, d.partner,
                       d.discards, d.phase, list(d.tricks), d.outcome) for d in match.deals],
        }
    return out


def _comparable(value: Any) -> Any:
    """``value`` with a deque or other container read out as a list (a dict stays one)."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, Iterable) and not isinstance(value, str):
        return list(value)
    return value


def play_until(table: Table, done: Any, people: dict[int, int], limit: int = 3000) -> None:
    """Play on until ``done()``: each person's turn through their connection
    (``people``: seat -> conn), bots when asked, ready and timers between deals."""
    for _ in range(limit):
        if done():
            return
        match = table.match
        turn = match.turn
        if table.thinks:  # answered first: an answer to an old question is ignored
            table.answer_bot()
        elif turn is not None and turn in people and table.core.controller(turn) is None \
                and not table.core.state.seats[turn].takeover:
            table.act(people[turn], table.legal_for(turn))
        elif match.phase == "deal_over" and people:
            for conn in people.values():
                if match.phase == "deal_over":
                    table.send(conn, {"type": "ready"})
        else:
            table.wake()
    raise AssertionError("the table did not get there")
