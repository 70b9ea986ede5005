"""What the protocol fuzz (tests/test_fuzz_protocol.py) sends: the room's rules, the
refusal codes each kind of input may get, and the Hypothesis strategies and lists of
made-up, garbage, nested, oversized, chatty, command and illegal-action messages.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from option_tables import setting_messages
from rooms_harness import WS_MAX

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
