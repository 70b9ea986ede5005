"""The scale-out for real, on loopback: three ``amerikaner serve`` processes sharing one
PostgreSQL behind nginx with the shipped ``deploy/nginx.conf``.

Rooms created through nginx land on different processes; people play in several rooms
through nginx; one process is killed with SIGKILL mid-trick.  Its rooms are served again
through the same address once its lease lapses (``AMERIKANER_LEASE_SECONDS``, 3 s; the
test prints how soon, and waits as long as a busy machine may need), their players come
back with their tokens to the state they had, and the other processes' rooms never
notice.  Restarting the killed process takes no room from the processes serving them
now.  At the end every action that got its state frame is in the match's record once,
and the log shows one writer per room at a time.
"""

from __future__ import annotations

import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from cluster_harness import (
    PATIENCE,
    Cluster,
    assert_in_order_once,
    assert_one_writer_at_a_time,
    comparable,
)
from rooms_harness import Client, create_room, my_turn, pick_action
from serve_process import ServeProcess
from shared_helpers import HTTP, download_record

RULES = {"preset": "standard", "match": "deals:1"}


@dataclass
class Player:
    """The one person of a room (seat 0, against three bots), through nginx."""

    base: str
    code: str
    token: str
    client: Client | None = None
    acked: list[dict[str, Any]] = field(default_factory=list)  # got their state frame
    unacked: int = 0

    def connect(self, within: float) -> None:
        """Connect (again), as the browser does: retry until the room answers."""
        deadline = time.monotonic() + within
        while True:
            try:
                self.client = Client(self.base, self.code, token=self.token)
                return
            except (WebSocketException, OSError, TimeoutError) as exc:
                if time.monotonic() > deadline:
                    raise AssertionError(f"room {self.code} did not come back: {exc}") \
                        from None
                time.sleep(0.1)

    @property
    def view(self) -> dict[str, Any]:
        assert self.client is not None and self.client.state is not None
        return self.client.state

    def play(self, rng: random.Random) -> bool:
        """Wait for this seat's turn and play it; ``False`` once the match is over."""
        assert self.client is not None
        view = self.client.wait_state(lambda v: my_turn(v) or v["phase"] == "match_over")
        if view["phase"] == "match_over":
            return False
        action = pick_action(view, rng)
        self.unacked += 1
        self.client.act(action)
        reply = self.client.wait_for(lambda m: m["type"] in ("state", "error"))
        assert reply["type"] == "state", reply
        self.unacked -= 1
        self.acked.append(action)
        return True

    def play_until_mid_trick(self, rng: random.Random) -> None:
        assert self.client is not None
        for _ in range(60):
            self.client.wait_state(lambda v: my_turn(v) or v["phase"] == "match_over")
            if self.view["phase"] == "play" and self.view["trick"]:
                return
            assert self.play(rng), "the match ended before a trick was under way"
        raise AssertionError("no trick under way")


