"""Where bots, hints and reviews think: never on the event loop, and the searching ones
not even in its process.

``easy`` and ``random`` decide in microseconds: they run in a thread.  ``normal``,
``strong``, practice hints and deal reviews search in pure Python for up to a second (a
review for several): in a thread they would hold the interpreter's lock and delay every
room's messages, so they run in worker processes.  A job carries the rules and the deal
in the game record's shape (a few kilobytes) and the worker replays the deal, rather than
pickling the engine's state with its tables (hundreds of kilobytes).  Every choice is
checked by the rules on the worker's copy; a bot that fails or breaks a rule falls back
to the random bot, so a bug in a bot never stops a table. A bot move that gets no worker
in time, or whose worker dies, is decided by the easy bot (search_pool.py says when).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

from app.bots import choose_action
from app.bots.hints import explain
from app.bots.review import WALL_CAP, review_deal
from app.double_dummy import DoubleDummy
from app.rooms.core.effects import HintPayload
from app.rooms.core.frames import JsonObject, ReviewPayload
from app.rules import Action, Match, RuleSet, SeatView, parse_action
from app.rules.record import RecordError, deal_to_record, match_of_deal
from app.rules.record_shape import record_rules
from app.rules.wire import ActionJson, LegalActionJson
from app.settings import Settings
from app.web import metrics

from .fair_queue import Lane, PoolBusy
from .par_queue import ParQueue
from .pool_stats import PoolStats
from .search_pool import NoWorkerInTime, SearchPool, WorkerLost

log = logging.getLogger("amerikaner.rooms")
T = TypeVar("T")

QUICK_LEVELS = frozenset({"random", "easy", "heuristic"})
# A practice hint's search (wall time): the default of the server's ``hint_seconds``
# setting (AMERIKANER_HINT_SECONDS), which the browser tests lower.
HINT_SECONDS: float = Settings.hint_seconds
# A deal review's search (docs/bots.md: 5 to 10 s give good figures): the default of the
# server's ``review_seconds`` setting (AMERIKANER_REVIEW_SECONDS), which tests lower,
# written once, in app/settings.py.
REVIEW_SECONDS: float = Settings.review_seconds


def review_hard_seconds(seconds: float) -> float:
    """A review's worker is killed past this: on a busy server its double dummy and its
    decisions count CPU time and may each take up to WALL_CAP times their share of wall
    time (app/bots/review.py)."""
    return seconds * WALL_CAP + 10.0


WORKERS = 2            # processes for the bots' searches and hints (this machine's cores)
# Processes for the reviews, below the tables' priority (search_workers.py): one, as many as
# reviews ran at once when they shared the tables' workers.
REVIEW_WORKERS = 1
BOT_WAIT_SECONDS = 1.0  # a bot move waits this long for a free worker, then the quick bot
BOT_HARD_SECONDS = 5.0  # a bot move's worker is killed past this (the search stops at 1 s)
FALLBACK_LEVEL = "easy"  # the level below the searching ones, which needs no worker

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


def choose_bot_action(level: str, match: Match, seat: int, seed: float) -> Action:
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


def think_job(level: str, job: Job, seed: float) -> ActionJson | LegalActionJson:
    rules, deal, seat = job
    return choose_bot_action(level, rebuild(rules, deal), seat, seed).to_json()


def hint_job(job: Job, seconds: float = HINT_SECONDS) -> HintPayload:
    """What the strong bot would do for the seat, and why (``Hint.to_json()``), searched
    for ``seconds``; if the search fails, the easy bot's action with a plain "the best
    bot would..." text, so that a practice player is never left without a hint."""
    rules, deal, seat = job
    deadline = time.monotonic() + seconds
    view = SeatView(rebuild(rules, deal), seat)
    try:
        return cast(HintPayload, explain(view, random.Random(), deadline).to_json())
    except Exception:
        log.exception("the strong bot's hint failed; the easy bot's is given")
        return easy_hint(view)


def plain_hint(action: Action) -> HintPayload:
    """A hint without a reason: the action in the client's "the best bot would..." texts."""
    wire = cast(ActionJson, action.to_json())
    if "bid" in wire:
        return {"action": wire, "key": "hint.bid", "params": {"bid": wire["bid"]}}
    if "discard" in wire:
        return {"action": wire, "key": "hint.discard", "params": {"cards": [*wire["discard"]]}}
    if "call" in wire:
        return {"action": wire, "key": "hint.lead_call",
                "params": {"card": wire["play"], "call": wire["call"]}}
    return {"action": wire, "key": "hint.play", "params": {"card": wire["play"]}}


