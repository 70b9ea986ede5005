"""``RoomRunner``: carries out one room's steps.  The room decides; this does the I/O.

Inputs reach the room one at a time (a lock per room).  For each step: ``decide`` (which
changes nothing lasting: a refusal is only answered), then save its records, and only if
the store took them, fold ``evolve`` over them (``fold``, state.py), send the frames,
start the bots, hints and reviews (off the loop, thinking.py; their answers come back as
inputs), and set the room's one timer.  A save that fails breaks the runner: nothing of
that step happened, every connection hears ``unavailable`` and is closed with 1013 (try
again), and the registry forgets the room, which the next request loads afresh from the
store.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import orjson

from app.double_dummy import DoubleDummy
from app.rooms.core.effects import (
    AskEarlierReview,
    AskHint,
    AskReview,
    BotMoved,
    Close,
    HintReady,
    Input,
    ReviewReady,
    Save,
    Send,
    Step,
    Think,
    Tick,
)
from app.rooms.core.errors import RoomError, unavailable
from app.rooms.core.frames import ReviewPayload, error_frame
from app.rooms.core.records import Acted
from app.rooms.core.room import decide
from app.rooms.core.room_core import RoomCore
from app.rooms.core.state import fold
from app.rooms.core.wire_enums import CloseCode, ErrorCode
from app.rooms.store import RoomStore, StoreError
from app.rules import Match, RuleSet
from app.web import metrics

from . import thinking
from .thinking import Thinkers

log = logging.getLogger("amerikaner.rooms")

_SEEDS = random.Random()  # each bot decision gets its own generator, seeded from this one


class Peer(Protocol):
    """A connection as its room sends to it (app/rooms/server/connection.py)."""

    @property
    def id(self) -> int: ...
    @property
    def address(self) -> str: ...  # as the per-address limits count it
    def send_encoded(self, data: bytes) -> None: ...
    def close_after_flush(self, code: int) -> None: ...
    def close(self, code: int = 1000) -> None: ...


async def append(store: RoomStore, code: str, save: Save,
                 failed: Callable[[StoreError], None]) -> None:
    """``store.append``, timed (``amerikaner_store_append_seconds``, failures too); a
    failure is told to ``failed`` (the health check's count) before it is raised."""
    started = time.perf_counter()
    try:
        await store.append(code, save)
    except StoreError as exc:
        failed(exc)
        raise
    finally:
        metrics.STORE_APPEND.observe(time.perf_counter() - started)


class RoomRunner:
    def __init__(self, core: RoomCore, store: RoomStore, thinkers: Thinkers,
                 on_broken: Callable[[RoomRunner], None],
                 on_save_failed: Callable[[StoreError], None]) -> None:
        self.core = core
        self.thinkers = thinkers
        self.code = core.code
        self.store = store
        self.conns: dict[int, Peer] = {}
        self.closed = False
        # what its connections are closed with once it is closed: try again (it broke
        # off), or service restart (it was handed over to the next process: ``halt``)
        self.close_code = CloseCode.TRY_AGAIN
        self.idle_since = time.monotonic()
        self.creator: str | None = None     # who created it here (the rooms-held limit)
        self._on_broken = on_broken
        self._on_save_failed = on_save_failed  # /healthz counts failed saves
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def submit(self, event: Input) -> Step:
        """Hand ``event`` to the room and carry out its step.  ``RoomError``: refused
        (nothing changed), or ``unavailable`` when the store did not take the change."""
        taken = time.perf_counter()  # the action-to-views latency counts the lock's wait
        async with self._lock:
            if self.closed:
                raise unavailable()
            core = self.core
            try:
                step = decide(core.state, core.rt, core.timing, event, time.time())
            except RoomError:
                raise  # refused: decide changed nothing
            except Exception:
                # A bug: the state is as it was, but the runtime may be half updated.
                log.exception("room %s: %s failed; the room is reloaded from the store",
                              self.code, type(event).__name__)
                self.break_off()
                raise unavailable() from None
            save = step.save
            if save is not None:
                try:
                    await append(self.store, self.code, save, self._on_save_failed)
                except StoreError as exc:
                    log.warning("room %s: a save failed, the room is reloaded from the "
                                "store (%s)", self.code, exc)
                    self.break_off()
                    raise unavailable() from None
                fold(core.state, save.entries)  # saved: the room in memory takes them
            self._carry_out(step)
            if save is not None:
                moves = sum(1 for entry in save.entries if isinstance(entry, Acted))
                if moves:
                    metrics.MOVES.inc(moves)
                    metrics.ACTION_TO_VIEWS.observe(time.perf_counter() - taken)
            return step

    def attach(self, conn: Peer) -> None:
        self.conns[conn.id] = conn

    def detach(self, conn: Peer) -> None:
        self.conns.pop(conn.id, None)
        if not self.conns:
            self.idle_since = time.monotonic()

    # -- effects ----------------------------------------------------------------------

    def _carry_out(self, step: Step) -> None:
        for effect in step.effects:
            match effect:
                case Send(to=to, frame=frame):
                    data = orjson.dumps(frame)  # once for all its connections
                    for conn_id in to:
                        conn = self.conns.get(conn_id)
                        if conn is not None:
                            conn.send_encoded(data)
                case Think(seat=seat, level=level, game=game, match=match):
                    self._spawn(self._think(seat, level, game, match))
                case AskHint(seat=seat, game=game, match=match):
                    self._spawn(self._hint(seat, game, match))
                case AskReview(seat=seat, match=match_number, deal=deal, rules=rules,
                               record=record, double_dummy=known):
                    self._spawn(self._review(seat, match_number, deal, rules, record, known))
                case AskEarlierReview(seat=seat, match=match_number, deal=deal, hints=hints,
                                      double_dummy=known):
                    self._spawn(self._earlier_review(seat, match_number, deal, hints, known))
                case Close(conn=conn_id, code=code):
                    conn = self.conns.get(conn_id)
                    if conn is not None:
                        conn.close_after_flush(code)
        self._set_timer(step.wake_at)

    def _set_timer(self, at: float | None) -> None:
        if at == self._timer_at and self._timer is not None:
            return  # already set for then (most steps do not move it)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = at
        if at is None or self.closed:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, at - time.time())
        self._timer = loop.call_at(loop.time() + delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_at = None
        self._spawn(self._quietly(Tick()))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _quietly(self, event: Input) -> None:
        """Submit an input nobody waits for (a timer, a bot): refusals are only logged."""
        try:
            await self.submit(event)
        except RoomError as exc:
            if exc.code != ErrorCode.UNAVAILABLE:
                log.warning("room %s: %s refused: %s", self.code, type(event).__name__,
                            exc.message)
        except Exception:
            log.exception("room %s: %s failed", self.code, type(event).__name__)

    async def _think(self, seat: int, level: str, game: int, match: Match) -> None:
        seed = _SEEDS.random()
        try:
            action = await self.thinkers.think(level, match, seat, seed, self.code)
        except Exception:  # the pool itself failed (a dead worker): never stall the table
            log.exception("room %s: the bot for seat %d failed; the random bot plays",
                          self.code, seat)
            action = thinking.choose_bot_action("random", match, seat, seed)
        if not self.closed:
            await self._quietly(BotMoved(seat, level, game, action))

    async def _hint(self, seat: int, game: int, match: Match) -> None:
        try:
            hint = await self.thinkers.hint(match, seat, self.code, self._address_of(seat))
        except Exception:
            log.exception("room %s: the hint failed", self.code)
            return
        if not self.closed:
            await self._quietly(HintReady(seat, game, hint))

    async def _review(self, seat: int, match_number: int, deal: int, rules: RuleSet,
                      record: dict[str, Any], known: DoubleDummy | None) -> None:
        try:
            review = await self.thinkers.review(rules, record, seat, self.code,
                                                self._address_of(seat), known)
        except Exception:
            log.exception("room %s: the review failed", self.code)
            review = {"error": "the review could not be made"}
        if not self.closed:
            await self._quietly(ReviewReady(seat, match_number, deal, review))

    async def _earlier_review(self, seat: int, match_number: int, deal: int,
                              hints: dict[str, Any], known: DoubleDummy | None) -> None:
        """The review of a deal of an earlier match, read from the match's stored record."""
        failed: ReviewPayload | None = None
        try:
            record = await self.store.load_record(self.code, match_number)
        except StoreError as exc:
            log.warning("room %s: the record of match %d was not read (%s)", self.code,
                        match_number, exc)
            record, failed = None, {"error": "the match's record could not be read now",
                                    "busy": True}
        found = thinking.deal_of_record(record, deal)
        if found is None:
            if failed is None:
                failed = {"error": f"the record of match {match_number} is no longer kept"}
            if not self.closed:
                await self._quietly(ReviewReady(seat, match_number, deal, failed))
            return
        rules, data = found
        if hints:
            data["hints"] = hints
        await self._review(seat, match_number, deal, rules, data, known)

    def _address_of(self, seat: int) -> str:
        """The address of a connection of ``seat`` (whose hints and reviews these are)."""
        for conn_id, who in self.core.conns.items():
            conn = self.conns.get(conn_id)
            if who.seat == seat and conn is not None:
                return conn.address
        return ""

    # -- ending -----------------------------------------------------------------------

    def break_off(self) -> None:
        """The room in memory can no longer be trusted (a save failed): tell everyone,
        close their connections (they come back to the room loaded afresh)."""
        self.stop()
        refusal = unavailable()
        frame = orjson.dumps(error_frame(refusal.code, refusal.message))
        for conn in self.conns.values():
            conn.send_encoded(frame)
            conn.close_after_flush(CloseCode.TRY_AGAIN)
        self._on_broken(self)

    async def halt(self) -> None:
        """``stop`` once the step in flight (if any) is saved and sent: every change the
        room acknowledged is in the store, and no other comes."""
        async with self._lock:
            self.close_code = CloseCode.SERVICE_RESTART
            self.stop()

    def stop(self) -> None:
        """Leave memory: no more inputs, timers or bot answers."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in list(self._tasks):
            if task is not asyncio.current_task():
                task.cancel()

