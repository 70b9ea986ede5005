"""A version-1 database (one JSON row per room rewritten on every change, plus the current
match's deals) opens with the log store: the migration turns a room in the middle of a
match into a log that replays to the same seats, scores and current deal.  A version-2
database (the log with row ids) opens with its log copied into version 3's table."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rooms_harness import Client, ServerThread

from app.rooms.core.codes import hash_token
from app.rooms.core.effects import Connect, Received
from app.rooms.core.messages import Hello, Start
from app.rooms.core.room import decide
from app.rooms.core.room_core import RoomCore
from app.rooms.core.state import Timing, fold
from app.rooms.server.chance import chance_of
from app.rooms.store.sqlite import SqliteStore
from app.rooms.store.sqlite_schema import VERSION
from app.rules import Match, RuleSet, SeatView, parse_action
from app.rules.cards import ids_of
from app.rules.record import deal_to_record

CLUB_TABLE_NAMES = {"players", "player_keys", "device_codes", "clubs", "club_members",
                    "club_seasons", "club_rooms", "room_players", "club_matches",
                    "club_par"}
CODE = "v2rm3v2rm3"
TOKENS = ["ann-token-of-version-one", "bo-token-of-version-one"]

SCHEMA_V1 = """
CREATE TABLE rooms (code TEXT PRIMARY KEY, data TEXT NOT NULL, updated_at REAL NOT NULL);
CREATE TABLE deals (code TEXT NOT NULL, match_number INTEGER NOT NULL, idx INTEGER NOT NULL,
                    deal TEXT NOT NULL, PRIMARY KEY (code, match_number, idx));
CREATE TABLE records (code TEXT NOT NULL, match_number INTEGER NOT NULL, record TEXT NOT NULL,
                      PRIMARY KEY (code, match_number));
