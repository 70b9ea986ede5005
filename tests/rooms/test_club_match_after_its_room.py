"""A club's finished match once its room is gone (the room expired, the server
restarted): the club page still lists it, with its rating changes, and its record,
replay and each player's review of their own play come from the club's own copy
(``club_matches``), as the club page's `Download record`, `Replay` and `Review my play`
ask for them (app/static/js/clubpage.js, app/clubs/review_api.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from rooms_harness import ServerThread
from shared_helpers import HTTP
from test_clubs_http import auth, make_player, play_club_match

from app.rooms.store.sqlite import SqliteStore


def test_a_club_match_replays_from_the_club_after_its_room_is_gone(
        make_server: Callable[..., ServerThread], tmp_path: Path) -> None:
    server = make_server()
    ann, bo = make_player(server.base, "Ann"), make_player(server.base, "Bo")
    club = HTTP.post(server.base + "/api/clubs", headers=auth(ann["key"]),
                     json={"name": "Thursdays"}).json()
    assert HTTP.post(f"{server.base}/api/clubs/{club['club']}/join", headers=auth(bo["key"]),
                     json={"invite": club["invite"]}).status_code == 200
    assert HTTP.patch(f"{server.base}/api/clubs/{club['club']}", headers=auth(ann["key"]),
                      json={"rules": {"preset": "guide", "target": 1}}).status_code == 204
    code, clients = play_club_match(server.base, ann, bo, club["club"])
    for client in clients:
        client.close()
    server.__exit__(None, None, None)
    # the room expires (the retention's sweep, at once) while the server is down
    store = SqliteStore(tmp_path / "data")
    try:
        assert asyncio.run(store.forget_idle(time.time() + 1)) == 1
    finally:
        asyncio.run(store.close())

    base = make_server(review_seconds=2.0).base  # the review below need only arrive
    assert HTTP.get(f"{base}/api/rooms/{code}").status_code == 404
    page = HTTP.get(f"{base}/api/clubs/{club['club']}", headers=auth(bo["key"])).json()
    [match] = page["matches"]
    assert match["room"] == code and None not in match["rating_changes"][:2]
    record = HTTP.get(f"{base}/api/clubs/{club['club']}/record?room={code}&match=1",
                      headers=auth(bo["key"]))
    assert record.status_code == 200
    assert record.json()["players"][:2] == ["Ann", "Bo"]
    replay = HTTP.post(f"{base}/api/replay", content=record.content,
                       headers={"Content-Type": "application/json"})
    assert replay.status_code == 200, replay.text
    steps = replay.json()
    assert isinstance(steps["deal"], int) and len(steps["deals"]) >= 1
    # Bo's review of his own play in the match's deal; a stranger's and a wrong deal's
    # are refused
    review_url = f"{base}/api/clubs/{club['club']}/review?room={code}&match=1"
    deal = match["deals"][0]["deal"]  # (the scored deal: a void one before it counts)
    answer = HTTP.post(f"{review_url}&deal={deal}", headers=auth(bo["key"]),
                       timeout=600)  # a hang guard: the review waits its turn at low priority
    assert answer.status_code == 200, answer.text
    frame = answer.json()
    assert {k: frame[k] for k in ("type", "match", "deal", "seat")} == {
        "type": "review", "match": 1, "deal": deal, "seat": 1}
    assert "decisions" in frame["review"], frame["review"]
    assert HTTP.post(f"{review_url}&deal=99", headers=auth(bo["key"])).status_code == 404
    eve = make_player(base, "Eve")
    refused = HTTP.post(f"{review_url}&deal={deal}", headers=auth(eve["key"]))
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "club_not_found"
