"""Memory soak (issue #10): does the server's memory come back near its start after rooms
end and leave memory?  Ten minutes by default; not run in CI.

    python benchmarks/soak.py                          # 300 rooms, 10 minutes, 1 s think
    python benchmarks/soak.py --minutes 1 --rooms 50 --json soak.json

A real ``amerikaner serve`` (loopback, a temporary data folder, load_servers.py's
``SERVER_ENV``) runs with ``AMERIKANER_IDLE_SECONDS`` small (``--idle-seconds``, 5), so
that a room leaves memory a few seconds after its last socket closes. The players are
benchmarks/swarm.py's rooms and seats (swarm_players.py), in this process: rooms of four
people on real WebSockets acting ``--think`` seconds (jittered +-50 %) after their turn
comes, short matches (``--rules``, two deals by default) that the host restarts with
``rematch``.

1. the server's RSS empty (no room yet);
2. one warm-up room plays a whole match fast, its sockets close, it leaves memory: the RSS
   then (``warm``) is what the end is compared with (the code paths of a match are loaded);
3. ``--rooms`` rooms play for ``--minutes``; every ``--wave`` seconds the oldest
   ``--churn`` share of them close their sockets (they leave memory ``--idle-seconds``
   later) and as many new rooms are created, so that rooms come and go all along; the RSS
   every ``--sample`` seconds (60) and its peak (read every second);
4. every socket closed: the RSS; then ``/healthz`` is polled until it says no room is in
   memory (a bounded wait), ``--settle`` seconds more, and the final RSS.

The server's live heap is read empty, warm and after each round: ``heap_bytes`` of
``/healthz`` (the C library's bytes in use) when the server runs on ``malloc`` (its
default, app/runtime/allocator.py), else ``allocated_blocks`` (Python's own allocator's blocks).
After the rooms left it should be back at the warm figure (within ``--tolerance-pct``, or
1 MiB, or 5,000 blocks), or something leaks.  The RSS need not come back so far: an
allocator keeps pages that still hold a live object, and Python's own returns a 1 MiB
arena to the system only once every block in it is free (``AMERIKANER_ALLOCATOR=pymalloc``
through ``--server-env`` shows how much that keeps).

The final RSS is printed as a ratio and a difference against the empty and the warm RSS,
with a verdict: memory came back if the final RSS is within ``--tolerance-pct`` (10 %) of
the warm RSS or within ``--tolerance-mib`` (5 MiB) of it, whichever is larger.  Also the
moves played (actions all four seats saw), their latency and the rooms created in all.
``--rounds N`` plays steps 3 and 4 N times and prints what each round added: what is
bounded (the engine's and the views' caches fill as moves are played, SQLite's page cache,
the allocator's high-water mark) may stay after the first round but should not grow with
the next; a leak does.

``--until-deals N`` ends each round on events rather than on the clock alone: it lasts
``--minutes`` and then until N deals have ended in it (the seats said ``ready`` 4 N times)
and, with ``--churn``, at least one wave has come; past ``--minutes`` no further wave
closes rooms, so that the rooms playing live to end their deals however slow the machine.
A round that has not reached that in ``--round-cap`` seconds fails the run.
tests/test_soak_benchmark.py uses it, so that what it checks follows from events.

Everything is bounded in time (the whole run has a deadline; on any failure the server is
stopped, and the players die with this process) and only loopback addresses are used.
``--server-env KEY=VALUE`` (repeatable) passes more environment to the server, to try an
allocator setting, say.  ``--json PATH`` writes every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from load_servers import SERVER_ENV  # noqa: E402
from serve_process import ServeProcess  # noqa: E402
from soak_runner import EXPIRY_MARGIN_S, SWEEP_S_MAX, Soak  # noqa: E402
from soak_verdict import say  # noqa: E402

SETUP_S_MIN, SETUP_S_PER_ROOM = 60.0, 0.1  # allowance to create and connect rooms


def deadline_s(args: argparse.Namespace) -> float:
    """The whole run's bound: warm-up, set-ups, the soak, two expiries, margins."""
    waves = int(60 * args.minutes / args.wave) + 1
    created = args.rooms + waves * max(1, round(args.churn * args.rooms))
    expiry = args.idle_seconds + SWEEP_S_MAX + EXPIRY_MARGIN_S + args.settle + 5
    soak_s = max(60 * args.minutes, args.round_cap if args.until_deals else 0)
    per_round = soak_s + expiry + SETUP_S_MIN + SETUP_S_PER_ROOM * created
    return float(args.warmup_bound + expiry + args.rounds * per_round + 60)


