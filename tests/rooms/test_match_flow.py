"""A whole match through the server: one person and three bots, the record it leaves
(replayed by ``amerikaner replay``), the rematch, and the practice table's hints."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rooms_harness import Client, ServerThread, act_until, create_room, my_turn, pick_action
from shared_helpers import HTTP, download_record, replay_record

from app.rules import RuleSet, parse_action
from app.rules.cards import CARD_INDEX

ROOT = Path(__file__).resolve().parents[2]


def play_until(client: Client, phase: str, rng: random.Random) -> dict[str, Any]:
    """Play this seat's turns (and say ready between deals) until ``phase``."""
    while True:
        view = client.wait_state(
            lambda v: my_turn(v) or v["phase"] in ("deal_over", "match_over", phase))
        if view["phase"] == phase:
            return view
        if view["phase"] == "deal_over":
            client.send({"type": "ready"})
            client.wait_state(lambda v: v["phase"] != "deal_over")
            continue
        if view["phase"] == "match_over":
            raise AssertionError("the match ended early")
        client.act(pick_action(view, rng))
        reply = client.wait_for(lambda m: m["type"] in ("state", "error"))
        assert reply["type"] == "state", reply


def test_one_person_and_three_bots_play_a_whole_match(server: ServerThread,
                                                      tmp_path: Path) -> None:
    room = create_room(server.base, rules={"preset": "standard", "target": 30})
    code, token = room["room"], room["token"]
    ann = Client(server.base, code, token=token)
    assert ann.seat == 0 and ann.state is not None and ann.state["phase"] == "lobby"
    assert ann.state["room"]["you_are_host"] and ann.state["legal"] == []
    ann.send({"type": "seat_bot", "seat": 2, "level": "random"})
    ann.wait_state(lambda v: v["room"]["seats"][2]["bot"] == "random")
    ann.send({"type": "start"})
    view = ann.wait_state(lambda v: v["phase"] != "lobby")
    seats = view["room"]["seats"]
    assert [s["bot"] for s in seats][1:] == ["easy", "random", "easy"]
    assert [s["name"] for s in seats] == ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    assert len(view["hand"]) == 12 and view["room"]["match_number"] == 1

    final = play_until(ann, "match_over", random.Random(7))
    totals = final["scores"]
    assert max(totals) >= 30
    assert final["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
    assert [sum(col) for col in zip(*final["score_sheet"], strict=True)] == totals
    assert final["legal"] == [] and final["turn"] is None
    assert final["room"]["record_available"]

    record = download_record(server.base, code, token)
    assert record["format"] == "amerikaner-record/1"
    assert record["players"] == ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    line = replay_record(record, tmp_path / "match.json")
    assert line["ok"] and line["finished"]
    assert line["totals"] == totals and line["winners"] == final["winners"]

    # rematch: same seats, a new match; the finished match's record stays downloadable
    bo = Client(server.base, code, spectate=True)
    bo.send({"type": "rematch"})
    assert bo.error()["code"] == "not_host"
    ann.send({"type": "rematch"})
    again = ann.wait_state(lambda v: v["room"]["match_number"] == 2)
    assert again["phase"] in ("auction", "discard", "lead", "play", "deal_over")
    assert again["scores"] == [0, 0, 0, 0] and again["score_sheet"] == []
    assert [s["bot"] for s in again["room"]["seats"]] == [None, "easy", "random",
                                                           "easy"]
    r2 = HTTP.get(f"{server.base}/api/rooms/{code}/record",
                  headers={"Authorization": f"Bearer {token}"})
    assert r2.json() == record
    by_number = HTTP.get(f"{server.base}/api/rooms/{code}/record", params={"match": 1},
                         headers={"Authorization": f"Bearer {token}"})
    assert by_number.json() == record, "every finished match keeps its record"
    unplayed = HTTP.get(f"{server.base}/api/rooms/{code}/record", params={"match": 2},
                        headers={"Authorization": f"Bearer {token}"})
    assert unplayed.status_code == 404 and unplayed.json()["error"]["code"] == "no_record"


def test_practice_table_hints_the_best_bots_action(
        make_server: Callable[..., ServerThread]) -> None:
    # the review below need only arrive, for this seat, and come again from the cache
    # (what reviews find: test_hint_review.py): a second of CPU, not the product's eight
    server = make_server(review_seconds=1.0)
    room = create_room(server.base, practice=True, rules={"preset": "guide",
                                                          "match": "single_deal"})
    ann = Client(server.base, room["room"], token=room["token"])
    refused = Client(server.base, room["room"], hello=False)
    refused.send({"type": "hello", "spectate": True})
    assert refused.error()["code"] == "private_room"
    ann.send({"type": "start"})
    rules = RuleSet.from_json({"preset": "guide", "match": "single_deal"})
    hints = 0
    while True:
        msg = ann.wait_for(lambda m: m["type"] in ("state", "hint"))
        view = ann.state
        assert view is not None
        if view["phase"] in ("deal_over", "match_over"):
            break
        if msg["type"] == "state":
            continue
        # a hint comes as its own frame, after the state it answers, to the seat to act
        assert msg["seat"] == 0 and msg["game"] == ann.game and my_turn(view), msg
        hint = msg["action"]
        action = parse_action(hint)  # record shape
        legal = [json.dumps(a, sort_keys=True) for a in view["legal"]]
        if "discard" in hint:
            assert len(hint["discard"]) == rules.options.kitty
            assert set(hint["discard"]) <= set(view["hand"])
            assert all(c in CARD_INDEX for c in hint["discard"])
        else:
            assert json.dumps(action.to_json(), sort_keys=True) in legal
        hints += 1
        ann.act(hint)  # following the hints plays the whole deal
    assert hints >= 3
    assert all(m["seat"] == 0 for m in ann.frames if m["type"] == "hint")
    # every hint says why, in words the client translates (app/bots/hints.py)
    en = json.loads((ROOT / "app" / "static" / "i18n" / "en.json").read_text())
    assert all(m["key"] in en for m in ann.frames if m["type"] == "hint")
    # after the deal, a review of Ann's own decisions, on request, from the strong bot
    ann.send({"type": "review"})
    # a hang guard, not a speed limit: reviews run at low priority
    review = ann.wait_for(lambda m: m["type"] == "review", timeout=600)
    assert review["seat"] == 0 and review["match"] == 1
    body = review["review"]
    assert body["seat"] == 0 and isinstance(body["decisions"], list)
    assert all(d["loss"] >= 0 for d in body["decisions"])
    # asked again (another tab, say): the same review at once, from the room's cache.
    # "At once" is an order, not a time: a cached review is sent while the request is
    # handled, so before the pong of a ping sent after it; one made afresh would come
    # from the search pool later.
    mark = len(ann.frames)
    ann.send({"type": "review"})
    ann.send({"type": "ping"})
    ann.wait_for(lambda m: m["type"] == "pong")
    got = [m for m in ann.frames[mark:] if m["type"] in ("review", "pong")]
    assert [m["type"] for m in got] == ["review", "pong"], got
    assert got[0]["review"] == body


def test_the_next_deal_starts_after_the_hosts_pause_without_ready(server: ServerThread) -> None:
    """The wiring only: the pause the host sets reaches the room, and the server's timer
    wakes the room to deal.  When the deal comes (never before the pause, at once when
    everyone is ready) is the core's, on its fake clock (test_core_flow.py::
    test_ready_deals_at_once_when_every_connected_person_is_ready_else_the_timer_does):
    here only that it comes, with a wait far beyond the 1 s pause however busy the
    machine."""
    room = create_room(server.base, rules={"preset": "standard", "match": "deals:3"})
    ann = Client(server.base, room["room"], token=room["token"])
    ann.send({"type": "settings", "next_deal_pause": 1})
    ann.wait_state(lambda v: v["room"]["settings"]["next_deal_pause"] == 1)
    ann.send({"type": "start"})
    rng = random.Random(3)
    over = act_until(ann, lambda v: v["phase"] == "deal_over", rng, timeout=120)
    at = over["room"]["next_deal_at"]
    assert at is not None and not over["room"]["seats"][0]["ready"]  # nobody said ready
    nxt = ann.wait_state(lambda v: v["phase"] != "deal_over", timeout=60)
    assert nxt["deal_number"] == 2 and nxt["room"]["next_deal_at"] is None
