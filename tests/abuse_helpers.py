"""Helpers for the abuse tests (tests/test_abuse_*.py): the client addresses on loopback,
the real ``amerikaner serve`` processes by the settings their tests need, started together
for a test module, and clients from a given address, log waits and a process's memory.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from serve_process import ServeProcess

OTHER = "127.0.0.2"  # another client's address (loopback answers 127/8)
PROXY = "127.0.0.3"  # a reverse proxy's address, trusted where a test says so
PLAYER = "127.0.0.4"  # a player's, whose rooms no limit under test counts
WAIT = 30.0  # seconds an answer, a close or a log line may take before the test fails


# The servers of the abuse tests, by the settings their tests need; a test module starts
# those its tests use (``started_servers``), and its tests that need the same settings
# share one (a server start costs some 2 s of CPU), each test making its own rooms and its
# own connections, and reading its own log lines.  A test whose counts or limits another
# test's requests would move has a server of its own.
SERVERS: dict[str, tuple[dict[str, str], int | None]] = {
    # three rooms a minute per address, PROXY a trusted proxy (127.0.0.1 is not), and a
    # generous message rate for the huge bids (the body, JSON depth and bid checks under
    # test depend on none of these; their tests make rooms from an address of their own)
    "plain": ({"AMERIKANER_ROOMS_PER_MINUTE": "3", "AMERIKANER_TRUSTED_PROXIES": PROXY,
               "AMERIKANER_RATE": "100000", "AMERIKANER_BURST": "100000",
               "AMERIKANER_FLOOD_WINDOW": "0"}, None),
    "held": ({"AMERIKANER_ROOMS_HELD": "2", "AMERIKANER_MAX_ROOMS": "3"}, None),
    # No request deadline: nothing but the per-address cap ever closes a half-open socket.
    "half_open": ({"AMERIKANER_REQUEST_DEADLINE": "0", "AMERIKANER_LOG_LEVEL": "warning"},
                  1024),
    "deadline": ({"AMERIKANER_REQUEST_DEADLINE": "1"}, None),
    # (held sockets wait for their hello for as long as the test takes)
    "sockets": ({"AMERIKANER_CONNECTIONS_PER_ADDRESS": "4",
                 "AMERIKANER_HELLO_TIMEOUT": "600"}, None),
}


@contextlib.contextmanager
def started_servers(root: Path, names: Sequence[str]) -> Iterator[dict[str, ServeProcess]]:
    """The servers of ``SERVERS`` called ``names``, started at once (their starts overlap)
    and stopped when the block ends (a test module's fixture: after its last test).  None
    may have logged a traceback by then (the whole log: stopped, a server can write no
    more)."""
    started = {name: ServeProcess(root / name, SERVERS[name][0], max_files=SERVERS[name][1])
               for name in names}
    try:
        for p in started.values():
            p.launch()
        for p in started.values():
            p.wait_ready()
        yield started
    finally:
        logs = {name: p.stop() for name, p in started.items()}
    if "plain" in logs:
        assert "Traceback" not in logs["plain"], logs["plain"]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def client_from(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=WAIT)


def wait_logged(srv: ServeProcess, text: str, count: int = 1) -> int:
    """How often ``text`` is in the server's log, once it is there ``count`` times at least
    (polled, for ``WAIT`` seconds at most)."""
    deadline = time.monotonic() + WAIT
    while (n := srv.output().count(text)) < count:
        assert time.monotonic() < deadline, f"{text!r} logged {n} times, not {count}"
        time.sleep(0.05)
    return n


def create(client: httpx.Client, base: str, **headers: str) -> httpx.Response:
    return client.post(f"{base}/api/rooms", json={"name": "Ann"}, headers=headers)


def new_room(srv: ServeProcess) -> dict[str, Any]:
    """A room made by ``PLAYER``: its room code and host token."""
    with client_from(PLAYER) as player:
        made = create(player, srv.base)
    assert made.status_code == 201, made.text
    room: dict[str, Any] = made.json()
    return room
