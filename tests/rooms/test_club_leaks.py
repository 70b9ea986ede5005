"""Issue 38's adversarial test: a club's table played in lock step (lockstep_table.py,
whose oracle holds every frame to what its seat may know) by three members and a guest
who has the room's link but no invite.  After every step, the club's page is asked by
each member's key, by the guest's, by a wrong key, with none (a spectator has none):
members get it (and no card of the match in play, nor the match before its end), anyone
else gets ``401``/``404`` and nothing of the club.  No frame, to anyone, holds a key;
the finished match counts for the three members and not for the guest; its par, once
made (the ``easy`` bot's, quick), holds no card and no key either."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from lockstep_table import LockstepTable, every_frame_valid
from rooms_harness import ServerThread
from shared_helpers import HTTP, card_ids_in
from test_club_par import page_with_par

RULES = {"preset": "standard", "match": "deals:2"}


def player(http: httpx.Client, name: str) -> dict[str, Any]:
    r = http.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_club_table_tells_no_one_but_its_members_of_the_club(
        make_server: Callable[..., ServerThread]) -> None:
    server = make_server(par_level="easy")  # par comes quickly: its answer is checked too
    with httpx.Client(base_url=server.base, timeout=30) as http:
        people = [player(http, n) for n in ("Ann", "Bo", "Cy", "Guest")]
        made = http.post("/api/clubs", headers=auth(people[0]["key"]),
                         json={"name": "Thursdays"}).json()
        club, invite = made["club"], made["invite"]
        for p in people[1:3]:
            assert http.post(f"/api/clubs/{club}/join", headers=auth(p["key"]),
                             json={"invite": invite}).status_code == 200
        table = LockstepTable(server, RULES, seed=38, keys=[p["key"] for p in people],
                              club=club)
        asked = 0

        def check() -> None:
            nonlocal asked
            finished = table.match.finished
            for p in people[:3]:
                r = http.get(f"/api/clubs/{club}", headers=auth(p["key"]))
                assert r.status_code == 200, r.text
                page = r.json()
                assert not card_ids_in(page), card_ids_in(page)
                assert bool(page["matches"]) == finished, "a match counted before its end"
                asked += 1
            for headers in (auth(people[3]["key"]), auth("nobody"), {}):
                r = http.get(f"/api/clubs/{club}", headers=headers)
                assert r.status_code in (401, 404), r.text
                assert "Thursdays" not in r.text and invite not in r.text
                asked += 1

        table.start()
        check()
        table.play(lambda m: m.finished, on_step=check)
        check()
    assert table.steps > 20 and asked > 100
    assert every_frame_valid(table.everyone)
    frames = str([c.frames for c in table.everyone])
    for p in people:
        assert p["key"] not in frames
    assert club not in frames and invite not in frames and "Thursdays" not in frames
    page = HTTP.get(f"{server.base}/api/clubs/{club}", headers=auth(people[0]["key"])).json()
    counted = {row["player"] for row in page["standings"]}
    assert counted == {p["player"] for p in people[:3]}  # the guest counts for nobody
    seats = page["matches"][0]["seats"]
    assert [s["player"] for s in seats] == [p["player"] for p in people[:3]] + [None]
    # par, once made, is points of the finished deals: no card, no key; still only
    # the members' (a guest hears 404)
    with_par = page_with_par(server.base, club, people[0]["key"])
    assert not card_ids_in(with_par)
    assert not any(p["key"] in str(with_par) for p in people)
    assert len(with_par["matches"][0]["deals"]) == len(with_par["matches"][0]["score_sheet"])
    r = HTTP.get(f"{server.base}/api/clubs/{club}", headers=auth(people[3]["key"]))
    assert r.status_code == 404 and "deals" not in r.text
