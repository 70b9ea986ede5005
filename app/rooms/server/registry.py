"""The rooms of this server process: in memory while someone uses them, in the store
always.

A room is loaded from its log on its first use after a restart (or after it left memory);
it leaves memory when nobody has been connected to it for ``idle_seconds``, and the store
when untouched for ``retention_days``.  At most ``max_rooms`` rooms are in memory, however
they got there (created or loaded): when full, the room idle the longest makes way, and
when none is idle new rooms are refused (``/healthz`` says so).  A room whose log does not
load answers a clear error and stays in the store for inspection.

Several processes may share one store (PostgreSQL): then a room is served by the process
that holds its lease (``RoomStore.acquire``), taken before the room is loaded and let go
when it leaves memory.  A room another live process serves is answered with
``RoomElsewhere`` (503: try again; the proxy tries the next process).  A new room is
written and let go before its creation is answered: the process the proxy routes its
code to loads it.  Rooms whose lease was lost (``RoomStore.renew``) leave memory at once.

A process that is asked to stop (SIGTERM: app/shutdown.py) drains first: it takes no room
any more (``RoomElsewhere``, so the proxy passes requests on), hands each of its rooms
over (the step in flight saved and sent, the lease let go, then the connections closed
with 1012, service restart), so that their players reconnect to the process that serves
them next, at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time

from pydantic import JsonValue

from app.clubs.par_keeper import ParKeeper
from app.clubs.retention import forget_idle_clubs
from app.rooms.core.codes import normalize_code
from app.rooms.core.errors import NO_DATABASE, RoomError, unavailable
from app.rooms.core.lobby import checked_level, checked_name, checked_rules
from app.rooms.core.records import RestoreError
from app.rooms.core.room_core import RoomCore
from app.rooms.core.state import Chance, Timing
from app.rooms.core.wire_enums import CloseCode, ErrorCode
from app.rooms.store import RoomStore, StoreError
from app.runtime import memory
from app.settings import Settings
from app.web import audit, metrics
from app.web.loop_lag import LoopLag

from .chance import chance_of, new_code
from .health import HealthCheck
from .runner import RoomRunner, append
from .thinking import Thinkers

log = logging.getLogger("amerikaner.rooms")

SWEEP_SECONDS = 15.0
SYSTEM_RANDOM = secrets.SystemRandom()
SYSTEM_CHANCE = chance_of(SYSTEM_RANDOM)
PURGE_SECONDS = 3600.0


class RoomElsewhere(RoomError):
    """Another live server process serves this room now."""

    def __init__(self) -> None:
        super().__init__(ErrorCode.UNAVAILABLE, "another server process serves this room now; "
                         "try again in a moment", 503)


class Registry:
    def __init__(self, settings: Settings, store: RoomStore) -> None:
        self.settings = settings
        self.store = store
        self.timing = Timing(bot_delay=settings.bot_delay, host_grace=settings.host_grace,
                             turn_time_scale=settings.turn_time_scale)
        self.rooms: dict[str, RoomRunner] = {}
        # where the rooms' bots, hints and reviews think
        self.thinkers = Thinkers(review_seconds=settings.review_seconds,
                                 hint_seconds=settings.hint_seconds)
        # the clubs' par: made in the pool's lowest lane, kept in the store
        self.thinkers.par.level = settings.par_level
        self.par = ParKeeper(store, self.thinkers.par)
        # what /healthz says is wrong; the loop's lag is watched from ``start``
        self.health = HealthCheck(store, self.thinkers, LoopLag(
            settings.loop_lag_limit, settings.loop_lag_hold, observe=metrics.loop_lagged))
        self._loading: dict[str, asyncio.Future[RoomRunner | None]] = {}
        self.draining = False  # stopping: no room comes into memory any more
        self._sweeper: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._lag_watch: asyncio.Task[None] | None = None
        self._par_start: asyncio.Task[None] | None = None

    # -- rooms -------------------------------------------------------------------------

    def _chance(self) -> Chance:
        """The rooms' shuffles, choices and tokens: the system's secure source (docs/spec/RULES.md
        3.4).  It keeps no state, so every room shares one (a ``Random`` costs 2.5 KB)."""
        return SYSTEM_CHANCE

    async def create(self, name: str, rules_raw: dict[str, JsonValue] | None, practice: bool,
                     creator: str, bot_level: str | None = None,
                     bot_pace: str | None = None) -> tuple[str, str]:
        """A new room with its creator in seat 0 as the host: ``(code, token)``.
        ``creator`` is who asked (a client address key): one creator holds at most
        ``rooms_held`` rooms in memory at once."""
        name = checked_name(name)
        if self.draining:
            raise unavailable("this server is restarting; try again in a moment")
        held = self.settings.rooms_held
        if held and sum(1 for r in self.rooms.values() if r.creator == creator) >= held:
            audit.refused("rooms_held", address=creator, limit=held)
            raise RoomError(ErrorCode.TOO_MANY_ROOMS, f"you have {held} rooms open already: "
                            "play in one of them, or wait until some close", 429)
        rules = checked_rules(rules_raw)
        if bot_level is not None:
            bot_level = checked_level(bot_level)
        if not self.store.shared:  # else it does not stay here
            self._make_space()
        taken: str | None = None
        try:
            code = new_code()
            while (code in self.rooms or await self.store.exists(code)
                   or not await self.store.acquire(code)):
                code = new_code()
            taken = code
            s = self.settings
            core, token, save = RoomCore.create(code, rules, practice, name, s.grace_seconds,
                                                s.next_deal_pause, self.timing, self._chance(),
                                                bot_level, bot_pace)
            await append(self.store, code, save, self.health.save_failed)
        except StoreError as exc:
            log.warning("a new room could not be saved: %s", exc)
            if taken is not None:
                self.store.release(taken)
            raise unavailable(NO_DATABASE) from None
        if self.store.shared:
            # The process its code is routed to serves it: the lease is gone before the
            # answer, so that a join right after it is not refused there and passed on to
            # us (the room would then live here, off its process, until idle).
            await self.store.let_go([code])
        else:
            self._activate(core).creator = creator
        return code, token

    async def get(self, code: str) -> RoomRunner | None:
        """The room with this code, loaded from the store if need be."""
        canonical = normalize_code(code)
        if canonical is None:
            return None
        runner = self.rooms.get(canonical)
        if runner is not None:
            if not runner.conns:
                runner.idle_since = time.monotonic()  # a visit: keep it a while longer
            return runner
        loading = self._loading.get(canonical)
        if loading is not None:  # someone else is loading it: share their result
            return await asyncio.shield(loading)
        future: asyncio.Future[RoomRunner | None] = asyncio.get_running_loop().create_future()
        self._loading[canonical] = future
        try:
            runner = await self._load(canonical)
            future.set_result(runner)
            return runner
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._loading[canonical]

    async def _load(self, code: str) -> RoomRunner | None:
        """Take the room's lease, then load it; the lease goes if the room does not come
        into memory."""
        if self.draining:  # the next process serves it
            raise RoomElsewhere()
        try:
            taken = await self.store.acquire(code)
        except StoreError as exc:
            log.warning("room %s: the store does not answer: %s", code, exc)
            raise unavailable(NO_DATABASE) from None
        if not taken:
            raise RoomElsewhere()
        try:
            runner = await self._load_taken(code)
        except BaseException:
            self.store.release(code)
            raise
        if runner is None:
            self.store.release(code)
        return runner

    async def _load_taken(self, code: str) -> RoomRunner | None:
        try:
            stored = await self.store.load(code)
            if stored is None:
                return None
            core = RoomCore.restore(stored.entries, stored.first_seq, self.timing,
                                    self._chance(), code)
        except RestoreError as exc:  # whatever is wrong with what the store holds
            audit.refused("room_load", room=code, reason=str(exc))  # kept for inspection
            raise RoomError(ErrorCode.ROOM_DAMAGED, "this room's saved state is damaged and cannot "
                            "be loaded; the server's operator has been told", 500) from None
        except StoreError as exc:
            log.warning("room %s: the store does not answer: %s", code, exc)
            raise unavailable(NO_DATABASE) from None
        self._make_space()
        return self._activate(core)

    async def require(self, code: str) -> RoomRunner:
        runner = await self.get(code)
        if runner is None:
            raise RoomError(ErrorCode.ROOM_NOT_FOUND, "there is no room with this code", 404)
        return runner

    def _activate(self, core: RoomCore) -> RoomRunner:
        runner = RoomRunner(core, self.store, self.thinkers, self._forget,
                            self.health.save_failed)
        self.rooms[core.code] = runner
        return runner

    def _forget(self, runner: RoomRunner) -> None:
        if self.rooms.get(runner.code) is runner:
            del self.rooms[runner.code]
            self.store.release(runner.code)

    async def drain(self) -> None:
        """Hand every room over before this process stops: no room comes into memory any
        more; each room's step in flight ends (saved and sent) and no other starts; the
        leases go (awaited), then the connections are closed with 1012 (service restart):
        the players reconnect, through the proxy to the next process, which may take the
        room at once, or to this server once it is back."""
        self.draining = True
        for loading in list(self._loading.values()):  # rooms coming into memory now
            with contextlib.suppress(BaseException):
                await asyncio.shield(loading)
        runners = list(self.rooms.values())
        await asyncio.gather(*(r.halt() for r in runners))
        for runner in runners:
            if self.rooms.get(runner.code) is runner:
                del self.rooms[runner.code]
        await self.store.let_go([r.code for r in runners])
        for runner in runners:
            for conn in list(runner.conns.values()):
                conn.close_after_flush(runner.close_code)  # 1012: service restart
        if runners:
            log.info("handed %d rooms over before stopping", len(runners))

    # -- capacity ----------------------------------------------------------------------

    @property
    def accepting(self) -> bool:
        """Whether a new room can come into memory now."""
        if self.draining:
            return False
        return len(self.rooms) < self.settings.max_rooms or any(
            not r.conns for r in self.rooms.values())

    def _make_space(self) -> None:
        if len(self.rooms) < self.settings.max_rooms:
            return
        idle = [r for r in self.rooms.values() if not r.conns]
        if not idle:
            raise unavailable("the server is full; try again later")
        oldest = min(idle, key=lambda r: r.idle_since)
        oldest.stop()
        self._forget(oldest)

    # -- housekeeping ------------------------------------------------------------------

    def start(self) -> None:
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        self._par_start = asyncio.get_running_loop().create_task(self.par.start())
        self._lag_watch = asyncio.get_running_loop().create_task(self.health.loop.watch())
        if self.store.renew_every is not None:
            self._renewer = asyncio.get_running_loop().create_task(
                self._lease_loop(self.store.renew_every))

    async def _lease_loop(self, every: float) -> None:
        """Keep this process's rooms; a room whose lease was lost leaves memory at once
        (its connections are closed with 1013 and come back to the process serving it)."""
        while True:
            await asyncio.sleep(every)
            try:
                lost = await self.store.renew()
            except Exception:
                log.exception("the leases could not be renewed")
                continue
            metrics.LEASES_LOST.inc(len(lost))
            for code in lost:
                runner = self.rooms.get(code)
                if runner is not None:
                    log.warning("room %s: this process lost the room's lease; it leaves "
                                "memory", code)
                    runner.break_off()

    async def _sweep_loop(self) -> None:
        last_purge = 0.0
        while True:
            await asyncio.sleep(min(SWEEP_SECONDS, max(self.settings.idle_seconds / 2, 0.2)))
            try:
                if self.sweep():
                    # the last rooms are gone (and no frame holds one any more): what the
                    # store's caches and the allocators keep goes back (app/runtime/memory.py)
                    await self.store.shrink()
                    memory.give_back()
                await self.store.maintain()
                self.par.sweep()  # matches still without par (a busy server, a restart)
                if time.monotonic() - last_purge > PURGE_SECONDS:
                    last_purge = time.monotonic()
                    cutoff = time.time() - self.settings.retention_days * 86400
                    gone = await self.store.forget_idle(cutoff)
                    if gone:
                        log.info("forgot %d rooms unused for %s days", gone,
                                 self.settings.retention_days)
                    await forget_idle_clubs(self.store, self.settings.club_retention_days)
            except Exception:
                log.exception("room sweep failed")

    def sweep(self) -> bool:
        """Rooms nobody has been connected to for ``idle_seconds`` leave memory; whether
        the last rooms in memory just did."""
        now = time.monotonic()
        left = 0
        for runner in list(self.rooms.values()):
            if not runner.conns and now - runner.idle_since >= self.settings.idle_seconds:
                runner.stop()
                self._forget(runner)
                left += 1
        return left > 0 and not self.rooms

    async def close(self) -> None:
        for task in (self._sweeper, self._renewer, self._lag_watch, self._par_start):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for runner in list(self.rooms.values()):
            for conn in list(runner.conns.values()):
                conn.close(CloseCode.GOING_AWAY)
            runner.stop()
        self.rooms.clear()
        await self.par.close()
        self.thinkers.close()
