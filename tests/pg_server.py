"""A throwaway PostgreSQL server on loopback, for the tests and benchmarks that need a real
one: its own data folder (a copy of the one ``initdb`` made: ``template``), its own port,
no system service, stopped at the end.  PostgreSQL refuses to run as root, so as root it
runs as ``nobody`` (``runuser``).

``find_binary("initdb")`` is ``None`` when PostgreSQL is not installed: callers skip.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from serve_process import free_port

UNPRIVILEGED = "nobody"
# The tests' server (tests/conftest.py): nothing in it has to outlive a crash of the
# machine, so it never waits for the disk.  Creating a database then takes a third of
# the time, and stopping it (its last checkpoint) well under a second instead of up to
# 17 s on a busy disk.  The benchmarks keep PostgreSQL's defaults: their figures need
# the flushes a deployment pays.
THROWAWAY = {"fsync": "off"}


def find_binary(name: str) -> str | None:
    """``name`` on the PATH, or in Debian's versioned folders (the newest version)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return candidates[-1] if candidates else None


def as_unprivileged(cmd: list[str]) -> list[str]:
    """``cmd`` run as ``nobody`` when we are root (PostgreSQL will not run as root)."""
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", UNPRIVILEGED, "--", *cmd]


def give_to_unprivileged(path: Path) -> None:
    if os.geteuid() == 0:
        shutil.chown(path, user=UNPRIVILEGED)


class PostgresServer:
    """``initdb`` + ``postgres`` in a temporary folder; ``url`` for the ``postgres`` role."""

    def __init__(self, options: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.options = {"listen_addresses": "127.0.0.1", "max_connections": "200",
                        **(options or {})}
        self.root = Path(tempfile.mkdtemp(prefix="amerikaner-pg-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> PostgresServer:
        initdb, postgres = find_binary("initdb"), find_binary("postgres")
        if initdb is None or postgres is None:
            raise RuntimeError("PostgreSQL is not installed (initdb, postgres)")
        os.chmod(self.root, 0o755)
        give_to_unprivileged(self.root)
        data = self.root / "data"
        copied = subprocess.run(as_unprivileged(["cp", "-a", str(template(initdb)), str(data)]),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if copied.returncode != 0:  # the template went away meanwhile: a folder of our own
            shutil.rmtree(data, ignore_errors=True)
            run_initdb(initdb, data)
        args = [postgres, "-D", str(data), "-p", str(self.port), "-k", str(self.root)]
        for key, value in self.options.items():
            args += ["-c", f"{key}={value}"]
        log = (self.root / "postgres.log").open("ab")
        self.proc = subprocess.Popen(as_unprivileged(args), stdout=log,
                                     stderr=subprocess.STDOUT)
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        pg_isready = find_binary("pg_isready")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                break
            if pg_isready is not None:
                ok = subprocess.run([pg_isready, "-q", "-h", "127.0.0.1", "-p",
                                     str(self.port)]).returncode == 0
            else:  # pragma: no cover - pg_isready comes with the client package
                ok = True
            if ok:
                return
            time.sleep(0.1)
        log = (self.root / "postgres.log").read_text(errors="replace")
        self.stop()
        raise RuntimeError(f"PostgreSQL did not start:\n{log}")

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run ``sql`` with ``psql`` and return its unaligned output."""
        psql = find_binary("psql")
        assert psql is not None
        done = subprocess.run([psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                               "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                               "-d", database, "-c", sql],
                              check=True, capture_output=True, text=True)
        return done.stdout

    def create_database(self, name: str) -> str:
        """A fresh empty database; its URL."""
        self.psql(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.proc is not None:
            # SIGINT: the "fast" shutdown, which does not wait for clients to leave
            end_server(self.proc, self.root / "data" / "postmaster.pid", signal.SIGINT)
            self.proc = None
        shutil.rmtree(self.root, ignore_errors=True)


def run_initdb(initdb: str, data: Path) -> None:
    subprocess.run(as_unprivileged([initdb, "-D", str(data), "-U", "postgres", "-A", "trust",
                                    "-E", "UTF8", "--no-sync"]),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def template(initdb: str) -> Path:
    """A data folder fresh from ``initdb``, made once for this PostgreSQL and user (in the
    temporary folder, kept) and copied for each server: ``initdb`` takes seconds on a busy
    machine, a copy a fraction of one.  Made aside and renamed into place, so that a
    template that exists is complete, whoever made it first."""
    key = hashlib.sha256(f"{initdb}:{os.stat(initdb).st_mtime_ns}:{os.geteuid()}"
                         .encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"amerikaner-pg-template-{key}"
    if folder.exists():
        return folder
    scratch = Path(tempfile.mkdtemp(prefix="amerikaner-pg-template-new-"))
    try:
        os.chmod(scratch, 0o755)
        give_to_unprivileged(scratch)
        run_initdb(initdb, scratch / "data")
        with contextlib.suppress(OSError):  # another process made it first: theirs
            os.rename(scratch / "data", folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return folder


def end_server(proc: subprocess.Popen[bytes], pid_file: Path, sig: int) -> None:
    """Send ``sig`` to the server itself (the pid in its ``pid_file``, not the ``runuser``
    in front of it), wait for it to end, kill it if it does not."""
    try:
        os.kill(int(pid_file.read_text().split()[0]), sig)
    except (OSError, ValueError):
        proc.send_signal(sig)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def postgres_available() -> bool:
    return all(find_binary(b) for b in ("initdb", "postgres", "psql"))
