"""Where an uploaded record's replay should run: on the event loop, in a thread, or in a
worker process (app/rooms/server/replay_pool.py chose the process).

One event loop runs a ticker (sleep 1 ms, note how late it woke: the loop's lag, which is
what every room's frames, bot moves and timers wait) while ``--jobs`` replays of a 1 MiB
record (``POST /api/replay``'s work: ``replay_work.upload_replay``) run two at a time
(a) on the loop, (b) in threads (``asyncio.to_thread``), (c) in a pool of worker
processes (``ReplayPool``, warmed first).  Printed per mode: the replays' wall time and the
ticker's lag p50 / p99 / max.

    .venv/bin/python benchmarks/replay_offload.py [--jobs 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from long_record import long_record  # noqa: E402

from app.rooms.core.wire_enums import LIMITS  # noqa: E402
from app.rooms.server.replay_pool import ReplayPool  # noqa: E402
from app.rooms.server.replay_work import Outcome, upload_replay  # noqa: E402

Runner = Callable[[bytes], Awaitable[Outcome]]


async def measure(run: Runner, raw: bytes, jobs: int) -> tuple[float, list[float]]:
    """The wall time of ``jobs`` replays, two at a time, and the ticker's lags (s)."""
    lags: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            t = time.perf_counter()
            await asyncio.sleep(0.001)
            lags.append(time.perf_counter() - t - 0.001)

    async def lane(n: int) -> None:
        for _ in range(n):
            outcome = await run(raw)
            assert outcome[0] == "ok", outcome

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    start = time.perf_counter()
    await asyncio.gather(lane(jobs // 2), lane(jobs - jobs // 2))
    wall = time.perf_counter() - start
    done = True
    await tick
    return wall, lags


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(jobs: int) -> None:
    # the work cap (RECORD_DEALS_MAX) is what an upload may cost: the largest allowed
    raw = long_record(LIMITS["RECORD_BYTES_MAX"], max_deals=LIMITS["RECORD_DEALS_MAX"],
                      max_actions=LIMITS["RECORD_ACTIONS_MAX"])
    print(f"record: {len(raw)} bytes; {jobs} replays, two at a time")
    pool = ReplayPool(workers=2, queue=8)
    await pool.run(upload_replay, raw, None)  # the workers' start, not measured
    await pool.run(upload_replay, raw, None)

    async def on_loop(data: bytes) -> Outcome:
        await asyncio.sleep(0)  # as a route does (it awaits the body): the ticker may run
        return upload_replay(data, None)

    async def in_thread(data: bytes) -> Outcome:
        return await asyncio.to_thread(upload_replay, data, None)

    async def in_process(data: bytes) -> Outcome:
        return await pool.run(upload_replay, data, None)

    for name, run in (("event loop", on_loop), ("thread", in_thread),
                      ("process", in_process)):
        wall, lags = await measure(run, raw, jobs)
        print(f"{name:>10}: {wall:6.2f} s for {jobs}; loop lag p50 "
              f"{statistics.median(lags) * 1000:7.1f} ms, p99 {quantile(lags, 0.99) * 1000:7.1f}"
              f" ms, max {max(lags) * 1000:7.1f} ms ({len(lags)} ticks)")
    pool.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=20)
    asyncio.run(main(parser.parse_args().jobs))
