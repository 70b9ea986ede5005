"""One contract for both sides: the generated files (docs/protocol.md's tables, the JSON
Schema, the client's protocol.js) are what the Python declarations give; the served JSON
Schema accepts the frames a played match sends and the messages a client may send, and
refuses what the server refuses; every wire word the code uses is in its enum."""

from __future__ import annotations

import ast
import json
import random
import time
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from core_table import Table, play_until
from rooms_harness import ServerThread
from shared_helpers import HTTP

from app.bots.review import review_deal
from app.rooms import contract_gen, contract_js
from app.rooms.core import frames, wire_enums
from app.rooms.core.effects import Send, Step
from app.rooms.core.frames import Frame
from app.rooms.core.messages import CLIENT_TYPES
from app.rules.outcomes import Outcome
from app.rules.phases import Phase

APP = Path(__file__).resolve().parents[2] / "app"
# Codes that never reach the wire: the replay command's bad record, the review of a
# deal the room itself recorded.
NOT_WIRE = {APP / "rules" / "replay.py", APP / "bots" / "review.py"}


def validator(name: str) -> Any:
    """A validator of the committed schema's ``$defs[name]``."""
    schema = json.loads(contract_gen.SCHEMA.read_text())
    return jsonschema_rs.validator_for({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})


class RecordingTable(Table):
    """The core's test table, keeping every frame the room sends."""

    def __init__(self, rules: dict[str, Any], practice: bool = False) -> None:
        self.sent: list[Frame] = []
        super().__init__(rules=rules, practice=practice)

    def handle(self, event: Any, dt: float = 0.0) -> Step:
        step = super().handle(event, dt)
        self.sent += [e.frame for e in step.effects if isinstance(e, Send)]
        return step


def test_the_generated_files_are_up_to_date() -> None:
    stale = [str(p.relative_to(contract_gen.ROOT)) for p in contract_gen.stale()]
    assert not stale, f"{', '.join(stale)}: run python -m app.rooms.contract_gen"


def test_the_check_command_names_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    js = tmp_path / "protocol.js"
    js.write_text(contract_gen.JS.read_text().replace('AUCTION: "auction"', 'AUCTION: "bid"'))
    monkeypatch.setattr(contract_gen, "JS", js)
    monkeypatch.setattr(contract_gen, "ROOT", tmp_path)
    monkeypatch.setattr(contract_gen, "SCHEMA", tmp_path / "schema.json")  # missing: stale
    assert contract_gen.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "protocol.js is out of date" in err and "schema.json is out of date" in err
    assert 'AUCTION: "bid"' in js.read_text(), "--check rewrites nothing"


def test_a_played_match_sends_only_frames_the_schema_accepts() -> None:
    t = RecordingTable(rules={"preset": "guide", "match": "single_deal"})
    ann = t.connect(0)
    t.join("Bo")
    bo = t.connect(1)
    watcher = t.connect(None)
    t.send(ann, {"type": "settings", "turn_seconds": 30, "bot_pace": "fast"})
    t.send(bo, {"type": "chat", "text": "hi"})
    t.send(bo, {"type": "react", "reaction": "gg"})
    t.send(ann, {"type": "start"})
    t.refused(watcher, {"type": "ready"}, "not_seated")
    play_until(t, lambda: t.match.finished, {0: ann, 1: bo})
    kinds = {f["type"] for f in t.sent}
    assert {"welcome", "state"} <= kinds
    events = {e["type"] for f in t.sent if f["type"] == "state" for e in f["events"]}
    assert {"chat", "seat_taken", "deal_started", "card_played", "match_ended"} <= events
    practice = RecordingTable(practice=True, rules={"preset": "guide", "match": "single_deal"})
    player = practice.connect(0)
    practice.send(player, {"type": "start"})
    play_until(practice, lambda: practice.match.turn == 0, {})
    practice.answer_hint()
    hints = [f for f in practice.sent if f["type"] == "hint"]
    assert hints
    # a review of Ann's decisions in the deal just played (a short search will do)
    deal = t.records[0][1]["deals"][-1]
    review = review_deal(t.core.state.rules, deal, 0, random.Random(1),
                         time.monotonic() + 0.5).to_json()
    assert review["decisions"]
    frames_sent = [*t.sent, *practice.sent,
                   frames.error_frame(wire_enums.ErrorCode.BAD_RULES, "no", "kitty"),
                   {"type": "pong"},
                   {"type": "review", "match": 1, "deal": 0, "seat": 0, "review": review},
                   {"type": "review", "match": 1, "deal": 0, "seat": 0,
                    "review": {"error": "the review could not be made", "busy": True}}]
    server_frame = validator("ServerFrame")
    for frame in frames_sent:
        errors = [e.message for e in server_frame.iter_errors(json.loads(json.dumps(frame)))]
        assert not errors, (frame["type"], errors[:3])


