"""Acceptance test of "no upload stalls the tables" (issue 36), against a real ``amerikaner
serve``: replays are made in a process pool of their own (app/rooms/server/replay_pool.py)
behind per-address limits applied before an upload's body is read.

An uploader from 127.0.0.1 sends 1 MiB game records (as many deals and actions as one
replay may cost, padded to the upload limit) from 60 connections, each sending its next
as soon as it is answered.  A victim from 127.0.0.2 plays one person against three easy
bots.  Counted by events only, never by how long anything took:

1. the uploader's records are replayed (200) and its uploads beyond its two at once are
   refused (429 ``rate_limited``);
2. while that goes on, the victim's table makes ``MOVES`` bot moves, and more until
   ``DURING`` uploads were answered 200 since it began: at each bot move the server has a
   replay open (``amerikaner_replays_open``), and an upload is answered 200 after the
   victim's last move too (the uploads did not stop for the table, nor the table for
   them);
3. 60 uploads from 127.0.0.3 held one byte short of their end cost the server little
   memory (two are admitted; the others are refused before their body is read), and the
   server's memory after it all is within a bound of where it began.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from long_record import long_record
from search_attack_common import http_from
from search_victim import Victim
from serve_process import ServeProcess
from worker_processes import wait_until

from app.rooms.core.wire_enums import LIMITS

UPLOADER, VICTIM, HOLDER = "127.0.0.1", "127.0.0.2", "127.0.0.3"
SOCKETS = 60
MOVES = 40           # bot moves the victim's table makes under the uploads, at least
DURING = 3           # uploads answered 200 while the victim plays, at least
WAIT = 60.0          # seconds any one awaited event may take (a failure guard)
# The server's RSS may grow this much with 60 uploads held (two admitted bodies and their
# buffers; before issue 36 each held body kept its MiB: 65 MB an address) ...
HELD_GROWTH_MIB = 8
# ... and this much over the whole test, once all is answered (measured: 6 MiB; before
# refused uploads closed their connection, their bodies streamed in and were dropped,
# which left about 30 MiB of the C library's high-water mark)
FINAL_GROWTH_MIB = 24

ENV = {
    "AMERIKANER_BOT_DELAY": "0",
    "AMERIKANER_NEXT_DEAL_PAUSE": "600",  # a deal waits for "ready", never for a timer
    "AMERIKANER_RATE": "10000",
    "AMERIKANER_BURST": "10000",
    # only the uploads at once limit the uploader: the pool is never idle
    "AMERIKANER_REPLAYS_PER_MINUTE": "0",
    "AMERIKANER_REPLAYS_AT_ONCE": "2",
}


def big_upload() -> bytes:
    """A record at the work cap, padded with spaces to the upload limit."""
    record = long_record(LIMITS["RECORD_BYTES_MAX"], max_deals=LIMITS["RECORD_DEALS_MAX"],
                         max_actions=LIMITS["RECORD_ACTIONS_MAX"])
    return record + b" " * (LIMITS["RECORD_BYTES_MAX"] - len(record))


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[int] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def made(self) -> int:
        with self.lock:
            return self.statuses[200]


def upload_loop(base: str, body: bytes, stop: threading.Event, tally: Tally) -> None:
    """One of the uploader's connections: upload, and again at once, until ``stop``."""
    try:
        with http_from(UPLOADER) as http:
            while not stop.is_set():
                reply = http.post(f"{base}/api/replay", content=body,
                                  headers={"Content-Type": "application/json"})
                with tally.lock:
                    tally.statuses[reply.status_code] += 1
                    if reply.status_code != 200:
                        tally.codes[reply.json()["error"]["code"]] += 1
    except Exception as exc:  # a thread's failure must reach the test
        with tally.lock:
            tally.failures.append(repr(exc))


def replays_open(http: httpx.Client, base: str) -> float:
    """``amerikaner_replays_open`` as /metrics says it now."""
    for line in http.get(f"{base}/metrics").text.splitlines():
        if line.startswith("amerikaner_replays_open "):
            return float(line.split()[1])
    raise AssertionError("/metrics has no amerikaner_replays_open")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    srv = ServeProcess(tmp_path / "data", ENV).start()
    try:
        yield srv
    finally:
        srv.stop()


