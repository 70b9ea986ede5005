"""The bot interface: a bot reads one seat's view and returns one of its legal actions.

``deadline`` is a ``time.monotonic()`` instant the decision must be made by (``None``: the
bot's own cap); bots that think in constant time ignore it."""

from __future__ import annotations

import random
from typing import Protocol

from app.rules import Action, SeatView


class Bot(Protocol):
    """Anything that picks an action for the seat of a ``SeatView``; never sees the state."""

    name: str

    def choose(self, view: SeatView, rng: random.Random,
               deadline: float | None = None) -> Action: ...
