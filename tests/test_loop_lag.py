"""The event loop's lag (app/web/loop_lag.py): measured at each wake-up of its task,
observed as a metric, and a ``loop`` problem for /healthz once every wake-up has been
late for a while (issue 36).

The monitor is driven by hand on a clock of the test's own (``asleep``, the clock moved,
``woke``): nothing here depends on the machine's speed.  A real server's ``/metrics``
and ``/healthz`` show what the monitor says."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.settings import Settings
from app.web.loop_lag import LoopLag

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from rooms_harness import ServerThread
from shared_helpers import HTTP, FakeClock


def wake(lag: LoopLag, clock: FakeClock, after: float) -> float:
    """One round of the task: it sleeps, and wakes ``after`` seconds later."""
    lag.asleep()
    clock.now += after
    return lag.woke()


def test_the_lag_is_how_late_the_task_woke_and_each_is_observed() -> None:
    clock = FakeClock(100.0)
    seen: list[float] = []
    lag = LoopLag(limit=0.5, hold=10, interval=0.25, clock=clock, observe=seen.append)
    assert wake(lag, clock, 0.25) == 0.0  # on time
    assert wake(lag, clock, 0.2) == 0.0  # early (a clock's rounding): never negative
    assert wake(lag, clock, 1.25) == pytest.approx(1.0)
    assert seen == [0.0, 0.0, pytest.approx(1.0)] and lag.last == pytest.approx(1.0)


def test_late_wake_ups_for_the_hold_are_a_problem_until_one_is_on_time() -> None:
    clock = FakeClock(100.0)
    lag = LoopLag(limit=0.5, hold=10, interval=0.25, clock=clock)
    for _ in range(8):  # 0.75 s late each time: a second a round, 8 s
        wake(lag, clock, 1.0)
        assert lag.problem() is None
    assert wake(lag, clock, 0.25) == 0.0  # one on time: the streak ends
    for _ in range(9):  # late for 9 s, counted from when the first was due: 9.75 s
        wake(lag, clock, 1.0)
    assert lag.problem() is None
    wake(lag, clock, 2.0)  # 10.75 s
    problem = lag.problem()
    assert problem is not None and "the event loop runs late" in problem, problem
    assert "up to 1.75 s" in problem, problem
    clock.now += 5  # no wake-up meanwhile, and none pending: still the last streak's
    assert lag.problem() is not None
    lag.asleep()
    clock.now += 0.3  # 0.05 s late: on time enough
    lag.woke()
    assert lag.problem() is None


def test_a_task_stuck_past_its_time_is_late_before_it_wakes() -> None:
    """A request can run before the monitor's own wake-up after a long block."""
    clock = FakeClock(100.0)
    lag = LoopLag(limit=0.5, hold=10, interval=0.25, clock=clock)
    lag.asleep()
    clock.now += 5.25  # due 5 s ago
    assert lag.problem() is None
    clock.now += 5.0
    problem = lag.problem()
    assert problem is not None and "up to 10.00 s" in problem, problem


def test_a_limit_of_0_is_never_a_problem() -> None:
    clock = FakeClock(100.0)
    lag = LoopLag(limit=0, hold=1, interval=0.25, clock=clock)
    for _ in range(5):
        assert wake(lag, clock, 3.0) == pytest.approx(2.75)
    assert lag.problem() is None


def test_the_task_measures_on_the_running_loop() -> None:
    """``watch`` as the server runs it, on a clock 3 s further at each reading (one as
    the task goes to sleep, one as it wakes): the lag it measures is that step beyond the
    interval, whatever the machine."""
    readings = iter(range(0, 3000, 3))
    woken = asyncio.Event()
    seen: list[float] = []

    def observe(value: float) -> None:
        seen.append(value)
        if len(seen) == 3:
            woken.set()

    lag = LoopLag(limit=0.5, hold=4, interval=0.001, clock=lambda: float(next(readings)),
                  observe=observe)

    async def run() -> str | None:
        task = asyncio.get_running_loop().create_task(lag.watch())
        await woken.wait()
        task.cancel()
        return lag.problem()

    problem = asyncio.run(run())
    assert seen == [pytest.approx(2.999)] * 3
    assert problem is not None and "runs late" in problem


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(Settings(data_dir=tmp_path / "data")) as srv:
        yield srv


def test_the_server_exports_the_lag_and_its_healthz_tells_a_late_loop(
        server: ServerThread) -> None:
    deadline = time.monotonic() + 60
    while True:  # the server's task observes its first wake-up a quarter second in
        families = {f.name: f for f in text_string_to_metric_families(
            HTTP.get(f"{server.base}/metrics", timeout=30).text)}
        lag = families["amerikaner_event_loop_lag_seconds"]
        assert lag.type == "histogram"
        if any(s.name.endswith("_count") and s.value > 0 for s in lag.samples):
            break
        assert time.monotonic() < deadline, "the loop's lag was never observed"
        time.sleep(0.05)
    assert "amerikaner_store_append_failures" in families
    assert HTTP.get(f"{server.base}/healthz", timeout=30).status_code == 200
    monitor = server.registry.health.loop
    assert monitor.limit == 0.5 and monitor.hold == 10.0  # the settings' defaults
    # a monitor on a clock the test moves in its place (the server's task drives the
    # other): its task stuck past its time
    clock = FakeClock(100.0)
    stuck = server.registry.health.loop = LoopLag(0.5, 10.0, clock=clock)
    stuck.asleep()
    clock.now += stuck.interval + stuck.hold + 1
    answer = HTTP.get(f"{server.base}/healthz", timeout=30)
    body = answer.json()
    assert answer.status_code == 503 and set(body["problems"]) == {"loop"}, body
    assert "the event loop runs late" in body["problems"]["loop"], body
