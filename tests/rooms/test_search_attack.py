"""Acceptance test of "no one can starve the bots" (app/rooms/server/search_pool.py),
against a real ``amerikaner serve`` process.

An attacker from 127.0.0.1 holds four rooms of four people (16 WebSockets) who play any
legal action at once and ask a deal review from every seat after every deal, so the
pool's reviews never run dry.  A victim from 127.0.0.2 plays one person against three
``normal`` bots (``LEVEL``).  The test checks, by counts and events only (never by how long anything
took, so a slow or loaded machine changes nothing but the duration):

1. alone (after a few moves not counted: the pool starts its workers on the first
   search), the victim's table makes ``MOVES`` bot moves; each is searched, or given to
   the easy bot (``/healthz`` ``search.no_worker_in_time`` and the server's log line for
   every fallback);
2. under the attack (``/healthz`` shows a review running or waiting at every one of the
   victim's bot moves, and reviews were refused by the per-address bound) the table makes
   ``MOVES`` bot moves again, and at least 80 % as many of them are searched as alone;
3. a search worker killed with SIGKILL is replaced (``replaced`` + 1, ``alive`` back to 3:
   the tables' two and the reviews' one) and the victim's next bot moves are made, and
   searched;
4. once the server is SIGKILLed, no worker process lives on.

That the server tells the two clients apart is checked through its per-address limits:
the attacker may hold 4 rooms and 16 WebSockets, and a fifth room or a seventeenth socket
from 127.0.0.1 is refused while the victim's, from 127.0.0.2, are let in.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from search_attack_common import (
    AFTER_KILL,
    ATTACKER,
    LEVEL,
    MOVES,
    ROOMS,
    SEATS,
    SHARE,
    VICTIM,
    WAIT,
    health,
    http_from,
    open_ws,
)
from search_attacker import Attack, end_attack, start_attack
from search_victim import Victim
from serve_process import ServeProcess
from websockets.exceptions import InvalidStatus
from worker_processes import lives, search_workers, wait_until

ENV = {
    # bots move at once: only the search and the pool stand between a turn and its move
    "AMERIKANER_BOT_DELAY": "0",
    # a finished deal waits for every person's "ready" (sent at once), never for a timer
    "AMERIKANER_NEXT_DEAL_PAUSE": "600",
    # fast players stay within their rate however fast this machine lets them play
    "AMERIKANER_RATE": "10000",
    "AMERIKANER_BURST": "10000",
    "AMERIKANER_ROOMS_PER_MINUTE": "0",
    # exactly the attacker's rooms and sockets: one more from 127.0.0.1 is refused, which
    # shows the victim's (let in) are counted as another address's
    "AMERIKANER_ROOMS_HELD": str(ROOMS),
    "AMERIKANER_WS_PER_ADDRESS": str(ROOMS * SEATS),
}


# -- the test --------------------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    srv = ServeProcess(tmp_path / "data", ENV).start()
    try:
        yield srv
    finally:
        srv.stop()


def fallbacks(server: ServeProcess, http: httpx.Client, code: str) -> tuple[int, int]:
    """The bot moves given to the easy bot so far: ``/healthz``'s no worker in time (all
    rooms), and the server's log lines for room ``code`` (whatever the reason: no worker
    in time, or its worker died)."""
    output = server.output()
    logged = (output.count(f"room {code}: bot {LEVEL} for seat")  # ... decided by easy
              + output.count(f"room {code}: the bot for seat"))  # ... the random bot plays
    return health(http, server.base)["no_worker_in_time"], logged


def test_an_attack_of_reviews_does_not_starve_another_clients_bots(
        server: ServeProcess) -> None:
    base = server.base
    attacker, victim_http = http_from(ATTACKER), http_from(VICTIM)
    attack: Attack | None = None
    victim: Victim | None = None
    try:
        made = victim_http.post(f"{base}/api/rooms", json={"name": "Vic", "bot_level": LEVEL})
        assert made.status_code == 201, made.text
        code = made.json()["room"]
        victim = Victim(base, code, made.json()["token"])
        victim.send({"type": "start"})
        # warm up: the pool starts its workers on the first search (not measured)
        victim.play(4)

        # 1. alone
        before = fallbacks(server, victim_http, code)
        alone = victim.play(MOVES)
        after = fallbacks(server, victim_http, code)
        given_alone = max(after[0] - before[0], after[1] - before[1])
        searched_alone = alone - given_alone

        # the attack: its rooms and sockets from 127.0.0.1 up to the limits ...
        attack = start_attack(base, attacker)
        fifth = attacker.post(f"{base}/api/rooms", json={"name": "A5"})
        assert fifth.status_code == 429 and fifth.json()["error"]["code"] == "too_many_rooms"
        with pytest.raises(InvalidStatus) as refused:
            open_ws(base, code, ATTACKER).close()
        assert refused.value.response.status_code == 403
        # ... while the victim's are let in: the server counts 127.0.0.2 apart
        other = victim_http.post(f"{base}/api/rooms", json={"name": "Vic"})
        assert other.status_code == 201, other.text
        open_ws(base, code, VICTIM).close()
        output = server.output()
        assert "kind=rooms_held address=127.0.0.1" in output
        assert "kind=websocket address=127.0.0.1" in output
        assert "kind=rooms_held address=127.0.0.2" not in output
        assert "kind=websocket address=127.0.0.2" not in output
        # the attack fills the pool: a review runs and others wait
        wait_until("the attacker's reviews fill the pool", lambda: (
            (s := health(victim_http, base))["running"]["review"] >= 1
            and s["waiting"]["review"] >= 1))

        # 2. under the attack: at each bot move, the pool has a review running or waiting
        busy: list[bool] = []

        def sample() -> None:
            s = health(victim_http, base)
            busy.append(s["running"]["review"] + s["waiting"]["review"] > 0)

        before = fallbacks(server, victim_http, code)
        attacked = victim.play(MOVES, sample)
        after = fallbacks(server, victim_http, code)
        given_attacked = max(after[0] - before[0], after[1] - before[1])
        searched_attacked = attacked - given_attacked
        with attack.tally.lock:
            tally = (attack.tally.actions, attack.tally.deals, dict(attack.tally.reviews),
                     dict(attack.tally.errors), list(attack.tally.failures))
        print(f"alone: {alone} bot moves, {given_alone} given to the easy bot; "
              f"attacked: {attacked} bot moves, {given_attacked} given; "
              f"pool busy with reviews at {sum(busy)} of {len(busy)} bot moves; "
              f"attacker (actions, deals, reviews, errors, failures): {tally}; "
              f"pool: {health(victim_http, base)}")
        # the figure the attack is about: how long bot moves waited for a worker
        print(f"queue wait so far, by lane: {health(victim_http, base)['queue_wait']}")
        assert not tally[4], tally[4]
        assert all(busy), f"the pool had no review at {busy.count(False)} of the bot moves"
        assert health(victim_http, base)["refused"] > 0  # the per-address bound held
        assert searched_attacked >= SHARE * searched_alone, (searched_attacked,
                                                             searched_alone)

        # 3. a worker killed: replaced before the next bot move, which is searched
        pool = health(victim_http, base)
        kept = pool["workers"] + pool["review_workers"]  # the tables' and the reviews'
        assert kept == 3, pool
        workers = search_workers(server.pid)
        assert len(workers) == kept, workers
        os.kill(workers[0][0], signal.SIGKILL)
        wait_until("the killed worker is replaced", lambda: (
            (s := health(victim_http, base))["replaced"] == pool["replaced"] + 1
            and s["alive"] == kept and s["ready"] == kept))
        wait_until("the new worker runs", lambda: (
            not lives(workers[0]) and len(search_workers(server.pid)) == kept))
        # (replaced: the new worker has imported the bots and takes jobs, so the next bot
        # move does not wait for a start-up that, on a busy machine, takes seconds)
        before = fallbacks(server, victim_http, code)
        after_kill = victim.play(AFTER_KILL)
        assert after_kill >= AFTER_KILL
        assert fallbacks(server, victim_http, code) == before
        assert health(victim_http, base)["replaced"] == pool["replaced"] + 1  # none overran
        print(f"after the kill: {after_kill} bot moves, all searched")

        # 4. the server killed: every worker it had dies with it
        workers = search_workers(server.pid)
        assert len(workers) == kept, workers
        assert server.proc is not None
        server.proc.kill()
        server.proc.wait(WAIT)
        wait_until("no worker lives on", lambda: not any(lives(w) for w in workers))
    finally:
        if attack is not None:
            end_attack(attack)
        if victim is not None:
            victim.ws.close()
        attacker.close()
        victim_http.close()
