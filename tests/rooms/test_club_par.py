"""Par of a club's match on a real server on loopback (docs/clubs.md, "Par"): the match's
finished deals get their par (made by the ``easy`` bot here, ``AMERIKANER_PAR_LEVEL``,
so the test is quick), the club page shows each deal's real result beside its par and
the deal where each player beat par most, the standings their points above par a deal;
after a restart, a match whose par was never made (a server that died first, its lease
left behind) gets it, the same par."""

from __future__ import annotations

import itertools
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from rooms_harness import ServerThread
from shared_helpers import HTTP, card_ids_in
from test_clubs_http import auth, make_player, play_club_match

from app.rooms.store.sqlite import DB_NAME

NAMES = itertools.count()
PAR_WAIT = 300.0  # a bound, not a measure: the test fails if par never comes


def page_with_par(base: str, club: str, key: str) -> dict[str, Any]:
    """The club page once every deal of its matches has its par (polled, bounded)."""
    deadline = time.monotonic() + PAR_WAIT
    while True:
        page: dict[str, Any] = HTTP.get(f"{base}/api/clubs/{club}", headers=auth(key)).json()
        deals = [d for m in page["matches"] for d in m["deals"]]
        if deals and all(d["par"] is not None for d in deals):
            return page
        assert time.monotonic() < deadline, f"no par after {PAR_WAIT} s: {page['matches']}"
        time.sleep(0.2)


def test_a_club_match_gets_its_par_and_a_restart_makes_the_par_missing(
        make_server: Callable[..., ServerThread]) -> None:
    server = make_server(par_level="easy")
    page, key, par_before = club_match_with_par(server)

    # the server stops; its par is lost as if it had died before making it, and its
    # lease on the match left behind
    data = server.settings.data_dir / DB_NAME
    server.__exit__(None, None, None)
    db = sqlite3.connect(data)
    with db:
        db.execute("DELETE FROM club_par")
        db.execute("UPDATE club_matches SET par_deals = NULL, par_missing = NULL, "
                   "par_claim = ?", (time.time() + 86400,))
    db.close()
    second = make_server(par_level="easy")
    again = page_with_par(second.base, page["club"], key)
    assert [d["par"] for d in again["matches"][0]["deals"]] == par_before  # reproducible
    assert again["standings"] == page["standings"]


def test_par_on_postgresql(make_server: Callable[..., ServerThread],
                           postgres: Any) -> None:
    url = postgres.create_database(f"clubpar{next(NAMES)}")
    club_match_with_par(make_server(par_level="easy", database_url=url))


def club_match_with_par(server: ServerThread) -> tuple[dict[str, Any], str, list[Any]]:
    """A club match of Ann, Bo and two bots; the club page once its par is made (checked
    here), Bo's key, and the par by deal."""
    base = server.base
    ann, bo = make_player(base, "Ann"), make_player(base, "Bo")
    made = HTTP.post(base + "/api/clubs", headers=auth(ann["key"]),
                     json={"name": "Thursdays"}).json()
    club = made["club"]
    assert HTTP.post(f"{base}/api/clubs/{club}/join", headers=auth(bo["key"]),
                     json={"invite": made["invite"]}).status_code == 200
    assert HTTP.patch(f"{base}/api/clubs/{club}", headers=auth(ann["key"]), json={
        "rules": {"preset": "guide", "target": 1}}).status_code == 204
    code, _ = play_club_match(base, ann, bo, club)

    page = page_with_par(base, club, bo["key"])
    assert not card_ids_in(page)  # par is points: no card of any deal
    match = page["matches"][0]
    sheet = match["score_sheet"]
    assert [d["row"] for d in match["deals"]] == list(range(len(sheet)))
    for deal in match["deals"]:
        assert deal["points"] == sheet[deal["row"]]  # the real result
        assert len(deal["par"]) == 4
    # the standings: points above par a deal, over the deals with par (all, by now)
    for seat, who in enumerate((ann, bo)):
        row = next(r for r in page["standings"] if r["player"] == who["player"])
        above = [d["points"][seat] - d["par"][seat] for d in match["deals"]]
        assert row["par_deals"] == len(above) == len(sheet)
        assert abs(row["above_par_per_deal"] - sum(above) / len(above)) < 1e-3
        best = match["best_vs_par"][seat]
        if max(above) > 0:
            assert best is not None and above[best_row(match, best)] == max(above)
        else:
            assert best is None
    assert match["best_vs_par"][2:] == [None, None]  # the bots' seats: nobody's
    assert match["room"] == code
    return page, bo["key"], [d["par"] for d in match["deals"]]


def best_row(match: dict[str, Any], deal: int) -> int:
    """The index in ``match["deals"]`` of the deal numbered ``deal``."""
    return [d["deal"] for d in match["deals"]].index(deal)
