"""The victim of tests/rooms/test_search_attack.py: one person from another address
playing against three searching bots, counting the bots' moves as they come.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from rooms_harness import my_turn, pick_action
from search_attack_common import ACTION_ERRORS, BOT_SEATS, MOVE_EVENTS, VICTIM, WAIT, open_ws, sit

from app.rooms.core.frames import frame_adapter

# -- the victim ----------------------------------------------------------------------------


class Victim:
    """One person against three searching bots (``LEVEL``), from 127.0.0.2; every frame is checked
    against the protocol's models.  ``bot_moves`` counts the bots' moves as the events
    of the state frames show them."""

    def __init__(self, base: str, code: str, token: str) -> None:
        self.ws = open_ws(base, code, VICTIM)
        first = sit(self.ws, token)
        frame_adapter.validate_python(first)
        self.view: dict[str, Any] = first["view"]
        self.game: int = first["game"]
        self.acted = -1
        self.readied: set[tuple[int, int]] = set()
        self.rematched: set[int] = set()
        self.bot_moves = 0
        self.rng = random.Random(1)

    def play(self, moves: int, on_bot_move: Callable[[], None] | None = None) -> int:
        """Play at once (ready after each deal, a rematch after each match) until the bots
        have made ``moves`` more moves and it is this person's turn again; there it holds,
        so no bot move is being made between two calls, and the fallbacks counted around
        a call are its moves'.  The bot moves made.  Each bot move must come within
        ``WAIT`` seconds of the one before: a table that stops fails."""
        start = self.bot_moves
        deadline = time.monotonic() + WAIT
        while True:
            view = self.view
            if my_turn(view) and self.acted != self.game:
                if self.bot_moves - start >= moves:
                    return self.bot_moves - start
                self.acted = self.game
                self.send({"type": "action", "game": self.game,
                           "action": pick_action(view, self.rng)})
            else:
                self.move_on(view)
            left = deadline - time.monotonic()
            assert left > 0, (f"the victim's table stopped after {self.bot_moves - start} "
                              f"bot moves; last view: {view}")
            try:
                msg = json.loads(self.ws.recv(left))
            except TimeoutError:
                continue  # (the assertion above says so)
            frame_adapter.validate_python(msg)
            if msg["type"] == "error":
                assert msg["code"] in ACTION_ERRORS, msg
                self.acted = -1  # refused: pick again
            if msg["type"] != "state":
                continue
            self.view, self.game = msg["view"], msg["game"]
            moved = sum(1 for e in msg["events"]
                        if e.get("type") in MOVE_EVENTS and e.get("seat") in BOT_SEATS)
            if moved:
                self.bot_moves += moved
                deadline = time.monotonic() + WAIT
                if on_bot_move is not None:
                    on_bot_move()

    def move_on(self, view: dict[str, Any]) -> None:
        """Between deals and matches: say ready once a deal, ask a rematch once a match."""
        match_number = view["room"]["match_number"]
        if view["phase"] == "deal_over":
            deal = (match_number, view["deal_number"])
            if deal not in self.readied:
                self.readied.add(deal)
                self.send({"type": "ready"})
        elif view["phase"] == "match_over" and match_number not in self.rematched:
            self.rematched.add(match_number)
            self.send({"type": "rematch"})

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))
