"""A CPU quota for one process and its children, through a control group of the Linux
kernel: what ``docker run --cpus 0.3`` does to a container (the CFS bandwidth controller:
at most ``quota`` of CPU time in every ``period``).

benchmarks/cluster_load.py uses it to give each app process a fixed share of a core, the
way a deployment gives each process its own core or container, so that on this 2-core
machine, where the swarm, PostgreSQL and nginx run beside the apps, one app process runs
out of its share before the machine runs out of cores, and a second process brings a
second share.  cgroup v1's ``cpu`` hierarchy or cgroup v2's ``cpu.max``; it needs root.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

V1_ROOT = Path("/sys/fs/cgroup/cpu")
V2_ROOTS = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))
V1_MAX_SHARES = 262_144  # the kernel's highest cpu.shares (1,024 a process at nice 0)
V2_MAX_WEIGHT = 10_000   # and cpu.weight (100 by default)
PERIOD_US = 10_000  # a short period: a throttled process waits at most the rest of 10 ms


class CpuCapError(RuntimeError):
    """The machine offers no control group with a CPU quota that this process may write."""


class CpuCap:
    """A control group of its own whose processes share ``cores`` of CPU time (0.25: a
    quarter of one core); ``add(pid)`` puts a process in it (its later children follow),
    ``remove()`` deletes the group once its processes have ended."""

    def __init__(self, name: str, cores: float | None, first: bool = False) -> None:
        """``cores`` None: no quota.  ``first``: the group's processes come before every
        other process of the machine when both want a core (the highest weight the kernel
        takes), so that a benchmark's parts get their shares while other work runs."""
        if cores is not None and not 0.01 <= cores <= (os.cpu_count() or 1):
            raise CpuCapError(f"a CPU cap of {cores} cores is out of range")
        self.cores = cores
        quota = -1 if cores is None else max(1000, round(cores * PERIOD_US))
        self.path = self._make(f"amerikaner-bench-{os.getpid()}-{name}", quota, first)

    @staticmethod
    def _make(name: str, quota: int, first: bool) -> Path:
        problems: list[str] = []
        if (V1_ROOT / "cpu.cfs_quota_us").exists():
            path = V1_ROOT / name
            try:
                path.mkdir(exist_ok=True)
                (path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (path / "cpu.cfs_quota_us").write_text(str(quota))
                if first:
                    (path / "cpu.shares").write_text(str(V1_MAX_SHARES))
                return path
            except OSError as exc:
                problems.append(f"{path}: {exc}")
        for root in V2_ROOTS:
            if not (root / "cgroup.subtree_control").exists():
                continue
            path = root / name
            try:
                if "cpu" not in (root / "cgroup.subtree_control").read_text().split():
                    (root / "cgroup.subtree_control").write_text("+cpu")
                path.mkdir(exist_ok=True)
                limit = "max" if quota < 0 else str(quota)
                (path / "cpu.max").write_text(f"{limit} {PERIOD_US}")
                if first:
                    (path / "cpu.weight").write_text(str(V2_MAX_WEIGHT))
                return path
            except OSError as exc:
                problems.append(f"{path}: {exc}")
        raise CpuCapError("no control group with a CPU quota could be made ("
                          + ("; ".join(problems) or "no cgroup v1 cpu or v2 hierarchy") + ")")

    def add(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def leave(self, pid: int) -> None:
        """Put ``pid`` back in the machine's own group (so that this one can go)."""
        (self.path.parent / "cgroup.procs").write_text(str(pid))

    def throttled_seconds(self) -> float:
        """How long the group's processes waited for their quota so far."""
        for line in (self.path / "cpu.stat").read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "throttled_time":  # v1, in ns
                return int(value) / 1e9
            if key == "throttled_usec":  # v2
                return int(value) / 1e6
        return 0.0

    def remove(self) -> None:
        # a process still in it: the kernel keeps the group until it ends
        with contextlib.suppress(OSError):
            self.path.rmdir()


@contextlib.contextmanager
def ahead_of_other_work(enabled: bool = True) -> Iterator[CpuCap | None]:
    """This process, and every process it starts from now on, in a group of its own that
    comes first when the machine is busy (no quota): a benchmark's figures then hold while
    other work runs.  Yields None where no such group can be made (not root)."""
    group: CpuCap | None = None
    if enabled:
        with contextlib.suppress(CpuCapError, OSError):
            group = CpuCap("first", None, first=True)
            group.add(os.getpid())
    try:
        yield group
    finally:
        if group is not None:
            with contextlib.suppress(OSError):
                group.leave(os.getpid())
            group.remove()
