"""Another room's table while one address uploads game records (issue 36), before and
after the replays left the event loop.

For each server (``before``: the checkout at ``--baseline``, e.g. a ``git worktree`` of
the commit this work branched from; ``after``: this checkout, with its default limits and
with no per-minute limit, so the replay pool never idles), a real ``amerikaner serve``:

- a victim from 127.0.0.2 plays one person against three easy bots (bots act at once);
  each of the person's actions is timed from its send to the state frame that shows it
  (action-to-views), and a second connection of the same seat pings in a loop (its round
  trip is the event loop's lag plus a few tenths of a millisecond);
- first quiet (``--actions`` actions), then while an uploader from 127.0.0.1 sends a 1 MiB
  record (the work cap's 500 deals, padded to the upload limit) from 60 connections,
  each again as soon as it is answered, for as many actions more and until the server
  has made ``--uploads`` replays (answered 200) meanwhile (with the default limit of 30
  a minute, the first 30 are all the uploader gets: ``--uploads`` is then at most 30).

Printed per server: action-to-views p50 / p99 / max and ping p50 / p99 / max, quiet and
loaded, the uploads answered by status, and the ratios before / after.

    git worktree add --detach /tmp/base <commit>
    .venv/bin/python benchmarks/upload_stall.py --baseline /tmp/base [--actions 30]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rooms"))

import httpx  # noqa: E402
from rooms_harness import my_turn, pick_action  # noqa: E402
from search_attack_common import http_from, open_ws, sit  # noqa: E402
from serve_process import ServeProcess  # noqa: E402
from test_upload_attack import big_upload  # noqa: E402
from websockets.sync.client import ClientConnection  # noqa: E402

UPLOADER, VICTIM = "127.0.0.1", "127.0.0.2"
SOCKETS = 60
WAIT = 600.0
MOVE_EVENTS = {"bid", "discarded", "card_played"}
ENV = {"AMERIKANER_BOT_DELAY": "0", "AMERIKANER_NEXT_DEAL_PAUSE": "600",
       "AMERIKANER_RATE": "10000", "AMERIKANER_BURST": "10000",
       "AMERIKANER_ROOMS_PER_MINUTE": "0"}


class Table:
    """The victim's person: plays at once, timing each action to the frame showing it."""

    def __init__(self, base: str, code: str, token: str) -> None:
        self.ws = open_ws(base, code, VICTIM)
        first = sit(self.ws, token)
        self.view: dict[str, Any] = first["view"]
        self.game: int = first["game"]
        self.rng = random.Random(1)
        self.done: set[tuple[str, int, int]] = set()

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def play(self, actions: int) -> list[float]:
        """``actions`` of the person's actions; each one's action-to-views (s)."""
        times: list[float] = []
        sent: float | None = None
        while len(times) < actions:
            view = self.view
            number = view["room"]["match_number"]
            if sent is None and my_turn(view):
                self.send({"type": "action", "game": self.game,
                           "action": pick_action(view, self.rng)})
                sent = time.perf_counter()
            elif view["phase"] == "deal_over" and ("r", number, view["deal_number"]) \
                    not in self.done:
                self.done.add(("r", number, view["deal_number"]))
                self.send({"type": "ready"})
            elif view["phase"] == "match_over" and ("m", number, 0) not in self.done:
                self.done.add(("m", number, 0))
                self.send({"type": "rematch"})
            msg = json.loads(self.ws.recv(WAIT))
            if msg["type"] == "error":
                sent = None  # refused (stale): pick again
            if msg["type"] != "state":
                continue
            self.view, self.game = msg["view"], msg["game"]
            if sent is not None and any(e.get("type") in MOVE_EVENTS and e.get("seat") == 0
                                        for e in msg["events"]):
                times.append(time.perf_counter() - sent)
                sent = None
        return times


