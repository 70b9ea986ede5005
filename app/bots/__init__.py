"""Bots for empty seats and dropped players.  A bot gets a ``SeatView`` and returns an
action; it never sees the full state."""

from __future__ import annotations

import random

from app.rules import Action, SeatView

from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOTS: dict[str, Bot] = {"random": RandomBot(), "heuristic": HeuristicBot()}
BOT_LEVELS: tuple[str, ...] = tuple(BOTS)
BEST_BOT = "heuristic"


def get_bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOTS)}") from None


def choose_action(level: str, view: SeatView, rng: random.Random) -> Action:
    """The action the bot ``level`` takes for the seat of ``view``."""
    return get_bot(level).choose(view, rng)


__all__ = ["BEST_BOT", "BOTS", "BOT_LEVELS", "Bot", "choose_action", "get_bot"]
