"""Jobs for tests/rooms/test_search_pool.py, importable by the pool's spawned workers
(spawn hands the test process's sys.path to its children). A job that must stay busy
waits for a gate file the test creates: nothing depends on how fast the machine is."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.bots.par import ParPlay


def pid() -> int:
    return os.getpid()


def echo(value: str) -> str:
    return value


def wait_for(gate: str, value: str) -> str:
    """Busy until ``gate`` exists (the test opens it), then ``value``."""
    path = Path(gate)
    while not path.exists():
        time.sleep(0.005)
    return value


def announce_then_wait(note: str, gate: str) -> int:
    """Write this worker's pid to ``note`` (whole: written beside it, then renamed, so
    the test never reads the file created but still empty), then wait for ``gate``."""
    Path(note + ".part").write_text(str(os.getpid()))
    os.replace(note + ".part", note)
    wait_for(gate, "")
    return os.getpid()


def fail() -> None:
    raise ValueError("a bot bug")


def niceness() -> tuple[int, int]:
    """This worker's pid and its niceness (its CPU priority: higher is lower)."""
    return os.getpid(), os.getpriority(os.PRIO_PROCESS, 0)


def logged(log: str, tag: str) -> str:
    """Append ``tag`` to the file ``log`` (the order a worker ran its jobs in)."""
    with open(log, "a", encoding="utf-8") as out:
        out.write(tag + "\n")
    return tag


def gated_play(gate: str, log: str, rules: dict[str, Any], record: dict[str, Any],
               play: int, seed: int, level: str) -> ParPlay:
    """A par play (par_queue.play_job) held until ``gate`` exists, logged by its seed."""
    # (imported here: every worker of test_search_pool imports this module, and the
    # bots' search it brings costs each some 0.6 s of CPU that only par plays need)
    from app.rooms.server.par_queue import play_job

    wait_for(gate, "")
    logged(log, str(seed))
    return play_job(rules, record, play, seed, level)


def announced_play(note: str, gate: str, rules: dict[str, Any], record: dict[str, Any],
                   play: int, seed: int, level: str) -> ParPlay:
    """A par play that first writes its worker's pid to ``note`` (once: the next play
    finds it there) and waits for ``gate``."""
    from app.rooms.server.par_queue import play_job  # (see gated_play)

    if not Path(note).exists():
        announce_then_wait(note, gate)
    return play_job(rules, record, play, seed, level)
