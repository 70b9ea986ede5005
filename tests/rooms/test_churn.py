"""Spectators and chat never make a player's action stale (issue 8): against a real
server, four people act 150 ms after their turn comes while ten spectator visits a second
and two chat lines a second change the room all the time.  Every action names the game
number of the state that gave the turn: none may be refused, and the game must move."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from rooms_harness import Client, ServerThread, create_room, join_room, my_turn, pick_action

DURATION = 8.0
DELAY = 0.15          # a person's reaction time, from the state that gave them the turn
VISITS_PER_SECOND = 10
CHATS_PER_SECOND = 2


class Player:
    """One person's loop in a thread: act ``DELAY`` after the turn comes, ready between
    deals, and (``chatty``) two chat lines a second."""

    def __init__(self, client: Client, seed: int, chatty: bool) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.chatty = chatty
        self.errors: list[dict[str, Any]] = []
        self.actions = 0
        self.chats = 0

    def run(self, until: float) -> None:
        c = self.client
        due: tuple[int, float] | None = None  # (game, when) of the next action
        acted = -1                            # the last game acted on
        readied = -1                          # the last game said ready at
        next_chat = time.monotonic()
        while time.monotonic() < until:
            try:
                msg = c.recv(0.01)
                if msg["type"] == "error":
                    self.errors.append(msg)
            except TimeoutError:
                pass
            now = time.monotonic()
            view = c.state
            assert view is not None
            if my_turn(view) and c.game != acted:
                if due is None or due[0] != c.game:
                    due = (c.game, now + DELAY)  # the turn came with this state
                elif now >= due[1]:
                    c.act(pick_action(view, self.rng), game=due[0])
                    acted = due[0]
                    self.actions += 1
            elif view["phase"] == "deal_over" and readied != c.game:
                c.send({"type": "ready"})
                readied = c.game
            if self.chatty and now >= next_chat:
                c.send({"type": "chat", "text": f"line {self.chats}"})
                self.chats += 1
                next_chat += 1 / CHATS_PER_SECOND


def visits(base: str, code: str, until: float, done: list[int]) -> None:
    """Anonymous spectators coming and going, ten a second."""
    next_visit = time.monotonic()
    while time.monotonic() < until:
        watcher = Client(base, code, spectate=True)  # hello, welcome, state
        watcher.close()
        done.append(1)
        next_visit += 1 / VISITS_PER_SECOND
        time.sleep(max(0.0, next_visit - time.monotonic()))


def test_spectators_and_chat_never_make_an_action_stale(
        make_server: Callable[..., ServerThread]) -> None:
    server = make_server(next_deal_pause=1)
    room = create_room(server.base, rules={"preset": "standard"})
    code = room["room"]
    tokens = [room["token"]] + [join_room(server.base, code, n)["token"]
                                for n in ("Bo", "Cy", "Di")]
    clients = [Client(server.base, code, token=t) for t in tokens]
    clients[0].send({"type": "start"})
    for c in clients:
        c.wait_state(lambda v: v["phase"] != "lobby")
    first_game = clients[0].game
    players = [Player(c, seed=i, chatty=i == 0) for i, c in enumerate(clients)]
    until = time.monotonic() + DURATION
    visited: list[int] = []
    threads = [threading.Thread(target=p.run, args=(until,)) for p in players]
    threads.append(threading.Thread(target=visits, args=(server.base, code, until, visited)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(DURATION + 30)
    errors = [e for p in players for e in p.errors]
    assert not [e for e in errors if e["code"] == "stale_game"], errors
    assert not errors, errors
    assert len(visited) >= DURATION * VISITS_PER_SECOND / 2, "the churn did not happen"
    assert players[0].chats >= DURATION * CHATS_PER_SECOND - 1
    actions = sum(p.actions for p in players)
    live = server.registry.rooms[code].core
    deadline = time.monotonic() + 5  # the last actions sent may still be on their way
    while live.state.game - first_game < actions and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.state.game - first_game >= actions >= 20, "the game did not move"
    assert live.version > live.state.game, "the room changed far more often than the game"
