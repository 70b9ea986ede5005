"""The clubs' par (app/bots/par.py) computed in the search pool's lowest lane, bounded per
club: the tables' CPU is never spent on it.

``ParQueue.submit(ParJob(club, match, deal, rules, record))`` (``jobs_of_record`` makes
them for a finished match's game record) answers at once with a
future of the deal's ``Par``; ``on_par(job, par)`` is told too, and ``on_failed(job,
why)`` when a play's worker died or overran (the caller asks again later: nothing is
kept across a restart, so the clubs code keeps "deals without par" in its store and
submits them again at start).

Where it runs: each play of a deal is one job of ``Lane.PAR`` (search_pool.py), taken
only by the review workers (``REVIEW_NICE`` steps below the server, search_workers.py)
and only when no review waits, so a table's bot move and a player's hint or review never
wait for par; on a server whose cores are busy with tables the kernel gives the workers
at nice 10 what the tables leave, and par is late, not the tables.  A play at a time
(about a second of CPU for ``strong``) keeps a review waiting behind par at most that
long.

How much: per club at most ``per_club`` deals have a play in the pool at once (within
the pool's own bound per room, ``PER_ROOM``), the others wait here in arrival order, and
at most ``backlog`` deals wait per club: a club that finishes deals faster than the server
has spare CPU for is told ``ParBusy`` and asks again later.  Clubs take turns in the
pool (each club is an address to the pool's turn-taking), so one club's backlog does not
hold back another's par.  The same deal submitted twice while its par is being made gets
the same future.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.bots.par import PAR_LEVEL, PAR_PLAYS, Par, ParPlay, deal_seed, par_from_plays, play_par
from app.rules import RuleSet
from app.rules.outcomes import Outcome
from app.rules.record import RecordError, replay_record
from app.rules.record_shape import record_rules

from .fair_queue import PER_ROOM, Lane, PoolBusy
from .search_pool import SearchPool, WorkerLost

log = logging.getLogger("amerikaner.rooms")

PER_CLUB = 2        # a club's deals with a play in the pool at once
BACKLOG = 200       # a club's deals waiting here at most (a season's worth of evenings)
# A play's worker is killed past this: about a second of CPU, at nice 10 on a server whose
# cores are busy with tables (a tenth of a core, search_workers.py), then some.
PLAY_HARD_SECONDS = 120.0

PlayFunction = Callable[[dict[str, Any], dict[str, Any], int, int, str], ParPlay]


class ParBusy(Exception):
    """Refused: this club has ``backlog`` deals waiting for their par already."""


class ParFailed(Exception):
    """A play of the deal could not be made (its worker died or overran): ask again."""


@dataclass(frozen=True)
class ParJob:
    """One finished deal of a club's match: ``deal`` is its number in the match (as the
    clubs code counts), ``rules`` the match's (``RuleSet.to_json()``), ``record`` the deal
    in the game record's shape (``dealer``, ``hands``, ``kitty``; ``actions`` unused)."""

    club: str
    match: str
    deal: int
    rules: dict[str, Any]
    record: dict[str, Any]

    @property
    def key(self) -> tuple[str, str, int]:
        return self.club, self.match, self.deal


def jobs_of_record(club: str, match: str, record: dict[str, Any]) -> list[ParJob]:
    """One job for each deal of a finished match's game record that was played to its
    end (not the void ones: nobody played them; not an unfinished last one), numbered by
    its index in the record's ``deals``, with the rules as the record gives them (its
    seat count from its names when its rules leave it out).  ``RecordError`` for a
    record that does not replay.  One replay of the record: about a millisecond a deal."""
    result = replay_record(record)
    if not result["ok"]:
        error = result["error"]
        raise RecordError(error["message"], error["deal"], error["action"])
    rules = record_rules(record).to_json()
    return [ParJob(club, match, i, rules, dict(record["deals"][i]))
            for i, deal in enumerate(result["deals"])
            if deal["outcome"] not in (Outcome.VOID, "incomplete")]


def play_job(rules: dict[str, Any], record: dict[str, Any], play: int, seed: int,
             level: str) -> ParPlay:
    """In a worker: one play of the deal (``app.bots.par.play_par``)."""
    return play_par(RuleSet.shared(rules), record, play, seed, level)


@dataclass
class _Club:
    waiting: deque[tuple[ParJob, asyncio.Future[Par]]] = field(default_factory=deque)
    running: int = 0


