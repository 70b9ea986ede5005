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

import json
import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from rooms_harness import WS_MAX, my_turn, pick_action
from serve_process import ServeProcess
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from app.rooms.core.frames import frame_adapter

ATTACKER = "127.0.0.1"
VICTIM = "127.0.0.2"   # another client: loopback answers all of 127/8
ROOMS = 4              # the attacker's rooms ...
SEATS = 4              # ... of this many people each (the standard rules' table)
MOVES = 30             # bot moves the victim's table makes in each measured phase
SHARE = 0.8            # of the searched moves made alone, the least kept under the attack
AFTER_KILL = 3         # bot moves checked after a worker was killed
WAIT = 60.0            # seconds any one awaited event may take (a generous deadline)
BOT_SEATS = {1, 2, 3}
# The victim's bots: a searching level, so each of their moves needs a worker of the pool
# (or is given to the easy bot), which is all the test counts.  ``normal`` rather than
# ``strong``: its searches take a fraction of the CPU, so the phases (and the attack's
# reviews beside them) are shorter; a pool whose reviews took the tables' workers would
# make its moves wait past BOT_WAIT_SECONDS just the same.
LEVEL = "normal"
MOVE_EVENTS = {"bid", "discarded", "card_played"}  # one for each action a seat takes
ACTION_ERRORS = {"not_your_turn", "stale_game", "bad_action", "illegal_bid",
                 "illegal_discard", "illegal_lead", "illegal_play"}

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


def http_from(address: str) -> httpx.Client:
    """An HTTP client whose connections come from ``address``."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=WAIT)


def open_ws(base: str, code: str, address: str) -> ClientConnection:
    """A WebSocket to room ``code`` whose connection comes from ``address``."""
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    ws = connect(url, source_address=(address, 0), compression=None, open_timeout=WAIT,
                 max_size=2 * WS_MAX, proxy=None, legacy=True)
    assert isinstance(ws, ClientConnection)
    return ws


def sit(ws: ClientConnection, token: str) -> dict[str, Any]:
    """Say hello with the seat's token; the first state frame."""
    ws.send(json.dumps({"type": "hello", "token": token}))
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(WAIT))
        assert msg["type"] in ("welcome", "state"), msg
        if msg["type"] == "state":
            return msg


def health(http: httpx.Client, base: str) -> dict[str, Any]:
    reply = http.get(f"{base}/healthz")
    assert reply.status_code == 200, reply.text
    search: dict[str, Any] = reply.json()["search"]
    return search


# -- the attacker ---------------------------------------------------------------------------


@dataclass
class Tally:
    """What the attacker's people got back (their threads add to it under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    actions: int = 0
    deals: int = 0                  # deals seen over, summed over the people
    reviews: Counter[str] = field(default_factory=Counter)  # made, busy, failed
    errors: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)       # a thread that broke


def attack_seat(ws: ClientConnection, first: dict[str, Any], host: bool,
                stop: threading.Event, tally: Tally, rng: random.Random) -> None:
    """One attacking person: any legal action at once, and after each deal a review of
    it, then ready (so every seat has asked before the next deal starts); the host starts
    a new match after each.  Runs until ``stop`` or until the server goes away."""
    view: dict[str, Any] = first["view"]
    game: int = first["game"]
    acted = -1                          # the game this person last acted on
    asked: set[tuple[int, int]] = set()  # (match, deal) reviewed
    rematched: set[int] = set()
    try:
        while not stop.is_set():
            match_number = view["room"]["match_number"]
            deal = (match_number, view["deal_number"])
            if view["phase"] == "deal_over" and deal not in asked:
                asked.add(deal)
                ws.send(json.dumps({"type": "review"}))
                ws.send(json.dumps({"type": "ready"}))
                with tally.lock:
                    tally.deals += 1
            elif view["phase"] == "match_over" and host and match_number not in rematched:
                rematched.add(match_number)
                ws.send(json.dumps({"type": "rematch"}))
            elif my_turn(view) and acted != game:
                acted = game
                ws.send(json.dumps({"type": "action", "game": game,
                                    "action": pick_action(view, rng)}))
                with tally.lock:
                    tally.actions += 1
            try:
                msg = json.loads(ws.recv(0.2))  # (short: the stop flag is seen soon)
            except TimeoutError:
                continue
            if msg["type"] == "state":
                view, game = msg["view"], msg["game"]
            elif msg["type"] == "review":
                review = msg["review"]
                kind = "busy" if review.get("busy") else "failed" if "error" in review \
                    else "made"
                with tally.lock:
                    tally.reviews[kind] += 1
            elif msg["type"] == "error":
                with tally.lock:
                    tally.errors[msg["code"]] += 1
                if msg["code"] in ACTION_ERRORS:
                    acted = -1  # refused: this person picks again
    except ConnectionClosed:
        if not stop.is_set():  # (the server was killed: that ends the attack too)
            with tally.lock:
                tally.failures.append("a connection closed during the attack")
    except Exception as exc:  # a thread's failure must reach the test
        with tally.lock:
            tally.failures.append(repr(exc))


@dataclass
class Attack:
    threads: list[threading.Thread]
    sockets: list[ClientConnection]
    stop: threading.Event
    tally: Tally


def start_attack(base: str, http: httpx.Client) -> Attack:
    """The attacker's 4 rooms of 4 people, all from 127.0.0.1, playing."""
    stop, tally = threading.Event(), Tally()
    attack = Attack([], [], stop, tally)
    for r in range(ROOMS):
        made = http.post(f"{base}/api/rooms", json={"name": "A0"})
        assert made.status_code == 201, made.text
        code = made.json()["room"]
        tokens = [made.json()["token"]]
        for s in range(1, SEATS):
            joined = http.post(f"{base}/api/rooms/{code}/join", json={"name": f"A{s}"})
            assert joined.status_code == 200, joined.text
            tokens.append(joined.json()["token"])
        people = [open_ws(base, code, ATTACKER) for _ in tokens]
        attack.sockets += people
        firsts = [sit(ws, token) for ws, token in zip(people, tokens, strict=True)]
        people[0].send(json.dumps({"type": "start"}))
        for s, (ws, first) in enumerate(zip(people, firsts, strict=True)):
            thread = threading.Thread(target=attack_seat, name=f"attacker-{r}-{s}",
                                      args=(ws, first, s == 0, stop, tally,
                                            random.Random(r * SEATS + s)), daemon=True)
            attack.threads.append(thread)
            thread.start()
    return attack


