"""Which memory allocator ``amerikaner serve`` runs its interpreter with.

What pays for it: benchmarks/soak.py (300 rooms, then none) ended 5.7 MiB over the warm
figure on ``malloc`` against about 30 MiB on Python's own allocator; ``malloc`` costs the
room's own step more CPU (+18 % in benchmarks/move_cost.py), lost in the noise of a whole
server under load (benchmarks/load.py at 250 rooms: 0.57 to 0.69 ms a move on ``malloc``,
0.61 to 0.76 on pymalloc) (docs/performance.md, "The runtime tuning"; docs/scaling.md,
"Memory soak").

Python's own allocator (pymalloc) carves small objects out of 1 MiB arenas and gives an
arena back to the system only when every object in it is gone.  A server that has held
many rooms keeps a few long-lived objects scattered over the arenas those rooms used
(the event loop's and the interpreter's free lists and caches), and with them the whole
arenas: after 300 rooms had played and left, about 30 MiB more than before they came
(benchmarks/soak.py; docs/scaling.md, "Memory soak").  With the C library's ``malloc``
(``PYTHONMALLOC=malloc``) a kept object keeps only its 4 KiB page, and glibc's
``malloc_trim``, which the server runs when its last room leaves memory
(``app/runtime/memory.py``), gives the free pages back: the same soak ended 6 MiB
above where it was before the rooms came.  So ``serve`` runs on ``malloc`` by default;
``AMERIKANER_ALLOCATOR=pymalloc`` keeps Python's own.

``PYTHONMALLOC`` is read once, when the interpreter starts: a server started without it
sets it and replaces itself with a fresh interpreter (``exec``: the same process id,
arguments and environment, which a service manager or container keeps watching).  A
``PYTHONMALLOC`` set by whoever started the server is left as it is.  Where ``exec``
starts a new process instead (Windows), the server stays on Python's allocator.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, MutableMapping

from app.settings import ALLOCATORS


def restart_argv() -> list[str]:
    """The command line this interpreter was started with (its flags included)."""
    return list(sys.orig_argv)


def ensure(allocator: str, env: MutableMapping[str, str] = os.environ,
           execv: Callable[[str, list[str]], object] = os.execv) -> None:
    """Make sure the interpreter runs with ``allocator``: returns when it does (or when
    ``PYTHONMALLOC`` was chosen by whoever started it); otherwise sets ``PYTHONMALLOC``
    and executes this command line again, not returning."""
    if allocator not in ALLOCATORS:
        raise ValueError(f"unknown allocator {allocator!r}: one of {', '.join(ALLOCATORS)}")
    if env.get("PYTHONMALLOC"):
        return  # chosen before this interpreter started: it runs with it
    if allocator == "pymalloc" or os.name != "posix":
        env["PYTHONMALLOC"] = "pymalloc"  # the interpreter's: nothing to restart for
        return
    env["PYTHONMALLOC"] = allocator
    sys.stdout.flush()
    sys.stderr.flush()
    execv(sys.executable, restart_argv())


def current(env: MutableMapping[str, str] = os.environ) -> str:
    """The allocator of this interpreter, as ``PYTHONMALLOC`` said when it started
    (``ensure`` sets it before any restart, and only then)."""
    return "malloc" if env.get("PYTHONMALLOC", "").startswith("malloc") else "pymalloc"
