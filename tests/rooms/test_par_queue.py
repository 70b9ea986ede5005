"""The clubs' par in the search pool's lowest lane (app/rooms/server/par_queue.py), with
real worker processes: par comes back, the same as made in this process; it runs only on
the review workers (at their lower CPU priority) and after every waiting review, never on
a table's worker, so bot moves are served while the par lane is full; a club has at most
``per_club`` deals in the pool and ``backlog`` waiting; clubs take turns; a play whose
worker dies fails, is told, and the club's next deal is made. Busy plays wait
on gate files the test opens and log the order the worker ran them in: every order here
comes from events, not from the machine's speed."""

from __future__ import annotations

import asyncio
import functools
import os
import random
import signal
from pathlib import Path
from typing import Any, cast

import pool_jobs
import pytest
from pool_runs import WAIT, run, until

from app.bots import BOTS
from app.bots.par import Par, deal_seed, par_of_deal
from app.rooms.server.fair_queue import Lane
from app.rooms.server.par_queue import ParBusy, ParFailed, ParJob, ParQueue, jobs_of_record
from app.rooms.server.search_pool import SearchPool
from app.rules import PASS, Action, Match, RuleSet, SeatView
from app.rules.record import RecordError, deal_to_record, match_to_record

RULES = RuleSet("standard", target=30)


def finished_deal(seed: int) -> dict[str, Any]:
    """A standard deal played to its end by easy, in the record's shape."""
    match = Match(RULES.with_changes({"match": "single_deal"}), rng=random.Random(seed))
    match.start_deal()
    deal = match.deals[-1]
    rng = random.Random(seed)
    while deal.turn is not None:
        match.apply(deal.turn, BOTS["easy"].choose(SeatView(match, deal.turn), rng))
    return deal_to_record(deal)


def job(club: str, deal: int, seed: int) -> ParJob:
    return ParJob(club, "m1", deal, RULES.to_json(), finished_deal(seed))


def test_par_comes_back_from_a_worker_as_made_here() -> None:
    told: list[tuple[ParJob, Par]] = []

    async def scenario(pool: SearchPool) -> tuple[Par, int, int]:
        queue = ParQueue(pool, plays=2, level="easy",
                         on_par=lambda j, p: told.append((j, p)))
        asked = job("c1", 3, 4)
        par = await queue.submit(asked)
        assert told == [(asked, par)]
        assert queue.stats() == {"clubs": 0, "waiting": 0, "running": 0, "done": 1,
                                 "failed": 0}
        # the par lane's jobs run at the review workers' priority, not the tables'
        _, nice = await pool.run(Lane.PAR, pool_jobs.niceness, room="r", hard=WAIT)
        return par, pool.stats()["queue_wait"]["par"]["jobs"], nice

    par, jobs, nice = run(scenario, workers=1)
    here = par_of_deal(RULES, finished_deal(4), plays=2, level="easy")
    assert (par.seed, par.seat_means, par.play_points) == \
        (here.seed, here.seat_means, here.play_points)
    assert par.plays == 2 and jobs == 3  # two plays and the niceness, in the par lane
    assert nice > os.getpriority(os.PRIO_PROCESS, 0)


def test_a_deal_that_cannot_be_played_fails_and_is_told() -> None:
    failed: list[tuple[ParJob, str]] = []

    async def scenario(pool: SearchPool) -> None:
        queue = ParQueue(pool, plays=1, level="easy",
                         on_failed=lambda j, why: failed.append((j, why)))
        bad = ParJob("c1", "m1", 1, RuleSet("standard", players=3).to_json(),
                     finished_deal(1))
        with pytest.raises(ParFailed, match="not a deal of these rules"):
            await queue.submit(bad)
        assert [j for j, _ in failed] == [bad]
        assert queue.stats()["failed"] == 1

    run(scenario, workers=1)


def test_a_play_whose_worker_dies_fails_and_the_clubs_next_deal_is_made(
        tmp_path: Path) -> None:
    note, gate = tmp_path / "pid", tmp_path / "gate"
    failed: list[tuple[str, str, int]] = []

    async def scenario(pool: SearchPool) -> None:
        queue = ParQueue(pool, plays=1, level="easy", per_club=1,
                         on_failed=lambda j, _: failed.append(j.key),
                         play=functools.partial(pool_jobs.announced_play, str(note),
                                                str(gate)))
        first, second = queue.submit(job("A", 0, 1)), queue.submit(job("A", 1, 2))
        await until(note.exists)
        os.kill(int(note.read_text()), signal.SIGKILL)
        with pytest.raises(ParFailed, match="WorkerLost"):
            await first
        assert failed == [("A", "m1", 0)]
        gate.touch()
        assert (await second).plays == 1  # on the worker that replaced the dead one
        assert pool.stats()["replaced"] == 1
        assert queue.stats() == {"clubs": 0, "waiting": 0, "running": 0, "done": 1,
                                 "failed": 1}

    run(scenario, workers=1)