def test_the_schema_refuses_what_the_protocol_refuses() -> None:
    server_frame, client = validator("ServerFrame"), validator("ClientMessage")
    assert not server_frame.is_valid({"type": "pong", "extra": 1})
    assert not server_frame.is_valid({"type": "error", "code": "bad_rules"})
    assert not server_frame.is_valid({"type": "error", "code": "oops", "message": "?"})
    assert server_frame.is_valid({"type": "error", "code": "bad_rules", "message": "?"})
    assert not server_frame.is_valid({"type": "nope"})
    assert not server_frame.is_valid({"type": "review", "match": 1, "deal": 0, "seat": 0,
                                      "review": {"seat": 0}})
    for message in ({"type": "hello", "spectate": True}, {"type": "ping"},
                    {"type": "action", "game": 3, "action": {"bid": 7}},
                    {"type": "settings", "bot_pace": "relaxed", "turn_seconds": 60},
                    {"type": "react", "reaction": "wow"}, {"type": "lobby"}):
        assert client.is_valid(message), message
    for message in ({"type": "settings", "bot_pace": "slow"},
                    {"type": "settings", "turn_seconds": 45},
                    {"type": "react", "reaction": "boo"},
                    {"type": "chat", "text": "x" * (wire_enums.LIMITS["CHAT_MAX"] + 1)},
                    {"type": "ping", "x": 1}, {"type": "shout"}):
        assert not client.is_valid(message), message
    schema = json.loads(contract_gen.SCHEMA.read_text())
    names = {f"{m}" for m in schema["$defs"]["ClientMessage"]["discriminator"]["mapping"]}
    assert names == set(CLIENT_TYPES)