"""


def a_match_in_its_second_deal() -> Match:
    """A match as the version-1 server played it (redeals automatic), one deal scored and
    the second one in trick play."""
    rng = random.Random(8)
    match = Match(RuleSet.from_json({"preset": "standard", "match": "deals:3"}), rng)
    match.start_deal()
    while not (match.scored and match.phase == "play" and match.deal
               and match.deal.tricks_played >= 2):
        if match.phase == "deal_over":
            match.start_deal()
            continue
        seat = match.turn
        assert seat is not None
        view = SeatView(match, seat).to_wire()
        choice: dict[str, Any] = dict(rng.choice(view["legal"]))
        if isinstance(choice.get("discard"), int):
            choice["discard"] = rng.sample(view["hand"], choice["discard"])
        match.apply(seat, parse_action(choice))
    return match


def seat_data(name: str | None, token: str | None, bot: str | None) -> dict[str, Any]:
    return {"name": name, "token_hash": hash_token(token) if token else None, "bot": bot,
            "away": False, "ready": False}


def write_v1(data_dir: Path, match: Match) -> None:
    data_dir.mkdir(parents=True)
    db = sqlite3.connect(data_dir / "amerikaner.sqlite3")
    db.executescript(SCHEMA_V1)
    room = {
        "code": CODE, "practice": False, "rules": match.rules.to_json(),
        "seats": [seat_data("Ann", TOKENS[0], None), seat_data("Bo", TOKENS[1], None),
                  seat_data(None, None, "heuristic"), seat_data(None, None, "random")],
        "host": 0, "version": 57, "grace_seconds": 30, "next_deal_pause": 10,
        "chat": [{"seat": 1, "name": "Bo", "text": "good luck", "at": 1700000000.0}],
        "match_number": 1, "recorded_match": 0, "next_deal_at": None,
    }
    db.execute("INSERT INTO rooms VALUES(?, ?, ?)", (CODE, json.dumps(room), 1700000000.0))
    db.executemany("INSERT INTO deals VALUES(?, ?, ?, ?)",
                   [(CODE, 1, i, json.dumps(deal_to_record(d)))
                    for i, d in enumerate(match.deals)])
    db.commit()
    db.close()


def test_a_version_1_room_in_the_middle_of_a_match_comes_back(
        make_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    match = a_match_in_its_second_deal()
    deal = match.deal
    assert deal is not None and len(match.scored) == 1
    write_v1(tmp_path / "data", match)

    async def load() -> RoomCore:
        store = SqliteStore(tmp_path / "data")  # migrates
        stored = await store.load(CODE)
        await store.close()
        assert stored is not None and stored.entries[0].k == "room"
        return RoomCore.restore(stored.entries, stored.first_seq, Timing(0.0, 0.0),
                                chance_of(random.Random(1)))

    core = asyncio.run(load())
    state = core.state
    assert [s.name for s in state.seats] == ["Ann", "Bo", None, None]
    assert [s.bot for s in state.seats] == [None, None, "heuristic", "random"]
    assert core.seat_for_token(TOKENS[1]) is state.seats[1]
    assert state.host == 0 and state.match_number == 1
    back = state.match
    assert back is not None and back.totals == match.totals and back.scored == match.scored
    assert (back.phase, back.turn, back.dealer) == (match.phase, match.turn, match.dealer)
    now = back.deal
    assert now is not None
    assert now.hands == deal.hands and now.tricks == deal.tricks
    assert now.bidder == deal.bidder and now.called == deal.called
    assert [line["text"] for line in state.chat] == ["good luck"]
    db = sqlite3.connect(tmp_path / "data" / "amerikaner.sqlite3")
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "deals" not in tables and db.execute("SELECT version FROM schema_version"
                                                ).fetchone() == (VERSION,)
    db.close()

    # and through the server: the person's seat, hand and scores are back
    srv = make_server()
    ann = Client(srv.base, CODE, token=TOKENS[0])
    assert ann.seat == 0 and ann.state is not None
    view = ann.state
    assert view["scores"] == match.totals and view["deal_number"] == 2
    assert sorted(view["hand"]) == sorted(ids_of(deal.hands[0]))
    assert view["turn"] == match.turn and view["phase"] == match.phase
    assert [s["name"] for s in view["room"]["seats"]] == ["Ann", "Bo", "Bot 3", "Bot 4"]


LOG_V2 = """CREATE TABLE log (code TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,
                  PRIMARY KEY (code, seq))"""


def test_a_version_2_log_comes_back_in_version_3s_table(tmp_path: Path) -> None:
    """Version 3 keeps the log without row ids (one page written per move, not two); a
    version-2 database's rooms come back whole from the copied log."""
    data = tmp_path / "data"
    rng = random.Random(3)

    async def play() -> RoomCore:
        store = SqliteStore(data)
        core, token, save = RoomCore.create(CODE, RuleSet.from_json({"preset": "standard"}),
                                            True, "Ann", 30, 10, Timing(0.0, 0.0), chance_of(rng))
        await store.append(CODE, save)
        for event in (Connect(1, Hello(type="hello", token=token)),
                      Received(1, Start(type="start"))):
            step = decide(core.state, core.rt, core.timing, event, 0.0)
            if step.save is not None:
                await store.append(CODE, step.save)
                fold(core.state, step.save.entries)
        await store.close()
        return core

    core = asyncio.run(play())
    db = sqlite3.connect(data / "amerikaner.sqlite3")
    with db:  # back to version 2's table, as a version-2 server left it
        db.execute("ALTER TABLE log RENAME TO log_v3")
        db.execute(LOG_V2)
        db.execute("INSERT INTO log SELECT code, seq, entry FROM log_v3")
        db.execute("DROP TABLE log_v3")
        db.execute("UPDATE schema_version SET version=2")
    rows = db.execute("SELECT code, seq, entry FROM log ORDER BY seq").fetchall()
    db.close()
    assert len(rows) >= 2

    async def load() -> RoomCore:
        store = SqliteStore(data)  # migrates
        stored = await store.load(CODE)
        await store.close()
        assert stored is not None
        return RoomCore.restore(stored.entries, stored.first_seq, Timing(0.0, 0.0),
                                chance_of(random.Random(1)))

    back = asyncio.run(load())
    assert back.state.game == core.state.game and back.state.match is not None
    assert core.state.match is not None and back.state.match.deal is not None
    assert back.state.match.deal.hands == core.state.match.deal.hands  # type: ignore[union-attr]
    db = sqlite3.connect(data / "amerikaner.sqlite3")
    assert db.execute("SELECT version FROM schema_version").fetchone() == (VERSION,) == (5,)
    table = db.execute("SELECT sql FROM sqlite_master WHERE name='log'").fetchone()[0]
    assert "WITHOUT ROWID" in table
    assert db.execute("SELECT code, seq, entry FROM log ORDER BY seq").fetchall() == rows
    assert {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")} == {
        "schema_version", "rooms", "log", "records", *CLUB_TABLE_NAMES}
    db.close()
