"""Players and clubs over HTTP on a real server on loopback (docs/spec/PROTOCOL.md,
"Players and clubs"): two players, a club joined by its invite, a match of the club with
two bots that counts once for both in the standings, and what strangers, former members
and spectators get of it (nothing)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from rooms_harness import Client, ServerThread, act_until
from shared_helpers import HTTP

from app.rooms.store import StoreError
from app.rooms.store.sqlite import DB_NAME

NAMES = itertools.count()


async def database_text(url: str) -> str:
    """Every row of every table of the PostgreSQL database, as text."""
    con = await asyncpg.connect(url)
    try:
        tables = [r[0] for r in await con.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        return "".join([str(await con.fetch(f"SELECT * FROM {t}")) for t in tables])
    finally:
        await con.close()


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def make_player(base: str, name: str) -> dict[str, Any]:
    r = HTTP.post(base + "/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    assert set(data) == {"player", "key", "name"} and data["name"] == name
    return data


def play_club_match(base: str, ann: dict[str, Any], bo: dict[str, Any], club: str
                    ) -> tuple[str, list[Client]]:
    """A club room (target 1: one scored deal ends it) with Ann, Bo and two bots, played
    to its end by random legal moves."""
    r = HTTP.post(base + "/api/rooms", headers=auth(ann["key"]),  # the club's rules
                  json={"name": "Ann", "club": club})
    assert r.status_code == 201, r.text
    room = r.json()
    r = HTTP.post(f"{base}/api/rooms/{room['room']}/join", headers=auth(bo["key"]),
                  json={"name": "Bo"})
    assert r.status_code == 200, r.text
    clients = [Client(base, room["room"], room["token"]), Client(base, room["room"],
                                                                  r.json()["token"])]
    clients[0].send({"type": "start"})
    done: list[BaseException] = []

    def play(client: Client, seed: int) -> None:
        try:
            act_until(client, lambda v: v["phase"] == "match_over", random.Random(seed),
                      timeout=120)
        except BaseException as exc:  # reported by the test's thread
            done.append(exc)

    threads = [threading.Thread(target=play, args=(c, i)) for i, c in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(150)
    assert not done, done
    return room["room"], clients


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_club_match_counts_once_for_its_players_and_no_one_else_sees_the_club(
        database: str, make_server: Callable[..., ServerThread],
        request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    url = ""
    if database == "postgres":
        postgres = request.getfixturevalue("postgres")
        url = postgres.create_database(f"clubs{next(NAMES)}")
    server = make_server(database_url=url, lease_seconds=600.0)
    base = server.base
    ann, bo, eve = (make_player(base, n) for n in ("Ann", "Bo", "Eve"))
    r = HTTP.post(base + "/api/clubs", headers=auth(ann["key"]), json={"name": "Thursdays"})
    assert r.status_code == 201, r.text
    club = r.json()
    assert club["url"] == f"/c/{club['club']}"
    # a wrong invite joins nobody; the right one does
    assert HTTP.post(f"{base}/api/clubs/{club['club']}/join", headers=auth(bo["key"]),
                     json={"invite": "nope"}).status_code == 403
    r = HTTP.post(f"{base}/api/clubs/{club['club']}/join", headers=auth(bo["key"]),
                  json={"invite": club["invite"]})
    assert r.status_code == 200, r.text
    me = HTTP.get(base + "/api/players/me", headers=auth(bo["key"])).json()
    assert me == {"player": bo["player"], "name": "Bo",
                  "clubs": [{"club": club["club"], "name": "Thursdays"}], "tables": []}
    # the host sets the rules of the club's new tables (a member cannot; bad rules fail)
    rules = {"preset": "guide", "target": 1}
    assert HTTP.patch(f"{base}/api/clubs/{club['club']}", headers=auth(bo["key"]),
                      json={"rules": rules}).status_code == 403
    assert HTTP.patch(f"{base}/api/clubs/{club['club']}", headers=auth(ann["key"]),
                      json={"rules": {"preset": "nope"}}).status_code == 400
    assert HTTP.patch(f"{base}/api/clubs/{club['club']}", headers=auth(ann["key"]),
                      json={"rules": rules}).status_code == 204
    # a non-member cannot make a room of the club
    assert HTTP.post(base + "/api/rooms", headers=auth(eve["key"]),
                     json={"name": "Eve", "club": club["club"]}).status_code == 404

    code, clients = play_club_match(base, ann, bo, club["club"])
    tables = HTTP.get(base + "/api/players/me", headers=auth(bo["key"])).json()["tables"]
    assert tables == [{"room": code, "club": club["club"]}]
    page = HTTP.get(f"{base}/api/clubs/{club['club']}", headers=auth(bo["key"])).json()
    assert page["rules"] == {"preset": "guide", "target": 1}
    rows = {row["player"]: row for row in page["standings"]}
    assert set(rows) == {ann["player"], bo["player"]}  # the bots count for nobody
    assert [m["room"] for m in page["matches"]] == [code]
    # the bots' level is rated in the same matches (a person reads where they stand)
    assert [level["level"] for level in page["bot_levels"]] == [
        server.registry.rooms[code].core.state.seats[2].bot]
    totals = page["matches"][0]["totals"]
    changes = page["matches"][0]["rating_changes"]  # (the match-end screen's to come)
    assert changes[2:] == [None, None] and None not in changes[:2]
    assert (changes[0] > changes[1]) == (totals[0] > totals[1]) or totals[0] == totals[1]
    assert rows[ann["player"]]["points"] == totals[0]
    assert rows[bo["player"]]["points"] == totals[1]
    for row in rows.values():
        assert row["matches"] == 1 and row["deals"] >= 1
        assert row["wins"] == (1 if totals[[ann["player"], bo["player"]].index(
            row["player"])] == max(totals) else 0)
        assert row["rating"]["sigma"] < 25 / 3  # rated: less unsure than a new player

    # the match's record, as the club keeps it, for its members only
    record_url = f"{base}/api/clubs/{club['club']}/record?room={code}&match=1"
    record = HTTP.get(record_url, headers=auth(bo["key"]))
    assert record.status_code == 200 and record.json()["players"][:2] == ["Ann", "Bo"]
    assert HTTP.get(record_url, headers=auth(eve["key"])).status_code == 404

    # a stranger, and a spectator of the room, get nothing of the club
    for headers in ({}, auth(eve["key"]), auth("not-a-key")):
        r = HTTP.get(f"{base}/api/clubs/{club['club']}", headers=headers)
        assert r.status_code in (401, 404) and "Thursdays" not in r.text
    spectator = Client(base, code, spectate=True)
    assert club["club"] not in str(spectator.frames) and club["invite"] not in str(
        spectator.frames)
    # the host renews the invite: the old one joins nobody
    new = HTTP.post(f"{base}/api/clubs/{club['club']}/invite", headers=auth(ann["key"]))
    assert new.status_code == 200
    assert HTTP.post(f"{base}/api/clubs/{club['club']}/invite",
                     headers=auth(bo["key"])).status_code == 403  # not the host
    assert HTTP.post(f"{base}/api/clubs/{club['club']}/join", headers=auth(eve["key"]),
                     json={"invite": club["invite"]}).status_code == 403
    # a new season: the old one stays readable, the new one is empty
    r = HTTP.post(f"{base}/api/clubs/{club['club']}/season", headers=auth(ann["key"]))
    assert r.json() == {"season": 2}
    page2 = HTTP.get(f"{base}/api/clubs/{club['club']}", headers=auth(ann["key"])).json()
    assert page2["season"] == 2 and page2["standings"] == [] and page2["matches"] == []
    old = HTTP.get(f"{base}/api/clubs/{club['club']}?season=1", headers=auth(ann["key"]))
    assert old.json()["standings"] == page["standings"]

    # a second browser by device code: a new key for the same player
    code_answer = HTTP.post(base + "/api/players/me/device-code", headers=auth(bo["key"]))
    device = code_answer.json()["code"]
    claimed = HTTP.post(base + "/api/players/claim", json={"code": device.lower()}).json()
    assert claimed["player"] == bo["player"] and claimed["key"] != bo["key"]
    assert HTTP.post(base + "/api/players/claim",
                     json={"code": device}).status_code == 403  # used once
    assert HTTP.get(base + "/api/players/me", headers=auth(claimed["key"])).status_code == 200

    # a former member gets nothing of the club any more
    cy = make_player(base, "Cy")
    invite = new.json()["invite"]
    assert HTTP.post(f"{base}/api/clubs/{club['club']}/join", headers=auth(cy["key"]),
                     json={"invite": invite}).status_code == 200
    assert HTTP.get(f"{base}/api/clubs/{club['club']}", headers=auth(cy["key"])
                    ).status_code == 200
    assert HTTP.post(f"{base}/api/clubs/{club['club']}/leave",
                     headers=auth(cy["key"])).status_code == 204
    r = HTTP.get(f"{base}/api/clubs/{club['club']}", headers=auth(cy["key"]))
    assert r.status_code == 404 and "Thursdays" not in r.text and invite not in r.text
    assert HTTP.get(base + "/api/players/me", headers=auth(cy["key"])).json()["clubs"] == []

    # export, then delete: the match stays under "a former player"
    export = HTTP.get(base + "/api/players/me/export", headers=auth(bo["key"])).json()
    assert export["player"] == bo["player"] and len(export["matches"]) == 1
    assert export["browsers"] == 2
    assert HTTP.delete(base + "/api/players/me", headers=auth(bo["key"])).status_code == 204
    assert HTTP.get(base + "/api/players/me", headers=auth(claimed["key"])).status_code == 401
    old = HTTP.get(f"{base}/api/clubs/{club['club']}?season=1",
                   headers=auth(ann["key"])).json()
    names = sorted(row["name"] for row in old["standings"])
    assert names == ["Ann", "a former player"]
    assert bo["player"] not in str(old)

    # no key is in the database in the clear, nor in any frame
    for c in [*clients, spectator]:
        c.drain(0.05)
        for key in (ann["key"], bo["key"], eve["key"], claimed["key"]):
            assert key not in str(c.frames)
    raw = asyncio.run(database_text(url)) if url else (
        (Path(server.settings.data_dir) / DB_NAME).read_bytes().decode("latin-1"))
    wal = Path(server.settings.data_dir) / (DB_NAME + "-wal")
    if not url and wal.exists():
        raw += wal.read_bytes().decode("latin-1")
    for key in (ann["key"], bo["key"], eve["key"], claimed["key"]):
        assert key not in raw
        assert key not in caplog.text  # nor in any log line
    assert f"player {bo['player']} deleted" in caplog.text  # (the server's lines are read)


def test_players_clubs_and_device_codes_are_limited_per_address(
        make_server: Callable[..., ServerThread]) -> None:
    server = make_server(players_per_minute=2, clubs_per_minute=1, device_codes_per_minute=1)
    base = server.base
    ann = make_player(base, "Ann")
    make_player(base, "Bo")
    r = HTTP.post(base + "/api/players", json={"name": "Cy"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    assert int(r.headers["retry-after"]) > 0
    assert HTTP.post(base + "/api/clubs", headers=auth(ann["key"]),
                     json={"name": "One"}).status_code == 201
    assert HTTP.post(base + "/api/clubs", headers=auth(ann["key"]),
                     json={"name": "Two"}).status_code == 429
    assert HTTP.post(base + "/api/players/me/device-code",
                     headers=auth(ann["key"])).status_code == 200
    assert HTTP.post(base + "/api/players/me/device-code",
                     headers=auth(ann["key"])).status_code == 429
    # guessing codes: the claims are counted too
    assert HTTP.post(base + "/api/players/claim", json={"code": "AAAA2222"}).status_code == 403
    assert HTTP.post(base + "/api/players/claim", json={"code": "AAAA3333"}).status_code == 429


def test_a_store_that_fails_answers_503_unavailable(
        make_server: Callable[..., ServerThread]) -> None:
    server = make_server()

    def failing() -> Any:
        raise StoreError("the disk is full")

    server.registry.store.club_tx = failing
    r = HTTP.post(server.base + "/api/players", json={"name": "Ann"})
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
    assert r.headers["retry-after"]
