"""A rolling restart loses no table: three processes behind nginx on one PostgreSQL, rooms
playing all along; each process in turn gets SIGTERM, drains (its rooms handed over:
the step in flight saved, the lease let go, the sockets closed with 1012) and is started
again before the next one stops.

Every acknowledged action is in each match's record, in order, once; every close the
players saw was 1012; the log has one writer at a time per room.  How long each room was
unplayable is measured from events, as the clients see it: the time from the last state
frame before its socket closed to the first state frame after the reconnect.  The
players reconnect at once after a close and retry a refused handshake every 50 ms (the
browser waits 0.25 to 0.5 s first), so the figure is the servers'.  It is printed
(pytest -s); the test asserts only a generous bound, so that a busy machine passes."""

from __future__ import annotations

import random
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from cluster_harness import (
    PATIENCE,
    Cluster,
    assert_in_order_once,
    assert_one_writer_at_a_time,
    comparable,
    running_cluster,
)
from nginx_server import find_nginx
from pg_server import PostgresServer
from rooms_harness import Client, create_room, my_turn, pick_action

RULES = {"preset": "standard", "match": "deals:1"}
ROOMS = 6
UNPLAYABLE_BOUND = 10.0  # seconds: generous (the figure is printed)
# The players play flat out, and every match's record stays: the default keeps a room's
# last 50, and a slow restart on a busy machine lets a room play past that many.
FLAT_OUT = {"AMERIKANER_RATE": "1000", "AMERIKANER_BURST": "1000",
            "AMERIKANER_RECORDS_KEPT": "0"}
PLAYS_BETWEEN = 3  # actions every room acknowledges between two restarts


class TimedClient(Client):
    """A client that notes when its last state frame came."""

    last_state_at = 0.0

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        msg = super().recv(timeout)
        if msg["type"] == "state":
            self.last_state_at = time.monotonic()
        return msg


