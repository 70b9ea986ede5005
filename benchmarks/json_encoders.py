"""Which JSON encoder is fastest for the server's state frames: json, orjson or msgspec.

    python benchmarks/json_encoders.py [--frames 400] [--seconds 0.3] [--rounds 5]

The frames are real: positions of matches played by random bots (``Match``), each seat's
``SeatView(match, seat).to_wire()`` with a ``room`` part of the protocol's shape
(docs/protocol.md: four seats, the rules and their resolved options, settings, a few chat
lines) in ``{"type": "state", "version", "game", "events": [], "view"}``, about the size of
the frames ``amerikaner serve`` sends.  Each encoder encodes all frames again and again for
``--seconds`` of CPU time, the encoders taking turns; the best of ``--rounds`` is kept, in
CPU microseconds per frame, with the ratio to ``json.dumps`` (what the server uses now,
compact separators):

- ``json.dumps`` gives ``str``, ready for ``WebSocket.send_text`` (uvicorn encodes it);
- ``orjson.dumps`` and ``msgspec.json.encode`` give UTF-8 ``bytes``; a text frame from
  them needs ``.decode()`` for Starlette's ``send_text`` (measured as ``... + decode``)
  unless the server hands the bytes to the protocol itself.

Every encoder's output is checked to parse back to the same frame.  Encoders that are not
installed are skipped (``pip install orjson msgspec``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app

from app.bots import get_bot
from app.rules import Match, RuleSet, SeatView

RULES_JSON: dict[str, Any] = {"preset": "standard"}


def room_part(rules: RuleSet, seat: int, match_number: int) -> dict[str, Any]:
    """``view.room`` of docs/protocol.md for a room of four people (built here, so that
    this benchmark does not follow the rooms server's internals)."""
    seats = [{"seat": s, "name": f"Player {s + 1}", "bot": None, "human": True,
              "connected": True, "away": False, "host": s == 0, "ready": False,
              "takeover": False} for s in range(rules.options.players)]
    chat = [{"seat": s % 4, "name": f"Player {s % 4 + 1}", "text": "nice call!",
             "at": 1764570000.5 + s} for s in range(3)]
    return {"code": "k7mq2x9p4w", "practice": False, "host": 0, "seats": seats,
            "spectators": 0, "rules": rules.to_json(), "rules_resolved": rules.resolved(),
            "settings": {"grace_seconds": 30, "next_deal_pause": 10,
                         "bot_levels": ["random", "heuristic"]},
            "next_deal_at": None, "chat": chat, "match_number": match_number,
            "record_available": False, "you_are_host": seat == 0, "your_seat": seat}


def frames(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` state frames from all four seats at positions of played matches."""
    rules = RuleSet.from_json(RULES_JSON)
    bot = get_bot("random")
    out: list[dict[str, Any]] = []
    match = Match(rules, rng)
    version = game = 0
    while len(out) < count:
        if match.finished:
            match = Match(rules, rng)
        match.start_deal()
        while (seat := match.turn) is not None and len(out) < count:
            match.apply(seat, bot.choose(SeatView(match, seat), rng))
            version += 1
            game += 1
            if rng.random() < 0.3:  # a sample of the positions, every seat's view of it
                for s in range(rules.options.players):
                    view: dict[str, Any] = {**SeatView(match, s).to_wire(),
                                            "room": room_part(rules, s, 1)}
                    out.append({"type": "state", "version": version, "game": game,
                                "events": [], "view": view})
    return out[:count]


def encoders() -> dict[str, Callable[[dict[str, Any]], str | bytes]]:
    found: dict[str, Callable[[dict[str, Any]], str | bytes]] = {
        "json.dumps": lambda f: json.dumps(f, separators=(",", ":")),
    }
    try:
        import orjson

        found["orjson.dumps"] = orjson.dumps
        found["orjson.dumps + decode"] = lambda f: orjson.dumps(f).decode()
    except ImportError:
        print("orjson is not installed: skipped", file=sys.stderr)
    try:
        import msgspec

        encoder = msgspec.json.Encoder()
        found["msgspec.json.encode"] = encoder.encode
        found["msgspec.json.encode + decode"] = lambda f: encoder.encode(f).decode()
    except ImportError:
        print("msgspec is not installed: skipped", file=sys.stderr)
    return found


def us_per_frame(encode: Callable[[dict[str, Any]], str | bytes],
                 sample: list[dict[str, Any]], seconds: float) -> float:
    """CPU microseconds per frame over one round (CPU time, so that other work on a shared
    machine does not count; it still slows caches, hence the rounds, interleaved)."""
    done = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for f in sample:
            encode(f)
        done += len(sample)
    return 1e6 * elapsed / done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=0.3, help="per round and encoder")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sample = frames(args.frames, random.Random(2026))
    found = encoders()
    for name, encode in found.items():  # same frame back, whatever the encoder
        for f in sample[:50]:
            assert json.loads(encode(f)) == f, name
    sizes = [len(json.dumps(f, separators=(",", ":")).encode()) for f in sample]
    print(f"{len(sample)} state frames, {sum(sizes) / len(sizes):.0f} bytes on average "
          f"({min(sizes)} to {max(sizes)}); best of {args.rounds} rounds of "
          f"{args.seconds:g} s")
    best = dict.fromkeys(found, float("inf"))
    for _ in range(args.rounds):  # the encoders take turns, so load changes hit all alike
        for name, encode in found.items():
            best[name] = min(best[name], us_per_frame(encode, sample, args.seconds))
    base = best["json.dumps"]
    for name, us in best.items():
        print(f"{name:30} {us:7.2f} µs per frame   {base / us:5.2f}x json.dumps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