def pinger(ws: ClientConnection, stop: threading.Event, rtts: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        ws.send(json.dumps({"type": "ping"}))
        while json.loads(ws.recv(WAIT))["type"] != "pong":
            pass
        rtts.append(time.perf_counter() - start)


def uploader(base: str, body: bytes, stop: threading.Event, answers: Counter[int]) -> None:
    with http_from(UPLOADER) as http:
        http.timeout = httpx.Timeout(WAIT)
        while not stop.is_set():
            try:
                answers[http.post(f"{base}/api/replay", content=body).status_code] += 1
            except httpx.HTTPError:
                answers[0] += 1  # no answer (closed)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def quantiles(values: list[float]) -> str:
    return (f"p50 {statistics.median(values) * 1000:8.1f}  p99 {pct(values, 0.99) * 1000:8.1f}"
            f"  max {max(values) * 1000:8.1f} ms (n={len(values)})")


def run(label: str, root: Path, env: dict[str, str], body: bytes, actions: int,
        uploads: int) -> dict[str, list[float]]:
    data = Path(tempfile.mkdtemp(prefix="upload-stall-"))
    server = ServeProcess(data / "data", {**ENV, **env}, root=root).start()
    stop, answers = threading.Event(), Counter[int]()
    threads: list[threading.Thread] = []
    try:
        victim_http = http_from(VICTIM)
        made = victim_http.post(f"{server.base}/api/rooms",
                                json={"name": "Vic", "bot_level": "easy"}).json()
        table = Table(server.base, made["room"], made["token"])
        table.send({"type": "start"})
        pings_ws = open_ws(server.base, made["room"], VICTIM)
        sit(pings_ws, made["token"])
        figures: dict[str, list[float]] = {}
        for phase in ("quiet", "loaded"):
            if phase == "loaded":
                for _ in range(SOCKETS):
                    thread = threading.Thread(target=uploader, daemon=True,
                                              args=(server.base, body, stop, answers))
                    threads.append(thread)
                    thread.start()
            table.play(3)  # (not counted: the load gets going)
            rtts: list[float] = []
            ping_stop = threading.Event()
            ping = threading.Thread(target=pinger, args=(pings_ws, ping_stop, rtts))
            ping.start()
            made = answers[200]
            times = table.play(actions)
            # loaded: as long as it takes the server to make ``uploads`` replays too
            while phase == "loaded" and answers[200] - made < uploads:
                times += table.play(1)
            figures[f"{phase} action"] = times
            ping_stop.set()
            ping.join()
            figures[f"{phase} ping"] = rtts
        stop.set()
        print(f"\n{label}: uploads answered by status {dict(answers)}")
        for name, values in figures.items():
            print(f"  {name:>14}: {quantiles(values)}")
        return figures
    finally:
        stop.set()
        for thread in threads:
            thread.join(WAIT)
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True,
                        help="a checkout of the code before (git worktree add --detach ...)")
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--uploads", type=int, default=10,
                        help="replays made (200) while the loaded phase plays, at least")
    parser.add_argument("--after-only", action="store_true",
                        help="only this checkout, with no per-minute limit")
    args = parser.parse_args()
    body = big_upload()
    print(f"upload: {len(body)} bytes; {SOCKETS} connections from {UPLOADER}")
    if args.after_only:
        run("after (no per-minute limit)", ROOT, {"AMERIKANER_REPLAYS_PER_MINUTE": "0"},
            body, args.actions, args.uploads)
        return
    before = run("before", args.baseline, {}, body, args.actions, args.uploads)
    after = run("after (defaults)", ROOT, {}, body, args.actions, args.uploads)
    busy = run("after (no per-minute limit)", ROOT, {"AMERIKANER_REPLAYS_PER_MINUTE": "0"},
               body, args.actions, args.uploads)
    print("\nloaded, before / after (p50, p99):")
    for name in ("loaded action", "loaded ping"):
        for label, other in (("defaults", after), ("no per-minute limit", busy)):
            b, a = before[name], other[name]
            p50 = statistics.median(b) / statistics.median(a)
            p99 = pct(b, 0.99) / pct(a, 0.99)
            print(f"  {name:>14} vs {label:>20}: p50 x{p50:7.1f}, p99 x{p99:7.1f}")


if __name__ == "__main__":
    main()
