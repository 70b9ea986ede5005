"""The replay pool (app/rooms/server/replay_pool.py) on its own: a bounded number of
replays open, a worker that dies fails only its replay and the next one gets a new
worker, and closing it refuses more."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from app.rooms.server.replay_pool import ReplayBusy, ReplayFailed, ReplayPool


def worker_pid() -> int:
    """Run in a worker: which process it is."""
    return os.getpid()


def die() -> int:
    """Run in a worker: it dies at once, as one killed by the system would."""
    os.kill(os.getpid(), signal.SIGKILL)
    return 0


def test_slots_are_bounded_and_a_dead_worker_is_replaced() -> None:
    async def scenario() -> None:
        pool = ReplayPool(workers=1, queue=1)
        try:
            with pool.slot(), pool.slot():
                assert pool.stats()["pending"] == 2
                with pytest.raises(ReplayBusy), pool.slot():
                    pass  # pragma: no cover (refused on entry)
            assert pool.stats()["pending"] == 0 and pool.stats()["busy"] == 1
            with pool.slot():
                first = await pool.run(worker_pid)
            assert first != os.getpid()
            with pool.slot(), pytest.raises(ReplayFailed):
                await pool.run(die)
            assert pool.stats()["failed"] == 1 and not pool.stats()["started"]
            with pool.slot():
                second = await pool.run(worker_pid)
            assert second not in (first, os.getpid())
            assert pool.stats()["done"] == 2
        finally:
            pool.close()
        with pytest.raises(ReplayFailed), pool.slot():
            pass  # pragma: no cover (refused on entry)

    asyncio.run(scenario())