def end_attack(attack: Attack) -> None:
    attack.stop.set()
    for thread in attack.threads:
        thread.join(WAIT)
    for ws in attack.sockets:
        ws.close()


# -- the victim ----------------------------------------------------------------------------


class Victim:
    """One person against three searching bots (``LEVEL``), from 127.0.0.2; every frame is checked
    against the protocol's models.  ``bot_moves`` counts the bots' moves as the events
    of the state frames show them."""

    def __init__(self, base: str, code: str, token: str) -> None:
        self.ws = open_ws(base, code, VICTIM)
        first = sit(self.ws, token)
        frame_adapter.validate_python(first)
        self.view: dict[str, Any] = first["view"]
        self.game: int = first["game"]
        self.acted = -1
        self.readied: set[tuple[int, int]] = set()
        self.rematched: set[int] = set()
        self.bot_moves = 0
        self.rng = random.Random(1)

    def play(self, moves: int, on_bot_move: Callable[[], None] | None = None) -> int:
        """Play at once (ready after each deal, a rematch after each match) until the bots
        have made ``moves`` more moves and it is this person's turn again; there it holds,
        so no bot move is being made between two calls, and the fallbacks counted around
        a call are its moves'.  The bot moves made.  Each bot move must come within
        ``WAIT`` seconds of the one before: a table that stops fails."""
        start = self.bot_moves
        deadline = time.monotonic() + WAIT
        while True:
            view = self.view
            if my_turn(view) and self.acted != self.game:
                if self.bot_moves - start >= moves:
                    return self.bot_moves - start
                self.acted = self.game
                self.send({"type": "action", "game": self.game,
                           "action": pick_action(view, self.rng)})
            else:
                self.move_on(view)
            left = deadline - time.monotonic()
            assert left > 0, (f"the victim's table stopped after {self.bot_moves - start} "
                              f"bot moves; last view: {view}")
            try:
                msg = json.loads(self.ws.recv(left))
            except TimeoutError:
                continue  # (the assertion above says so)
            frame_adapter.validate_python(msg)
            if msg["type"] == "error":
                assert msg["code"] in ACTION_ERRORS, msg
                self.acted = -1  # refused: pick again
            if msg["type"] != "state":
                continue
            self.view, self.game = msg["view"], msg["game"]
            moved = sum(1 for e in msg["events"]
                        if e.get("type") in MOVE_EVENTS and e.get("seat") in BOT_SEATS)
            if moved:
                self.bot_moves += moved
                deadline = time.monotonic() + WAIT
                if on_bot_move is not None:
                    on_bot_move()

    def move_on(self, view: dict[str, Any]) -> None:
        """Between deals and matches: say ready once a deal, ask a rematch once a match."""
        match_number = view["room"]["match_number"]
        if view["phase"] == "deal_over":
            deal = (match_number, view["deal_number"])
            if deal not in self.readied:
                self.readied.add(deal)
                self.send({"type": "ready"})
        elif view["phase"] == "match_over" and match_number not in self.rematched:
            self.rematched.add(match_number)
            self.send({"type": "rematch"})

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))


# -- the server's processes ------------------------------------------------------------------


def stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields from the state on (field 3 first), or None: no such pid."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2:].split()


Proc = tuple[int, str]  # a pid and its start time: the same process, even if pids wrap


def search_workers(server: int) -> list[Proc]:
    """The live search workers of process ``server``: its spawned children, told from
    multiprocessing's resource tracker by their command line."""
    found: list[Proc] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = stat(int(entry.name))
        if fields is None or int(fields[1]) != server or fields[0] in "ZX":
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline and b"resource_tracker" not in cmdline:
            found.append((int(entry.name), fields[19]))
    return sorted(found)


def lives(proc: Proc) -> bool:
    """Whether this process runs still (a zombie, dead but not yet reaped, does not)."""
    fields = stat(proc[0])
    return fields is not None and fields[19] == proc[1] and fields[0] not in "ZX"


def wait_until(what: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"not within {WAIT:.0f} s: {what}"
        time.sleep(0.05)


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
