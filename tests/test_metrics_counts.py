"""What the metrics count (app/web/metrics.py): each metric moves as a room plays, a
refusal code not on the wire adds no series, live gauges sum the owners alive, each
search series exists at 0 from the start, and the search pool's from its own counts and
its queue waits.
"""

from __future__ import annotations

import gc
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from app.main import forget_search_pool, watch_search_pool
from app.rooms.server.pool_stats import PoolStats, PoolWaits
from app.rooms.server.search_pool import SearchPool
from app.search_lanes import LANES
from app.web import metrics

sys.path.insert(0, str(Path(__file__).resolve().parent / "rooms"))
from metrics_helpers import PATIENCE, ROOT, sample, serve, servers_of_a_test
from rooms_harness import Client, ServerThread, act_until, create_room, my_turn
from shared_helpers import HTTP


@pytest.fixture
def served(tmp_path: Path) -> Iterator[list[ServerThread]]:
    """Servers the test starts (``ServerThread``), stopped after it."""
    with servers_of_a_test() as started:
        yield started


# -- what they count ---------------------------------------------------------------------


def counted_moves(before: dict[str, float]) -> tuple[float, float]:
    """The moves and the action-to-views observations since ``before``, once the room's
    last move is counted: the runner counts a move after its frames are sent, so the frame
    that made it Ann's turn may come before its count (waited for, as an event: the two
    read the same twice in a row)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        moves = sample("amerikaner_moves_total") - before["amerikaner_moves_total"]
        views = sample("amerikaner_action_to_views_seconds_count") \
            - before["amerikaner_action_to_views_seconds_count"]
        if moves == sample("amerikaner_moves_total") - before["amerikaner_moves_total"] \
                and (moves == views or time.monotonic() > deadline):
            return moves, views
        time.sleep(0.01)


def test_each_metric_moves_as_a_room_plays(tmp_path: Path,
                                           served: list[ServerThread]) -> None:
    server = serve(served, tmp_path / "a")
    before = {name: sample(name) for name in (
        "amerikaner_moves_total", "amerikaner_action_to_views_seconds_count",
        "amerikaner_store_append_seconds_count")}
    easy_before = sample("amerikaner_bot_decision_seconds_count", level="easy")
    bad_json = sample("amerikaner_refusals_total", code="bad_json", via="ws")
    no_room = sample("amerikaner_refusals_total", code="room_not_found", via="http")
    sockets = sample("amerikaner_websocket_connections")

    room = create_room(server.base, bot_level="easy")
    assert HTTP.get(f"{server.base}/api/rooms/zzzzzzzz").status_code == 404
    ann = Client(server.base, room["room"], token=room["token"])
    assert sample("amerikaner_websocket_connections") == sockets + 1
    assert sample("amerikaner_rooms") >= 1
    ann.send_raw("{not json")
    assert ann.error()["code"] == "bad_json"
    ann.send({"type": "start"})
    rng = random.Random(4)
    # Ann's turn in the play, a trick begun: the bots wait for her, the room is still
    act_until(ann, lambda v: v["phase"] == "play" and len(v["trick"]) >= 2 and my_turn(v),
              rng, timeout=PATIENCE)
    moves, views = counted_moves(before)
    assert moves >= 6  # four bids at least, a discard, a card
    # one observation per input that applied an action; an input applies at most one
    assert views == moves
    assert sample("amerikaner_store_append_seconds_count") \
        - before["amerikaner_store_append_seconds_count"] >= moves + 1  # and the creation
    assert sample("amerikaner_bot_decision_seconds_count", level="easy") > easy_before
    assert sample("amerikaner_refusals_total", code="bad_json", via="ws") == bad_json + 1
    assert sample("amerikaner_refusals_total", code="room_not_found", via="http") \
        == no_room + 1
    ann.close()
    deadline = time.monotonic() + PATIENCE
    while sample("amerikaner_websocket_connections") != sockets:
        assert time.monotonic() < deadline, "the socket's close was never counted"
        time.sleep(0.05)


def test_a_refusal_with_a_code_not_on_the_wire_adds_no_series() -> None:
    metrics.refused("no_such_code", "ws")
    metrics.refused("bad_json", "carrier_pigeon")
    metrics.bot_decided("grandmaster", 0.1)
    metrics.search_waited("elsewhere", 0.1)
    exported = REGISTRY.get_sample_value
    assert exported("amerikaner_refusals_total", {"code": "no_such_code", "via": "ws"}) is None
    assert exported("amerikaner_bot_decision_seconds_count", {"level": "grandmaster"}) is None
    assert exported("amerikaner_search_queue_wait_seconds_count", {"lane": "elsewhere"}) is None
    # an old name of a level counts as its level
    easy = sample("amerikaner_bot_decision_seconds_count", level="easy")
    metrics.bot_decided("heuristic", 0.1)
    assert sample("amerikaner_bot_decision_seconds_count", level="easy") == easy + 1


class _Owner:
    def __init__(self, waiting: float) -> None:
        self.waiting = waiting


def test_a_live_gauge_sums_the_owners_alive_and_forgets_the_others() -> None:
    gauge = metrics.LiveGauge(
        "test_queue", "a test", ("lane",), always=[("bot",)], registry=None)

    def values() -> dict[tuple[str, ...], float]:
        return {tuple(s.labels.values()): s.value for f in gauge.collect() for s in f.samples}

    assert values() == {("bot",): 0.0}
    one, two = _Owner(2), _Owner(3)
    gauge.watch(one, lambda o: {("bot",): o.waiting, ("hint",): 1.0})
    gauge.watch(two, lambda o: {("bot",): o.waiting})
    assert values() == {("bot",): 5.0, ("hint",): 1.0}
    gauge.forget(one)
    assert values() == {("bot",): 3.0}
    del two
    gc.collect()
    assert values() == {("bot",): 0.0}  # held weakly: an ended app counts no more


SEARCH_COUNTERS = ("amerikaner_search_fallbacks_total",
                   "amerikaner_search_workers_replaced_total", "amerikaner_search_refused_total")


def test_every_search_series_is_there_at_0_from_the_start() -> None:
    """In a process that just imported the metrics: each lane's wait histogram and each of
    the pool's counters, at 0 before any pool exists (rate() sees the first event)."""
    fresh = subprocess.run(
        [sys.executable, "-c",
         "from app.web import metrics; print(metrics.exposition(None)[0].decode())"],
        capture_output=True, text=True, cwd=ROOT, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    values = {(s.name, tuple(sorted(s.labels.items()))): s.value
              for family in text_string_to_metric_families(fresh.stdout)
              for s in family.samples}
    for lane in LANES:
        labels = (("lane", lane),)
        assert values[("amerikaner_search_queue_wait_seconds_count", labels)] == 0
        assert values[("amerikaner_search_queue_wait_seconds_bucket",
                       (("lane", lane), ("le", "+Inf")))] == 0
    for name in SEARCH_COUNTERS:
        assert values[(name, ())] == 0


class _Pool(SearchPool):
    """A pool whose counts the test sets (no worker is started: a pool starts on its first
    job); the pool's own counting is tests/rooms/test_search_pool.py's."""

    def __init__(self) -> None:
        super().__init__(1)
        self.figures = super().stats()

    def stats(self) -> PoolStats:
        return self.figures


def test_the_search_pools_counts_are_its_counters() -> None:
    pool = _Pool()
    before = {name: sample(name) for name in SEARCH_COUNTERS}
    watch_search_pool(pool)
    assert {name: sample(name) for name in SEARCH_COUNTERS} == before
    pool.figures["no_worker_in_time"] = 2  # two bot moves decided by the quick bot
    pool.figures["replaced"] = 1
    assert sample("amerikaner_search_fallbacks_total") \
        == before["amerikaner_search_fallbacks_total"] + 2
    assert sample("amerikaner_search_workers_replaced_total") \
        == before["amerikaner_search_workers_replaced_total"] + 1
    assert sample("amerikaner_search_refused_total") \
        == before["amerikaner_search_refused_total"]
    pool.figures["refused"] = 3
    assert sample("amerikaner_search_refused_total") \
        == before["amerikaner_search_refused_total"] + 3
    forget_search_pool(pool)  # as an app that ends
    assert {name: sample(name) for name in SEARCH_COUNTERS} == before


def test_each_queue_wait_is_observed_in_its_lane() -> None:
    def count(lane: str, le: str | None = None) -> float:
        if le is None:
            return sample("amerikaner_search_queue_wait_seconds_count", lane=lane)
        return sample("amerikaner_search_queue_wait_seconds_bucket", lane=lane, le=le)

    before = {(lane, le): count(lane, le) for lane in LANES
              for le in (None, "0.00025", "0.0005", "2.5")}
    waits = PoolWaits(on_wait=metrics.search_waited)  # as thinking.py gives the pool
    waits.record("hint", 0.0003)
    waits.record("review", 2.0)
    after = {key: count(*key) - value for key, value in before.items()}
    assert after == {
        ("bot", None): 0, ("bot", "0.00025"): 0, ("bot", "0.0005"): 0, ("bot", "2.5"): 0,
        ("hint", None): 1, ("hint", "0.00025"): 0, ("hint", "0.0005"): 1, ("hint", "2.5"): 1,
        ("review", None): 1, ("review", "0.00025"): 0, ("review", "0.0005"): 0,
        ("review", "2.5"): 1,
        ("par", None): 0, ("par", "0.00025"): 0, ("par", "0.0005"): 0, ("par", "2.5"): 0}
