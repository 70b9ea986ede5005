"""The attacker of tests/rooms/test_search_attack.py: rooms of people from one address
who play any legal action at once and ask a deal review from every seat after every
deal, each seat on a thread of its own, with a tally of what the server answered.
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from rooms_harness import my_turn, pick_action
from search_attack_common import ACTION_ERRORS, ATTACKER, ROOMS, SEATS, WAIT, sit
from search_attack_common import open_ws as open_ws  # (benchmarks/review_attack.py replaces it)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

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
