"""Bots for empty seats and dropped players.  A bot gets a ``SeatView`` and returns an
action; it never sees the full state.

Levels, weakest first: ``random``; ``easy`` (rules of thumb, heuristic.py; ``heuristic``
is kept as its old name for records and scripts); ``normal`` (a light search for trick
play, about 20 ms of CPU a decision, 40 ms at the 95th percentile); ``strong`` (the full
determinized search, search.py: at most ``HARD_CAP`` seconds a decision, or the caller's
``deadline``).
"""

from __future__ import annotations

import random

from app.bot_levels import ADVISOR_BOT, ALIASES, BOT_LEVELS, DEFAULT_SEAT_BOT, level_name
from app.rules import Action, SeatView

from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import HARD_CAP, SearchBot
from .search_settings import SearchSettings

# normal: bids by a few samples, plays the kitty and the first lead by the heuristic, and
# searches trick play lightly; strong: everything by search. normal's 40 ms and 20 samples
# (20 ms and 10 before) gave +0.36 +- 0.14 a deal paired over 1,500 standard deals (+0.98
# to +1.34 over easy, 0.64 of strong's edge; 21 ms of CPU a decision instead of 11).
NORMAL = SearchSettings(budget=0.04, samples=20, exact=3, exact_now=4, search_auction=False,
                        search_bid=True, relative=True)
# strong reads the others' play (+0.21 +- 0.25 a deal with common random numbers, not
# for normal: -0.05 +- 0.20), allows 0.4 tricks for its own play in a bid (0.2 before:
# +0.20 +- 0.16; 0.6: -0.03 +- 0.19 against 0.4) and thinks twice as long over the bids,
# the kitty and the first lead (+0.10 +- 0.16 paired over seeds 1 and 3, within the
# noise; 126 ms of CPU a decision on average instead of 98); docs/history/bots-measurements.md.
# It stops after 8 samples where every card scored alike (settle): a defender's decisions
# took a fifth less CPU (82.6 -> 66.8 ms at 48 samples) and played alike on 156 of 160
# deals, +0.05 +- 0.09 a defender play (benchmarks/defence.py, docs/bots.md). Weighing
# the other defender's tricks as its own (together) measured -0.01 +- 0.12 a defender
# play over 390 deals, within the noise: off.
# It solves the last 3 tricks of each rollout exactly and every card at once from 4
# tricks left (4 and 5 before): cheaper samples, so more of them in the same CPU, +0.24
# +- 0.18 a deal paired over 750 standard deals at equal CPU (34 samples against 24;
# seeds 61 and 62, benchmarks/bots.py --common-random, pair_diffs.py; the worst decision
# 248-282 ms against 331-344; docs/history/bots-measurements.md, issue 40's sixth pass).
# Twice the samples at fixed samples measured +0.14 +- 0.14 a deal in the trick play and
# +0.13 +- 0.11 in the bids, the kitty and the first lead (34 -> 68, paired), but at the
# real budget 120 samples and 0.6 s for the contract measured -0.15 +- 0.14 against these
# settings on the same 1,000 deals (seeds 1 and 2, not paired), at 124 ms of CPU a
# decision instead of 90: not kept (docs/history/bots-measurements.md, eighth pass).
# It prices passing 0.5 relative points lower (pass_bonus), so it bids a little more
# often: +0.08 +- 0.07 a deal paired over 1,000 deals at fixed samples (seeds 61 to 63;
# -1.0: no better), at no cost in CPU (docs/history/bots-measurements.md, eleventh pass).
# It reads the others as easy plays, all together: the auction harder (mismatch 0.1, 32
# tries), the bidder's kept hand (bidder_model), the call (infer_call) and the bid's
# trumps (trump_floor); +0.13 +- 0.11 a deal paired over 1,250 deals at fixed samples
# (seeds 61 to 65) at the same CPU, each alone within the noise; at the real budget
# +2.24 +- 0.13 over easy on 8,000 deal-plays against +2.20 +- 0.13 without (not paired),
# +1.68 +- 0.28 as a defender against +1.43, 98 ms of CPU a decision against 104
# (docs/history/bots-measurements.md, sixteenth and seventeenth passes).
STRONG = SearchSettings(budget=0.15, samples=80, exact=3, exact_now=4, search_auction=True,
                        bid_bonus=0.4, relative=True, infer_play=True, contract_budget=0.3,
                        settle=8, pass_bonus=-0.5, mismatch=0.1, tries=32, bidder_model=True,
                        infer_call=True, trump_floor=True)

BOTS: dict[str, Bot] = {
    "random": RandomBot(),
    "easy": HeuristicBot(),
    "normal": SearchBot("normal", NORMAL),
    "strong": SearchBot("strong", STRONG),
}
BOTS.update({old: BOTS[new] for old, new in ALIASES.items()})
# The old names of app/bot_levels.py's DEFAULT_SEAT_BOT and ADVISOR_BOT.
BEST_BOT = DEFAULT_SEAT_BOT
DEFAULT_ROOM_BOT = DEFAULT_SEAT_BOT
HINT_BOT = ADVISOR_BOT


def get_bot(name: str) -> Bot:
    return BOTS[level_name(name)]


def choose_action(level: str, view: SeatView, rng: random.Random,
                  deadline: float | None = None) -> Action:
    """The action the bot ``level`` takes for the seat of ``view``; ``deadline`` is a
    ``time.monotonic()`` instant (``None``: at most ``HARD_CAP`` seconds from now)."""
    bot = get_bot(level)
    if deadline is None:  # a bot written before deadlines existed still works
        return bot.choose(view, rng)
    return bot.choose(view, rng, deadline)


__all__ = ["ADVISOR_BOT", "ALIASES", "BEST_BOT", "BOTS", "BOT_LEVELS", "DEFAULT_ROOM_BOT",
           "DEFAULT_SEAT_BOT", "HARD_CAP", "HINT_BOT", "Bot", "choose_action", "get_bot",
           "level_name"]