def easy_hint(view: SeatView) -> HintPayload:
    """The easy bot's action as a hint, when the search cannot give one."""
    return plain_hint(choose_action("easy", view, random.Random()))


def quick_hint(match: Match, seat: int) -> HintPayload:
    """``easy_hint`` for ``seat`` of ``match``, in the bots' thread (no worker needed)."""
    return easy_hint(SeatView(match, seat))


def review_job(rules: RuleSet, deal: dict[str, Any], seat: int,
               known: DoubleDummy | None = None,
               seconds: float = REVIEW_SECONDS) -> ReviewPayload:
    deadline = time.monotonic() + seconds
    review = review_deal(rules, deal, seat, random.Random(), deadline, known).to_json()
    return cast(ReviewPayload, review)


def deal_of_record(record: JsonObject | None, deal: int) -> tuple[RuleSet, JsonObject] | None:
    """The rules and deal ``deal`` (record shape) of a stored game record, or ``None`` if
    there is none (the record gone, or not holding that deal: a damaged store)."""
    if record is None:
        return None
    try:
        rules = record_rules(record)  # the header read as `amerikaner replay` reads it
        data = record["deals"][deal]  # type: ignore[index]
    except (KeyError, IndexError, TypeError, ValueError, RecordError):
        log.exception("a stored record has no deal %d", deal)
        return None
    if not isinstance(data, dict):
        return None
    return rules, dict(data)


class Thinkers:
    """The quick bots in one thread; the searches in the worker processes of a
    ``SearchPool`` (search_pool.py), bot moves first, reviews on workers of their own at
    a lower CPU priority."""

    def __init__(self, workers: int = WORKERS, review_seconds: float = REVIEW_SECONDS,
                 hint_seconds: float = HINT_SECONDS) -> None:
        self.review_seconds = review_seconds
        self.hint_seconds = hint_seconds
        self._threads = ThreadPoolExecutor(1, thread_name_prefix="bots")
        self.pool = SearchPool(workers, warm=(__name__,), on_wait=metrics.search_waited,
                               review_workers=REVIEW_WORKERS)
        # The clubs' par, in the pool's lowest lane (par_queue.py).
        self.par = ParQueue(self.pool)

    def _run(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        return asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)

    async def think(self, level: str, match: Match, seat: int, seed: float,
                    room: str = "") -> Action:
        started = time.perf_counter()
        try:
            return await self._think(level, match, seat, seed, room)
        finally:
            metrics.bot_decided(level, time.perf_counter() - started)

    async def _think(self, level: str, match: Match, seat: int, seed: float,
                     room: str) -> Action:
        if level in QUICK_LEVELS:
            return await self._run(choose_bot_action, level, match, seat, seed)
        try:
            wire = await self.pool.run(Lane.BOT, think_job, level, job_of(match, seat), seed,
                                       room=room, hard=BOT_HARD_SECONDS,
                                       start_within=BOT_WAIT_SECONDS)
            return parse_action(wire)
        except (NoWorkerInTime, WorkerLost, RuntimeError) as exc:
            # The table does not wait for the pool: the quick bot decides this move.
            log.warning("room %s: bot %s for seat %d decided by %s (%s)", room, level, seat,
                        FALLBACK_LEVEL, exc)
            return await self._run(choose_bot_action, FALLBACK_LEVEL, match, seat, seed)

    async def hint(self, match: Match, seat: int, room: str = "",
                   address: str = "") -> HintPayload:
        job = job_of(match, seat)
        try:
            hint: HintPayload = await self.pool.run(
                Lane.HINT, hint_job, job, self.hint_seconds, room=room, address=address,
                hard=self.hint_seconds + 4.0)
            return hint
        except (PoolBusy, WorkerLost, RuntimeError) as exc:
            # a practice player is never left without a hint: the easy bot's, at once
            log.info("room %s: the easy bot's hint is given (%s)", room, exc)
            return await self._run(quick_hint, match, seat)

    async def review(self, rules: RuleSet, deal: dict[str, Any], seat: int, room: str = "",
                     address: str = "", known: DoubleDummy | None = None) -> ReviewPayload:
        try:
            review: ReviewPayload = await self.pool.run(
                Lane.REVIEW, review_job, rules, deal, seat, known, self.review_seconds,
                room=room, address=address, hard=review_hard_seconds(self.review_seconds))
            return review
        except PoolBusy as exc:
            return {"error": str(exc), "busy": True}

    def stats(self) -> PoolStats:
        return self.pool.stats()

    def problem(self) -> str | None:
        return self.pool.problem()

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        self.par.close()
        self.pool.close()
