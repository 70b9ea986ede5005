"""The rooms of this server process: in memory while someone uses them, in SQLite always.

A room is loaded from the database on its first use after a restart (or after it left
memory), with its match rebuilt from the stored deals; it leaves memory when nobody has
been connected to it for ``idle_seconds``, and the database when untouched for
``retention_days``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from app.settings import Settings

from . import flow
from .codes import new_code, normalize_code
from .driver import RoomDriver
from .errors import RoomError
from .lobby import checked_name, checked_rules
from .persistence import Store
from .restore import RestoreError, restore_match
from .room import Room

log = logging.getLogger("amerikaner.rooms")

SWEEP_SECONDS = 15.0


class Registry:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.rooms: dict[str, Room] = {}
        self._drivers: dict[str, RoomDriver] = {}
        self._sweeper: asyncio.Task[None] | None = None

    # -- rooms -------------------------------------------------------------------------

    def create(self, name: str, rules_raw: dict[str, Any] | None,
               practice: bool) -> tuple[Room, str]:
        """A new room with its creator in seat 0 as the host; ``(room, token)``."""
        name = checked_name(name)
        rules = checked_rules(rules_raw)
        if len(self.rooms) >= self.settings.max_rooms:
            raise RoomError("unavailable", "the server is full; try again later", 503)
        code = new_code()
        while code in self.rooms or self.store.exists(code):
            code = new_code()
        s = self.settings
        room = Room(code, rules, practice, self.store, s.grace_seconds, s.next_deal_pause)
        host = room.seats[0]
        token = host.claim(name)
        host.bot = None
        self._activate(room)
        room.commit()
        return room, token

    def get(self, code: str) -> Room | None:
        """The room with this code (loaded from the database if need be)."""
        canonical = normalize_code(code)
        if canonical is None:
            return None
        room = self.rooms.get(canonical)
        if room is not None:
            if not room.connections:
                room.idle_since = time.monotonic()  # a visit: keep it a while longer
            return room
        loaded = self.store.load(canonical)
        if loaded is None:
            return None
        data, deals = loaded
        match = None
        try:
            rules = checked_rules(data["rules"])
            if data.get("match_number", 0) > 0 and deals:
                match = restore_match(rules, deals)
        except (RestoreError, RoomError):
            log.exception("room %s: the stored room does not load", canonical)
            return None
        room = Room.from_data(data, rules, match, self.store)
        self._activate(room)
        return room

    def require(self, code: str) -> Room:
        room = self.get(code)
        if room is None:
            raise RoomError("room_not_found", "there is no room with this code", 404)
        return room

    def _activate(self, room: Room) -> None:
        room.settle = flow.settle
        room.host_grace = self.settings.host_grace
        driver = RoomDriver(room, self.settings.bot_delay)
        driver.start()
        self.rooms[room.code] = room
        self._drivers[room.code] = driver
        room.idle_since = time.monotonic()

    async def _drop(self, code: str) -> None:
        room = self.rooms.pop(code, None)
        driver = self._drivers.pop(code, None)
        if room is not None:
            room.closed = True
        if driver is not None:
            await driver.stop()

    # -- housekeeping ------------------------------------------------------------------

    def start(self) -> None:
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def _sweep_loop(self) -> None:
        last_purge = 0.0
        while True:
            await asyncio.sleep(min(SWEEP_SECONDS, max(self.settings.idle_seconds / 2, 0.2)))
            try:
                await self.sweep()
                if time.monotonic() - last_purge > 3600:
                    last_purge = time.monotonic()
                    cutoff = time.time() - self.settings.retention_days * 86400
                    gone = await asyncio.to_thread(self.store.delete_idle, cutoff)
                    if gone:
                        log.info("forgot %d rooms unused for %s days", gone,
                                 self.settings.retention_days)
            except Exception:
                log.exception("room sweep failed")

    async def sweep(self) -> None:
        """Rooms nobody has been connected to for ``idle_seconds`` leave memory."""
        now = time.monotonic()
        idle = [code for code, room in self.rooms.items()
                if not room.connections and now - room.idle_since >= self.settings.idle_seconds]
        for code in idle:
            await self._drop(code)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        for room in list(self.rooms.values()):
            for conn in list(room.connections):
                conn.close(1001)
        for code in list(self.rooms):
            await self._drop(code)
