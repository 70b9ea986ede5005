"""A played card's way through the server: from the socket to the frames sent, which of
app/'s files run code for it (docs/architecture.md).

A real server on loopback (uvicorn with app/runtime/websocket.py's protocol, SQLite) and
four real WebSocket clients play until a card is to be played; a line tracer is then on
in the server's thread while one card is played and every seat receives the state that
follows.  A file counts when a line of it runs: a coroutine that only passes the resumed
connection task through (the endpoint awaiting its connection) runs no line and does not
count.  app/rules (the engine) is counted apart.
"""

from __future__ import annotations

import asyncio
import random
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from rooms_harness import Client, ServerThread, create_room, join_room, my_turn, pick_action

from app.settings import Settings

APP = str(Path(__file__).resolve().parents[2] / "app") + "/"
WAY_MAX = 8  # files outside app/rules (issue 22)
# The server's own timers run whatever a card does: the event loop's lag wakes every
# 0.25 s, the idle rooms' sweep now and then.  On a busy machine one of them wakes inside
# the traced window; its lines are not the card's way.
TIMERS = frozenset({"LoopLag.watch", "Registry._sweep_loop"})


def on_a_timer() -> bool:
    """Whether the running asyncio task is one of the server's timers."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop running in this thread
        return False
    return task is not None and getattr(task.get_coro(), "__qualname__", "") in TIMERS


class LineTracer:
    """The app/ files in which a line ran while ``on``, in the order first seen."""

    def __init__(self) -> None:
        self.on = False
        self.files: dict[str, None] = {}
        self.main = threading.main_thread()

    def call(self, frame: FrameType, event: str, arg: Any) -> Any:
        if not self.on or threading.current_thread() is self.main:
            return None  # the clients' own thread is not the server
        if not frame.f_code.co_filename.startswith(APP) or on_a_timer():
            return None
        return self.line

    def line(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line" and self.on:
            self.files.setdefault(frame.f_code.co_filename[len(APP):], None)
        return self.line


def test_a_played_card_runs_code_in_at_most_8_files_outside_the_engine(tmp_path: Path) -> None:
    tracer = LineTracer()
    settings = Settings(data_dir=tmp_path / "data", bot_delay=0.0, idle_seconds=600,
                        rate=200, burst=400, next_deal_pause=60, grace_seconds=30,
                        host_grace=0.0, rooms_per_minute=0)
    threading.settrace(tracer.call)  # the server's thread starts after this
    try:
        with ServerThread(settings) as srv:
            way = play_one_card(srv, tracer)
    finally:
        threading.settrace(None)
        sys.settrace(None)
    outside = [f for f in way if not f.startswith("rules/")]
    said = "\n".join(outside)
    assert outside[0] == "rooms/server/connection.py", said  # the frame read
    assert "rooms/store/sqlite.py" in outside, said  # saved before it is sent
    assert outside[-1] == "runtime/websocket.py", said  # the frames written to the sockets
    assert len(outside) <= WAY_MAX, f"{len(outside)} files on a card's way:\n{said}"


def play_one_card(srv: ServerThread, tracer: LineTracer) -> list[str]:
    """Play (randomly, four people) until a card is to be played, then play one traced."""
    room = create_room(srv.base, "Ann")
    tokens = [room["token"]] + [join_room(srv.base, room["room"], n)["token"]
                                for n in ("Bob", "Cid", "Dan")]
    clients = [Client(srv.base, room["room"], token) for token in tokens]
    clients[0].send({"type": "start"})
    for c in clients:
        c.wait_state(lambda v: v["phase"] != "lobby")
    rng = random.Random(1)
    while True:
        if all(c.state is not None and c.state["phase"] == "deal_over" for c in clients):
            for c in clients:  # all passed: the next deal
                c.send({"type": "ready"})
            for c in clients:
                c.wait_state(lambda v: v["phase"] != "deal_over")
            catch_up(clients[0], clients)
            continue
        turn = next(c for c in clients if c.state is not None and my_turn(c.state))
        assert turn.state is not None
        action = pick_action(turn.state, rng)
        if "play" in action:
            tracer.on = True
            turn.act(action)
            catch_up(turn, clients)
            tracer.on = False
            return list(tracer.files)
        turn.act(action)
        catch_up(turn, clients)


def catch_up(actor: Client, clients: list[Client]) -> None:
    """Every client reads up to the state that followed ``actor``'s last message: a
    connection's messages are handled in order, so the actor's pong comes after that
    step, which sent its state to every connection; the others' pings come later still."""
    for c in [actor] + [c for c in clients if c is not actor]:
        c.send({"type": "ping"})
        c.wait_for(lambda m: m["type"] == "pong")
