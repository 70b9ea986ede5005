"""``RoomRunner``: carries out one room's steps.  The room decides; this does the I/O.

Inputs reach the room one at a time (a lock per room).  For each step: save first, and
only if the store took it, send the frames, start the bots and hints (in worker threads,
on private copies of the match; their answers come back as inputs), and set the room's
one timer.  A save that fails breaks the runner: nothing of that step happened, every
connection hears ``unavailable`` and is closed with 1013 (try again), and the registry
forgets the room, which the next request loads afresh from the store.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import orjson

from app.bots import choose_action
from app.bots.hints import explain
from app.bots.review import review_deal
from app.rooms.core.effects import (
    AskHint,
    AskReview,
    BotMoved,
    Close,
    HintReady,
    Input,
    ReviewReady,
    Send,
    Step,
    Think,
    Tick,
)
from app.rooms.core.errors import RoomError, unavailable
from app.rooms.core.frames import error_frame
from app.rooms.core.room import RoomCore
from app.rooms.store import RoomStore, StoreError
from app.rules import Action, Match, RuleSet, SeatView

from .connections import Connection

log = logging.getLogger("amerikaner.rooms")
T = TypeVar("T")

CLOSE_TRY_AGAIN = 1013
HINT_SECONDS = 0.5     # a practice hint's search
REVIEW_SECONDS = 8.0   # a deal review's search (docs/bots.md: 5 to 10 s give good figures)
# Bots, hints and reviews think in these threads.  Their search is pure Python and holds
# the GIL while it works, so few of them run at once, and the interpreter hands the GIL
# back to the event loop often (``sys.setswitchinterval`` in ``think_pool``).
THINKERS = 2
_SEEDS = random.Random()  # each bot decision gets its own generator, seeded from this one



def think(level: str, snapshot: Match, seat: int, rng: random.Random) -> Action:
    """The bot's choice for ``seat``, checked by the rules on ``snapshot`` (a private copy
    of the match, used up here).  A bot that fails or chooses an illegal action falls back
    to the random bot, so that a bug in a bot never stops a table."""
    view = SeatView(snapshot, seat)
    try:
        action = choose_action(level, view, rng)
        snapshot.apply(seat, action)  # raises, changing nothing, if the rules refuse it
        return action
    except Exception:
        log.exception("bot %s failed for seat %d; the random bot plays this turn",
                      level, seat)
        return choose_action("random", view, rng)


def hint_for(snapshot: Match, seat: int) -> dict[str, Any]:
    """What the strong bot would do for ``seat``, and why (``Hint.to_json()``)."""
    deadline = time.monotonic() + HINT_SECONDS
    return explain(SeatView(snapshot, seat), random.Random(), deadline).to_json()


def review_for(rules: RuleSet, record: dict[str, Any], seat: int) -> dict[str, Any]:
    deadline = time.monotonic() + REVIEW_SECONDS
    review: dict[str, Any] = review_deal(rules, record, seat, random.Random(),
                                         deadline).to_json()
    return review


class RoomRunner:
    def __init__(self, core: RoomCore, store: RoomStore,
                 on_broken: Callable[[RoomRunner], None]) -> None:
        self.core = core
        self.code = core.code
        self.store = store
        self.conns: dict[int, Connection] = {}
        self.closed = False
        self.idle_since = time.monotonic()
        self.creator: str | None = None     # who created it here (the rooms-held limit)
        self._on_broken = on_broken
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def submit(self, event: Input) -> Step:
        """Hand ``event`` to the room and carry out its step.  ``RoomError``: refused
        (nothing changed), or ``unavailable`` when the store did not take the change."""
        async with self._lock:
            if self.closed:
                raise unavailable()
            try:
                step = self.core.handle(event, time.time())
            except RoomError:
                if self.core.state.pending:  # a refusal after a change: a bug; start afresh
                    log.error("room %s: %s was refused after changing the room",
                              self.code, type(event).__name__)
                    self.break_off()
                raise
            except Exception:
                log.exception("room %s: %s failed; the room is reloaded from the store",
                              self.code, type(event).__name__)
                self.break_off()
                raise unavailable() from None
            if step.save is not None:
                try:
                    await self.store.append(self.code, step.save)
                except StoreError as exc:
                    log.warning("room %s: a save failed, the room is reloaded from the "
                                "store (%s)", self.code, exc)
                    self.break_off()
                    raise unavailable() from None
            self._carry_out(step)
            return step

    def attach(self, conn: Connection) -> None:
        self.conns[conn.id] = conn

    def detach(self, conn: Connection) -> None:
        self.conns.pop(conn.id, None)
        if not self.conns:
            self.idle_since = time.monotonic()

    # -- effects ----------------------------------------------------------------------

    def _carry_out(self, step: Step) -> None:
        for effect in step.effects:
            match effect:
                case Send(to, frame):
                    text = orjson.dumps(frame).decode()  # once for all its connections
                    for conn_id in to:
                        conn = self.conns.get(conn_id)
                        if conn is not None:
                            conn.send_text(text)
                case Think(seat, level, game, match):
                    self._spawn(self._think(seat, level, game, match))
                case AskHint(seat, game, match):
                    self._spawn(self._hint(seat, game, match))
                case AskReview(seat, match_number, deal, rules, record):
                    self._spawn(self._review(seat, match_number, deal, rules, record))
                case Close(conn_id, code):
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

    def _spawn(self, coro: object) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _quietly(self, event: Input) -> None:
        """Submit an input nobody waits for (a timer, a bot): refusals are only logged."""
        try:
            await self.submit(event)
        except RoomError as exc:
            if exc.code != "unavailable":
                log.warning("room %s: %s refused: %s", self.code, type(event).__name__,
                            exc.message)
        except Exception:
            log.exception("room %s: %s failed", self.code, type(event).__name__)

    async def _think(self, seat: int, level: str, game: int, match: Match) -> None:
        rng = random.Random(_SEEDS.random())
        action = await in_thread(think, level, match, seat, rng)
        if not self.closed:
            await self._quietly(BotMoved(seat, level, game, action))

    async def _hint(self, seat: int, game: int, match: Match) -> None:
        try:
            hint = await in_thread(hint_for, match, seat)
        except Exception:
            log.exception("room %s: the hint failed", self.code)
            return
        if not self.closed:
            await self._quietly(HintReady(seat, game, hint))

    async def _review(self, seat: int, match_number: int, deal: int, rules: RuleSet,
                      record: dict[str, Any]) -> None:
        try:
            review = await in_thread(review_for, rules, record, seat)
        except Exception:
            log.exception("room %s: the review failed", self.code)
            review = {"error": "the review could not be made"}
        if not self.closed:
            await self._quietly(ReviewReady(seat, match_number, deal, review))

    # -- ending -----------------------------------------------------------------------

    def break_off(self) -> None:
        """The room in memory can no longer be trusted (a save failed): tell everyone,
        close their connections (they come back to the room loaded afresh)."""
        self.stop()
        frame = orjson.dumps(error_frame(*_UNAVAILABLE)).decode()
        for conn in self.conns.values():
            conn.send_text(frame)
            conn.close_after_flush(CLOSE_TRY_AGAIN)
        self._on_broken(self)

    def stop(self) -> None:
        """Leave memory: no more inputs, timers or bot answers."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in list(self._tasks):
            if task is not asyncio.current_task():
                task.cancel()


_UNAVAILABLE = (unavailable().code, unavailable().message)
_pool: ThreadPoolExecutor | None = None


def in_thread(fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
    """Run ``fn(*args)`` in the thinkers' pool."""
    global _pool
    if _pool is None:
        # the loop gets the GIL back within 1 ms of asking (Python's default: 5 ms)
        sys.setswitchinterval(0.001)
        _pool = ThreadPoolExecutor(THINKERS, thread_name_prefix="thinker")
    return asyncio.get_running_loop().run_in_executor(_pool, fn, *args)
