"""What a scripted seat plays, on the views the server sends: whether it is its turn and a
legal action picked at random.  Nothing of the app is imported here, so that the
benchmarks' swarm (benchmarks/swarm.py), a process of its own in every run, starts in a
tenth of a second rather than the app's second and a half of imports; the tests take
them from rooms_harness.py."""

from __future__ import annotations

import random
from typing import Any

WS_MAX = 64 * 1024  # the tests' servers' largest WebSocket frame (clients accept twice it)


def pick_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action for the seat of ``view`` (a discard: any K cards of the hand)."""
    legal = view["legal"]
    choice = dict(rng.choice(legal))
    if "discard" in choice and isinstance(choice["discard"], int):
        choice["discard"] = rng.sample(view["hand"], choice["discard"])
    if choice.get("bid") not in (None, "pass") and rng.random() < 0.6:
        choice = {"bid": "pass"}
    return choice


def my_turn(view: dict[str, Any]) -> bool:
    return view["turn"] is not None and view["turn"] == view["you"] and bool(view["legal"])
