"""Do thinking bots hold up other rooms?  A room of strong bots plays flat out in a real
``amerikaner serve`` process while another room's client pings it; prints the pong's
round trip (p50, p99, max) without and then with the bots' room (issue 11: four strong
bots in one room must not delay other rooms' messages by more than 20 ms).

    python benchmarks/bot_latency.py --seconds 20

The bots' room has one person (seat 0, who passes or plays the first legal card at once,
so the bots never wait) and three ``--level`` bots (strong), with no bot delay; strong
bots think for up to a second a card in a worker thread, in pure Python.  The pinging
room is a lobby with one person sending ``ping`` every 20 ms.  Loopback only, bounded.
At the end, the search pool's queue wait by lane (``/healthz`` ``search.queue_wait``): how
long the bots' moves waited for a worker.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests"), str(HERE.parent / "tests" / "rooms")]

import httpx  # noqa: E402
from serve_process import ServeProcess  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

PING_EVERY = 0.02


def seat(base: str, rules: dict[str, Any]) -> tuple[str, str]:
    room = httpx.post(f"{base}/api/rooms", json={"name": "Ann", "rules": rules}).json()
    return room["room"], room["token"]


def hello(base: str, code: str, token: str) -> ClientConnection:
    ws = connect(base.replace("http://", "ws://") + f"/ws/{code}", compression=None,
                 max_size=2**20, legacy=True)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def pinger(base: str, seconds: float) -> list[float]:
    """Round trips of pings from a quiet room, in milliseconds."""
    code, token = seat(base, {"preset": "standard"})
    ws = hello(base, code, token)
    rtts: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sent = time.perf_counter()
        ws.send('{"type":"ping"}')
        while json.loads(ws.recv(10))["type"] != "pong":
            pass
        rtts.append(1000 * (time.perf_counter() - sent))
        time.sleep(PING_EVERY)
    ws.close()
    return rtts


def bots_room(base: str, level: str, stop: threading.Event, moves: list[int]) -> None:
    """Seat 0 answers at once; the three bots of ``level`` think as long as they like."""
    code, token = seat(base, {"preset": "standard", "match": "deals:50"})
    ws = hello(base, code, token)
    for other in (1, 2, 3):
        ws.send(json.dumps({"type": "seat_bot", "seat": other, "level": level}))
    ws.send('{"type":"start"}')
    while not stop.is_set():
        try:
            msg = json.loads(ws.recv(1))
        except TimeoutError:
            continue
        if msg["type"] != "state":
            continue
        moves[0] += sum(1 for e in msg["events"] if e["type"] in ("bid", "card_played"))
        view = msg["view"]
        if view["phase"] == "deal_over":
            ws.send('{"type":"ready"}')
        elif view["turn"] == view["you"] and view["legal"]:
            action = dict(view["legal"][0])
            if isinstance(action.get("discard"), int):
                action["discard"] = view["hand"][: action["discard"]]
            if action.get("bid") not in (None, "pass"):
                action = {"bid": "pass"}
            ws.send(json.dumps({"type": "action", "game": msg["game"], "action": action}))
    ws.close()


def summary(rtts: list[float]) -> dict[str, float]:
    q = statistics.quantiles(rtts, n=100)
    return {"pings": len(rtts), "p50_ms": round(q[49], 2), "p99_ms": round(q[98], 2),
            "max_ms": round(max(rtts), 2)}


def queue_wait_lines(search: dict[str, Any]) -> list[str]:
    """``/healthz``'s ``search.queue_wait``, a line a lane."""
    return [f"queue wait {lane}: {w['jobs']} jobs, mean {w['mean_ms']} ms, "
            f"p95 {w['p95_ms']} ms, max {w['max_ms']} ms"
            for lane, w in search["queue_wait"].items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--level", default="strong")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServeProcess(Path(tmp), {"AMERIKANER_LOG_LEVEL": "warning",
                                          "AMERIKANER_RATE": "1000",  # pings every 20 ms
                                          "AMERIKANER_BURST": "1000"}).start()
        try:
            quiet = summary(pinger(server.base, args.seconds / 2))
            stop, moves = threading.Event(), [0]
            bots = threading.Thread(target=bots_room, args=(server.base, args.level, stop,
                                                            moves))
            bots.start()
            time.sleep(1)
            busy = summary(pinger(server.base, args.seconds))
            stop.set()
            bots.join(5)
            pool = httpx.get(f"{server.base}/healthz", timeout=10).json()["search"]
        finally:
            server.stop()
    print(json.dumps({"level": args.level, "without_bots": quiet, "with_bots": busy,
                      "bot_room_moves": moves[0],
                      "added_p99_ms": round(busy["p99_ms"] - quiet["p99_ms"], 2)}, indent=1))
    print("\n".join(queue_wait_lines(pool)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
