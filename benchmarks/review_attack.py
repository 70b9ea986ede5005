"""What a storm of deal reviews costs another client's table (issue 36): the victim's bot
moves a minute, and p50/p90 of a bot move's time, under the attack against a control
without it, measured in the same run on the same server.

    python benchmarks/review_attack.py --seconds 60 --rounds 2 --before ../wt-base

The attack and the victim are tests/rooms/test_search_attack.py's (search_attacker.py,
search_victim.py): an attacker address
(127.0.0.1) with four rooms of four people who play any legal action at once and ask a
review from every seat after every deal, so the pool's reviews never run dry; a victim
address (127.0.0.2) playing one person (any legal action, at once) against three
``strong`` bots with no bot delay.  For each server, after a few bot moves to warm up,
three phases of ``--seconds`` each:

- ``control``: the victim alone;
- ``play``: the attacker's rooms play, their reviews held back (what their play alone,
  hundreds of actions a second, costs the server);
- ``attacked``: they ask their reviews too (measured once the pool has a review running
  and others waiting).

The attacker runs in a process of its own at ``--attacker-nice`` (19): its sixteen
clients stand for remote machines, so their threads neither share the victim's
interpreter lock nor take the cores before the server does.  Each of its people sends
at most ``--attacker-rate`` messages a second (10: what a socket may send by default,
``AMERIKANER_RATE``; the server runs with the test's settings, which lift that limit so
that a refused message never stalls the attacker's rooms; 0: as fast as the server
answers, as in the test).  A bot move's time is from the state frame before it to the
one that shows it.

``--before PATH`` runs a server from another checkout too (e.g. a ``git worktree`` at the
commit before the change), alternating with this one round by round, so that both see
the same machine.  The change is judged by attacked/control (target: at least 0.85);
attacked/play is the reviews' own cost (two phases next to each other, the attacker's
play in both).  Also printed: the reviews started a minute under the attack, and what
the attacker got back (made, refused as busy).  ``--practice`` makes the victim's table
a practice table: the person waits for each hint before acting, and the hints' times
are printed too (p50, p90, from the turn to the hint).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests"), str(HERE.parent / "tests" / "rooms")]

import search_attacker  # noqa: E402
from rooms_harness import my_turn, pick_action  # noqa: E402
from search_attack_common import (  # noqa: E402
    ACTION_ERRORS,
    ATTACKER,
    BOT_SEATS,
    MOVE_EVENTS,
    VICTIM,
    health,
    http_from,
)
from search_attacker import end_attack, start_attack  # noqa: E402
from search_victim import Victim  # noqa: E402
from serve_process import ROOT, ServeProcess  # noqa: E402
from test_search_attack import ENV  # noqa: E402
from websockets.sync.client import ClientConnection  # noqa: E402
from worker_processes import wait_until  # noqa: E402

TARGET = 0.85  # attacked bot moves a minute, at least this share of the control's
WARM_MOVES = 4  # bot moves before the control (the pool starts its workers on the first)


class TimedVictim(Victim):
    """The test's victim, playing for a time rather than a number of bot moves, and
    timing each bot move; at a practice table (``hints``) it waits for each hint before
    it acts, and times the hints too."""

    def __init__(self, base: str, code: str, token: str, hints: bool) -> None:
        super().__init__(base, code, token)
        self.hints = hints
        self.hinted = -1  # the game whose hint came last

    def play_for(self, seconds: float) -> tuple[list[float], list[float]]:
        """Play for ``seconds``; the time of each bot move made, and of each hint (from
        the state frame that gave this person the turn to the hint), in seconds."""
        times: list[float] = []
        hint_times: list[float] = []
        turn_began: dict[int, float] = {}  # game -> when this person's turn was seen
        end = time.monotonic()
        last = end
        end += seconds
        while (left := end - time.monotonic()) > 0:
            view = self.view
            if (my_turn(view) and self.acted != self.game
                    and (not self.hints or self.hinted == self.game)):
                self.acted = self.game
                self.send({"type": "action", "game": self.game,
                           "action": pick_action(view, self.rng)})
            else:
                self.move_on(view)
            try:
                msg = json.loads(self.ws.recv(left))
            except TimeoutError:
                break
            now = time.monotonic()
            if msg["type"] == "hint":
                self.hinted = msg["game"]
                if msg["game"] in turn_began:
                    hint_times.append(now - turn_began[msg["game"]])
            if msg["type"] == "error":
                if msg["code"] not in ACTION_ERRORS:
                    raise RuntimeError(f"the victim got {msg}")
                self.acted = -1  # refused: pick again
            if msg["type"] != "state":
                continue
            self.view, self.game = msg["view"], msg["game"]
            moved = sum(1 for e in msg["events"]
                        if e.get("type") in MOVE_EVENTS and e.get("seat") in BOT_SEATS)
            if moved:
                times += [(now - last) / moved] * moved
            last = now
            if my_turn(self.view):
                turn_began.setdefault(self.game, now)
        self.play(0)  # on to this person's turn, where the table holds: no bot move is
        return times, hint_times  # made between two phases


def figures(times: list[float], seconds: float, hints: list[float]) -> dict[str, float]:
    """Bot moves (a minute, p50 and p90 of their times), and hints if there were any."""
    out = {"moves": len(times), "per_minute": round(60 * len(times) / seconds, 1),
           **quantiles("", times)}
    return out | (quantiles("hint_", hints) | {"hints": len(hints)} if hints else {})


def quantiles(prefix: str, times: list[float]) -> dict[str, float]:
    deciles = statistics.quantiles(times, n=10) if len(times) > 1 else [0.0] * 9
    return {f"{prefix}p50_ms": round(1000 * statistics.median(times), 0) if times else 0.0,
            f"{prefix}p90_ms": round(1000 * deciles[8], 0)}


def attacker(base: str, nice: int, rate: float) -> int:
    """``--attack BASE``: the attack, its people's reviews held back until a line comes on
    stdin, until stdin closes; then the attacker's tally.  ``rate``: messages a second
    each person sends at most (0: as fast as the server answers)."""
    os.nice(nice)
    reviews = threading.Event()
    open_ws = search_attacker.open_ws

    def open_holding_reviews(base: str, code: str, address: str) -> ClientConnection:
        ws = open_ws(base, code, address)
        send = ws.send
        due = [time.monotonic()]  # when this person may send again

        def send_unless_held(message: str) -> None:
            if not reviews.is_set() and json.loads(message)["type"] == "review":
                return
            if rate > 0:  # (each person's thread waits for itself only)
                time.sleep(max(0.0, due[0] - time.monotonic()))
                due[0] = max(due[0], time.monotonic() - 1 / rate) + 1 / rate
            send(message)

        ws.send = send_unless_held  # type: ignore[method-assign,assignment]
        return ws

    search_attacker.open_ws = open_holding_reviews  # (start_attack opens its sockets with it)
    http = http_from(ATTACKER)
    attack = start_attack(base, http)
    print("started", flush=True)
    sys.stdin.readline()
    reviews.set()
    sys.stdin.read()
    end_attack(attack)
    with attack.tally.lock:
        tally = attack.tally
        print(json.dumps({"actions": tally.actions, "deals": tally.deals,
                          "reviews": dict(tally.reviews), "failures": tally.failures}))
    return 0


def one_server(root: Path, seconds: float, attacker_nice: int, attacker_rate: float,
               hints: bool) -> dict[str, Any]:
    """The control, the attacker's play without reviews, then the attack, on a server
    run from checkout ``root``."""
    with tempfile.TemporaryDirectory() as tmp:
        server = ServeProcess(Path(tmp), {**ENV, "AMERIKANER_LOG_LEVEL": "warning"},
                              root=root).start()
        victim_http = http_from(VICTIM)
        attack: subprocess.Popen[str] | None = None
        try:
            base = server.base
            made = victim_http.post(f"{base}/api/rooms",
                                    json={"name": "Vic", "bot_level": "strong",
                                          "practice": hints})
            victim = TimedVictim(base, made.json()["room"], made.json()["token"], hints)
            victim.send({"type": "start"})
            victim.play(WARM_MOVES)
            control = victim.play_for(seconds)
            attack = subprocess.Popen(
                [sys.executable, __file__, "--attack", base,
                 "--attacker-nice", str(attacker_nice), "--attacker-rate", str(attacker_rate)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert attack.stdin is not None and attack.stdout is not None
            assert attack.stdout.readline().strip() == "started"  # its rooms play
            play = victim.play_for(seconds)
            attack.stdin.write("reviews\n")
            attack.stdin.flush()
            wait_until("the attacker's reviews fill the pool", lambda: (
                (s := health(victim_http, base))["running"]["review"] >= 1
                and s["waiting"]["review"] >= 1))
            before = health(victim_http, base)
            attacked = victim.play_for(seconds)
            pool = health(victim_http, base)
            out, _ = attack.communicate(timeout=120)
            tally = json.loads(out)
            victim.ws.close()
        finally:
            if attack is not None and attack.poll() is None:
                attack.kill()
            victim_http.close()
            server.stop()
    made_reviews = pool["queue_wait"]["review"]["jobs"] - before["queue_wait"]["review"]["jobs"]
    return {"control": figures(control[0], seconds, control[1]),
            "play": figures(play[0], seconds, play[1]),
            "attacked": figures(attacked[0], seconds, attacked[1]),
            "reviews_started_per_minute": round(60 * made_reviews / seconds, 1),
            "review_workers": pool.get("review_workers", 0),
            "no_worker_in_time": pool["no_worker_in_time"],
            "attacker_reviews": tally["reviews"], "attacker_failures": tally["failures"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="each phase's length")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--before", type=Path, help="another checkout to compare with")
    parser.add_argument("--attacker-nice", type=int, default=19,
                        help="the attacker's clients' niceness (0: as the server's)")
    parser.add_argument("--attacker-rate", type=float, default=10.0,
                        help="messages a second each attacking person sends at most: 10 is "
                             "what the server lets a socket send by default "
                             "(AMERIKANER_RATE), which this server's test settings lift; "
                             "0: as fast as the server answers, as the test plays")
    parser.add_argument("--practice", action="store_true",
                        help="the victim's table is a practice table: a hint at each of "
                             "the person's turns, waited for, and timed")
    parser.add_argument("--attack", metavar="BASE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack:
        return attacker(args.attack, args.attacker_nice, args.attacker_rate)
    trees = {"this": ROOT} | ({"before": args.before.resolve()} if args.before else {})
    ratios: dict[str, list[float]] = {name: [] for name in trees}
    to_play: dict[str, list[float]] = {name: [] for name in trees}
    for round_number in range(args.rounds):
        order = list(trees) if round_number % 2 else list(reversed(trees))
        for name in order:
            result = one_server(trees[name], args.seconds, args.attacker_nice,
                                args.attacker_rate, args.practice)
            attacked = result["attacked"]["per_minute"]
            ratio = attacked / max(result["control"]["per_minute"], 1e-9)
            ratios[name].append(ratio)
            to_play[name].append(attacked / max(result["play"]["per_minute"], 1e-9))
            print(json.dumps({"round": round_number + 1, "server": name,
                              "tree": str(trees[name]), **result,
                              "ratio": round(ratio, 3),
                              "ratio_to_play": round(to_play[name][-1], 3)}), flush=True)
    for name, values in ratios.items():
        mean = statistics.fmean(values)
        print(f"{name}: attacked/control bot moves a minute "
              f"{', '.join(f'{v:.2f}' for v in values)} (mean {mean:.2f}; "
              f"target {TARGET}: {'met' if mean >= TARGET else 'NOT met'}); "
              f"attacked/play (the reviews' own cost) "
              f"{', '.join(f'{v:.2f}' for v in to_play[name])} "
              f"(mean {statistics.fmean(to_play[name]):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
