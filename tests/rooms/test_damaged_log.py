"""A damaged log of any shape answers ``room_damaged`` (issue 24), over HTTP and on the
socket, never a bare 500, a refused handshake or a traceback.

A room is played into the middle of a match and stopped; then each Hypothesis example
copies its SQLite rows to a new room code and damages the copy with ``sqlite3`` directly,
before the server starts again:

- damage that cannot leave a room (an entry that is not JSON, cut short, nested
  thousands deep, of an unknown kind, of a field of the wrong shape, not text at all; an
  entry lost from the middle; the checkpoint lost, or the room's checkpoint number
  pointing elsewhere or at no number): ``GET /api/rooms/{code}`` answers 500
  ``room_damaged``, twice (it stays stored), and a socket hears ``room_damaged`` and is
  closed with 1013;
- any value in any field of any entry: the room loads and shows (200, a spectator is
  welcomed with a state), or it answers ``room_damaged`` as above;
- a checkpoint whose fields each have the right type but disagree (a host seat the
  table does not have, seats for another number of players, another room's code...):
  ``room_damaged``, where such a room used to load and fail later.

Nothing is logged at ERROR in any case.
"""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rooms_harness import OPEN_CLIENTS, Client, ErrorLog, ServerThread, act_until, create_room
from shared_helpers import HTTP
from websockets.exceptions import ConnectionClosed

from app.rooms.core.codes import CODE_ALPHABET, CODE_LENGTH

DB_NAME = "amerikaner.sqlite3"
KINDS = ("room", "match", "deal", "act", "seat", "ready", "next_deal_at", "host", "rules",
         "settings", "chat", "history", "recorded", "lobby")
_codes = itertools.count(1)


def fresh_code() -> str:
    """A room code no example used before (each example copies the room anew)."""
    n, digits = next(_codes), []
    for _ in range(CODE_LENGTH):
        n, d = divmod(n, len(CODE_ALPHABET))
        digits.append(CODE_ALPHABET[d])
    return "".join(digits)

JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=10)


def nested(depth: int, kind: str) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


def nested_text(depth: int, kind: str) -> str:
    """JSON nested ``depth`` deep, as text (``json.dumps`` of it would overflow Python's
    own stack first)."""
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


Stored = tuple[str, list[tuple[int, Any]], Any]  # a room's code, rows and checkpoint number


class Template:
    """The stored rows of a room in the middle of a match: ``rows`` (seq, entry) from its
    checkpoint, ``checkpoint`` the first seq."""

    def __init__(self, db_path: Path, code: str) -> None:
        db = sqlite3.connect(db_path)
        (self.checkpoint,) = db.execute("SELECT checkpoint FROM rooms WHERE code=?",
                                        (code,)).fetchone()
        self.rows: list[tuple[int, str]] = db.execute(
            "SELECT seq, entry FROM log WHERE code=? AND seq>=? ORDER BY seq",
            (code, self.checkpoint)).fetchall()
        db.close()
        self.db_path = db_path

    def copy(self, code: str) -> list[tuple[int, Any]]:
        """The rows, the checkpoint naming room ``code``."""
        rows: list[tuple[int, Any]] = list(self.rows)
        first = json.loads(rows[0][1])
        rows[0] = (rows[0][0], json.dumps({**first, "code": code}))
        return rows

    def store(self, rooms: list[Stored]) -> None:
        """Each room (code, rows, checkpoint number or ``None``: the right one), in one
        transaction (one sync to the disk, not one a room)."""
        db = sqlite3.connect(self.db_path, isolation_level=None, timeout=30)
        db.execute("BEGIN IMMEDIATE")
        for code, rows, checkpoint in rooms:
            db.execute("INSERT INTO rooms(code, created_at, updated_at, checkpoint) "
                       "VALUES(?, 0, 1e12, ?)",
                       (code, self.checkpoint if checkpoint is None else checkpoint))
            db.executemany("INSERT INTO log(code, seq, entry) VALUES(?, ?, ?)",
                           [(code, seq, entry) for seq, entry in rows])
        db.execute("COMMIT")
        db.close()


def make_template(make_server: Callable[..., ServerThread]) -> Template:
    """A room stopped in its first deal, tricks into it: every kind of entry but the few
    that come at a match's end.  The server that played it is stopped; the test's next
    ``make_server`` serves the same data."""
    srv = make_server()
    room = create_room(srv.base, rules={"preset": "standard", "match": "deals:1"})
    host = Client(srv.base, room["room"], token=room["token"])
    host.send({"type": "settings", "grace_seconds": 40, "bot_pace": "fast"})
    host.send({"type": "seat_bot", "seat": 2, "level": "random"})
    host.send({"type": "chat", "text": "hello"})
    host.send({"type": "start"})
    act_until(host, lambda v: v["phase"] == "play" and len(v["hand"]) <= 9,
              random.Random(3))
    srv.__exit__(None, None, None)
    OPEN_CLIENTS.clear()
    return Template(srv.settings.data_dir / DB_NAME, room["room"])


