"""Par: what the bot makes of the same cards (issue 38, "the same cards, played by the bot").

``par_of_deal(rules, deal)`` takes one deal in the game record's shape (``dealer``,
``hands``, ``kitty``; docs/spec/GAME-RECORD.md; its ``actions`` are ignored), deals exactly
those hands and that kitty again with the same dealer, and lets one bot level play it from
every seat, auction included, ``plays`` times.  Each seat's par is its mean score over
those plays, scored by the engine itself (``Match.apply`` ends the deal through
``scoring.score_deal``, i.e. ``scoring.deal_points``), so par and the real result are
scored alike.  A bot reads only its own seat's ``SeatView``, as at a table.

Par is reproducible: a bot's search stops at a number of samples, never at a clock
(``PAR_STRONG``: the strong bot's settings with its CPU budget replaced by a sample cap;
a play's work budget, par_budget.py, may give a decision of a costly deal fewer samples,
counted from the deal and the decisions before it, never from a clock), and every
decision draws from a random stream of its own, fixed by the deal's seed, the
play and the decisions before it (as ``benchmarks/bots.py --common-random`` does).  The
seed comes from the deal's rules, dealer and cards (``deal_seed``), so the same deal gets
the same par on any server, at any load.  The plays differ from each other by their
streams only: what the samples of the hidden cards say.

The function is pure and CPU-bound (under a second of CPU a play for ``strong`` on the
standard rules; benchmarks/par_cost.py): run it in the search pool's par lane
(app/rooms/server/par_queue.py), never on the event loop.  ``play_par(...)`` is one play,
the unit the pool runs, and ``par_from_plays`` the mean of several.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from dataclasses import dataclass, replace
from typing import Any, cast

from app.rules import RuleSet, SeatView
from app.rules.deal import OVER
from app.rules.record import FORMAT, deal_to_record, match_of_deal, replay_record

from . import BOTS, STRONG, search
from .base import Bot
from .par_budget import PlayBudget
from .search import SearchBot

PAR_PLAYS = 3  # plays of a deal per par (all seats at once), the production default
PAR_LEVEL = "strong"
# The strong bot's settings with a number of samples a decision instead of its CPU
# budget (0.15 s, 0.3 s over the contract), so that par does not depend on the machine:
# at most 8 samples a decision, within a play's work units (below).
PAR_SAMPLES = 8
UNLIMITED = 1e9  # seconds: a budget or deadline that never stops a par search
# Its exact endgame stays the one its work units were measured with (par_budget.py's
# PLAY_COST: 4 tricks solved in each rollout, 5 at once), not strong's shallower one.
PAR_STRONG = replace(STRONG, budget=UNLIMITED, contract_budget=UNLIMITED,
                     samples=PAR_SAMPLES, exact=4, exact_now=5)
# A play's work units (par_budget.py, about a millisecond of CPU each where they were
# measured): with 8 samples everywhere a standard deal's three plays cost 2.6 s of CPU
# on average and up to 3.3 s, over issue 38's 3 s.  Within 700 units a play, a decision
# searches fewer samples where its play has spent more than a usual one (not below
# MIN_SAMPLES): three plays spend 1,860 to 2,110 units, about three quarters of the
# unbudgeted cost, and a thinned decision chooses as the full search would 9 times in
# 10 (benchmarks/par_cost.py, par_agreement.py; docs/bots.md "Par").
PAR_PLAY_UNITS = 700.0


class ParError(ValueError):
    """A deal whose par cannot be played: not a deal of these rules (its message says
    why).  No player sees it: the clubs code hands par only deals of stored records."""


@dataclass(frozen=True)
class ParPlay:
    """One play of the deal by the bots: each seat's points, its actions (the record's
    ``actions`` shape), and the CPU seconds it took."""

    points: tuple[int, ...]
    actions: tuple[dict[str, Any], ...]
    cpu_seconds: float
    units: float = 0.0  # the work units its decisions spent (par_budget.py)
    thinned: int = 0  # decisions that searched fewer than PAR_SAMPLES samples

    def deal_record(self, deal: dict[str, Any]) -> dict[str, Any]:
        """This play as a deal of a game record: the same cards, the bots' actions."""
        return {"dealer": deal["dealer"], "hands": deal["hands"], "kitty": deal["kitty"],
                "actions": list(self.actions)}


@dataclass(frozen=True)
class Par:
    """A deal's par: each seat's mean score over ``plays`` plays by ``level`` in every
    seat, their points play by play, and the CPU seconds they cost in all."""

    level: str
    seed: int
    plays: int
    seat_means: tuple[float, ...]
    play_points: tuple[tuple[int, ...], ...]
    cpu_seconds: float

    def above_par(self, points: list[int] | tuple[int, ...]) -> tuple[float, ...]:
        """Each seat's real ``points`` in the deal minus its par."""
        return tuple(p - m for p, m in zip(points, self.seat_means, strict=True))

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "seed": self.seed, "plays": self.plays,
                "seat_means": list(self.seat_means),
                "play_points": [list(p) for p in self.play_points],
                "cpu_seconds": round(self.cpu_seconds, 3)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Par:
        """A par as ``to_json`` wrote it (a store's copy)."""
        return cls(str(data["level"]), int(data["seed"]), int(data["plays"]),
                   tuple(float(m) for m in data["seat_means"]),
                   tuple(tuple(int(x) for x in p) for p in data["play_points"]),
                   float(data["cpu_seconds"]))


