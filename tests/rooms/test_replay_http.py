"""Replaying a deal over HTTP (app/rooms/server/replays.py): a room's deals for its
players once each is over, earlier matches from their records, and an uploaded record,
each refusal with its code; the answers agree with ``amerikaner replay``."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import httpx
from lockstep_table import LockstepTable
from pydantic import TypeAdapter
from rooms_harness import Client, ServerThread, act_until, create_room
from shared_helpers import HTTP, download_record, replay_record

from app.rooms.core.frames import HttpErrorBody
from app.rooms.core.wire_enums import LIMITS
from app.rules import Match
from app.rules.replay_steps import DealReplay

REPLAY = TypeAdapter(DealReplay)


def error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = TypeAdapter(HttpErrorBody).validate_python(r.json())
    assert body["error"]["code"] == code, r.text
    return body["error"]["message"]


def ok(r: httpx.Response) -> DealReplay:
    assert r.status_code == 200, r.text
    return REPLAY.validate_python(r.json())


def upload(base: str, record: Any, **params: Any) -> httpx.Response:
    body = record if isinstance(record, bytes) else json.dumps(record).encode()
    return HTTP.post(f"{base}/api/replay", content=body, params=params,
                     headers={"Content-Type": "application/json"}, timeout=30)


def test_a_rooms_deals_replay_for_its_players_once_over(server: ServerThread,
                                                        tmp_path: Path) -> None:
    base = server.base
    room = create_room(base, rules={"preset": "standard", "match": "deals:2"})
    code, token = room["room"], room["token"]
    url = f"{base}/api/rooms/{code}/replay"
    auth = {"Authorization": f"Bearer {token}"}
    ann = Client(base, code, token=token)
    ann.send({"type": "start"})
    ann.wait_state(lambda v: v["phase"] != "lobby")

    error(HTTP.get(url), 401, "unauthorized")
    error(HTTP.get(url, headers={"Authorization": "Bearer nottheone"}), 401, "unauthorized")
    error(HTTP.get(f"{base}/api/rooms/zzzzzzzzzz/replay", headers=auth), 404,
          "room_not_found")
    # the deal in play keeps its hands secret
    message = error(HTTP.get(url, params={"deal": 0}, headers=auth), 403, "deal_not_over")
    assert "still being played" in message
    error(HTTP.get(url, params={"deal": 3}, headers=auth), 404, "no_deal")
    error(HTTP.get(url, params={"match": 2}, headers=auth), 404, "no_record")
    error(HTTP.get(url, params={"deal": -1}, headers=auth), 422, "bad_request")

    rng = random.Random(3)
    view = act_until(ann, lambda v: v["phase"] in ("deal_over", "match_over"), rng)
    shown = ok(HTTP.get(url, headers=auth))  # the first finished deal played out
    deal = view["room"]["reviewable"][0]
    assert shown["deal"] == deal and shown["match"] == 1
    assert shown["players"] == [s["name"] for s in view["room"]["seats"]]
    if deal == len(shown["deals"]) - 1:  # the deal on the table: what the view shows
        assert shown["tricks"] == view["tricks"]
        assert shown["tricks_won"] == view["tricks_won"] == shown["steps"][-1]["tricks_won"]
        assert view["result"] is not None and shown["points"] == view["result"]["points"]

    final = act_until(ann, lambda v: v["phase"] == "match_over", rng, timeout=60)
    record = download_record(base, code, token)
    line = replay_record(record, tmp_path / "match.json")  # amerikaner replay
    # a rematch: match 1 is now the stored record's, match 2 is the room's
    ann.send({"type": "rematch"})
    ann.wait_state(lambda v: v["room"]["match_number"] == 2)
    for i, result in enumerate(line["deals"]):
        stored = ok(HTTP.get(url, params={"match": 1, "deal": i}, headers=auth))
        sent = ok(upload(base, record, deal=i))
        assert stored["match"] == 1 and sent["match"] is None
        assert {**stored, "match": None} == sent
        assert sent["deals"] == line["deals"]
        assert sent["points"] == result["points"] and sent["tricks_won"] == result["tricks"]
        assert sent["contract"] == result["contract"]
    assert [sum(col) for col in zip(*(d["points"] for d in line["deals"]), strict=True)] == (
        final["scores"])
    ann.close()


def one_deal_record() -> dict[str, Any]:
    from app.rooms.server.rules_example import example_record

    return copy.deepcopy(dict(example_record()))  # its deal is the rules page's: never changed


def test_an_uploaded_record_replays_or_is_refused_precisely(server: ServerThread) -> None:
    base = server.base
    record = one_deal_record()
    shown = ok(upload(base, record))
    assert shown["deal"] == 0 and shown["players"] == record["players"]
    assert len(shown["steps"]) == 1 + len(record["deals"][0]["actions"])

    # larger than any other body may be (pretty-printed, padded): still a record
    padded = json.dumps(record, indent=40).encode()
    assert LIMITS["BODY_BYTES_MAX"] < len(padded) < LIMITS["RECORD_BYTES_MAX"]
    assert ok(upload(base, padded)) == shown
    error(upload(base, b" " * (LIMITS["RECORD_BYTES_MAX"] + 1)), 413, "too_large")

    assert "JSON" in error(upload(base, b"{not json"), 400, "bad_record")
    error(upload(base, b""), 400, "bad_record")
    error(upload(base, b"[" * 40 + b"]" * 40), 400, "bad_json")
    twice = b'{"format": "amerikaner-record/1", "format": "x"}'
    assert "twice" in error(upload(base, twice), 400, "bad_record")
    assert "not a game record" in error(upload(base, {"hello": 1}), 400, "bad_record")
    broken = copy.deepcopy(record)
    broken["deals"][0]["actions"][8]["play"] = "2C"  # not in that seat's hand
    answer = upload(base, broken)
    message = error(answer, 400, "bad_record")
    assert message.startswith("this record does not replay: deal 1, action 9: seat"), message
    # where, as fields too (0-based), for a page in another language (issue 39)
    assert answer.json()["error"]["params"] == {"deal": 0, "action": 8}

    error(upload(base, record, deal=1), 404, "no_deal")
    error(upload(base, {**record, "deals": []}), 404, "no_deal")
    unfinished = copy.deepcopy(record)
    del unfinished["deals"][0]["actions"][20:]
    error(upload(base, unfinished), 403, "deal_not_over")
    error(upload(base, record, deal="x"), 422, "bad_request")


def test_the_replay_never_names_the_hidden_partner_of_the_deal_in_play(
        server: ServerThread) -> None:
    """Issue 36: in the second deal, after the call and before the called card is
    played, a replay asked by any seat held no line of the deal in play, whose result
    line named the partner."""
    table = LockstepTable(server, {"preset": "standard", "match": "deals:4"}, seed=7)

    def called_in_a_later_deal(m: Match) -> bool:
        deal = m.deal
        return m.finished or (len(m.deals) > 1 and deal is not None
                              and deal.called is not None and not deal.partner_revealed)

    table.start()
    table.play(called_in_a_later_deal)
    match = table.match
    deal = match.deal
    assert deal is not None and not match.finished and deal.partner is not None
    playing = len(match.deals) - 1
    url = f"{server.base}/api/rooms/{table.code}/replay"
    for seat, token in enumerate(table.tokens):
        auth = {"Authorization": f"Bearer {token}"}
        view = table.people[seat].state
        assert view is not None
        known = view["contract"]["partner"]
        assert known == (deal.partner if seat == deal.partner else None)
        for params in ({}, {"deal": 0}):
            shown = ok(HTTP.get(url, params=params, headers=auth))
            assert shown["deal"] < playing
            assert len(shown["deals"]) == playing, "a line of the deal in play"
            assert all(line["outcome"] != "incomplete" for line in shown["deals"])
        message = error(HTTP.get(url, params={"deal": playing}, headers=auth), 403,
                        "deal_not_over")
        assert "still being played" in message