class Player(threading.Thread):
    """Seat 0 of one room (three bots) playing as fast as it may, reconnecting through
    nginx whenever its socket closes."""

    def __init__(self, base: str, code: str, token: str, seed: int,
                 stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.stop = stop  # then the match in play is the last
        self.base, self.code, self.token = base, code, token
        self.rng = random.Random(seed)
        self.acked: list[dict[str, Any]] = []
        self.unacked = 0
        self.closes: list[int | None] = []
        self.gaps: list[float] = []  # unplayable: last state before a close -> first after
        self.error: BaseException | None = None
        self.client: TimedClient | None = None

    def run(self) -> None:
        try:
            self.client = self.connect()
            while self.play_on():
                pass
        except BaseException as exc:  # reported by the test
            self.error = exc

    def connect(self) -> TimedClient:
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                return TimedClient(self.base, self.code, token=self.token)
            except (InvalidStatus, WebSocketException, OSError, TimeoutError) as exc:
                if time.monotonic() > deadline:
                    raise AssertionError(f"room {self.code} did not come back: {exc}") \
                        from None
                time.sleep(0.05)

    def play_on(self) -> bool:
        """One turn (or a wait through a close); ``False`` once the last match is over."""
        client = self.client
        assert client is not None
        try:
            view = client.wait_state(lambda v: my_turn(v) or v["phase"] in (
                "deal_over", "match_over"), timeout=PATIENCE)
            if view["phase"] == "match_over":
                if self.stop.is_set():
                    return False
                client.send({"type": "rematch"})  # the host: the next match, at once
                client.wait_state(lambda v: v["phase"] != "match_over", timeout=PATIENCE)
                return True
            if view["phase"] == "deal_over":
                client.send({"type": "ready"})
                client.wait_state(lambda v: v["phase"] != "deal_over", timeout=PATIENCE)
                return True
            action = pick_action(view, self.rng)
            self.unacked += 1
            client.act(action)
            reply = client.wait_for(lambda m: m["type"] in ("state", "error"),
                                    timeout=PATIENCE)
            if reply["type"] == "error":  # refused as the room was handed over
                assert reply["code"] == "unavailable", reply
                return True
            self.unacked -= 1
            self.acked.append(action)
        except ConnectionClosed as exc:
            self.closes.append(exc.rcvd.code if exc.rcvd is not None else None)
            last = client.last_state_at
            self.client = self.connect()
            self.gaps.append(self.client.last_state_at - last)
        return True


@pytest.fixture
def cluster(postgres: PostgresServer, database_url: str, tmp_path: Path) -> Iterator[Cluster]:
    """The cluster with the message rate lifted (the players play flat out) and every
    record kept."""
    if find_nginx() is None:
        pytest.skip("nginx is not installed (scripts/test.sh installs it)")
    with running_cluster(postgres, database_url, tmp_path, env=FLAT_OUT) as cluster:
        yield cluster


def test_a_rolling_restart_loses_no_action_and_no_table(cluster: Cluster) -> None:
    base = cluster.nginx.base
    players: list[Player] = []
    stop = threading.Event()
    while len(players) < ROOMS or len({cluster.app_of(o) for o in
                                       cluster.owners().values()}) < len(cluster.apps):
        assert len(players) < 30, f"rooms on too few processes: {cluster.owners()}"
        created = create_room(base, rules=RULES)
        players.append(Player(base, created["room"], created["token"], len(players),
                              stop))
        # closed at once: a socket nobody reads fills up with the match's frames, and at
        # the end its close would wait out the close timeout (10 s) behind them
        starter = players[-1].connect()
        starter.send({"type": "start"})
        starter.close()
    for p in players:
        p.start()

    def everyone_played(since: list[int]) -> None:
        deadline = time.monotonic() + PATIENCE * 2
        while any(p.is_alive() and len(p.acked) < n + PLAYS_BETWEEN
                  for p, n in zip(players, since, strict=True)):
            assert not any(p.error for p in players), [p.error for p in players]
            assert time.monotonic() < deadline, "a room stopped playing"
            time.sleep(0.05)

    everyone_played([0] * len(players))
    for i, app in enumerate(cluster.apps):
        since = [len(p.acked) for p in players]
        held = sum(1 for o in cluster.owners().values() if cluster.app_of(o) == i)
        log = app.stop()  # SIGTERM, and the process's exit
        assert f"handed {held} rooms over before stopping" in log or held == 0, log[-3000:]
        app.start()  # the same port: nginx sends its codes to it again
        everyone_played(since)

    stop.set()
    for p in players:  # every match played out
        p.join(PATIENCE * 4)
        assert not p.is_alive(), f"room {p.code} did not finish"
        assert p.error is None, p.error
    gaps = sorted(g for p in players for g in p.gaps)
    closes = [c for p in players for c in p.closes]
    print(f"{len(closes)} hand-overs seen by {len(players)} rooms; unplayable: median "
          f"{statistics.median(gaps):.3f} s, max {max(gaps):.3f} s, "
          f"all {[round(g, 3) for g in gaps]}")
    assert closes and set(closes) == {1012}, closes
    assert all(p.closes for p in players)  # every room moved at least once
    assert max(gaps) < UNPLAYABLE_BOUND, gaps
    for p in players:
        numbers = [int(row[0]) for row in cluster.sql(
            f"SELECT match_number FROM records WHERE code = '{p.code}' ORDER BY match_number")]
        assert numbers == list(range(1, len(numbers) + 1)), numbers  # none pruned
        mine = [comparable(a) for record in cluster.records(p.code)
                for deal in record["deals"] for a in deal["actions"] if a["seat"] == 0]
        assert_in_order_once([comparable(a) for a in p.acked], mine, p.unacked)
        writers = [row[0] for row in cluster.sql(
            f"SELECT owner FROM log WHERE code = '{p.code}' ORDER BY seq")]
        assert_one_writer_at_a_time(writers)
