"""Every metric the server exports at ``/metrics`` (Prometheus' text format), and what it
means.  One process, one set of figures: behind a load balancer Prometheus scrapes each
process (docs/operations.md, "Metrics").

The adapters record them (the runner, the connections, the WebSocket endpoint, the
PostgreSQL store, the bots' thinkers), never the room core (app/rooms/core stays pure):

``amerikaner_rooms`` (gauge)
    Rooms in this process's memory now (``/healthz``'s ``rooms``), read when scraped.
``amerikaner_websocket_connections`` (gauge)
    Open WebSocket connections (players and spectators of the rooms), from the upgrade to
    the close.
``amerikaner_moves_total`` (counter)
    Game actions applied (bids, discards, cards; a person's or a bot's), counted once the
    store took them.  ``rate(amerikaner_moves_total[1m])`` is the moves per second.
``amerikaner_action_to_views_seconds`` (histogram)
    For each input that applied a game action: from the room taking it (its turn at the
    room's lock included) until the new views were handed to every socket (the save to the
    store included, the network not).
``amerikaner_store_append_seconds`` (histogram)
    One write of a room's changes to the store (SQLite or PostgreSQL), failed ones too.
``amerikaner_store_append_failures_total`` (counter)
    Writes of a room's changes that the store did not take (a full disk, a locked or
    read-only file, a database gone; not a PostgreSQL lease lost to another process):
    each room broke off and was reloaded.  A rise: ``/healthz`` fails (``saves``) for
    30 s after it.
``amerikaner_event_loop_lag_seconds`` (histogram)
    How late the event loop woke a task that sleeps a quarter of a second again and again
    (app/web/loop_lag.py): every room's moves, timers and frames wait as long.  Late by
    more than ``AMERIKANER_LOOP_LAG_LIMIT`` at every wake-up for
    ``AMERIKANER_LOOP_LAG_HOLD`` seconds: ``/healthz`` fails (``loop``).
``amerikaner_lease_takeovers_total`` (counter)
    PostgreSQL only: rooms this process took over from a process whose lease had lapsed
    (it died, or stopped renewing).  Rising: processes are dying.
``amerikaner_leases_lost_total`` (counter)
    PostgreSQL only: rooms this process lost to another one (it could not renew its leases
    in time); their connections were closed with 1013 and came back to the new owner.
``amerikaner_bot_decision_seconds{level}`` (histogram)
    A bot's decision, by the level asked for (``random``, ``easy``, ``normal``,
    ``strong``): from asking to the answer, the wait for a search worker included (the
    bot's pretended thinking time, ``AMERIKANER_BOT_DELAY``, is not).
``amerikaner_refusals_total{code, via}`` (counter)
    Refusals, by their stable wire code (``ErrorCode``: ``rate_limited``,
    ``illegal_play``, ``bad_json``...) and ``via`` ``ws`` (an error frame) or ``http`` (an
    error body).  Every message over the rate limit counts, though only the first of a
    streak is answered.  Every code starts at 0.
``amerikaner_search_queue_length{lane}`` (gauge)
    Jobs waiting for a search worker, by lane (``bot``, ``hint``, ``review``), read when
    scraped.  Bot moves waiting often: the worker pool is too small for the tables.
``amerikaner_search_queue_wait_seconds{lane}`` (histogram)
    Each search job's wait for a worker, by lane: from its admission until it is handed
    to a worker (``/healthz``'s ``search.queue_wait``).  A bot move given up for want of a
    worker has no wait: it counts in ``amerikaner_search_fallbacks_total``.  Every lane
    starts at 0.
``amerikaner_search_fallbacks_total`` (counter)
    Bot moves decided by the quick bot (``easy``) because no search worker was free in
    time (``/healthz``'s ``search.no_worker_in_time``), read when scraped.  Rising: the
    tables want more searches than the workers give.
``amerikaner_search_workers_replaced_total`` (counter)
    Search workers that died or overran a job's hard limit, and were replaced
    (``search.replaced``), read when scraped.
``amerikaner_search_refused_total`` (counter)
    Hints and reviews refused over a room's or a client address's bound
    (``search.refused``; a refused hint is the easy bot's instead), read when scraped.
``amerikaner_replays_open`` (gauge)
    Replays admitted and not yet answered (an upload's body being read, a replay waiting
    for a replay worker or being made: app/rooms/server/replay_pool.py), read when
    scraped.  At ``AMERIKANER_REPLAY_WORKERS`` + ``AMERIKANER_REPLAY_QUEUE`` more are
    refused (``unavailable``).
``amerikaner_players_made_total``, ``amerikaner_clubs_made_total`` (counters)
    Players (``POST /api/players``) and clubs (``POST /api/clubs``) made by this process.
``amerikaner_club_matches_total`` (counter)
    Finished matches of club rooms this process counted in their club's standings (once
    each, in the transaction that logged the match's end: app/clubs/ledger.py).
``amerikaner_device_codes_total{outcome}`` (counter)
    Device codes made (``made``), claimed (``claimed``) and refused at a claim
    (``refused``: unknown, used or out of time).  Many refusals: someone guesses.

Besides these, prometheus-client's own: ``process_*`` (CPU seconds, resident memory, open
file descriptors) and ``python_*`` (the interpreter, its garbage collections).

Cost: a move adds one counter increment and two histogram observations (a few
microseconds; docs/operations.md, "Metrics", has benchmarks/load.py before and after).
The gauges of things the server already holds, and the search pool's own counts, are read
only when scraped (``LiveGauge``, ``LiveCounter``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar, cast

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from app.bot_levels import ALIASES, BOT_LEVELS
from app.search_lanes import LANES  # the search pool's lanes, declared once

# No ``*_created`` series beside each counter and histogram: they double the output and
# no dashboard here reads them.
disable_created_metrics()  # type: ignore[no-untyped-call]  # (unannotated upstream)

Owner = TypeVar("Owner")

# Seconds; an action's views take milliseconds, a save a millisecond or two (SQLite) or a
# round trip (PostgreSQL), a searching bot up to about a second (thinking.py).
FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                2.5, 5.0)
BOT_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 5.0, 10.0)
# A job handed at once to an idle worker waits well under a millisecond; a bot move at
# most its start_within (thinking.py: a second), a review behind others seconds.
QUEUE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# The loop's lag: well under a millisecond on a quiet loop, seconds when it is stuck.
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
               10.0)
VIAS = ("ws", "http")


Read = Callable[[Owner], Mapping[tuple[str, ...], float]]


class LiveMetric(Collector):
    """A metric read when scraped from the objects that hold its figure (the room
    registry, the search pool): nothing is recorded as the figure changes.  Its value is
    the sum over the owners watched (one per app; the tests run several apps in one
    process), which are held weakly, so an app that ended is no longer counted.
    ``LiveGauge`` and ``LiveCounter`` below say which kind of metric it is."""

    family: type[GaugeMetricFamily] | type[CounterMetricFamily]

    def __init__(self, name: str, documentation: str, labels: tuple[str, ...] = (),
                 always: Iterable[tuple[str, ...]] = ((),),
                 registry: CollectorRegistry | None = REGISTRY) -> None:
        """``always``: the label values exported even while no owner reports them (0)."""
        self.name = name
        self.documentation = documentation
        self.labels = labels
        self.always = tuple(always)
        self._owners: weakref.WeakKeyDictionary[object, Read[object]] = (
            weakref.WeakKeyDictionary())
        if registry is not None:
            registry.register(self)

    def watch(self, owner: Owner, read: Read[Owner]) -> None:
        """Add ``read(owner)`` (values by label values) to the gauge while ``owner`` lives,
        or until ``forget``.  The owner's type is the caller's (app/main.py): this module
        knows nothing of the registry or the pools it reads."""
        # Each read is only ever called with its own owner: the cast forgets no more.
        self._owners[owner] = cast("Read[object]", read)

    def forget(self, owner: object) -> None:
        self._owners.pop(owner, None)

    def describe(self) -> Iterable[Metric]:
        return [self.family(self.name, self.documentation, labels=self.labels)]

    def collect(self) -> Iterable[Metric]:
        totals = dict.fromkeys(self.always, 0.0)
        for owner, read in list(self._owners.items()):
            for key, value in read(owner).items():
                totals[key] = totals.get(key, 0.0) + value
        family = self.family(self.name, self.documentation, labels=self.labels)
        for key, value in sorted(totals.items()):
            family.add_metric(list(key), value)
        return [family]


class LiveGauge(LiveMetric):
    """A gauge of figures the owners hold (rooms in memory, jobs waiting)."""

    family = GaugeMetricFamily


class LiveCounter(LiveMetric):
    """A counter of counts the owners keep themselves (the search pool's, in its
    ``stats()``), which only grow while an owner lives: nothing is incremented here.  An
    owner that ends takes its count with it, which Prometheus reads as a counter's reset
    (as a restarted process)."""

    family = CounterMetricFamily


ROOMS = LiveGauge(
    "amerikaner_rooms", "Rooms in this process's memory")
WEBSOCKETS = Gauge(
    "amerikaner_websocket_connections", "Open WebSocket connections")
MOVES = Counter(
    "amerikaner_moves_total", "Game actions applied (people's and bots'), once saved")
ACTION_TO_VIEWS = Histogram(
    "amerikaner_action_to_views_seconds",
    "From a room taking an input that applied a game action to its views handed to "
    "every socket", buckets=FAST_BUCKETS)
STORE_APPEND = Histogram(
    "amerikaner_store_append_seconds", "One write of a room's changes to the store",
    buckets=FAST_BUCKETS)
STORE_APPEND_FAILURES = Counter(
    "amerikaner_store_append_failures_total",
    "Writes of a room's changes the store did not take (a lost lease not counted)")
EVENT_LOOP_LAG = Histogram(
    "amerikaner_event_loop_lag_seconds",
    "How late the event loop woke a task sleeping a quarter of a second",
    buckets=LAG_BUCKETS)
PLAYERS_MADE = Counter("amerikaner_players_made_total", "Players made")
CLUBS_MADE = Counter("amerikaner_clubs_made_total", "Clubs made")
CLUB_MATCHES = Counter(
    "amerikaner_club_matches_total",
    "Finished matches of club rooms counted in their club's standings")
DEVICE_CODES = Counter(
    "amerikaner_device_codes_total", "Device codes made, claimed and refused at a claim",
    ("outcome",))
for _outcome in ("made", "claimed", "refused"):
    DEVICE_CODES.labels(_outcome)
LEASE_TAKEOVERS = Counter(
    "amerikaner_lease_takeovers_total",
    "Rooms taken over from a process whose lease had lapsed (PostgreSQL)")
LEASES_LOST = Counter(
    "amerikaner_leases_lost_total",
    "Rooms this process lost to another one: its leases were not renewed in time "
    "(PostgreSQL)")
BOT_DECISION = Histogram(
    "amerikaner_bot_decision_seconds",
    "A bot's decision by level, from asking to the answer (a worker's wait included)",
    ("level",), buckets=BOT_BUCKETS)
REFUSALS = Counter(
    "amerikaner_refusals_total", "Errors sent to clients, by wire code and transport",
    ("code", "via"))
SEARCH_QUEUE = LiveGauge(
    "amerikaner_search_queue_length", "Jobs waiting for a search worker, by lane",
    ("lane",), always=[(lane,) for lane in LANES])
REPLAYS_OPEN = LiveGauge(
    "amerikaner_replays_open", "Replays admitted and not yet answered (upload being read, "
    "waiting for a replay worker, or being made)")
SEARCH_QUEUE_WAIT = Histogram(
    "amerikaner_search_queue_wait_seconds",
    "A search job's wait for a worker, by lane, from its admission until it was handed "
    "to one", ("lane",), buckets=QUEUE_BUCKETS)
SEARCH_FALLBACKS = LiveCounter(
    "amerikaner_search_fallbacks_total",
    "Bot moves decided by the quick bot because no search worker was free in time")
SEARCH_WORKERS_REPLACED = LiveCounter(
    "amerikaner_search_workers_replaced_total",
    "Search workers that died or overran a job, and were replaced")
SEARCH_REFUSED = LiveCounter(
    "amerikaner_search_refused_total",
    "Hints and reviews refused over a room's or a client address's bound")

# Every label value is known in advance: each series exists from the start (at 0, so that
# rate() and increase() see the first event), and a stray value cannot add series.  The
# refusals' codes are the rooms' wire enum (``ErrorCode``), which app/main.py hands to
# ``count_refusal_codes`` so that this layer does not import the rooms above it.
_REFUSALS: dict[tuple[str, str], Counter] = {}
_BOT_DECISION = {level: BOT_DECISION.labels(level) for level in BOT_LEVELS}
_BOT_DECISION.update({old: _BOT_DECISION[new] for old, new in ALIASES.items()})
_SEARCH_QUEUE_WAIT = {lane: SEARCH_QUEUE_WAIT.labels(lane) for lane in LANES}

# The names a dashboard or an alert may use (tests/test_metrics_deploy.py checks deploy/ by it).
EXPORTED = frozenset({
    "amerikaner_rooms", "amerikaner_websocket_connections", "amerikaner_moves_total",
    "amerikaner_action_to_views_seconds", "amerikaner_store_append_seconds",
    "amerikaner_store_append_failures_total", "amerikaner_event_loop_lag_seconds",
    "amerikaner_lease_takeovers_total", "amerikaner_leases_lost_total",
    "amerikaner_bot_decision_seconds", "amerikaner_refusals_total",
    "amerikaner_search_queue_length", "amerikaner_search_queue_wait_seconds",
    "amerikaner_search_fallbacks_total", "amerikaner_search_workers_replaced_total",
    "amerikaner_search_refused_total", "amerikaner_replays_open"})


def count_refusal_codes(codes: Iterable[str]) -> None:
    """Make the refusals' series of ``codes`` (each at 0 by each ``via``): ``refused``
    counts these codes alone.  Called again with the same codes, it changes nothing."""
    for code in codes:
        for via in VIAS:
            _REFUSALS[(code, via)] = REFUSALS.labels(code, via)


def refused(code: str, via: str) -> None:
    """Count an error sent to a client (``via``: ``ws`` or ``http``); a code that is not
    one of ``count_refusal_codes``' is not counted (no series beyond the known ones)."""
    child = _REFUSALS.get((code, via))
    if child is not None:
        child.inc()


def bot_decided(level: str, seconds: float) -> None:
    child = _BOT_DECISION.get(level)
    if child is not None:
        child.observe(seconds)


def loop_lagged(seconds: float) -> None:
    """The event loop woke a task ``seconds`` late (app/web/loop_lag.py)."""
    EVENT_LOOP_LAG.observe(seconds)


def search_waited(lane: str, seconds: float) -> None:
    """A search job of ``lane`` waited ``seconds`` for a worker (the pool's ``on_wait``,
    set by thinking.py); a lane not in ``LANES`` adds no series."""
    child = _SEARCH_QUEUE_WAIT.get(lane)
    if child is not None:
        child.observe(seconds)


def exposition(accept: str | None,
               registry: CollectorRegistry = REGISTRY) -> tuple[bytes, str]:
    """The registry's metrics in the format the scraper asked for (Prometheus' text
    format, or OpenMetrics when its ``Accept`` prefers it): the body and its type."""
    encode, content_type = choose_encoder(accept or "")
    return encode(registry), content_type