def test_uploads_from_one_address_do_not_stall_another_clients_table(
        server: ServeProcess) -> None:
    base = server.base
    body = big_upload()
    assert len(body) == LIMITS["RECORD_BYTES_MAX"]
    victim_http = http_from(VICTIM)
    stop, tally = threading.Event(), Tally()
    threads: list[threading.Thread] = []
    victim: Victim | None = None
    try:
        # the pool's worker started (the first replay), then memory as it is
        first = victim_http.post(f"{base}/api/replay", content=body)
        assert first.status_code == 200, first.text
        rss_before = rss_mib(server.pid)
        made = victim_http.post(f"{base}/api/rooms", json={"name": "Vic", "bot_level": "easy"})
        assert made.status_code == 201, made.text
        victim = Victim(base, made.json()["room"], made.json()["token"])
        victim.send({"type": "start"})
        victim.play(4)

        # 1. the uploads: replayed, and refused beyond two at once
        for i in range(SOCKETS):
            thread = threading.Thread(target=upload_loop, args=(base, body, stop, tally),
                                      name=f"uploader-{i}", daemon=True)
            threads.append(thread)
            thread.start()
        wait_until("uploads are replayed and refused", lambda: (
            tally.made() >= 1 and tally.statuses[429] >= 1))

        # 2. the victim's table plays on while they go on
        busy: list[bool] = []

        def sample() -> None:
            busy.append(replays_open(victim_http, base) >= 1)

        start = tally.made()
        moves = victim.play(MOVES, sample)
        while tally.made() - start < DURING:
            moves += victim.play(1, sample)
        last = tally.made()
        wait_until("an upload is answered after the victim's last move",
                   lambda: tally.made() > last)
        with tally.lock:
            statuses, codes = dict(tally.statuses), dict(tally.codes)
            failures = list(tally.failures)
        print(f"victim: {moves} bot moves while {last - start} uploads were replayed; "
              f"a replay open at {sum(busy)} of {len(busy)} bot moves; uploader's "
              f"answers {statuses}, refusals {codes}")
        assert not failures, failures
        assert all(busy), f"no replay was open at {busy.count(False)} of the bot moves"
        assert codes.get("rate_limited", 0) >= 1 and set(codes) <= {"rate_limited"}, codes
        stop.set()
        for thread in threads:
            thread.join(WAIT)
        rss_uploaded = rss_mib(server.pid)

        # 3. uploads held one byte short: two admitted, the rest refused unread
        head = (b"POST /api/replay HTTP/1.1\r\nHost: test\r\nContent-Type: application/json"
                b"\r\n" + f"Content-Length: {len(body)}\r\n\r\n".encode())
        held = [socket.create_connection(("127.0.0.1", server.port), timeout=WAIT,
                                         source_address=(HOLDER, 0)) for _ in range(SOCKETS)]
        try:
            for s in held:
                # A refused upload's connection may be closed before its body is all
                # sent (on a busy machine the server answered first): that is the
                # refusal, not a failure; the two admitted are counted below.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    s.sendall(head + body[:-1])
            wait_until("two held uploads are admitted",
                       lambda: replays_open(victim_http, base) == 2)
            rss_held = rss_mib(server.pid)
        finally:
            for s in held:
                s.close()
        wait_until("the held uploads are let go", lambda: replays_open(victim_http, base) == 0)
        rss_after = rss_mib(server.pid)
        print(f"server RSS: {rss_before:.1f} MiB before, {rss_uploaded:.1f} MiB after the "
              f"uploads, {rss_held:.1f} MiB with {SOCKETS} uploads held, {rss_after:.1f} "
              "MiB after")
        assert rss_held - rss_uploaded < HELD_GROWTH_MIB, (rss_uploaded, rss_held)
        assert rss_after - rss_before < FINAL_GROWTH_MIB, (rss_before, rss_after)
    finally:
        stop.set()
        for thread in threads:
            thread.join(WAIT)
        if victim is not None:
            victim.ws.close()
        victim_http.close()
