"""End to end against real ``amerikaner serve`` processes: a room survives a crash of the
server (SIGKILL right after an acknowledged action) with its seats and match intact, the
finished match's record replays, and uvicorn runs with the protocol's WebSocket limits."""

from __future__ import annotations

import json
import random
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from rooms_harness import (
    OPEN_CLIENTS,
    Client,
    create_room,
    join_room,
    my_turn,
    pick_action,
)
from serve_process import ServeProcess
from shared_helpers import HTTP, download_record, replay_record


@pytest.fixture
def processes() -> Iterator[list[ServeProcess]]:
    started: list[ServeProcess] = []
    yield started
    while OPEN_CLIENTS:
        OPEN_CLIENTS.pop().close()
    for p in started:
        if p.proc is not None and p.proc.poll() is None:
            p.stop()


def crash(p: ServeProcess) -> None:
    assert p.proc is not None
    p.proc.send_signal(signal.SIGKILL)  # no shutdown, no flush: only what was written
    p.proc.wait(10)


def step(people: list[Client], rng: random.Random) -> dict[str, Any] | None:
    """One move by whoever of ``people`` is to act (or ready between deals)."""
    for p in people:
        p.drain(0.02)
    for p in people:
        view = p.state
        assert view is not None
        if view["phase"] == "deal_over":
            for q in people:
                q.send({"type": "ready"})
            return None
        if my_turn(view):
            p.act(pick_action(view, rng))
            reply = p.wait_for(lambda m: m["type"] in ("state", "error"))
            assert reply["type"] == "state", reply
            state: dict[str, Any] = reply["view"]
            return state
    return None


def test_a_room_survives_a_server_crash_and_its_record_replays(
        tmp_path: Path, processes: list[ServeProcess]) -> None:
    data = tmp_path / "data"
    first = ServeProcess(data).start()
    processes.append(first)
    room = create_room(first.base, rules={"preset": "standard", "match": "deals:2"})
    code = room["room"]
    bo = join_room(first.base, code, "Bo", seat=2)
    tokens = {0: room["token"], 2: bo["token"]}
    people = [Client(first.base, code, token=tokens[0]), Client(first.base, code, token=tokens[2])]
    people[0].send({"type": "rules", "rules": {"preset": "standard", "match": "deals:2"}})
    people[0].send({"type": "chat", "text": "good luck"})
    people[0].send({"type": "start"})
    rng = random.Random(42)
    while True:
        step(people, rng)
        for p in people:
            p.drain(0.05)
        last = people[0].state
        assert last is not None
        if (last["phase"] == "play" and last["trick"] and last["deal_number"] == 1
                and last["turn"] in (0, 2)):
            break  # a person's turn: the server waits, nothing else changes
    # every action so far was acknowledged (its state came back): now the server dies
    acked = last
    acked_game = people[0].game
    crash(first)
    second = ServeProcess(data).start()
    processes.append(second)
    info = HTTP.get(f"{second.base}/api/rooms/{code}").json()
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bot 2", "Bo", "Bot 4"]
    assert [s["human"] for s in info["seats"]] == [True, False, True, False]
    assert info["phase"] == acked["phase"] and info["host"] == 0
    people = [Client(second.base, code, token=tokens[0]),
              Client(second.base, code, token=tokens[2])]
    view = people[0].state
    assert view is not None
    assert people[0].game == acked_game  # the game number goes on from the stored one
    for key in ("trick", "auction", "contract", "tricks_won", "scores", "dealer", "turn",
                "hand_counts", "kitty_size", "deal_number"):
        assert view[key] == acked[key], key
    if acked["you"] == 0:
        assert view["hand"] == acked["hand"]
    assert [c["text"] for c in view["room"]["chat"] if c["kind"] == "text"] == ["good luck"]
    assert view["room"]["rules"] == {"preset": "standard", "match": "deals:2"}
    bad = Client(second.base, code, hello=False)
    bad.send({"type": "hello", "token": "not-a-seat-token"})
    assert bad.error()["code"] == "bad_token"
    # play the match out on the restarted server
    for _ in range(2000):
        if people[0].state is not None and people[0].state["phase"] == "match_over":
            break
        step(people, rng)
    final = people[0].wait_state(lambda v: v["phase"] == "match_over")
    line = replay_record(download_record(second.base, code, tokens[2]),
                         tmp_path / "record.json")
    assert line["ok"] and line["finished"] and line["totals"] == final["scores"]
    assert line["winners"] == final["winners"]
    # tokens never reach the logs
    second_log = second.stop()
    assert tokens[0] not in second_log and tokens[2] not in second_log
    assert "Started server process" in second_log or "Uvicorn running" in second_log


def test_serve_runs_without_compression_and_with_a_64_kib_frame_limit(
        tmp_path: Path, processes: list[ServeProcess]) -> None:
    srv = ServeProcess(tmp_path / "data").start()
    processes.append(srv)
    assert HTTP.get(f"{srv.base}/healthz").json()["status"] == "ok"
    room = create_room(srv.base)
    url = srv.base.replace("http://", "ws://") + f"/ws/{room['room']}"
    with connect(url, compression="deflate") as ws:  # the client offers compression
        assert ws.response is not None
        assert "Sec-WebSocket-Extensions" not in ws.response.headers
        ws.send(json.dumps({"type": "hello", "token": room["token"]}))
        assert json.loads(ws.recv(5))["type"] == "welcome"
        ws.send("x" * (64 * 1024 + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    ok = Client(srv.base, room["room"], token=room["token"])
    assert ok.seat == 0
