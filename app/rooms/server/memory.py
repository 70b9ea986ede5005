"""Giving memory back to the system once the last room has left memory.

A quiet server hardly runs the garbage collector (it runs after so many new objects), so
what rooms leave in reference cycles waits; and the C library keeps the pages it freed for
later use.  When no room is left in memory, a full collection takes milliseconds and
delays nobody's move, and glibc's ``malloc_trim`` hands the free pages of its heaps back
to the system (benchmarks/soak.py measured about 6 MiB after 300 rooms).  Elsewhere (a
C library without it) only the collection runs.

Before the collection the interpreter's attribute cache is emptied: it keeps a reference
to the name of each of its 4,096 entries, and names made at run time (the C code of
``datetime`` and others looks attributes up by a fresh string each time) are new strings
scattered over the heap, each able to keep a whole 1 MiB arena of Python's allocator from
going back to the system (docs/scaling.md, "Memory soak").
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Callable


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # the process's libc
    except (OSError, AttributeError):
        return None
    return trim


MALLOC_TRIM = _malloc_trim()


class _MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (2.33 and later)."""

    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _mallinfo2() -> Callable[[], _MallInfo2] | None:
    try:
        info: Callable[[], _MallInfo2] = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    info.restype = _MallInfo2  # type: ignore[attr-defined]
    return info


MALLINFO2 = _mallinfo2()


def heap_bytes() -> int | None:
    """Bytes the C library's ``malloc`` has handed out and not had back (glibc only, else
    ``None``): with ``PYTHONMALLOC=malloc`` every object of the interpreter, else only
    what Python's own allocator does not carve out of its arenas (objects over 512 bytes,
    C libraries' buffers)."""
    if MALLINFO2 is None:
        return None
    info = MALLINFO2()
    return int(info.uordblks + info.hblkhd)  # in the heaps, and mapped one by one


def give_back() -> None:
    """Empty the attribute cache, collect every generation, then trim the C heap."""
    sys._clear_type_cache()  # refilled by the next lookups: a few microseconds of work
    gc.collect()
    if MALLOC_TRIM is not None:
        MALLOC_TRIM(0)