def answers_room_damaged(base: str, code: str) -> None:
    for _ in range(2):  # asked twice: still there, still damaged
        r = HTTP.get(f"{base}/api/rooms/{code}", timeout=30)
        assert r.status_code == 500, r.text
        error = r.json()["error"]
        assert error["code"] == "room_damaged" and set(error) == {"code", "message"}, r.text
    c = Client(base, code, hello=False)  # refused at once, before the hello
    try:
        assert c.error()["code"] == "room_damaged"
        with pytest.raises(ConnectionClosed) as closed:
            c.recv(30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    finally:
        c.close()
        OPEN_CLIENTS.remove(c)


def loads_or_answers_room_damaged(base: str, code: str) -> None:
    r = HTTP.get(f"{base}/api/rooms/{code}", timeout=30)
    if r.status_code == 500:
        answers_room_damaged(base, code)
        return
    assert r.status_code == 200, r.text
    c = Client(base, code, spectate=True)  # welcomed, then a state (validated)
    c.close()
    OPEN_CLIENTS.remove(c)


DAMAGES = ("not json", "cut short", "deep", "deep inside", "unknown kind", "no kind",
           "wrong shape", "not an object", "not text", "lost", "checkpoint lost",
           "checkpoint elsewhere", "checkpoint no number")


@st.composite
def damage(draw: st.DrawFn, rows: list[tuple[int, Any]],
           how: str) -> tuple[list[tuple[int, Any]], Any, str]:
    """Rows damaged in the way ``how`` names (one of DAMAGES) so that they are no room's
    log, a checkpoint number (``None``: the right one), and what was done."""
    rows = list(rows)
    i = draw(st.integers(0, len(rows) - 1))
    seq, text = rows[i]
    entry = json.loads(text)
    checkpoint: Any = None
    if how == "not json":
        rows[i] = (seq, draw(st.text(max_size=30).filter(lambda t: not _is_json(t))))
    elif how == "cut short":
        rows[i] = (seq, text[:draw(st.integers(0, len(text) - 1))])
    elif how == "deep":
        rows[i] = (seq, nested_text(draw(st.integers(200, 20000)),
                                    draw(st.sampled_from(["list", "object"]))))
    elif how == "deep inside":
        field = draw(st.sampled_from(sorted(entry)))
        depth = draw(st.integers(200, 20000))
        inner = nested_text(depth, draw(st.sampled_from(["list", "object"])))
        rest = json.dumps({k: v for k, v in entry.items() if k != field})
        rows[i] = (seq, rest[:-1] + (", " if len(rest) > 2 else "") +
                   f"{json.dumps(field)}: {inner}}}")
    elif how == "unknown kind":
        kind = draw(JSON.filter(lambda k: k not in KINDS))
        rows[i] = (seq, json.dumps({**entry, "k": kind}))
    elif how == "no kind":
        rows[i] = (seq, json.dumps({k: v for k, v in entry.items() if k != "k"}))
    elif how == "wrong shape":
        # a field given a container of another kind: no record field takes both
        field = draw(st.sampled_from(sorted(k for k in entry if k != "k")
                                     or ["k"]))
        wrong = [entry[field]] if isinstance(entry[field], dict) else {"x": entry[field]}
        rows[i] = (seq, json.dumps({**entry, field: wrong}))
    elif how == "not an object":
        rows[i] = (seq, json.dumps(draw(JSON.filter(lambda v: not isinstance(v, dict)))))
    elif how == "not text":
        rows[i] = (seq, draw(st.one_of(st.binary(max_size=20).filter(_not_utf8_json),
                                       st.integers(-(2**63), 2**63 - 1),
                                       st.floats(allow_nan=False))))
    elif how == "lost":  # not the last: a gap (the last lost is a shorter, good log)
        i = draw(st.integers(0, len(rows) - 2))
        del rows[i]
    elif how == "checkpoint lost":
        del rows[0]
    elif how == "checkpoint elsewhere":
        checkpoint = draw(st.sampled_from([rows[0][0] - 1, *[s for s, _ in rows[1:]],
                                           rows[-1][0] + 1, rows[-1][0] + 1000]))
    else:
        checkpoint = draw(st.sampled_from(["x", "", 1.5, b"\x00"]))
    return rows, checkpoint, how


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _not_utf8_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return True
    return False


@st.composite
def any_change(draw: st.DrawFn, rows: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """One field of one entry set to any JSON value, or left out: half the time the
    checkpoint's, whose fields must agree with each other."""
    rows = list(rows)
    i = draw(st.one_of(st.just(0), st.integers(0, len(rows) - 1)))
    seq, text = rows[i]
    entry = json.loads(text)
    field = draw(st.sampled_from(sorted(entry)))
    if draw(st.booleans()):
        entry[field] = draw(JSON)
    else:
        del entry[field]
    rows[i] = (seq, json.dumps(entry))
    return rows


# 100 rooms a test (150 until 2026-12-05): every kind of damage is still tried several
# times (asserted below), each room costs a load over HTTP, and the examples are the same
# every run (derandomize).
EXAMPLE_SETTINGS = settings(max_examples=100, database=None, derandomize=True,
                            suppress_health_check=list(HealthCheck))
# about EXAMPLE_SETTINGS' 100 rooms, shared among the kinds of damage
PER_KIND_SETTINGS = settings(EXAMPLE_SETTINGS, max_examples=8)


def test_a_damaged_log_of_any_shape_answers_room_damaged(
        make_server: Callable[..., ServerThread], errors_logged: ErrorLog) -> None:
    log = make_template(make_server)
    rooms: list[Stored] = []
    stored: list[tuple[str, str]] = []  # (code, how it was damaged)

    # Each kind its share of the rooms: drawn at random among the kinds, one was once
    # left out of the 100 (the template's deal moved the draws before it).
    def damaged_as(how: str) -> Callable[[], None]:
        @PER_KIND_SETTINGS
        @given(data=st.data())
        def damaged(data: st.DataObject) -> None:
            code = fresh_code()
            rows, checkpoint, done = data.draw(damage(log.copy(code), how))
            rooms.append((code, rows, checkpoint))
            stored.append((code, done))
        return damaged

    for how in DAMAGES:
        damaged_as(how)()
    log.store(rooms)  # every damaged room stored first: the server's own writes wait for none
    srv = make_server()
    for code, how in stored:
        try:
            answers_room_damaged(srv.base, code)
        except AssertionError as exc:
            raise AssertionError(f"room {code}, {how}: {exc}") from None
    errors_logged.check()
    assert {how for _, how in stored} == set(DAMAGES)  # every kind was tried


def test_any_change_to_a_log_loads_or_answers_room_damaged(
        make_server: Callable[..., ServerThread], errors_logged: ErrorLog) -> None:
    log = make_template(make_server)
    rooms: list[Stored] = []

    @EXAMPLE_SETTINGS
    @given(data=st.data())
    def changed(data: st.DataObject) -> None:
        code = fresh_code()
        rooms.append((code, data.draw(any_change(log.copy(code))), None))

    changed()
    log.store(rooms)
    srv = make_server()
    for code, _, _ in rooms:
        loads_or_answers_room_damaged(srv.base, code)
    errors_logged.check()


def test_the_template_itself_loads(make_server: Callable[..., ServerThread]) -> None:
    """The damage is what fails: the copied room, undamaged, loads in the middle of its
    match."""
    log = make_template(make_server)
    srv = make_server()
    code = fresh_code()
    log.store([(code, log.copy(code), None)])
    r = HTTP.get(f"{srv.base}/api/rooms/{code}")
    assert r.status_code == 200 and r.json()["phase"] == "play", r.text


# A checkpoint whose fields are each of the right type but do not agree: it would load,
# then fail on a view, a bot's turn or the next write.
DISAGREEING: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "host out of range": lambda e: {**e, "host": 9},
    "seats for other players": lambda e: {**e, "seats": e["seats"] * 2},
    "another room's": lambda e: {**e, "code": "zzzzzzzzzz"},
    "rules that are none": lambda e: {**e, "rules": {"preset": ["standard"]}},
    "rules nested deep": lambda e: {**e, "rules": nested(150, "object")},
    "an unknown bot": lambda e: {**e, "seats": [{**s, "bot": "zz"} for s in e["seats"]]},
    "an unknown pace": lambda e: {**e, "bot_pace": "warp"},
    "a negative game": lambda e: {**e, "game": -1},
    "a record of a match to come": lambda e: {**e, "recorded_match": e["match_number"] + 1},
}


def test_a_checkpoint_whose_fields_disagree_answers_room_damaged(
        make_server: Callable[..., ServerThread], errors_logged: ErrorLog) -> None:
    log = make_template(make_server)
    codes = {}
    rooms: list[Stored] = []
    for what, change in DISAGREEING.items():
        code = codes[what] = fresh_code()
        rows = log.copy(code)
        rows[0] = (rows[0][0], json.dumps(change(json.loads(rows[0][1]))))
        rooms.append((code, rows, None))
    log.store(rooms)
    srv = make_server()
    for what, code in codes.items():
        try:
            answers_room_damaged(srv.base, code)
        except AssertionError as exc:
            raise AssertionError(f"{what}: {exc}") from None
    errors_logged.check()
