"""How late the event loop runs what is due: a small task sleeps ``interval`` seconds
again and again, and each time it wakes measures how much later than asked it woke.

Everything the server does for its players runs on the one event loop: a lag there (a
long computation or a blocking call on the loop, a CPU shared with too much else) delays
every room's moves, timers and frames alike.  Each wake-up's lag is observed in
``amerikaner_event_loop_lag_seconds`` (app/web/metrics.py); a lag over ``limit`` at every
wake-up for ``hold`` seconds is a problem for /healthz (``loop``), which ends with the
first wake-up on time.  A loop blocked outright answers no /healthz either: the poller's
timeout tells it.

The clock is given (``time.monotonic`` in the server): tests drive ``asleep`` and
``woke`` by hand on a clock of their own, so nothing depends on the machine's speed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

INTERVAL = 0.25  # seconds between wake-ups: four observations a second cost nothing


class LoopLag:
    """The event loop's lag, from a task that wakes every ``interval`` seconds."""

    def __init__(self, limit: float, hold: float, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.monotonic,
                 observe: Callable[[float], None] | None = None) -> None:
        """``limit``: a wake-up this late (seconds) is late (``0``: never a problem);
        ``hold``: late wake-ups for this long are a problem; ``observe``: each lag."""
        self.limit = limit
        self.hold = hold
        self.interval = interval
        self.clock = clock
        self.observe = observe
        self.last = 0.0       # the last wake-up's lag, seconds
        self.worst = 0.0      # the largest lag of the current streak of late wake-ups
        self._due: float | None = None          # when the sleeping task should wake
        self._late_since: float | None = None   # the first late wake-up of the streak

    def asleep(self) -> float:
        """The task goes to sleep now: how long (it is due back then)."""
        self._due = self.clock() + self.interval
        return self.interval

    def woke(self) -> float:
        """The task woke: its lag, recorded."""
        now = self.clock()
        lag = 0.0 if self._due is None else max(0.0, now - self._due)
        self._due = None
        self.last = lag
        if self.observe is not None:
            self.observe(lag)
        if self.limit and lag > self.limit:
            if self._late_since is None:
                # the streak began when the first late wake-up was due: the loop was
                # already stuck then
                self._late_since, self.worst = now - lag, 0.0
            self.worst = max(self.worst, lag)
        else:
            self._late_since = None
        return lag

    def problem(self) -> str | None:
        """What /healthz says of the loop; ``None``: it keeps up."""
        now = self.clock()
        since = self._late_since
        if self.limit and self._due is not None and now - self._due > self.limit:
            # the task is late now, not yet woken (a request may run before it)
            since = self._due if since is None else since
            self.worst = max(self.worst, now - self._due)
        if since is None or now - since < self.hold:
            return None
        late_for = now - since
        return (f"the event loop runs late: every wake-up of the last {late_for:.0f} s "
                f"more than {self.limit:g} s late (up to {self.worst:.2f} s)")

    async def watch(self) -> None:
        """The task: wake every ``interval`` seconds and measure, until cancelled."""
        while True:
            await asyncio.sleep(self.asleep())
            self.woke()
