"""What the search pool (search_pool.py) reports in /healthz's ``search``: its workers,
its jobs by lane, and how long jobs waited for a worker, per lane (``queue_wait``): from
a job's admission to the moment it is handed to a worker.

Only jobs that got a worker have a wait: a bot move given up for want of one is counted
by ``no_worker_in_time``, a refused hint or review by ``refused``. The figures are of the
last ``WINDOW`` jobs of each lane (a busy hour long ago does not hide a slow pool now);
``jobs`` counts every job handed to a worker since the server started. Each wait is
also handed to ``on_wait`` if the pool was given one (thinking.py: the
``amerikaner_search_queue_wait_seconds`` histogram of /metrics), so the pool itself
knows nothing of the metrics.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

from typing_extensions import TypedDict  # pydantic reads it (/healthz) on Python 3.11

from app.search_lanes import LANES

WINDOW = 1000  # recent waits kept per lane

WaitObserver = Callable[[str, float], None]  # (lane, seconds waited)


class WaitSummary(TypedDict):
    jobs: int        # handed to a worker since the start
    mean_ms: float   # over the lane's last WINDOW jobs, as p95_ms and max_ms
    p95_ms: float
    max_ms: float


class QueueWaits(TypedDict):
    bot: WaitSummary
    hint: WaitSummary
    review: WaitSummary
    par: WaitSummary


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


class PoolWaits:
    """Each lane's recent queue waits, in seconds; ``summary()`` in milliseconds."""

    def __init__(self, window: int = WINDOW, on_wait: WaitObserver | None = None) -> None:
        self._recent: dict[str, deque[float]] = {lane: deque(maxlen=window) for lane in LANES}
        self._jobs = dict.fromkeys(LANES, 0)
        self._on_wait = on_wait

    def record(self, lane: str, seconds: float) -> None:
        """A job of ``lane`` (``"bot"``, ``"hint"``, ``"review"``, ``"par"``) waited ``seconds``."""
        self._recent[lane].append(seconds)
        self._jobs[lane] += 1
        if self._on_wait is not None:
            self._on_wait(lane, seconds)

    def lane(self, lane: str) -> WaitSummary:
        waits = sorted(self._recent[lane])
        if not waits:
            return {"jobs": self._jobs[lane], "mean_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
        # nearest rank: a wait some job really had, not one between two
        p95 = waits[math.ceil(0.95 * len(waits)) - 1]
        return {"jobs": self._jobs[lane], "mean_ms": _ms(sum(waits) / len(waits)),
                "p95_ms": _ms(p95), "max_ms": _ms(waits[-1])}

    def summary(self) -> QueueWaits:
        return {"bot": self.lane("bot"), "hint": self.lane("hint"),
                "review": self.lane("review"), "par": self.lane("par")}


class LaneCounts(TypedDict):
    bot: int
    hint: int
    review: int
    par: int


class PoolStats(TypedDict):
    """The search pool in /healthz."""

    workers: int              # processes it keeps for bot moves and hints
    review_workers: int       # and for reviews and par, at a lower priority (from the first)
    alive: int                # of them running now (a dead one is replaced at once)
    ready: int                # of them done with their imports, taking jobs
    started: bool             # started on the first search
    running: LaneCounts       # jobs on a worker now, by lane
    waiting: LaneCounts       # jobs waiting for a worker, by lane
    replaced: int             # workers that died or overran a job, and were replaced
    no_worker_in_time: int    # bot moves the quick bot decided: no worker was free in time
    refused: int              # hints and reviews over a room's or an address's bound
    queue_wait: QueueWaits    # how long jobs waited for a worker, by lane (PoolWaits above)
