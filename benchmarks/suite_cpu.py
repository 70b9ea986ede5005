"""Where a command's CPU time goes, by kind of process: the test suite's, typically.

    python3 benchmarks/suite_cpu.py [--every 0.3] -- bash scripts/test.sh

It runs the command, becomes the subreaper of everything it starts (so a process that
detaches, as a browser's helpers do, still counts as the command's), reads each
descendant's CPU time from ``/proc`` every ``--every`` seconds, and at the end prints
the CPU seconds by kind (``KINDS``: Chromium by process type, the pytest workers, the
servers, the search workers...) with their shares, beside the wall time. A process
the script reaps (the command, and whatever was left to it) is read once more as it
ends; one reaped by its own parent is counted at the script's last reading, so of one
that lives less than ``--every`` a part is missed. Linux only. Its exit status is the command's.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from procstat import cpu_of, stat_fields

PR_SET_CHILD_SUBREAPER = 36

# (kind, a pattern of the command line), the first that matches names a process's kind.
KINDS: tuple[tuple[str, str], ...] = (
    ("pytest worker", r"exec\(eval\(sys\.stdin"),  # execnet's bootstrap: pytest-xdist
    ("search worker", r"multiprocessing"),          # spawned: the search and replay pools
    ("server", r"app\.cli serve|amerikaner serve"),
    ("pytest", r"pytest"),
    ("mypy", r"mypy"),
    ("ruff", r"ruff"),
    ("Playwright driver", r"playwright.*run-driver"),
    ("node (tsc, node --test)", r"\bnode\b|tsc"),
    ("postgres", r"postgres"),
    ("nginx", r"nginx"),
    ("prometheus", r"prometheus"),
    ("benchmark", r"benchmarks/"),
    ("python, other", r"python"),
)
CHROMIUM_TYPE = re.compile(r"--type=([a-z-]+)")


def kind_of(command_line: str, name: str) -> str:
    """A process's kind, from its command line and its name (``/proc/PID/comm``).
    Chromium writes its arguments back as one string, so its type is searched for."""
    if "chrom" in name:
        found = CHROMIUM_TYPE.search(command_line)
        return f"Chromium {found.group(1) if found else 'browser'}"
    for kind, pattern in KINDS:
        if re.search(pattern, command_line):
            return kind
    return f"other ({name})"


def descendants(root: int) -> dict[tuple[int, int], tuple[str | None, float]]:
    """The processes under ``root`` now, by pid and start time (a pid is used again),
    each with its kind and its CPU seconds so far.  The kind is read anew each time: a
    process first seen between its fork and its exec has its parent's command line; an
    ended one not yet reaped has none (None)."""
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stats[int(entry)] = stat_fields(int(entry))
            except OSError:
                continue  # it ended while we looked
    under: dict[tuple[int, int], tuple[str | None, float]] = {}
    for pid, fields in stats.items():
        ancestor = pid
        while ancestor > 1 and ancestor != root:
            ancestor = int(stats[ancestor][1]) if ancestor in stats else 0
        if ancestor == root and pid != root:
            try:
                raw = Path(f"/proc/{pid}/cmdline").read_bytes()
                name = Path(f"/proc/{pid}/comm").read_text().strip()
            except OSError:
                continue
            line = raw.replace(b"\0", b" ").decode(errors="replace")
            under[pid, int(fields[19])] = (kind_of(line, name) if line else None), cpu_of(fields)
    return under


def reap(last: dict[tuple[int, int], tuple[str, float]], command: int) -> int | None:
    """Reap every child that has ended, each read once more first: an ended process
    keeps its ``/proc`` entry, its CPU time final, until it is reaped. The command's exit
    status if it was one of them."""
    status = None
    while True:
        try:
            ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return status
        if ended is None:
            return status
        pid = ended.si_pid
        try:
            fields = stat_fields(pid)
            key = pid, int(fields[19])
            last[key] = last.get(key, ("other", 0.0))[0], cpu_of(fields)
        except OSError:
            pass
        _, wait_status = os.waitpid(pid, 0)
        if pid == command:
            status = os.waitstatus_to_exitcode(wait_status)


def watch(command: list[str], every: float,
          grace: float) -> tuple[int, float, dict[str, tuple[float, int]], int]:
    """Run ``command``; its exit status, the wall time until it and all it started ended
    (or ``grace`` seconds after it ended), the CPU seconds and the number of processes by
    kind, and how many of its processes were still running then (a test suite's server
    still stopping is the suite's)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    me = os.getpid()
    last: dict[tuple[int, int], tuple[str, float]] = {}  # each process's last reading
    start = time.monotonic()
    child = subprocess.Popen(command)
    status: int | None = None
    ended = 0.0
    while True:
        now = descendants(me)
        for key, (kind, seconds) in now.items():
            last[key] = (kind or last.get(key, ("other", 0.0))[0]), seconds
        reaped = reap(last, child.pid)
        if reaped is not None:
            status, ended = reaped, time.monotonic()
            child.returncode = status  # reaped here, not by Popen
        if status is not None and (not now or time.monotonic() - ended > grace):
            break
        time.sleep(every)
    totals: dict[str, tuple[float, int]] = {}
    for kind, seconds in last.values():
        before, count = totals.get(kind, (0.0, 0))
        totals[kind] = before + seconds, count + 1
    return status, time.monotonic() - start, totals, len(now)


def report(wall: float, totals: dict[str, tuple[float, int]]) -> str:
    """The CPU seconds by kind, the largest first, with each kind's share and number of
    processes (a server's or a browser's start is a cost of its own)."""
    whole = sum(seconds for seconds, _ in totals.values())
    lines = [f"wall {wall:.1f} s, CPU {whole:.1f} s"
             f" ({whole / max(wall, 1e-9):.2f} cores on average)"]
    for kind, (seconds, count) in sorted(totals.items(), key=lambda item: -item[1][0]):
        lines.append(f"  {seconds:8.1f} s  {100 * seconds / max(whole, 1e-9):5.1f} %"
                     f"  {count:5d}  {kind}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=float, default=0.3, help="seconds between readings")
    parser.add_argument("--grace", type=float, default=10.0,
                        help="seconds to go on counting what the command left running")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the command to run")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("name the command to run after --")
    status, wall, totals, left = watch(command, args.every, args.grace)
    print(report(wall, totals), file=sys.stderr)
    if left:
        print(f"  still running {args.grace:g} s after the command ended: {left}",
              file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
