"""The bot levels' names, which the bots (app/bots) and the rooms (app/rooms) both read:
the rooms need the names, not the bots.

Weakest first: ``random``; ``easy`` (rules of thumb; ``heuristic`` is its old name in
records and scripts); ``normal`` (a light search); ``strong`` (the full search).
"""

from __future__ import annotations

from enum import StrEnum


class BotLevel(StrEnum):
    """The bot levels a seat can get, weakest first."""

    RANDOM = "random"
    EASY = "easy"
    NORMAL = "normal"
    STRONG = "strong"


BOT_LEVELS: tuple[str, ...] = tuple(BotLevel)
ALIASES: dict[str, BotLevel] = {"heuristic": BotLevel.EASY}

# Fills a room's empty seats and stands in for a person who dropped: quick to answer.
DEFAULT_SEAT_BOT = BotLevel.EASY
# Gives practice hints and reviews, and plays the move of a person whose time ran out.
ADVISOR_BOT = BotLevel.STRONG


def level_name(name: str) -> BotLevel:
    """The level a bot name stands for (``heuristic`` -> ``easy``); ValueError if none."""
    level = ALIASES.get(name)
    if level is not None:
        return level
    try:
        return BotLevel(name)
    except ValueError:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOT_LEVELS)}") \
            from None
