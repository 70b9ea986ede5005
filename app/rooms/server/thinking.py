"""Where bots, hints and reviews think: never on the event loop, and the searching ones
not even in its process.

``easy`` and ``random`` decide in microseconds: they run in a thread.  ``normal``,
``strong``, practice hints and deal reviews search in pure Python for up to a second (a
review for several): in a thread they would hold the interpreter's lock and delay every
room's messages, so they run in worker processes.  A job carries the rules and the deal
in the game record's shape (a few kilobytes) and the worker replays the deal, rather than
pickling the engine's state with its tables (hundreds of kilobytes).  Every choice is
checked by the rules on the worker's copy; a bot that fails or breaks a rule falls back
to the random bot, so a bug in a bot never stops a table.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

from app.bots import choose_action
from app.bots.hints import explain
from app.bots.review import review_deal
from app.rules import Action, Match, RuleSet, SeatView, parse_action
from app.rules.record import deal_to_record, match_of_deal

log = logging.getLogger("amerikaner.rooms")
T = TypeVar("T")

QUICK_LEVELS = frozenset({"random", "easy", "heuristic"})
HINT_SECONDS = 0.5     # a practice hint's search
REVIEW_SECONDS = 8.0   # a deal review's search (docs/bots.md: 5 to 10 s give good figures)
WORKERS = 2            # processes for the searches (this machine's cores)

Job = tuple[dict[str, Any], dict[str, Any], int]  # rules, deal (record shape), seat


def job_of(match: Match, seat: int) -> Job:
    """What a worker needs to rebuild ``seat``'s position: small and picklable."""
    deal = match.deals[-1]
    return match.rules.to_json(), deal_to_record(deal), seat


def rebuild(rules: dict[str, Any], deal: dict[str, Any]) -> Match:
    """The match around one deal, replayed from its record (totals are not needed)."""
    match = match_of_deal(RuleSet.shared(rules), deal)
    for entry in deal["actions"]:
        match.apply(int(entry["seat"]), parse_action(entry))
    return match


def decide(level: str, match: Match, seat: int, seed: float) -> Action:
    """The bot's choice for ``seat``, checked by the rules on ``match`` (used up here)."""
    view = SeatView(match, seat)
    rng = random.Random(seed)
    try:
        action = choose_action(level, view, rng)
        match.apply(seat, action)  # raises, changing nothing, if the rules refuse it
        return action
    except Exception:
        log.exception("bot %s failed for seat %d; the random bot plays this turn",
                      level, seat)
        return choose_action("random", view, rng)


def think_job(level: str, job: Job, seed: float) -> dict[str, Any]:
    rules, deal, seat = job
    return decide(level, rebuild(rules, deal), seat, seed).to_json()


def hint_job(job: Job) -> dict[str, Any]:
    """What the strong bot would do for the seat, and why (``Hint.to_json()``); if the
    search fails, the easy bot's action with a plain "the best bot would..." text, so
    that a practice player is never left without a hint."""
    rules, deal, seat = job
    deadline = time.monotonic() + HINT_SECONDS
    view = SeatView(rebuild(rules, deal), seat)
    try:
        return explain(view, random.Random(), deadline).to_json()
    except Exception:
        log.exception("the strong bot's hint failed; the easy bot's is given")
        return plain_hint(choose_action("easy", view, random.Random()))


def plain_hint(action: Action) -> dict[str, Any]:
    """A hint without a reason: the action in the client's "the best bot would..." texts."""
    wire = action.to_json()
    if "bid" in wire:
        return {"action": wire, "key": "hint.bid", "params": {"bid": wire["bid"]}}
    if "discard" in wire:
        return {"action": wire, "key": "hint.discard", "params": {"cards": wire["discard"]}}
    if "call" in wire:
        return {"action": wire, "key": "hint.lead_call",
                "params": {"card": wire["play"], "call": wire["call"]}}
    return {"action": wire, "key": "hint.play", "params": {"card": wire["play"]}}


def review_job(rules: RuleSet, deal: dict[str, Any], seat: int) -> dict[str, Any]:
    deadline = time.monotonic() + REVIEW_SECONDS
    review: dict[str, Any] = review_deal(rules, deal, seat, random.Random(),
                                         deadline).to_json()
    return review


class Thinkers:
    """The pools: one thread for the quick bots, worker processes for the searches
    (started on first use)."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._workers = workers
        self._threads = ThreadPoolExecutor(1, thread_name_prefix="bots")
        self._processes: Executor | None = None

    def _run(self, pool: Executor, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        return asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    def _searchers(self) -> Executor:
        if self._processes is None:
            # spawned, not forked: the server has threads, and a fork copies their locks
            context = multiprocessing.get_context("spawn")
            self._processes = ProcessPoolExecutor(self._workers, mp_context=context)
        return self._processes

    async def think(self, level: str, match: Match, seat: int, seed: float) -> Action:
        if level in QUICK_LEVELS:
            return await self._run(self._threads, decide, level, match, seat, seed)
        action = await self._run(self._searchers(), think_job, level, job_of(match, seat),
                                 seed)
        return parse_action(action)

    async def hint(self, match: Match, seat: int) -> dict[str, Any]:
        return await self._run(self._searchers(), hint_job, job_of(match, seat))

    async def review(self, rules: RuleSet, deal: dict[str, Any], seat: int) -> dict[str, Any]:
        return await self._run(self._searchers(), review_job, rules, deal, seat)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
