"""The search pool (app/rooms/server/search_pool.py) with real worker processes: bot moves
never wait behind hints or reviews (one worker is always kept for them; reviews run on
workers of their own, at a lower CPU priority), hints and reviews are bounded per room
and per address and take turns among addresses, a bot move with no worker in time is
given up, a dead or overrunning worker is replaced at once, workers die with the server,
a closed pool fails every job at once, and each lane's queue wait is measured on the
pool's clock and told to its ``on_wait``. Busy jobs wait on gate files the test opens, so
every order asserted here comes from events, not from the machine's speed."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pool_jobs
import pytest
from pool_runs import WAIT, run, until

from app.rooms.server.fair_queue import Lane, PoolBusy
from app.rooms.server.search_pool import NoWorkerInTime, SearchPool, WorkerLost
from app.rooms.server.search_workers import REVIEW_NICE


def review(pool: SearchPool, gate: Path, value: str, room: str,
           address: str) -> asyncio.Task[Any]:
    return asyncio.ensure_future(pool.run(Lane.REVIEW, pool_jobs.wait_for, str(gate), value,
                                          room=room, address=address, hard=WAIT))


def test_bot_moves_never_wait_behind_reviews(tmp_path: Path) -> None:
    gate = tmp_path / "gate"

    async def scenario(pool: SearchPool) -> None:
        reviews = [review(pool, gate, f"r{i}", f"room{i}", f"10.0.0.{i}") for i in range(4)]
        await until(lambda: pool.stats()["running"]["review"] == 1)
        # one review runs, three wait: the other worker is the bots'
        assert pool.stats()["waiting"]["review"] == 3
        for i in range(5):
            moved = await pool.run(Lane.BOT, pool_jobs.echo, f"move {i}", room="victim",
                                   hard=WAIT, start_within=WAIT)
            assert moved == f"move {i}"
        assert not any(r.done() for r in reviews), "the reviews were let through"
        # a hint goes before the waiting reviews, on the next free worker
        hint = asyncio.ensure_future(pool.run(Lane.HINT, pool_jobs.echo, "hint", room="h",
                                              address="10.0.1.1", hard=WAIT))
        gate.touch()
        assert await hint == "hint"
        assert sorted(await asyncio.gather(*reviews)) == ["r0", "r1", "r2", "r3"]

    run(scenario)


def test_reviews_run_on_their_own_workers_below_the_tables_priority(tmp_path: Path) -> None:
    """A review runs on a worker of its own, ``REVIEW_NICE`` steps nicer than the
    tables' (where bot moves and hints run at the server's priority), started with the
    first review; while it runs, both table workers take bot moves; a killed review
    worker is replaced by another as nice."""
    gate, notes = tmp_path / "gate", [tmp_path / "bot0", tmp_path / "bot1"]

    async def scenario(pool: SearchPool) -> None:
        server = os.getpriority(os.PRIO_PROCESS, 0)
        bot_pid, bot_nice = await pool.run(Lane.BOT, pool_jobs.niceness, room="a", hard=WAIT)
        _, hint_nice = await pool.run(Lane.HINT, pool_jobs.niceness, room="a", hard=WAIT)
        assert bot_nice == hint_nice == server
        assert pool.stats()["alive"] == 2  # no review yet: no review worker
        review_pid, review_nice = await pool.run(Lane.REVIEW, pool_jobs.niceness, room="a",
                                                 hard=WAIT)
        assert review_nice == min(19, server + REVIEW_NICE) > bot_nice
        assert review_pid != bot_pid and pool.stats()["alive"] == 3

        held = review(pool, gate, "r", "room", "10.0.0.1")
        await until(lambda: pool.stats()["running"]["review"] == 1)
        bots = [asyncio.ensure_future(pool.run(Lane.BOT, pool_jobs.announce_then_wait,
                                               str(note), str(gate), room=f"b{i}",
                                               hard=WAIT, start_within=WAIT))
                for i, note in enumerate(notes)]
        await until(lambda: pool.stats()["running"] == {"bot": 2, "hint": 0, "review": 1,
                                                         "par": 0})
        gate.touch()
        assert await held == "r" and len(set(await asyncio.gather(*bots))) == 2

        os.kill(review_pid, signal.SIGKILL)
        await until(lambda: pool.stats()["replaced"] == 1 and pool.stats()["ready"] == 3)
        again_pid, again_nice = await pool.run(Lane.REVIEW, pool_jobs.niceness, room="a",
                                               hard=WAIT)
        assert again_pid != review_pid and again_nice == review_nice

    run(scenario)


def test_hints_and_reviews_are_bounded_per_room_and_per_address(tmp_path: Path) -> None:
    gate = tmp_path / "gate"

    async def scenario(pool: SearchPool) -> None:
        held = [review(pool, gate, "a", "room1", "10.0.0.1"),
                review(pool, gate, "b", "room1", "10.0.0.2")]
        await asyncio.sleep(0)
        with pytest.raises(PoolBusy):  # a third for the same room
            await pool.run(Lane.REVIEW, pool_jobs.echo, "c", room="room1",
                           address="10.0.0.3", hard=WAIT)
        held += [review(pool, gate, f"x{i}", f"room{i + 2}", "10.0.0.9") for i in range(4)]
        await asyncio.sleep(0)
        with pytest.raises(PoolBusy):  # a fifth from one address, wherever it asks
            await pool.run(Lane.HINT, pool_jobs.echo, "d", room="room9", address="10.0.0.9",
                           hard=WAIT)
        assert pool.stats()["refused"] == 2
        gate.touch()
        await asyncio.gather(*held)
        # done: the bounds are free again
        assert await pool.run(Lane.REVIEW, pool_jobs.echo, "e", room="room1",
                              address="10.0.0.9", hard=WAIT) == "e"

    run(scenario)


def test_addresses_take_turns(tmp_path: Path) -> None:
    gates = [tmp_path / f"gate{i}" for i in range(5)]
    order: list[str] = []

    async def scenario(pool: SearchPool) -> None:
        async def one(gate: Path, value: str, room: str, address: str) -> None:
            order.append(await pool.run(Lane.REVIEW, pool_jobs.wait_for, str(gate), value,
                                        room=room, address=address, hard=WAIT))

        jobs = [asyncio.ensure_future(one(gates[i], f"many{i}", f"m{i}", "10.0.0.1"))
                for i in range(3)]
        await until(lambda: pool.stats()["running"]["review"] == 1)
        jobs.append(asyncio.ensure_future(one(gates[3], "other", "o", "10.0.0.2")))
        await until(lambda: pool.stats()["waiting"]["review"] == 3)
        for gate in gates[:4]:
            gate.touch()
        await asyncio.gather(*jobs)

    run(scenario)
    # the second address's one review went before the first address's second
    assert order[:2] == ["many0", "other"], order


def test_a_bot_move_without_a_worker_in_time_is_given_up(tmp_path: Path) -> None:
    gate = tmp_path / "gate"

    async def scenario(pool: SearchPool) -> None:
        busy = asyncio.ensure_future(pool.run(Lane.BOT, pool_jobs.wait_for, str(gate), "x",
                                              room="a", hard=WAIT))
        await until(lambda: pool.stats()["running"]["bot"] == 1)
        with pytest.raises(NoWorkerInTime):
            await pool.run(Lane.BOT, pool_jobs.echo, "late", room="b", hard=WAIT,
                           start_within=0.05)
        assert pool.stats()["no_worker_in_time"] == 1
        gate.touch()
        assert await busy == "x"

    run(scenario, workers=1)


def test_the_queue_wait_is_the_time_a_job_waited_for_a_worker(tmp_path: Path) -> None:
    """On a fake clock: a review waits while another holds the only worker; the clock
    moves 2.5 s before the gate opens, and that is the second review's wait, exactly, in
    the summary and as told to ``on_wait`` (/metrics' histogram) when it got a worker."""
    gate = tmp_path / "gate"
    now = [100.0]
    told: list[tuple[str, float]] = []

    async def scenario(pool: SearchPool) -> None:
        first = review(pool, gate, "a", "room1", "10.0.0.1")
        await until(lambda: pool.stats()["running"]["review"] == 1)
        second = review(pool, gate, "b", "room2", "10.0.0.2")
        await until(lambda: pool.stats()["waiting"]["review"] == 1)
        assert pool.stats()["queue_wait"]["review"]["jobs"] == 1  # the first, at once
        now[0] += 2.5
        gate.touch()
        assert list(await asyncio.gather(first, second)) == ["a", "b"]
        assert await pool.run(Lane.BOT, pool_jobs.echo, "m", room="r", hard=WAIT) == "m"
        waits = pool.stats()["queue_wait"]
        assert waits["review"] == {"jobs": 2, "mean_ms": 1250.0, "p95_ms": 2500.0,
                                   "max_ms": 2500.0}
        assert waits["bot"] == {"jobs": 1, "mean_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
        assert waits["hint"]["jobs"] == 0
        assert told == [("review", 0.0), ("review", 2.5), ("bot", 0.0)]

    run(scenario, workers=1, clock=lambda: now[0],
        on_wait=lambda lane, seconds: told.append((lane, seconds)))


def test_a_killed_worker_is_replaced_and_its_job_fails(tmp_path: Path) -> None:
    note, gate = tmp_path / "pid", tmp_path / "gate"

    async def scenario(pool: SearchPool) -> None:
        job = asyncio.ensure_future(pool.run(Lane.BOT, pool_jobs.announce_then_wait,
                                             str(note), str(gate), room="a", hard=WAIT))
        await until(note.exists)
        victim = int(note.read_text())
        os.kill(victim, signal.SIGKILL)  # as the OOM killer would
        with pytest.raises(WorkerLost):
            await job
        await until(lambda: pool.stats()["replaced"] == 1 and pool.stats()["alive"] == 2)
        pids = {await pool.run(Lane.BOT, pool_jobs.pid, room="a", hard=WAIT)
                for _ in range(4)}
        assert victim not in pids
        # a job that raises is the job's failure, not the worker's
        with pytest.raises(RuntimeError, match="a bot bug"):
            await pool.run(Lane.BOT, pool_jobs.fail, room="a", hard=WAIT)
        assert pool.stats()["replaced"] == 1

    run(scenario)


def test_a_closed_pool_fails_every_job_at_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing fails what runs and what waits, and a job asked afterwards (a request that
    came in as the server stopped) fails at once instead of waiting for ever.  Each
    worker's reader then ends by itself, without an exception (a pipe closed under a
    reader once raised one in it)."""
    gate = tmp_path / "gate"
    raised: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", raised.append)

    async def scenario(pool: SearchPool) -> None:
        busy = asyncio.ensure_future(pool.run(Lane.BOT, pool_jobs.wait_for, str(gate), "x",
                                              room="a", hard=WAIT))
        waiting = asyncio.ensure_future(pool.run(Lane.HINT, pool_jobs.echo, "h", room="b",
                                                 address="10.0.0.1", hard=WAIT))
        await until(lambda: pool.stats()["running"]["bot"] == 1)
        readers = [t for t in threading.enumerate() if t.name == "search-reader"]
        assert readers
        pool.close()
        await until(lambda: not any(reader.is_alive() for reader in readers))
        assert [args.exc_value for args in raised] == []
        for job in (busy, waiting):
            with pytest.raises(WorkerLost):
                await job
        assert pool.stats()["waiting"] == {"bot": 0, "hint": 0, "review": 0, "par": 0}
        for lane in (Lane.BOT, Lane.HINT, Lane.REVIEW):
            late = asyncio.ensure_future(pool.run(lane, pool_jobs.echo, "late", room="c",
                                                  address="10.0.0.2", hard=WAIT))
            await asyncio.sleep(0)  # one turn of the loop: a failure needs no more
            assert late.done(), f"a {lane.name} job after close waits"
            with pytest.raises(WorkerLost):
                await late

    run(scenario, workers=1)


def test_a_job_past_its_hard_limit_loses_its_worker(tmp_path: Path) -> None:
    gate = tmp_path / "gate"  # never opened: only the limit ends this job

    async def scenario(pool: SearchPool) -> None:
        with pytest.raises(WorkerLost):
            await pool.run(Lane.HINT, pool_jobs.wait_for, str(gate), "never", room="a",
                           address="10.0.0.1", hard=0.2)
        await until(lambda: pool.stats()["replaced"] == 1 and pool.stats()["alive"] == 1)
        assert await pool.run(Lane.HINT, pool_jobs.echo, "next", room="a",
                              address="10.0.0.1", hard=WAIT) == "next"

    run(scenario, workers=1)


SERVER = textwrap.dedent("""
    import asyncio, sys
    sys.path.insert(0, sys.argv[3])
    import pool_jobs
    from app.rooms.server.fair_queue import Lane
    from app.rooms.server.search_pool import SearchPool

    async def main():
        pool = SearchPool(2)
        await pool.run(Lane.BOT, pool_jobs.announce_then_wait, sys.argv[1], sys.argv[2],
                       room="a", hard=600)

    asyncio.run(main())
""")


def test_workers_die_with_the_server_however_it_dies(tmp_path: Path) -> None:
    """SIGKILL the process that owns the pool mid-job: no worker lives on."""
    note, gate = tmp_path / "pid", tmp_path / "gate"
    owner = subprocess.Popen([sys.executable, "-c", SERVER, str(note), str(gate),
                              str(Path(pool_jobs.__file__).parent)])
    try:
        deadline = time.monotonic() + WAIT
        while not note.exists():
            assert owner.poll() is None and time.monotonic() < deadline, "no job started"
            time.sleep(0.01)
        worker = int(note.read_text())
        owner.kill()
        owner.wait()
        while _alive(worker):
            assert time.monotonic() < deadline, f"worker {worker} outlived the server"
            time.sleep(0.01)
    finally:
        if owner.poll() is None:
            owner.kill()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def test_a_worker_that_cannot_be_started_leaves_a_problem_until_one_can(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No process can be started (out of memory, the user's process limit): the dead
    worker is not replaced, ``problem`` says so (/healthz: 503); the next job starts one
    again once processes can be started, and the problem is gone."""

    async def scenario(pool: SearchPool) -> None:
        victim = await pool.run(Lane.BOT, pool_jobs.pid, room="a", hard=WAIT)
        assert pool.problem() is None
        with monkeypatch.context() as failing:
            def no_process(*args: object, **kwargs: object) -> None:
                raise OSError(11, "Resource temporarily unavailable")

            failing.setattr(pool._context, "Process", no_process)
            os.kill(victim, signal.SIGKILL)
            await until(lambda: pool.stats()["replaced"] == 1)
            problem = pool.problem()
            assert problem is not None and "0 of 1" in problem, problem
            assert "Resource temporarily unavailable" in problem
            assert pool.stats()["alive"] == 0
        assert await pool.run(Lane.BOT, pool_jobs.echo, "back", room="a", hard=WAIT) == "back"
        assert pool.problem() is None and pool.stats()["alive"] == 1

    run(scenario, workers=1)
