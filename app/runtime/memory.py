"""The garbage collector's settings for a server, and memory given back when the last
room has left memory.  Public APIs only: ``gc`` and the C library's ``malloc_trim``.

What pays for each (docs/performance.md, "The runtime tuning"; docs/scaling.md):

- ``tune_collector``, once start-up is done: what start-up made is frozen out of the
  collector's sight, so full collections (which pause every room) scan only the rooms'
  objects, and young collections run after 10,000 allocations, not 700.  Measured with the
  rest of that day's work at 150 rooms: 0.67 to 0.62 ms of server CPU a move
  (benchmarks/load.py; docs/history/scaling-measurements.md, "After the throughput
  work").
- ``give_back``: a quiet server hardly runs the collector (it runs after so many new
  objects), so what rooms leave in reference cycles waits, and the C library keeps the
  pages it freed.  With no room left in memory a full collection takes milliseconds and
  delays nobody's move, and glibc's ``malloc_trim`` hands the free pages back:
  benchmarks/soak.py (300 rooms, 2 minutes, on ``malloc``) ended 5.7 MiB over the warm
  figure with it, and about 30 MiB over on Python's own allocator
  (docs/scaling.md, "Memory soak").  Elsewhere (a C library without it) only the
  collection runs.
"""

from __future__ import annotations

import ctypes
import gc
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _ctypes import CFuncPtr  # what a CDLL's attribute is

GC_YOUNG_THRESHOLD = 10_000  # allocations between young collections (Python's default: 700)


def tune_collector() -> None:
    """Freeze what exists now (start-up's objects) and make young collections rarer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


def c_function(name: str) -> CFuncPtr | None:
    """A function of the process's C library, or ``None`` where it has none by that name."""
    try:
        function: CFuncPtr = getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None
    return function


MALLOC_TRIM = c_function("malloc_trim")


class MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (2.33 and later)."""

    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


MALLINFO2 = c_function("mallinfo2")
if MALLINFO2 is not None:
    MALLINFO2.restype = MallInfo2


def heap_bytes() -> int | None:
    """Bytes the C library's ``malloc`` has handed out and not had back (glibc only, else
    ``None``): with ``PYTHONMALLOC=malloc`` every object of the interpreter, else only
    what Python's own allocator does not carve out of its arenas (objects over 512 bytes,
    C libraries' buffers)."""
    if MALLINFO2 is None:
        return None
    info = MALLINFO2()
    assert isinstance(info, MallInfo2)
    return int(info.uordblks + info.hblkhd)  # in the heaps, and mapped one by one


def give_back() -> None:
    """Collect every generation, then trim the C heap."""
    gc.collect()
    if MALLOC_TRIM is not None:
        MALLOC_TRIM(0)
