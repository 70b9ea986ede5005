"""A search worker's process (search_pool.py hands it jobs): spawned, not forked (the
server has threads; a fork would copy their locks), killed when the server dies however
it dies, at the CPU priority its lane is given, and running one job at a time.

The deal reviews' workers run ``REVIEW_NICE`` steps below the server (``os.nice`` at the
start, so it holds for the process's life: an unprivileged process may lower its own
priority but never raise it again, which is also why a worker is not reniced job by job).
On a machine whose cores are all busy, the kernel then gives the bots' workers and the
server's loop the CPU first, and a review takes what they leave (issue 36: a review attack
on 2 cores cost a strong-bot table a third of its moves). A review's search counts CPU
time and stops at ``WALL_CAP`` times its wall-clock budget (app/bots/review.py), so a
starved review ends in time, with fewer samples.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import os
import signal
import sys
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess

# How many steps of niceness the review workers run below the server: 10 gives a review
# about a tenth of a core that a nice-0 process wants too (the kernel's weights 110 against
# 1024), and still a whole idle core, so reviews stay fast on an idle server.
# docs/bots.md ("Reviews below the tables") has the figures.
REVIEW_NICE = 10


def die_with_parent() -> None:
    """In a worker (the replay pool's too, replay_pool.py): be killed when the server
    dies, however it dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)


def lower_priority(nice: int) -> None:
    """In a worker: run ``nice`` steps below the process that started it (0: the same)."""
    if nice > 0:
        with contextlib.suppress(OSError):  # (raising one's niceness is always allowed)
            os.nice(nice)


def worker_main(conn: Connection, parent: int, warm: tuple[str, ...], nice: int) -> None:
    """A worker's life: its priority, the imports its jobs need, then say it is ready and
    run the jobs it is sent, one at a time, until the pipe closes."""
    die_with_parent()
    if os.getppid() != parent:
        return  # the server died before the signal was set up
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle
    lower_priority(nice)
    # Imported before the first job, not during it: a job's hard limit is for thinking,
    # and a new worker on a busy machine took seconds to import the bots.
    for module in warm:
        importlib.import_module(module)
    conn.send(("ready", None))
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, object] = ("ok", fn(*args))
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
        conn.send(reply)


def start_worker(context: SpawnContext, warm: tuple[str, ...],
                 nice: int) -> tuple[BaseProcess, Connection]:
    """A new worker process (started) and the server's end of its pipe; ``OSError`` if
    none can be started (no memory, no process left to the user)."""
    parent_end, child_end = context.Pipe()
    try:
        process = context.Process(target=worker_main,
                                  args=(child_end, os.getpid(), warm, nice),
                                  name="amerikaner-search", daemon=True)
        process.start()
    except BaseException:
        parent_end.close()
        raise
    finally:
        child_end.close()  # so the parent's end sees EOF when the worker dies
    return process, parent_end
