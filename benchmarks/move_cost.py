"""What one move costs the server in its own work, part by part, in one process.

    python benchmarks/move_cost.py                 # 4,000 moves, standard rules
    python benchmarks/move_cost.py --moves 20000 --rules '{"preset": "norsk"}'

A room of four connected people (``RoomCore``, as the server's runner drives it) plays
random legal moves; for each move the script times, in CPU time, the parts of the
server's work that are its own (benchmarks/load.py measures the whole process, sockets
and event loop included):

- ``parse``: the message's JSON text to a checked message (``parse_client_message``);
- ``handle``: the room's step (rules, settling, every connection's view and events);
- ``encode``: the step's frames to bytes, once per distinct frame, as the runner does;
- ``save``: the step's log entries appended to a real SQLite file (``SqliteStore``).

It prints one JSON object: microseconds per move for each part and in all, the frames and
bytes per move.  The moves, deals and rules follow from ``--seed``; the times are the
machine's (read them as ratios between runs of the same machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app

import orjson

from app.rooms.core.effects import Connect, JoinRequest, Received, Send, Step, Tick
from app.rooms.core.messages import Hello
from app.rooms.core.room import decide
from app.rooms.core.room_core import RoomCore
from app.rooms.core.state import Timing, fold
from app.rooms.server.chance import chance_of
from app.rooms.server.connection import parse_client_message
from app.rooms.store.sqlite import SqliteStore
from app.rules import RuleSet

PARTS = ("parse", "handle", "encode", "save")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default='{"preset": "standard"}')
    args = parser.parse_args()
    print(json.dumps(measure(args.moves, args.seed, json.loads(args.rules))))
    return 0


def measure(moves: int, seed: int, rules: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(seed)
    clock = time.process_time
    totals = dict.fromkeys(PARTS, 0.0)
    frames = size = done = 0
    with tempfile.TemporaryDirectory(prefix="amerikaner-move-cost-") as tmp:
        store = SqliteStore(Path(tmp))
        loop = asyncio.new_event_loop()
        core, token, save = RoomCore.create("abcdefghjk", RuleSet.from_json(rules), False,
                                            "Ann", 30, 10, Timing(0.0, 0.0), chance_of(rng))
        loop.run_until_complete(store.append(core.code, save))
        now = 1_000_000.0

        def run(event: Any) -> Step:
            step = decide(core.state, core.rt, core.timing, event, now)
            if step.save is not None:
                loop.run_until_complete(store.append(core.code, step.save))
                fold(core.state, step.save.entries)
            return step

        tokens = [token]
        for name in ("Bo", "Cy", "Di"):
            reply = run(JoinRequest(name, None)).reply
            assert reply is not None
            tokens.append(reply["token"])
        for conn, tok in enumerate(tokens, start=1):
            run(Connect(conn, Hello(type="hello", token=tok)))
        run(Received(1, parse_client_message('{"type": "start"}', 4096)))  # type: ignore[arg-type]
        while done < moves:
            match = core.state.match
            assert match is not None
            seat = match.turn
            if seat is None:  # between deals or matches: ready, rematch, or the timer
                now += 100.0
                for conn in range(1, 5):
                    kind = "rematch" if match.finished and conn == 1 else "ready"
                    if match.finished and kind == "ready":
                        continue
                    run(Received(conn, parse_client_message(  # type: ignore[arg-type]
                        json.dumps({"type": kind}), 4096)))
                if core.state.match is match and match.turn is None:
                    run(Tick())
                continue
            text = json.dumps({"type": "action", "game": core.state.game,
                               "action": _pick(core, seat, rng)})
            t0 = clock()
            message = parse_client_message(text, 4096)
            t1 = clock()
            received = Received(seat + 1, message)  # type: ignore[arg-type]
            step = decide(core.state, core.rt, core.timing, received, now)
            if step.save is not None:  # the records evolve the room (after the save, on a server)
                fold(core.state, step.save.entries)
            t2 = clock()
            encoded = [(e.to, orjson.dumps(e.frame)) for e in step.effects if isinstance(e, Send)]
            t3 = clock()
            if step.save is not None:
                _run(store.append(core.code, step.save))
            t4 = clock()
            for part, dt in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                totals[part] += dt
            frames += len(encoded)
            size += sum(len(data) * len(to) for to, data in encoded)
            done += 1
        loop.run_until_complete(store.close())
        loop.close()
    us = {part: round(1e6 * totals[part] / done, 1) for part in PARTS}
    return {"moves": done, "rules": rules, "us_per_move": {**us, "all": round(sum(us.values()), 1)},
            "distinct_frames_per_move": round(frames / done, 2),
            "bytes_sent_per_move": round(size / done)}


def _run(coro: Coroutine[Any, Any, None]) -> None:
    """Run a coroutine that does not suspend (SQLite's append) to its end, as the runner's
    ``await`` does, without the event loop's own costs."""
    try:
        coro.send(None)
    except StopIteration:
        return
    raise RuntimeError("the append suspended")


def _pick(core: RoomCore, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal action of ``seat`` in the record's shape (a discard: random cards)."""
    from app.rules import SeatView
    from app.rules.cards import ids_of

    match = core.state.match
    assert match is not None
    view = SeatView(match, seat)
    choice: dict[str, Any] = dict(rng.choice(view.legal).to_json())
    if "discard" in choice:
        choice["discard"] = rng.sample(ids_of(view.hand), choice["discard"])
    return choice


if __name__ == "__main__":
    sys.exit(main())
