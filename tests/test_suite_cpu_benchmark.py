"""benchmarks/suite_cpu.py counts the CPU of everything a command starts, a process that
detached itself included, by kind, and hands back the command's exit status.

Nothing here is timed: the busy processes spin until they have used a set amount of CPU
time (``time.process_time``), however long that takes on a busy machine, and the
readings are compared with those amounts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import suite_cpu  # noqa: E402

SPIN = ("import time\nstart = time.process_time()\n"
        "while time.process_time() - start < {seconds}: pass\n")


def test_a_detached_process_is_counted_and_the_status_comes_back() -> None:
    # the shell leaves two spinners in sessions of their own, orphaned at once: the
    # script, their subreaper, counts them, and reads each as it ends
    script = "".join(f"(setsid {sys.executable} -c '{SPIN.format(seconds=seconds)}' &)\n"
                     for seconds in (0.4, 0.6)) + "exit 3\n"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "suite_cpu.py"),
                           "--every", "0.05", "--", "bash", "-c", script],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 3, proc.stderr
    first = proc.stderr.splitlines()[0]
    rows = {line.split("%", 1)[1].split(maxsplit=1)[1]:
            (float(line.split()[0]), int(line.split("%", 1)[1].split()[0]))
            for line in proc.stderr.splitlines()[1:]}
    # each spinner's own CPU and its start (/proc counts in hundredths, rounded down)
    seconds, processes = rows["python, other"]
    assert 0.95 <= seconds <= 1.5, proc.stderr
    assert processes >= 2, proc.stderr  # (a shell between its fork and exec may count)
    assert first.startswith("wall "), first


def test_the_kinds_of_the_suites_processes() -> None:
    renderer = "/usr/lib/chromium/chromium --type=renderer --lang=en-US --no-sandbox"
    assert suite_cpu.kind_of(renderer, "chromium") == "Chromium renderer"
    assert suite_cpu.kind_of("/usr/lib/chromium/chromium --headless", "chromium") \
        == "Chromium browser"
    worker = "/x/.venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))"
    assert suite_cpu.kind_of(worker, "python") == "pytest worker"
    spawned = ("/x/.venv/bin/python -B -c from multiprocessing.spawn import spawn_main; "
               "spawn_main(tracker_fd=8, pipe_handle=12) --multiprocessing-fork")
    assert suite_cpu.kind_of(spawned, "python") == "search worker"
    assert suite_cpu.kind_of("/x/.venv/bin/python -m app.cli serve --port 2", "python") \
        == "server"
    assert suite_cpu.kind_of("/usr/bin/sleep 1", "sleep") == "other (sleep)"