def test_rooms_survive_a_dead_process_behind_nginx(cluster: Cluster) -> None:
    rng = random.Random(13)
    base = cluster.nginx.base
    players: list[Player] = []
    # rooms created through nginx, each loaded by the process its code is routed to
    def processes_used() -> set[int | None]:  # by this test's rooms
        codes = {p.code for p in players}
        return {cluster.app_of(o) for c, o in cluster.owners().items() if c in codes}

    while len(players) < 6 or len(processes_used()) < 2:
        assert len(players) < 20, f"every room on one process: {cluster.owners()}"
        created = create_room(base, rules=RULES)
        player = Player(base, created["room"], created["token"])
        player.connect(within=PATIENCE)
        assert player.client is not None
        player.client.send({"type": "start"})
        players.append(player)
    owners = cluster.owners()
    by_app: dict[int, list[Player]] = {}
    for p in players:
        app = cluster.app_of(owners[p.code])
        assert app is not None
        by_app.setdefault(app, []).append(p)
    assert len(by_app) >= 2, owners  # different processes serve different rooms
    print("rooms per process:", {a: len(ps) for a, ps in sorted(by_app.items())})
    victim = max(by_app, key=lambda a: len(by_app[a]))
    doomed = by_app[victim]
    others = [p for p in players if p not in doomed]
    for p in players:  # everyone plays a little, the doomed rooms into a trick
        for _ in range(3):
            p.play(rng)
    for p in doomed:
        p.play_until_mid_trick(rng)
    before = {p.code: dict(p.view) for p in doomed}

    # SIGKILL: no shutdown, no lease let go
    killed = cluster.apps[victim]
    killed_owner = owners[doomed[0].code]
    assert killed.proc is not None
    killed.proc.send_signal(signal.SIGKILL)
    killed.proc.wait(10)
    killed_at = time.monotonic()

    for p in doomed:  # the connection drops; the player comes back with the token
        assert p.client is not None
        with pytest.raises(ConnectionClosed):
            p.client.wait_for(lambda m: False, timeout=PATIENCE)
        p.connect(within=PATIENCE)
        back = time.monotonic() - killed_at
        print(f"room {p.code} served again {back:.2f} s after the SIGKILL")  # pytest -s
        for key in ("phase", "trick", "hand", "turn", "contract", "tricks_won", "scores"):
            assert p.view[key] == before[p.code][key], key
    now_served = cluster.owners()
    for p in doomed:
        assert now_served[p.code] != killed_owner
        assert cluster.app_of(now_served[p.code]) not in (None, victim)
    for p in others:  # never noticed: the same connection plays on
        assert p.client is not None
        assert not any(f["type"] == "error" for f in p.client.frames)
        assert p.play(rng)

    # the killed process comes back: it takes none of the rooms served elsewhere now
    killed.start()
    for p in doomed:
        r = HTTP.get(f"{killed.base}/api/rooms/{p.code}")
        assert r.status_code == 503 and r.headers["retry-after"], r.text
        assert HTTP.get(f"{base}/api/rooms/{p.code}").status_code == 200  # nginx moves on
    assert {p.code: cluster.owners()[p.code] for p in doomed} == \
        {p.code: now_served[p.code] for p in doomed}

    for p in players:  # every match played out, through nginx
        while p.play(rng):
            pass
    for p in players:
        record = download_record(base, p.code, p.token)
        mine = [comparable(a) for deal in record["deals"] for a in deal["actions"]
                if a["seat"] == 0]
        assert_in_order_once([comparable(a) for a in p.acked], mine, p.unacked)
        writers = [row[0] for row in cluster.sql(
            f"SELECT owner FROM log WHERE code = '{p.code}' ORDER BY seq")]
        assert_one_writer_at_a_time(writers)
        if p in doomed:
            assert killed_owner in writers and len(set(writers)) == 2


def metric(app: ServeProcess, name: str) -> float:
    """One unlabelled sample of ``app``'s /metrics (asked directly, from loopback)."""
    response = HTTP.get(f"{app.base}/metrics")
    assert response.status_code == 200, response.text
    for line in response.text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} is not in {app.base}/metrics")


def test_a_paused_process_loses_its_rooms_and_cannot_write_them(cluster: Cluster) -> None:
    """SIGSTOP longer than the lease: another process takes the room; when the paused
    one wakes, it lets the room go (its players are closed with 1013) and never writes to
    it again; the players come back through nginx to the new holder."""
    rng = random.Random(8)
    created = create_room(cluster.nginx.base, rules=RULES)
    player = Player(cluster.nginx.base, created["room"], created["token"])
    player.connect(within=PATIENCE)
    assert player.client is not None
    player.client.send({"type": "start"})
    for _ in range(2):
        assert player.play(rng)
    paused_owner = cluster.owners()[player.code]
    paused = cluster.apps[cluster.app_of(paused_owner) or 0]
    other = next(a for a in cluster.apps if a is not paused)
    # counted from here: the module's other test killed a process before this one
    lost, takeovers = (metric(paused, "amerikaner_leases_lost_total"),
                       metric(other, "amerikaner_lease_takeovers_total"))
    assert paused.proc is not None
    paused.proc.send_signal(signal.SIGSTOP)
    try:
        # paused until its lease has lapsed (on the database's clock): then, and only
        # then, another process takes the room when asked for it
        deadline = time.monotonic() + PATIENCE
        while HTTP.get(f"{other.base}/api/rooms/{player.code}").status_code != 200:
            assert time.monotonic() < deadline, "the paused process's lease never lapsed"
            time.sleep(0.1)
        taken_by = cluster.owners()[player.code]
        assert taken_by != paused_owner
    finally:
        paused.proc.send_signal(signal.SIGCONT)
    with pytest.raises(ConnectionClosed) as closed:
        player.client.wait_for(lambda m: False, timeout=PATIENCE)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    # each process's own /metrics says so (app/web/metrics.py); nginx does not show them
    assert metric(paused, "amerikaner_leases_lost_total") >= lost + 1
    assert metric(other, "amerikaner_lease_takeovers_total") >= takeovers + 1
    assert HTTP.get(f"{cluster.nginx.base}/metrics").status_code == 404
    player.connect(within=PATIENCE)  # through nginx, to the new holder
    for _ in range(2):
        assert player.play(rng)
    assert cluster.owners()[player.code] == taken_by
    writers = [row[0] for row in cluster.sql(
        f"SELECT owner FROM log WHERE code = '{player.code}' ORDER BY seq")]
    assert_one_writer_at_a_time(writers)
    assert writers[-1] == taken_by
