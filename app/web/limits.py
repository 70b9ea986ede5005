"""Per-client limits as small pure classes; the clock is injected (``time.monotonic`` by
default), so tests step time by hand.

- ``WindowLimit``: at most ``limit`` events per key in any ``window`` seconds (rooms created
  per minute per address).  Memory: at most ``limit`` timestamps per key, and keys whose
  events all left the window are dropped.
- ``OpenCounter``: at most ``limit`` things open at once per key (WebSockets per address,
  per seat; sockets per address).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable

Clock = Callable[[], float]


class WindowLimit:
    """At most ``limit`` events per key in any ``window`` seconds (a sliding log;
    ``limit <= 0``: no limit)."""

    def __init__(self, limit: int, window: float, clock: Clock = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._events: dict[Hashable, deque[float]] = {}
        self._next_sweep = clock() + window

    def hit(self, key: Hashable) -> float:
        """Count one event for ``key``: ``0.0`` if allowed (and counted), else the seconds
        until one is allowed again (nothing counted)."""
        if self.limit <= 0:
            return 0.0
        now = self._clock()
        self._sweep(now)
        events = self._events.get(key)
        if events is None:
            events = self._events[key] = deque(maxlen=self.limit)
        while events and events[0] <= now - self.window:
            events.popleft()
        if len(events) >= self.limit:
            return max(events[0] + self.window - now, 1e-3)
        events.append(now)
        return 0.0

    def __len__(self) -> int:
        """Keys remembered (bounded by those active within the window)."""
        return len(self._events)

    def _sweep(self, now: float) -> None:
        """Forget keys whose events have all left the window, once per window."""
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.window
        stale = [k for k, ev in self._events.items() if not ev or ev[-1] <= now - self.window]
        for k in stale:
            del self._events[k]


class OpenCounter:
    """Things open per key, at most ``limit`` each (``limit <= 0``: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[Hashable, int] = {}

    def acquire(self, key: Hashable) -> bool:
        """Open one more for ``key`` if the limit allows (``False``: refused, nothing held)."""
        n = self._open.get(key, 0)
        if 0 < self.limit <= n:
            return False
        self._open[key] = n + 1
        return True

    def release(self, key: Hashable) -> None:
        """Close one that ``acquire`` allowed."""
        n = self._open.get(key, 0) - 1
        if n > 0:
            self._open[key] = n
        else:
            self._open.pop(key, None)

    def count(self, key: Hashable) -> int:
        return self._open.get(key, 0)

    def __len__(self) -> int:
        """Keys with something open."""
        return len(self._open)
