"""Spectators and chat never make a player's action stale (issue 8): against a real
server, four people play while spectators come and go and chat lines come in all the
time, each person acting only once the room has changed (a visit, a chat line) since the
state that gave them the turn.  Every action names the game number of that state: none
may be refused, and the game must move.

The run is counted in actions, visits and chat lines, not timed: a busy machine runs it
more slowly, never differently."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from rooms_harness import Client, ServerThread, create_room, join_room, my_turn, pick_action

ACTIONS = 40           # actions, all four players together, before the run ends
VISITS = 40            # spectator visits at least (each changes the room twice)
CHATS = 8              # chat lines at least
VISITS_PER_SECOND = 10  # the pace of the visits and chat lines, at most (the server's
CHATS_PER_SECOND = 2    # rate limits): a pace, never a measure
PATIENCE = 120.0       # seconds the whole run may take on a busy machine


class Player:
    """One person's loop in a thread: act once the room has changed since the turn came,
    ready between deals, and (``chatty``) chat lines."""

    def __init__(self, client: Client, seed: int, chatty: bool) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.chatty = chatty
        self.actions = 0
        self.chats = 0
        self.first_frame = len(client.frames)

    def run(self, stop: threading.Event) -> None:
        c = self.client
        due: tuple[int, int] | None = None  # (game, version) of the state giving the turn
        acted = -1                          # the last game acted on
        readied = -1                        # the last game said ready at
        next_chat = time.monotonic()
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                c.recv(0.01)
            view = c.state
            assert view is not None
            if my_turn(view) and c.game != acted:
                if due is None or due[0] != c.game:
                    due = (c.game, c.version)  # the turn came with this state
                elif c.version > due[1]:  # the room changed since: act on the turn's game
                    c.act(pick_action(view, self.rng), game=due[0])
                    acted = due[0]
                    self.actions += 1
            elif view["phase"] == "deal_over" and readied != c.game:
                c.send({"type": "ready"})
                readied = c.game
            if self.chatty and time.monotonic() >= next_chat:
                c.send({"type": "chat", "text": f"line {self.chats}"})
                self.chats += 1
                next_chat = time.monotonic() + 1 / CHATS_PER_SECOND

    def errors(self) -> list[dict[str, Any]]:
        """The error frames this person got since the run began."""
        return [m for m in self.client.frames[self.first_frame:] if m["type"] == "error"]


def visits(base: str, code: str, stop: threading.Event, done: list[int]) -> None:
    """Anonymous spectators coming and going, one after the other."""
    while not stop.is_set():
        watcher = Client(base, code, spectate=True)  # hello, welcome, state
        watcher.close()
        done.append(1)
        stop.wait(1 / VISITS_PER_SECOND)


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
    stop = threading.Event()
    visited: list[int] = []
    threads = [threading.Thread(target=p.run, args=(stop,)) for p in players]
    threads.append(threading.Thread(target=visits, args=(server.base, code, stop, visited)))
    for t in threads:
        t.start()
    deadline = time.monotonic() + PATIENCE
    try:
        while (sum(p.actions for p in players) < ACTIONS or len(visited) < VISITS
               or players[0].chats < CHATS):
            assert all(t.is_alive() for t in threads), "a player's loop failed"
            errors = [e for p in players for e in p.errors()]
            assert not errors, errors  # a refused action stops its player: fail now
            assert time.monotonic() < deadline, (
                f"the run did not finish: {sum(p.actions for p in players)} actions, "
                f"{len(visited)} visits, {players[0].chats} chat lines")
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join(PATIENCE)
    for c in clients:  # the answers to everything sent have arrived
        c.send({"type": "ping"})
        c.wait_for(lambda m: m["type"] == "pong")
    errors = [e for p in players for e in p.errors()]
    assert not [e for e in errors if e["code"] == "stale_game"], errors
    assert not errors, errors
    actions = sum(p.actions for p in players)
    live = server.registry.rooms[code].core
    assert live.state.game - first_game >= actions >= ACTIONS, "the game did not move"
    assert live.version > live.state.game, "the room changed far more often than the game"