def test_the_schema_is_served(server: ServerThread) -> None:
    r = HTTP.get(f"{server.base}/api/protocol.schema.json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.json() == json.loads(contract_gen.SCHEMA.read_text())


def test_protocol_js_has_every_enum_with_the_python_names_and_values() -> None:
    js = contract_gen.JS.read_text()
    assert js.startswith("// @ts-check")
    for enum in (Phase, Outcome, wire_enums.BotPace, wire_enums.Reaction, wire_enums.ChatKind,
                 wire_enums.SeatEventKind, wire_enums.CountdownKind, wire_enums.ErrorCode,
                 wire_enums.CloseCode):
        assert f"export const {enum.__name__} = Object.freeze({{" in js
        for member in enum:
            assert f"  {member.name}: {json.dumps(member.value)},\n" in js, member
    assert "export const TURN_SECONDS = Object.freeze(/** @type {const} */ ([0, 30, 60, 120]));" \
        in js
    for name in ("StateFrame", "WelcomeFrame", "ErrorFrame", "HintFrame", "ReviewFrame",
                 "PongFrame", "View", "RoomInfo", "SeatInfo", "ChatLine", "Hello",
                 "ActionMessage", "ServerFrame", "ClientMessage"):
        assert f"}} {name}\n" in js, name


def test_a_literal_of_exactly_an_enums_values_is_that_enum_in_js() -> None:
    enums = {"ChatKind": frozenset(wire_enums.ChatKind)}
    assert contract_js.ts_type({"enum": ["system", "text", "reaction"]}, enums) == "ChatKindValue"
    assert contract_js.ts_type({"enum": ["system", "text"]}, enums) == '("system" | "text")'


def _codes_used() -> set[str]:
    """Every string constant given as an error code in app/: the first argument of
    ``RoomError``, ``BadMessage``, ``TextError``, ``error_frame`` and ``error_response``,
    a ``code = "..."`` class attribute, and the ``code=`` of ``clean_text``."""
    makers = {"RoomError", "BadMessage", "TextError", "error_frame", "error_response",
              "clean_text"}
    found: set[str] = set()
    for path in set(APP.rglob("*.py")) - NOT_WIRE:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name in makers:
                    args = [*node.args[:1], *[k.value for k in node.keywords if k.arg == "code"]]
                    if name == "clean_text":
                        args = node.args[3:4]
                    found |= {a.value for a in args
                              if isinstance(a, ast.Constant) and isinstance(a.value, str)}
            elif isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] \
                    == ["code"] and isinstance(node.value, ast.Constant):
                found.add(str(node.value.value))
    return found


def test_every_error_code_the_server_uses_is_an_error_code() -> None:
    used = _codes_used()
    # the codes still written as strings (the engine's and the text checks'; the rooms
    # layer passes ErrorCode itself: tests/rooms/test_error_codes.py)
    assert {"illegal_play", "bad_name", "bad_chat", "not_your_turn"} <= used
    assert used <= {c.value for c in wire_enums.ErrorCode}, \
        used - {c.value for c in wire_enums.ErrorCode}


def test_every_close_code_the_server_uses_is_a_close_code() -> None:
    """The server closes sockets with CloseCode's members only: no number written out at a
    close, and no constant of its own for one."""
    named: set[str] = set()
    for path in (APP / "rooms" / "server").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                names = [n.id for t in node.targets
                         for n in (t.elts if isinstance(t, ast.Tuple) else [t])
                         if isinstance(n, ast.Name)]
                assert not any(n.startswith("CLOSE_") for n in names), (path.name, names)
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in (
                    "close", "close_after_flush"):
                codes = [k.value for k in node.keywords if k.arg == "code"] + node.args[:1]
                assert not any(isinstance(c, ast.Constant) for c in codes), \
                    f"{path.name}:{node.lineno}: a close code written as a number"
            elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id == "CloseCode"):
                named.add(node.attr)
    assert {"NO_HELLO", "TOO_SLOW", "FLOOD", "TRY_AGAIN", "POLICY"} <= named, named
    assert named <= set(wire_enums.CloseCode.__members__), \
        named - set(wire_enums.CloseCode.__members__)


def test_the_limits_are_the_servers() -> None:
    from app.rooms.core.state import CHAT_KEEP
    from app.serve import WS_MAX_SIZE
    from app.settings import Settings
    from app.web.bodylimit import BODY_MAX

    limits = wire_enums.LIMITS
    assert limits["CHAT_KEEP"] == CHAT_KEEP
    assert limits["FRAME_BYTES_MAX"] == WS_MAX_SIZE
    assert limits["BODY_BYTES_MAX"] == BODY_MAX
    assert limits["MESSAGE_BYTES_MAX"] == Settings().max_message_bytes


@pytest.mark.parametrize("lang", ["en", "nb", "fr"])
def test_every_table_line_is_worded_in_every_language(lang: str) -> None:
    catalogue = json.loads((APP / "static" / "i18n" / f"{lang}.json").read_text())
    missing = [line.value for line in wire_enums.TableLine
               if f"chat.system.{line.value}" not in catalogue]
    assert not missing, f"{lang}: no chat.system text for {missing}"