async def soak(args: argparse.Namespace, server: ServeProcess) -> dict[str, Any]:
    runner = Soak(args, server)
    try:
        async with asyncio.timeout(deadline_s(args)):
            return await runner.play()
    finally:
        await runner.http.aclose()


def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    env = {**SERVER_ENV, "AMERIKANER_IDLE_SECONDS": str(args.idle_seconds),
           "AMERIKANER_MAX_ROOMS": str(max(2000, 3 * args.rooms)), **args.server_env}
    server = ServeProcess(tmp / "data", env)
    server.start()
    try:
        try:
            import uvloop
            loop = asyncio.Runner(loop_factory=uvloop.new_event_loop)
        except ImportError:  # pragma: no cover
            loop = asyncio.Runner()
        with loop:
            return loop.run(soak(args, server))
    except BaseException:
        print(f"server output:\n{server.stop()[-4000:]}", file=sys.stderr)
        raise
    finally:
        server.stop()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the soak")
    parser.add_argument("--rooms", type=int, default=300, help="rooms playing at once")
    parser.add_argument("--rounds", type=int, default=1,
                        help="soaks one after the other, each ending with every room out "
                             "of memory: a leak grows round after round, memory the "
                             "allocator keeps after its peak does not")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a person waits before acting, jittered +-50%%")
    parser.add_argument("--wave", type=float, default=30.0,
                        help="seconds between waves of rooms leaving and coming")
    parser.add_argument("--churn", type=float, default=0.2,
                        help="share of the rooms that leave (and come) in each wave; 0: none")
    parser.add_argument("--sample", type=float, default=60.0,
                        help="seconds between RSS samples during the soak")
    parser.add_argument("--idle-seconds", type=float, default=5.0,
                        help="the server's AMERIKANER_IDLE_SECONDS: a room nobody is "
                             "connected to leaves memory after this")
    parser.add_argument("--settle", type=float, default=2.0,
                        help="seconds after the rooms left memory before the final RSS")
    parser.add_argument("--warmup-bound", type=float, default=60.0,
                        help="seconds the warm-up room may take to finish its match")
    parser.add_argument("--until-deals", type=int, default=0, metavar="N",
                        help="each round goes on past --minutes until N deals ended in it "
                             "(and, with --churn, a wave came)")
    parser.add_argument("--round-cap", type=float, default=600.0,
                        help="with --until-deals: fail if a round has not reached its deals "
                             "in this many seconds")
    parser.add_argument("--tolerance-pct", type=float, default=10.0)
    parser.add_argument("--tolerance-mib", type=float, default=5.0)
    parser.add_argument("--rules", type=json.loads,
                        default={"preset": "standard", "match": "deals:2"},
                        help="the rooms' rule set as JSON (default: standard, two deals)")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="more environment for the server (repeatable)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path, default=None, help="write every figure here")
    args = parser.parse_args(argv)
    if (args.minutes <= 0 or args.rooms < 1 or args.rounds < 1 or args.wave <= 0 or args.sample <= 0
            or args.think < 0 or not 0 <= args.churn <= 1 or args.idle_seconds <= 0
            or args.until_deals < 0 or args.round_cap <= 0):
        parser.error("--minutes, --rooms, --rounds, --wave, --sample, --idle-seconds and "
                     "--round-cap must be positive, --think and --until-deals not negative, "
                     "--churn between 0 and 1")
    if args.until_deals and args.round_cap < 60 * args.minutes:
        parser.error("--round-cap: not shorter than --minutes")
    try:
        args.server_env = dict(kv.split("=", 1) for kv in args.server_env)
    except ValueError:
        parser.error("--server-env: KEY=VALUE")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out: dict[str, Any] = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform()},
        "load_average_before": os.getloadavg()[0],
        "settings": {k: (str(v) if isinstance(v, Path) else v)
                     for k, v in vars(args).items() if k != "json"},
    }
    with tempfile.TemporaryDirectory(prefix="amerikaner-soak-") as tmp:
        out.update(run(args, Path(tmp)))
    say(f"moves played {out['moves']} (p50 {out['latency_ms']['p50']} ms, p99 "
        f"{out['latency_ms']['p99']} ms); rooms created in all {out['rooms_created']}; "
        f"load average before {out['load_average_before']:.2f}")
    for key in ("errors", "swarm_errors", "playing_sockets_closed_by_server"):
        if out[key]:
            say(f"  {key.replace('_', ' ')}: {out[key]}")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())  # Ctrl-C: the finally blocks stop the server all the same