def test_the_lane_is_bounded_per_club_and_below_bots_and_reviews(tmp_path: Path) -> None:
    gate, log = tmp_path / "gate", tmp_path / "log"
    done: list[tuple[str, str, int]] = []
    jobs = [job("A", d, 10 + d) for d in range(5)] + [job("B", 0, 20)]
    label = {deal_seed(RULES, j.record): f"{j.club}{j.deal}" for j in jobs}

    async def scenario(pool: SearchPool) -> None:
        queue = ParQueue(pool, plays=1, level="easy", per_club=2, backlog=3,
                         on_par=lambda j, _: done.append(j.key),
                         play=functools.partial(pool_jobs.gated_play, str(gate), str(log)))
        futures = [queue.submit(j) for j in jobs]
        assert queue.submit(jobs[4]) is futures[4]  # the same deal again: the same future
        with pytest.raises(ParBusy):  # A has 3 deals waiting here: its backlog is full
            queue.submit(job("A", 9, 19))
        # A0 holds the review worker; A1 and B0 wait in the pool; A2..A4 wait here
        await until(lambda: pool.stats()["running"]["par"] == 1)
        assert pool.stats()["waiting"]["par"] == 2
        assert (queue.running("A"), queue.waiting("A"), queue.running("B")) == (2, 3, 1)
        # the table's worker is free and par waits: par never takes it, bot moves do
        assert pool.stats()["running"]["bot"] == 0
        for i in range(6):
            assert await pool.run(Lane.BOT, pool_jobs.echo, f"move{i}", room="t",
                                  hard=WAIT, start_within=WAIT) == f"move{i}"
        stats = pool.stats()
        assert stats["no_worker_in_time"] == 0 and stats["queue_wait"]["bot"]["jobs"] == 6
        assert stats["running"]["par"] == 1 and stats["waiting"]["par"] == 2
        assert not any(f.done() for f in futures) and not done
        # a review asked now goes before the par that waited longer
        review = asyncio.ensure_future(pool.run(Lane.REVIEW, pool_jobs.logged, str(log),
                                                "review", room="r", hard=WAIT))
        await until(lambda: pool.stats()["waiting"]["review"] == 1)
        gate.touch()
        assert await review == "review"
        pars = await asyncio.gather(*futures)
        assert all(p.plays == 1 for p in pars)
        assert queue.stats() == {"clubs": 0, "waiting": 0, "running": 0, "done": 6,
                                 "failed": 0}

    run(scenario, workers=1)
    ran = [label.get(int(line), line) if line.isdigit() else line
           for line in log.read_text().split()]
    # A0 first (it held the worker), then the review, then B (its first turn) before
    # A's next, then A's in the order they came
    assert ran == ["A0", "review", "B0", "A1", "A2", "A3", "A4"]
    assert sorted(done) == sorted(j.key for j in jobs)


def test_per_club_must_fit_the_pools_bound() -> None:
    with pytest.raises(ValueError):
        ParQueue(SearchPool(1), per_club=3)  # (a pool starts on its first job)


def test_a_records_jobs_are_its_deals_played_to_their_end() -> None:
    """A match of three players (the record's rules leave the count to its names) with
    void deals (everyone passed) among its deals: one job for each played deal, numbered
    by its index in the record, with the record's rules."""
    rules = RuleSet("standard", players=3, target=12)
    match = Match(rules, rng=random.Random(3))
    match.start_deal()
    rng = random.Random(3)
    passes = 0
    while not match.finished:
        seat = match.turn
        assert seat is not None
        view = SeatView(match, seat)
        if match.deals[-1].phase == "auction" and passes < 3 and len(match.deals) == 1:
            passes += 1  # the first deal: everyone passes, it is void and dealt again
            action: Action = PASS
        else:
            action = BOTS["easy"].choose(view, rng)
        match.apply(seat, action)
    record = cast("dict[str, Any]", match_to_record(match, ["Ann", "Bo", "Cy"]))
    del record["rules"]["players"]
    jobs = jobs_of_record("c1", "m7", record)
    played = [i for i, d in enumerate(match.deals) if d.outcome != "void"]
    assert match.deals[0].outcome == "void" and played and played[0] > 0
    assert [j.deal for j in jobs] == played
    assert all(j.club == "c1" and j.match == "m7" for j in jobs)
    assert all(RuleSet.from_json(j.rules).options.players == 3 for j in jobs)
    assert [j.record for j in jobs] == [record["deals"][i] for i in played]
    broken = {**record, "deals": [{**record["deals"][0], "dealer": 9}]}
    with pytest.raises(RecordError):
        jobs_of_record("c1", "m7", broken)
