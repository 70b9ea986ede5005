"""The queue waits' summary (app/rooms/server/pool_stats.py): a bounded window of each
lane's recent waits, their mean, 95th percentile (nearest rank) and maximum in
milliseconds, and a count of every job since the start; each wait is also told to the
observer the pool was given (/metrics)."""

from __future__ import annotations

from app.rooms.server.pool_stats import PoolWaits


def test_an_empty_lane_has_no_waits() -> None:
    assert PoolWaits().summary()["hint"] == {"jobs": 0, "mean_ms": 0.0, "p95_ms": 0.0,
                                             "max_ms": 0.0}


def test_the_summary_is_of_the_window_and_the_count_of_every_job() -> None:
    waits = PoolWaits(window=20)
    waits.record("review", 9.0)  # pushed out of the window by the twenty after it
    for i in range(1, 21):
        waits.record("review", i / 1000)  # 1 ms .. 20 ms
    waits.record("bot", 0.00012345)
    summary = waits.summary()
    # nearest rank: the 19th of 20 sorted waits
    assert summary["review"] == {"jobs": 21, "mean_ms": 10.5, "p95_ms": 19.0, "max_ms": 20.0}
    assert summary["bot"] == {"jobs": 1, "mean_ms": 0.1, "p95_ms": 0.1, "max_ms": 0.1}
    assert summary["hint"]["jobs"] == 0


def test_the_95th_percentile_is_a_wait_some_job_had() -> None:
    waits = PoolWaits()
    for ms in [5] * 95 + [400] * 5:
        waits.record("hint", ms / 1000)
    assert waits.lane("hint")["p95_ms"] == 5.0  # 95 of 100 waited 5 ms or less
    waits.record("hint", 0.4)
    assert waits.lane("hint")["p95_ms"] == 400.0  # now 95 of 101 is too few


def test_each_wait_is_told_to_the_observer_as_it_is_recorded() -> None:
    told: list[tuple[str, float]] = []
    waits = PoolWaits(window=1, on_wait=lambda lane, seconds: told.append((lane, seconds)))
    waits.record("bot", 0.25)
    waits.record("review", 3.0)
    waits.record("review", 0.5)  # the window keeps one; the observer hears every one
    assert told == [("bot", 0.25), ("review", 3.0), ("review", 0.5)]
    assert waits.lane("review")["jobs"] == 2