class ParQueue:
    """Par for the clubs' finished deals, made in ``pool``'s par lane."""

    def __init__(self, pool: SearchPool, *, plays: int = PAR_PLAYS, level: str = PAR_LEVEL,
                 per_club: int = PER_CLUB, backlog: int = BACKLOG,
                 on_par: Callable[[ParJob, Par], None] | None = None,
                 on_failed: Callable[[ParJob, str], None] | None = None,
                 play: PlayFunction = play_job,
                 hard: float = PLAY_HARD_SECONDS) -> None:
        """``plays`` and ``level``: par's (app/bots/par.py); ``play``: what a worker runs
        for one play (a test's own, to hold the lane); ``hard``: a play's worker is
        killed past this many seconds."""
        if not 1 <= per_club <= PER_ROOM:
            raise ValueError(f"per_club must be 1 to {PER_ROOM} (the pool's bound per room)")
        self.pool = pool
        self.plays = plays
        self.level = level
        self.per_club = per_club
        self.backlog = backlog
        self.on_par = on_par
        self.on_failed = on_failed
        self._play = play
        self._hard = hard
        self._clubs: dict[str, _Club] = {}
        self._futures: dict[tuple[str, str, int], asyncio.Future[Par]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._done = 0
        self._failed = 0

    def submit(self, job: ParJob) -> asyncio.Future[Par]:
        """The future of ``job``'s par (on the running loop); ``ParBusy`` when its club has
        ``backlog`` deals waiting."""
        known = self._futures.get(job.key)
        if known is not None:
            return known
        club = self._clubs.setdefault(job.club, _Club())
        if len(club.waiting) >= self.backlog:
            if not club.running:
                del self._clubs[job.club]
            raise ParBusy(f"club {job.club} has {self.backlog} deals waiting for their par")
        future: asyncio.Future[Par] = asyncio.get_running_loop().create_future()
        self._futures[job.key] = future
        club.waiting.append((job, future))
        self._start(job.club)
        return future

    def waiting(self, club: str) -> int:
        """The club's deals waiting here (not yet in the pool)."""
        found = self._clubs.get(club)
        return len(found.waiting) if found else 0

    def running(self, club: str) -> int:
        """The club's deals with a play in the pool (waiting for a worker or on one)."""
        found = self._clubs.get(club)
        return found.running if found else 0

    def stats(self) -> dict[str, int]:
        return {"clubs": len(self._clubs),
                "waiting": sum(len(c.waiting) for c in self._clubs.values()),
                "running": sum(c.running for c in self._clubs.values()),
                "done": self._done, "failed": self._failed}

    def _start(self, name: str) -> None:
        club = self._clubs[name]
        while club.running < self.per_club and club.waiting:
            job, future = club.waiting.popleft()
            club.running += 1
            task = asyncio.ensure_future(self._make(job, future))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _make(self, job: ParJob, future: asyncio.Future[Par]) -> None:
        """The deal's plays, one after the other, each a job of the par lane."""
        seed = 0
        try:
            seed = deal_seed(RuleSet.shared(job.rules), job.record)
            plays: list[ParPlay] = []
            for k in range(self.plays):
                plays.append(await self.pool.run(
                    Lane.PAR, self._play, job.rules, job.record, k, seed, self.level,
                    room=f"par {job.club}", address=f"par {job.club}", hard=self._hard))
            par = par_from_plays(self.level, seed, plays)
        except (WorkerLost, PoolBusy, RuntimeError, ValueError, KeyError, TypeError) as exc:
            self._fail(job, future, exc)
        else:
            self._done += 1
            if not future.done():
                future.set_result(par)
            if self.on_par is not None:
                self.on_par(job, par)
        finally:
            self._futures.pop(job.key, None)
            club = self._clubs.get(job.club)
            if club is not None:
                club.running -= 1
                if club.running or club.waiting:
                    self._start(job.club)
                else:
                    del self._clubs[job.club]

    def _fail(self, job: ParJob, future: asyncio.Future[Par], exc: Exception) -> None:
        self._failed += 1
        why = f"{type(exc).__name__}: {exc}"
        log.warning("par of club %s match %s deal %d not made: %s", job.club, job.match,
                    job.deal, why)
        if not future.done():
            future.set_exception(ParFailed(why))
            future.exception()  # retrieved: a caller that only listens to on_failed
        if self.on_failed is not None:
            self.on_failed(job, why)

    def close(self) -> None:
        """Stop: what waits or runs ends with ``ParFailed`` (not told to ``on_failed``)."""
        for club in self._clubs.values():
            for _, future in club.waiting:
                if not future.done():
                    future.set_exception(ParFailed("the server is stopping"))
                    future.exception()
            club.waiting.clear()
        for task in list(self._tasks):
            task.cancel()
        for future in self._futures.values():
            if not future.done():
                with contextlib.suppress(asyncio.InvalidStateError):
                    future.set_exception(ParFailed("the server is stopping"))
                    future.exception()
