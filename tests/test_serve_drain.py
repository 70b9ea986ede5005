"""SIGTERM drains the single-process server (SQLite) too: each room's step in flight is
saved and sent, its sockets are closed with 1012 (service restart), and the players
reconnect to the restarted server without losing a turn: the room comes back as it was,
whose turn it was included, and plays on.  A real ``amerikaner serve`` process."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from rooms_harness import OPEN_CLIENTS, Client, create_room, my_turn, pick_action
from serve_process import ServeProcess

RULES = {"preset": "standard", "match": "deals:1"}
KEPT = ("phase", "trick", "hand", "turn", "contract", "tricks_won", "scores", "legal")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    app = ServeProcess(tmp_path).start()
    yield app
    while OPEN_CLIENTS:
        OPEN_CLIENTS.pop().close()
    app.stop()


def play(client: Client, rng: random.Random) -> None:
    """Wait for this seat's turn and play it; its state frame acknowledges it."""
    view = client.wait_state(my_turn)
    client.act(pick_action(view, rng))
    reply = client.wait_for(lambda m: m["type"] in ("state", "error"))
    assert reply["type"] == "state", reply


def test_sigterm_hands_the_rooms_over_and_they_come_back_after_a_restart(
        server: ServeProcess) -> None:
    rng = random.Random(5)
    created = create_room(server.base, rules=RULES)
    code, token = created["room"], created["token"]
    client = Client(server.base, code, token=token)
    client.send({"type": "start"})
    for _ in range(8):  # into the card play, against three bots
        play(client, rng)
    before = dict(client.wait_state(my_turn))  # the room waits for this seat

    assert server.proc is not None
    server.proc.terminate()  # SIGTERM
    with pytest.raises(ConnectionClosed) as closed:
        client.wait_for(lambda m: False)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    log = server.stop()
    assert "handed 1 rooms over before stopping" in log, log[-3000:]

    server.start()  # the same data folder and port
    client = Client(server.base, code, token=token)  # the browser reconnects
    after = client.wait_state(my_turn)
    for key in KEPT:
        assert after[key] == before[key], key
    for _ in range(3):  # and the match goes on
        play(client, rng)
