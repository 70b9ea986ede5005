"""Issue 23 through a real server: a review asked in the pause of a two-deal match comes
after deal 2 has started, and while another room of three ``strong`` bots and a scripted
person plays flat out (no bot delay: its bot moves keep the search workers busy) the
review says where its double-dummy line comes from, or why there is none.

Every assertion is on frames and their order, never on elapsed time."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from room_fixtures import make_settings
from rooms_harness import Client, ServerThread, create_room, my_turn, pick_action

from app.double_dummy import DoubleDummySkipped

# The review's CPU budget (AMERIKANER_REVIEW_SECONDS; 8 s in production): the test checks
# when the review comes and what it says of its double dummy (a line, or why there is
# none: both are accepted), not how far its search got; the busy room plays flat out for
# as long as the review takes.
REVIEW_SECONDS = 2.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(make_settings(tmp_path / "data", review_seconds=REVIEW_SECONDS)) as srv:
        yield srv


def play_flat_out(client: Client, stop: threading.Event, moves: list[int]) -> None:
    """Play seat 0 of the busy room as fast as the frames come, match after match."""
    rng = random.Random(5)
    while not stop.is_set():
        try:
            msg = client.recv(timeout=0.5)
        except TimeoutError:
            continue
        view = client.state
        if msg["type"] != "state" or view is None:
            continue
        if view["phase"] == "deal_over" and not view["room"]["seats"][0]["ready"]:
            client.send({"type": "ready"})
        elif view["phase"] == "match_over":
            client.send({"type": "rematch"})
        elif my_turn(view):
            client.act(pick_action(view, rng))
            moves.append(client.game)


def busy_room(base: str) -> Client:
    room = create_room(base, name="Busy", rules={"preset": "standard"})
    client = Client(base, room["room"], token=room["token"])
    for seat in (1, 2, 3):
        client.send({"type": "seat_bot", "seat": seat, "level": "strong"})
    client.wait_state(lambda v: [s["bot"] for s in v["room"]["seats"][1:]] == ["strong"] * 3)
    client.send({"type": "start"})
    return client


def test_a_review_asked_in_the_pause_comes_in_deal_2_with_its_double_dummy_word(
        server: ServerThread) -> None:
    stop = threading.Event()
    moves: list[int] = []
    busy = busy_room(server.base)
    player = threading.Thread(target=play_flat_out, args=(busy, stop, moves), daemon=True)
    player.start()
    try:
        # (Ann's own bots need no search: the busy room is what keeps the workers busy)
        room = create_room(server.base, rules={"preset": "standard", "match": "deals:2"},
                           bot_level="easy")
        ann = Client(server.base, room["room"], token=room["token"])
        ann.send({"type": "start"})
        rng = random.Random(3)
        while True:
            view = ann.wait_state(lambda v: my_turn(v) or v["phase"] == "deal_over")
            if view["phase"] == "deal_over":
                break
            ann.act(pick_action(view, rng))
            ann.wait_for(lambda m: m["type"] in ("state", "error"))
        deal = view["room"]["reviewable"][-1]
        mark = len(ann.frames)
        ann.send({"type": "review", "deal": deal})  # in the pause...
        ann.send({"type": "ready"})  # ...and the next deal starts at once
        review = ann.wait_for(lambda m: m["type"] == "review", timeout=120)
        busy_moves = len(moves)
    finally:
        stop.set()
        player.join(timeout=10)
    seen = ann.frames[mark:]
    started = next(i for i, m in enumerate(seen) if m["type"] == "state"
                   and m["view"]["phase"] != "deal_over" and len(m["view"]["score_sheet"]) == 1)
    assert started < seen.index(review), "the review comes after deal 2 started"
    assert review["deal"] == deal and review["match"] == 1 and review["seat"] == 0
    body: dict[str, Any] = review["review"]
    assert "error" not in body, body
    assert busy_moves > 0, "the other room was playing meanwhile"
    assert body["bidder"] is not None  # a played contract (all passing deals again)
    if body["double_dummy"] is not None:  # from the first lead, or from a later trick
        assert body["double_dummy_from_trick"] >= 1 and body["double_dummy_skipped"] is None
    else:
        assert body["double_dummy_skipped"] in set(DoubleDummySkipped), body