def par_bot(level: str) -> Bot:
    """The bot that plays par at ``level``: ``strong`` with a fixed number of samples
    (``PAR_STRONG``); the levels that never look at a clock (``random``, ``easy``) as
    they are.  ``normal`` stops at a CPU budget, so it is not a par level."""
    if level == "strong":
        return SearchBot("strong", PAR_STRONG)
    bot = BOTS.get(level)
    if bot is None or isinstance(bot, SearchBot):
        raise ValueError(f"no par level {level!r}: choose strong, easy or random")
    return bot


def check_deal(rules: RuleSet, deal: dict[str, Any]) -> None:
    """``ParError`` unless ``deal`` is dealt as ``rules`` deal (the record's own checks:
    every card of the deck once, the hands' and the kitty's sizes, the dealer's seat)."""
    if not isinstance(deal, dict):
        raise ParError("a deal is an object with dealer, hands and kitty")
    n = rules.options.players
    dealt: dict[str, Any] = {"dealer": deal.get("dealer"), "hands": deal.get("hands"),
                             "kitty": deal.get("kitty"), "actions": []}
    result = replay_record({"format": FORMAT, "rules": rules.to_json(),
                            "players": [""] * n, "deals": [dealt]})
    if not result["ok"]:
        raise ParError(f"not a deal of these rules: {result['error']['message']}")


def deal_seed(rules: RuleSet, deal: dict[str, Any]) -> int:
    """A seed fixed by the deal's rules, dealer, hands and kitty (not its actions: what
    was played does not change the bots' par)."""
    key = json.dumps([rules.to_json(), deal["dealer"], deal["hands"], deal["kitty"]],
                     sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def play_par(rules: RuleSet, deal: dict[str, Any], play: int, seed: int,
             level: str = PAR_LEVEL, units: float | None = None) -> ParPlay:
    """Play number ``play`` of the deal: exactly its hands, kitty and dealer, the bot
    ``level`` in every seat, the auction included; ``strong`` within ``units`` work
    units (``PAR_PLAY_UNITS``; par_budget.py)."""
    started = time.process_time()
    check_deal(rules, deal)
    match = match_of_deal(rules, deal)
    bot = par_bot(level)
    budget = (PlayBudget(PAR_PLAY_UNITS if units is None else units, PAR_STRONG.samples)
              if level == "strong" else None)
    bots: dict[int, Bot] = {}
    thinned = 0
    state = match.deals[-1]
    views = [SeatView(match, s) for s in range(match.n)]  # a view reads its deal live
    step = 0
    seat = state.turn
    while seat is not None:
        # Its own stream per decision: a play is the same whatever ran before it.
        rng = random.Random(f"par:{seed}:{play}:{step}")
        chooser = bot
        if budget is not None:
            k = budget.samples(views[seat])
            thinned += k < budget.full
            if k not in bots:
                bots[k] = SearchBot("strong", replace(PAR_STRONG, samples=k))
            chooser = bots[k]
        action = chooser.choose(views[seat], rng, search.CLOCKS.wall() + UNLIMITED)
        match.apply(seat, action)
        step += 1
        seat = state.turn
    assert state.phase == OVER and state.points is not None
    # the record's deal is handed out as plain JSON; its actions are objects
    actions = tuple(cast("list[dict[str, Any]]", deal_to_record(state)["actions"]))
    return ParPlay(tuple(state.points), actions, time.process_time() - started,
                   budget.spent if budget is not None else 0.0, thinned)


def par_from_plays(level: str, seed: int, plays: list[ParPlay] | tuple[ParPlay, ...]) -> Par:
    """The par of a deal from its plays (at least one)."""
    if not plays:
        raise ValueError("par needs at least one play")
    n = len(plays[0].points)
    means = tuple(sum(p.points[s] for p in plays) / len(plays) for s in range(n))
    return Par(level, seed, len(plays), means, tuple(p.points for p in plays),
               sum(p.cpu_seconds for p in plays))


def par_of_deal(rules: RuleSet, deal: dict[str, Any], plays: int = PAR_PLAYS,
                level: str = PAR_LEVEL, seed: int | None = None,
                units: float | None = None) -> Par:
    """The deal's par: ``plays`` plays by ``level`` in every seat, in this thread.
    ``seed`` defaults to ``deal_seed(rules, deal)``; ``units`` a play's work units
    (``PAR_PLAY_UNITS``)."""
    if plays < 1:
        raise ValueError("par needs at least one play")
    seed = deal_seed(rules, deal) if seed is None else seed
    return par_from_plays(level, seed,
                          [play_par(rules, deal, k, seed, level, units)
                           for k in range(plays)])


__all__ = ["PAR_LEVEL", "PAR_PLAYS", "PAR_STRONG", "Par", "ParError", "ParPlay",
           "check_deal", "deal_seed", "par_bot", "par_from_plays", "par_of_deal", "play_par"]
