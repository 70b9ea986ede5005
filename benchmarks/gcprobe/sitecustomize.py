"""``load.py --gc-probe``: loaded into the server process through ``PYTHONPATH``, it logs
every garbage collection that takes over 5 ms (wall time: a collection that the machine
interrupts counts its wait too), one line each on stderr, which the server writes to its
log: ``GCPROBE <epoch seconds at the end> <generation> <milliseconds>``.  load.py counts the
lines of the measuring window, to show whether the slow moves are the collector's pauses.
"""

from __future__ import annotations

import gc
import sys
import time
from typing import Any

_started = [0.0]


def _probe(phase: str, info: dict[str, Any]) -> None:
    now = time.perf_counter()
    if phase == "start":
        _started[0] = now
        return
    took = now - _started[0]
    if took > 0.005:
        sys.stderr.write(f"GCPROBE {time.time():.3f} {info['generation']} {1000 * took:.1f}\n")
        sys.stderr.flush()


gc.callbacks.append(_probe)
