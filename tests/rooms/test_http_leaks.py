"""Issue 36: no HTTP answer tells a seat what it may not know.  People in lock step on a
real server (lockstep_table.py, whose oracle holds every frame to what its seat may
know), and after every step of the match every HTTP route that carries game data is
asked by each seat's token, by a request without one (a spectator has none) and by a
wrong one: the room (``GET /api/rooms/{code}``), the replay (``GET .../replay``: the
default deal, the first, the one being played) and the record (``GET .../record``).
Each answer is held to the same oracle, the server's own match: a replay holds the
finished deals alone (no line of the deal in progress, whose result line names the
partner from the call on), the deal being played is refused, the record waits for the
match's end, and the room's public info names no card at all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from lockstep_table import LockstepTable, every_frame_valid
from plain_http import Answer, Http
from room_fixtures import make_settings
from rooms_harness import ServerThread
from shared_helpers import card_ids_in

from app.rules import Match
from app.rules.cards import ids_of
from app.rules.record import replay_record

# every preset, with the options that change what is hidden: the kitty shown, grand,
# jokers, 3 and 5 players, the kitty as a trick, a minus round when all pass
RULES: list[dict[str, Any]] = [
    {"preset": "standard", "match": "deals:2"},
    {"preset": "guide", "show_kitty": True, "grand": True, "match": "deals:2"},
    {"preset": "norsk", "players": 3, "jokers": 1, "match": "deals:2"},
    {"preset": "fullstokk", "players": 5, "kitty_trick": True, "match": "deals:2"},
    {"preset": "standard", "all_pass": "minus_round", "match": "deals:3"},
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for every rule set: each plays its own room, which is all the oracle
    reads (a server each also started a replay worker process each)."""
    with ServerThread(make_settings(tmp_path_factory.mktemp("leaks") / "data")) as srv:
        yield srv


class HttpOracle:
    """Asks every game route as every requester, and checks each answer against the
    live match (read between steps, while the room is still)."""

    def __init__(self, table: LockstepTable, http: Http) -> None:
        self.table = table
        self.http = http
        self.rules_seen: dict[str, Any] | None = None
        self.answers = 0
        self.replays_shown = 0
        self.in_progress_refused = 0

    def check(self) -> None:
        table = self.table
        match = table.match
        self._room()
        requesters: list[tuple[int | None, str | None]] = [(None, None), (None, "nobody")]
        requesters += list(enumerate(table.tokens))
        last = len(match.deals) - 1
        for seat, token in requesters:
            headers = {} if token is None else {"Authorization": f"Bearer {token}"}
            # (the first deal is the last until the second is dealt: asked once then)
            for deal in dict.fromkeys((None, 0, last)):
                params = {} if deal is None else {"deal": deal}
                r = self.http.get(f"/api/rooms/{table.code}/replay", params=params,
                                  headers=headers)
                self._replay(r, seat, token, deal, match)
            r = self.http.get(f"/api/rooms/{table.code}/record", headers=headers)
            self._record(r, token, match)

    def _room(self) -> None:
        r = self.http.get(f"/api/rooms/{self.table.code}")
        assert r.status_code == 200, r.text
        body = r.json()
        self.answers += 1
        game = {k: v for k, v in body.items() if k not in ("rules", "rules_resolved")}
        assert not card_ids_in(game), f"the room's public info names {card_ids_in(game)}"
        assert "partner" not in r.text
        rules = {"rules": body["rules"], "rules_resolved": body["rules_resolved"]}
        self.rules_seen = self.rules_seen or rules
        assert rules == self.rules_seen, "the rules do not change while a match is played"

    def _replay(self, r: Answer, seat: int | None, token: str | None,
                asked: int | None, match: Match) -> None:
        self.answers += 1
        if token is None or seat is None:
            assert r.status_code == 401, r.text
            assert r.json()["error"]["code"] == "unauthorized"
            return
        finished = [i for i, d in enumerate(match.deals) if d.over]
        assert finished == list(range(len(finished))), "only the last deal is in play"
        playing = None if match.deal is None or match.deal.over else len(match.deals) - 1
        if r.status_code == 403:
            assert r.json()["error"]["code"] == "deal_not_over", r.text
            assert playing is not None and asked in (playing, None), (asked, playing)
            assert asked is not None or not finished, "a finished deal could be shown"
            self.in_progress_refused += 1
            return
        assert r.status_code == 200, r.text
        body = r.json()
        lines = body["deals"]
        assert [line["outcome"] for line in lines if line["outcome"] == "incomplete"] == [], (
            f"seat {seat} is sent the line of the deal in play: {lines[-1]}")
        assert len(lines) == len(finished), "a line of a deal that is not over"
        assert body["match"] == self.table.live.state.match_number
        shown = body["deal"]
        assert shown in finished and asked in (None, shown)
        deal = match.deals[shown]
        as_dealt = body["steps"][0]["hands"]
        assert [sorted(h) for h in as_dealt] == [sorted(ids_of(h)) for h in deal.dealt]
        for i, line in enumerate(lines):  # each line is a finished deal's, as scored
            assert line["points"] == list(match.deals[i].points or ()) or (
                line["outcome"] == "void"), (i, line)
        self.replays_shown += 1

    def _record(self, r: Answer, token: str | None, match: Match) -> None:
        self.answers += 1
        if token is None or token == "nobody":
            assert r.status_code == 401, r.text
            return
        if not match.finished:
            assert r.status_code == 403, r.text
            assert r.json()["error"]["code"] == "match_not_over"
            return
        assert r.status_code == 200, r.text
        line = replay_record(r.json())
        assert line["ok"] is True and line["finished"] is True, line
        assert all(d["outcome"] != "incomplete" for d in line["deals"])


@pytest.mark.parametrize("rules", RULES, ids=[r["preset"] + str(i)
                                              for i, r in enumerate(RULES)])
def test_no_http_answer_tells_a_seat_what_it_may_not_know(
        server: ServerThread, rules: dict[str, Any]) -> None:
    table = LockstepTable(server, rules, seed=36)
    http = Http(server.port)
    try:
        oracle = HttpOracle(table, http)
        table.start()
        oracle.check()
        table.play(lambda m: m.finished, on_step=oracle.check)
    finally:
        http.close()
    assert table.steps > 20
    # the answers were there to check: deals shown, the deal in play refused
    assert oracle.replays_shown > 0 and oracle.in_progress_refused > 0, vars(oracle)
    assert table.seen["contract_set"] > 0 or table.seen["deal_scored"] > 0
    assert every_frame_valid(table.everyone)
