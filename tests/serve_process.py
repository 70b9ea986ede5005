"""A real ``amerikaner serve`` process on loopback, for the tests that need the whole
program (and for benchmarks/rooms.py): it logs to a file in its data folder, so a chatty
server never blocks on a full pipe, and ``start`` again after ``stop`` restarts it on the
same port and data folder."""

from __future__ import annotations

import os
import random
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


# Below Linux's ephemeral range (32768 and up): the kernel never picks one of these for
# an outgoing connection, so a port found free here stays free until the server binds it,
# even while another copy of the suite opens thousands of loopback connections.
SERVER_PORTS = range(20000, 32000)


def free_port() -> int:
    """A loopback port no socket holds: random within SERVER_PORTS, checked by binding."""
    rng = random.SystemRandom()
    for _ in range(200):
        port = rng.choice(SERVER_PORTS)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free loopback port in 200 tries")


class ServeProcess:
    """``python -m app.cli serve`` with ``AMERIKANER_*`` settings from ``env`` (bots act at
    once and rooms may be created without limit unless ``env`` says otherwise);
    ``max_files``: the server's limit of open files (``ulimit -n``); ``root``: the checkout
    whose ``app`` it runs (a benchmark's baseline: another ``git worktree``)."""

    def __init__(self, data_dir: Path, env: dict[str, str] | None = None,
                 port: int | None = None, max_files: int | None = None,
                 root: Path = ROOT) -> None:
        self.data_dir = data_dir
        self.root = root
        self.env = {**os.environ, "AMERIKANER_BOT_DELAY": "0",
                    "AMERIKANER_ROOMS_PER_MINUTE": "0", **(env or {})}
        self.max_files = max_files
        self.port = port or free_port()
        # a port we chose may be taken by another suite's server before ours binds it:
        # then start picks another (a port the caller chose is kept)
        self._own_port = port is None
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir / "serve.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._retries = 0

    def start(self) -> ServeProcess:
        """Start the process and wait until it answers (``launch``, then ``wait_ready``)."""
        return self.launch().wait_ready()

    def launch(self) -> ServeProcess:
        """Start the process without waiting for it: several servers then start at once
        (``wait_ready`` each), their imports and their waits overlapping."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--data-dir", str(self.data_dir)],
                cwd=self.root, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=self._limit_files if self.max_files else None)
        return self

    def wait_ready(self) -> ServeProcess:
        """Wait until the launched process answers ``/healthz``; on a port another suite's
        server took first, launch again on another (a port the caller chose is kept)."""
        assert self.proc is not None, "launch() first"
        # Generous: on a busy machine the imports alone took 10 s; a crash ends it sooner.
        deadline = time.monotonic() + 120
        # one client for every poll: httpx.get makes a client each time, whose TLS context
        # alone costs some 20 ms of CPU, ten times a second for as long as the start takes
        with httpx.Client(timeout=10) as http:
            while True:
                try:
                    if http.get(f"{self.base}/healthz").status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
                if (self.proc.poll() is not None and self._own_port and self._retries < 5
                        and "address already in use" in self.output()[-2000:]):
                    self._retries += 1
                    self.port = free_port()
                    self.base = f"http://127.0.0.1:{self.port}"
                    return self.start()
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"amerikaner serve did not start:\n{self.output()}")
                time.sleep(0.1)

    def _limit_files(self) -> None:
        """In the child, before exec: ``ulimit -n max_files``."""
        assert self.max_files is not None
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.max_files, hard))

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> str:
        """Stop the server (SIGTERM, then SIGKILL) and return everything it logged."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        return self.output()

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
