"""What ``/proc`` says about another process: its resident memory and its CPU time so far
(Linux only; the benchmarks read the server's figures from the outside, so measuring
costs the server nothing)."""

from __future__ import annotations

import os

CLK_TCK = os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    """VmRSS of a process, in KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def stat_fields(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (which may hold spaces
    and parentheses): ``[0]`` the state, ``[1]`` the parent's pid, ``[19]`` the start
    time, as proc(5) numbers them less 3."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_of(fields: list[str]) -> float:
    """User plus system CPU time from a process's ``stat_fields``."""
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    return cpu_of(stat_fields(pid))
