"""What a process knows of rooms another live process holds, so that it does not ask the
database again at every request for them.

When a process's lease went down, its players reconnect at once and again and again
(each browser tab with its own backoff): every attempt reaches the next process on the
proxy's ring, which may not take the room until the dead holder's heartbeat lapses.
Asking the database at each attempt cost the survivor 108 to 136 lease queries for 16
sockets per kill (issue 24).  A refusal is therefore remembered until the holder's
heartbeat ends (read in the same statement; a holder that is alive renews it and is asked
again then), and a room let go earlier is forgotten here when its holder says so (the
store's notification of leases let go, postgres.py).  So a room taken over costs the
survivor one refused query and the one that takes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable


class HeldElsewhere:
    """Room code -> until when (this process's monotonic clock) another live process
    holds it, as far as we know."""

    __slots__ = ("_clock", "_until", "longest")

    def __init__(self, longest: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.longest = longest  # never trust a refusal longer than this (seconds)
        self._clock = clock
        self._until: dict[str, float] = {}

    def __contains__(self, code: str) -> bool:
        until = self._until.get(code)
        if until is None:
            return False
        if until > self._clock():
            return True
        del self._until[code]
        return False

    def __len__(self) -> int:
        return len(self._until)

    def refused(self, code: str, holder_left: float | None) -> None:
        """The database refused the lease: its holder's heartbeat holds ``holder_left``
        seconds more (``None``: unknown, the room was let go meanwhile)."""
        if holder_left is not None and holder_left > 0:
            self._until[code] = self._clock() + min(holder_left, self.longest)
        self._sweep()

    def clear(self) -> None:
        self._until.clear()

    def forget(self, codes: Iterable[str]) -> None:
        """These rooms were let go (or taken by us): ask the database next time."""
        for code in codes:
            self._until.pop(code, None)

    def _sweep(self) -> None:
        """Past refusals go, so a process asked for many rooms keeps only the current
        ones (amortized: only when the table has doubled since the last sweep)."""
        if len(self._until) < 64 or len(self._until) & (len(self._until) - 1):
            return
        now = self._clock()
        for code in [c for c, until in self._until.items() if until <= now]:
            del self._until[code]
