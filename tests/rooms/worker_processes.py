"""The search workers of a real server process, read from /proc for
tests/rooms/test_search_attack.py: which are alive (told apart from multiprocessing's
resource tracker and from a reused pid), and a wait for a condition on them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from search_attack_common import WAIT

# -- the server's processes ------------------------------------------------------------------


def stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields from the state on (field 3 first), or None: no such pid."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2:].split()


Proc = tuple[int, str]  # a pid and its start time: the same process, even if pids wrap


def search_workers(server: int) -> list[Proc]:
    """The live search workers of process ``server``: its spawned children, told from
    multiprocessing's resource tracker by their command line."""
    found: list[Proc] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = stat(int(entry.name))
        if fields is None or int(fields[1]) != server or fields[0] in "ZX":
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline and b"resource_tracker" not in cmdline:
            found.append((int(entry.name), fields[19]))
    return sorted(found)


def lives(proc: Proc) -> bool:
    """Whether this process runs still (a zombie, dead but not yet reaped, does not)."""
    fields = stat(proc[0])
    return fields is not None and fields[19] == proc[1] and fields[0] not in "ZX"


def wait_until(what: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"not within {WAIT:.0f} s: {what}"
        time.sleep(0.05)
