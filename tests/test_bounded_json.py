"""Bounded JSON parsing (app/rooms/server/connection.py, ``parse_json``, and
json_depth.py): too deep, broken or hostile frames are one ``BadMessage`` with code
``bad_json``, never another exception."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rooms.server.connection import BadMessage, parse_json
from app.rooms.server.json_depth import MAX_DEPTH
from app.rooms.server.json_depth import json_depth as depth

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=20)


def nesting(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    return 0


@given(json_values)
def test_json_within_the_depth_parses_as_json_loads_does(value: Any) -> None:
    text = json.dumps(value)
    assert depth(text) == nesting(value)
    assert parse_json(text) == value == parse_json(text.encode())


@given(st.integers(MAX_DEPTH + 1, 5000), st.sampled_from(["[", '{"a":']))
def test_too_deep_is_bad_json_before_the_parser_recurses(levels: int, opener: str) -> None:
    with pytest.raises(BadMessage, match=f"deeper than {MAX_DEPTH}") as err:
        parse_json(opener * levels)
    assert err.value.code == "bad_json"


def test_the_depth_limit_is_exact_and_brackets_in_strings_do_not_count() -> None:
    at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(at_limit) is not None
    with pytest.raises(BadMessage):
        parse_json("[" + at_limit + "]")
    quoted = json.dumps({"type": "chat", "text": "[" * 500 + '\\"{' * 100})
    value = parse_json(quoted)
    assert isinstance(value, dict) and value["type"] == "chat"


def test_a_2_kb_nested_frame_and_the_recursion_limit_are_bad_json() -> None:
    with pytest.raises(BadMessage):
        parse_json("[" * 2048)
    # should the parser recurse too deep after all (a lower limit), it is still bad_json
    with pytest.raises(BadMessage, match="deeper"):
        parse_json("[" * 100000 + "]" * 100000, max_depth=10 ** 6)


@pytest.mark.parametrize("frame", ["", "nul", "{'a': 1}", "[1,]", "1" * 5000, '"\\x"',
                                   b"\xff\xfe", b'{"a": "\xc3"}', '"' + "\\" * 3])
def test_broken_frames_are_bad_json(frame: str | bytes) -> None:
    with pytest.raises(BadMessage) as err:
        parse_json(frame)
    assert err.value.code == "bad_json" and err.value.message


@given(st.text(alphabet='[]{}"\\:,1a ', max_size=300) | st.binary(max_size=100))
def test_any_frame_is_a_value_or_bad_json(frame: str | bytes) -> None:
    try:
        parse_json(frame)
    except BadMessage as exc:
        assert exc.code == "bad_json"
