"""Any text a client sends, in any field of any message, gets a well-formed answer (issue
24): a Hypothesis property over arbitrary strings (lone surrogates included, which JSON
carries as ``"\\ud800"`` and UTF-8 cannot) against a real server.

For every client message type, a string goes into each of its fields, into a made-up
field, into its ``type``, and (for the JSON objects ``rules`` and ``action``) in place of
a key or a value.  The answer is always one well-formed frame, an error or a state
(``rooms_harness.Client`` validates every frame against the protocol's models); the socket
stays open (a ping after it gets its pong); a refusal changes nothing (the room's
``version`` and ``game`` stay, and no state frame follows it); and the server logs no
error.  Error texts that echo the client go through ``frames.wire_text``.

The HTTP bodies get the same: any text in any field of a new room's body answers 201 or
a 4xx in the API's error shape, never a 5xx.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from typing import Any

import httpx
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rooms_harness import Client, ErrorLog, ServerThread, create_room

from app.rooms.core.frames import frame_adapter
from app.rooms.core.messages import ClientMessage, CreateRoomBody

MODELS = typing.get_args(typing.get_args(ClientMessage)[0])
# A message of each type the host may send in the lobby, which a string then replaces a
# part of (a valid one, so that the string is what the answer is about).
BASES: dict[str, dict[str, Any]] = {
    "hello": {"type": "hello", "spectate": True},
    "action": {"type": "action", "game": 0, "action": {"bid": "pass"}},
    "rules": {"type": "rules", "rules": {"preset": "standard"}},
    "seat_bot": {"type": "seat_bot", "seat": 1, "level": "random"},
    "settings": {"type": "settings", "grace_seconds": 40},
    "chat": {"type": "chat", "text": "hi"},
    "react": {"type": "react", "reaction": "gg"},
}
JSON_OBJECT_KEYS = {"rules": ("preset", "target", "players"),
                    "action": ("bid", "play", "discard", "call")}
# Any code point: NUL, controls, emoji, and lone surrogates, drawn often, being what
# broke the server (``st.text()`` leaves them out, even given an alphabet that has them).
TEXT = st.lists(st.one_of(st.characters(exclude_categories=()),
                          st.characters(categories=["Cs"])), max_size=40).map("".join)


def fields_of(kind: str) -> list[str]:
    model = next(m for m in MODELS
                 if typing.get_args(m.model_fields["type"].annotation)[0] == kind)
    return [name for name in model.model_fields if name != "type"]


def base_of(kind: str) -> dict[str, Any]:
    return dict(BASES.get(kind, {"type": kind}))


@st.composite
def message_with_text(draw: st.DrawFn) -> dict[str, Any]:
    """A message of any type with one part of it replaced by any text."""
    kind = draw(st.sampled_from(sorted({typing.get_args(m.model_fields["type"].annotation)[0]
                                        for m in MODELS})))
    msg = base_of(kind)
    text = draw(TEXT)
    where = draw(st.sampled_from([*fields_of(kind), "type", "a made-up field", "a key"]))
    if where == "type":
        msg["type"] = text
    elif where == "a made-up field":
        msg["x"] = text
    elif where == "a key":  # a field whose name is the text
        msg[text] = draw(st.one_of(TEXT, st.integers(), st.booleans()))
    elif where in JSON_OBJECT_KEYS:
        key = draw(st.sampled_from(JSON_OBJECT_KEYS[where]))
        msg[where] = draw(st.sampled_from([
            {text: 1}, {key: text}, {key: [text]}, {**msg[where], text: text}, text]))
    else:
        msg[where] = text
    return msg


def room_at(http: httpx.Client, code: str) -> tuple[int, int]:
    r = http.get(f"/api/rooms/{code}")
    assert r.status_code == 200, r.text
    return r.json()["version"], r.json()["game"]


def test_any_text_in_any_field_of_any_message_gets_a_frame(
        make_server: Callable[..., ServerThread], errors_logged: ErrorLog) -> None:
    srv = make_server(rate=10**6, burst=10**6)  # no rate limit: two messages an example
    with httpx.Client(base_url=srv.base, timeout=30) as http:
        room = create_room(srv.base)
        code = room["room"]
        host = Client(srv.base, code, token=room["token"])

        @settings(max_examples=1000, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(msg=message_with_text())
        @example(msg={"type": "rules", "rules": {"\ud800": 1}})  # the review's case
        def answered(msg: dict[str, Any]) -> None:
            before = room_at(http, code)
            mark = len(host.frames)
            host.send_raw(json.dumps(msg))  # ASCII JSON: a lone surrogate as "\ud800"
            host.send({"type": "ping"})
            host.wait_for(lambda m: m["type"] == "pong")  # the socket is still open
            got = [m["type"] for m in host.frames[mark:]]
            assert got[-1] == "pong" and got[:-1] and got[0] in ("error", "state"), (msg, got)
            if got[0] == "error":
                assert got == ["error", "pong"], (msg, host.frames[mark:])
                error = host.frames[mark]
                assert error["code"] and error["message"], error
                assert room_at(http, code) == before, f"refused but changed: {msg!r}"
            errors_logged.check()

        answered()


CREATE_FIELDS = list(CreateRoomBody.model_fields)


@st.composite
def body_with_text(draw: st.DrawFn) -> dict[str, Any]:
    body: dict[str, Any] = {"name": "Ann"}
    text = draw(TEXT)
    where = draw(st.sampled_from([*CREATE_FIELDS, "a made-up field", "a rules key"]))
    if where == "a made-up field":
        body["x"] = text
    elif where == "a rules key":
        body["rules"] = {text: 1}
    else:
        body[where] = text
    return body


def test_any_text_in_any_field_of_a_new_rooms_body_gets_a_4xx_or_the_room(
        make_server: Callable[..., ServerThread], errors_logged: ErrorLog) -> None:
    srv = make_server()
    with httpx.Client(base_url=srv.base, timeout=30) as http:

        @settings(max_examples=100, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(body=body_with_text(), ascii_only=st.booleans())
        def answered(body: dict[str, Any], ascii_only: bool) -> None:
            r = http.post("/api/rooms", content=json.dumps(body, ensure_ascii=ascii_only)
                          .encode("utf-8", "surrogatepass"),
                          headers={"content-type": "application/json"})
            assert r.status_code == 201 or 400 <= r.status_code < 500, (body, r.text)
            if r.status_code != 201:
                error = r.json()["error"]
                assert set(error) <= {"code", "message", "option"} and error["message"]
                frame_adapter.validate_python({"type": "error", **error})
            errors_logged.check()

        answered()
