"""Issue 38: a club match whose process is SIGKILLed between its last action and its
standings update counts once (three processes, nginx, PostgreSQL).

The test holds a lock on ``club_matches`` (its own transaction), so that the save of the
match's end, which writes the club's row in the same transaction as the log entries
(app/clubs/ledger.py), waits inside that transaction; seeing it wait (pg_stat_activity),
the test kills the room's process with SIGKILL, then lets the lock go.  The killed
transaction never commits: neither the last entries nor the row are there.  The person
reconnects through nginx to the process that takes the room over, the match ends there
again, and its row is written once.  Nothing here waits on the clock but for what
happens by itself (a lease's lapse, bounded by PATIENCE)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.exceptions import ConnectionClosed, WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from cluster_harness import PATIENCE, Cluster
from rooms_harness import Client, my_turn, pick_action

RULES = {"preset": "standard", "match": "deals:1"}
WAITING = ("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
           "AND query LIKE 'INSERT INTO club_matches%'")


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def connect(base: str, code: str, token: str) -> Client:
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            return Client(base, code, token=token)
        except (WebSocketException, OSError, TimeoutError) as exc:
            if time.monotonic() > deadline:
                raise AssertionError(f"room {code} did not come back: {exc}") from None
            time.sleep(0.1)


def play_to_end(client: Client, rng: random.Random) -> None:
    """Play the person's turns until the match is over (the connection may drop)."""
    while True:
        view = client.wait_state(lambda v: my_turn(v) or v["phase"] == "match_over",
                                 timeout=PATIENCE)
        if view["phase"] == "match_over":
            return
        client.act(pick_action(view, rng))
        client.wait_for(lambda m: m["type"] in ("state", "error"), timeout=PATIENCE)


def test_a_club_match_killed_mid_save_counts_once(cluster: Cluster) -> None:
    asyncio.run(scenario(cluster))


async def scenario(cluster: Cluster) -> None:
    base = cluster.nginx.base
    rng = random.Random(38)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        ann: dict[str, Any] = (await http.post("/api/players", json={"name": "Ann"})).json()
        club = (await http.post("/api/clubs", headers=auth(ann["key"]),
                                json={"name": "Thursdays"})).json()["club"]
        r = await http.post("/api/rooms", headers=auth(ann["key"]),
                            json={"name": "Ann", "club": club, "rules": RULES})
        assert r.status_code == 201, r.text
        room = r.json()
    code, token = room["room"], room["token"]

    lock = await asyncpg.connect(cluster.database_url)
    held = lock.transaction()
    await held.start()
    await lock.execute("LOCK TABLE club_matches IN SHARE MODE")  # inserts wait
    client = connect(base, code, token)
    client.send({"type": "start"})
    owner = cluster.owners()[code]
    victim = cluster.app_of(owner)
    assert victim is not None

    # play until the save of the match's end (the person's last move, or a bot's) waits
    # on the lock: no state frame comes after it
    def waiting() -> bool:
        return int(cluster.sql(WAITING)[0][0]) > 0

    def until_waiting() -> None:
        deadline = time.monotonic() + 4 * PATIENCE
        while not waiting():
            assert time.monotonic() < deadline, "the match's end never waited on the lock"
            view = client.state  # None: acted on the last one, no new one yet
            if view is not None:
                assert view["phase"] != "match_over", "the match ended without its row"
                if my_turn(view):
                    client.act(pick_action(view, rng))
                    client.state = None  # act once per state frame
            with contextlib.suppress(TimeoutError):
                client.wait_for(lambda m: m["type"] in ("state", "error"), timeout=0.2)

    await asyncio.to_thread(until_waiting)
    proc = cluster.apps[victim].proc
    assert proc is not None
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    await held.rollback()
    assert await lock.fetchval("SELECT count(*) FROM club_matches") == 0

    # the person comes back through nginx; another process takes the room over
    with pytest.raises(ConnectionClosed):
        client.wait_for(lambda m: False, timeout=PATIENCE)
    client = await asyncio.to_thread(connect, base, code, token)
    await asyncio.to_thread(play_to_end, client, rng)
    rows = await lock.fetch("SELECT room, match_number, players FROM club_matches")
    await lock.close()
    assert len(rows) == 1 and rows[0]["room"] == code, rows
    assert ann["player"] in rows[0]["players"]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        page = (await http.get(f"/api/clubs/{club}", headers=auth(ann["key"]))).json()
    assert [row["matches"] for row in page["standings"]] == [1]
    assert len(page["matches"]) == 1
