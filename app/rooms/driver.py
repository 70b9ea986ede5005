"""A room's driver: the one task per room that makes things happen without a message.

Bots' turns (a bot seat, or a bot standing in for an away person), the grace period of a
disconnected person whose turn it is, and the next deal's timer.  The driver sleeps until
the room changes (``poke``) or the next deadline.  A bot thinks in a worker thread on a
copy of the match, so it never holds up the event loop, and its action then goes through
the same checks as a person's, on the version it saw.  Nothing runs while no person is
connected: bots do not play to an empty room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time

from app.bots import choose_action
from app.rules import Action, Match, SeatView
from app.rules.match import DEAL_OVER

from . import flow
from .room import Room

log = logging.getLogger("amerikaner.rooms")


def _think(level: str, snapshot: Match, seat: int, rng: random.Random) -> Action:
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


class RoomDriver:
    def __init__(self, room: Room, bot_delay: float) -> None:
        self.room = room
        self.bot_delay = bot_delay
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._plan: tuple[tuple[int, int, int], float] | None = None  # bot turn, when due
        self._rng = random.Random()

    def start(self) -> None:
        self.room.wake = self.poke
        self._task = asyncio.get_running_loop().create_task(self._run())

    def poke(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        task = self._task
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(BaseException):
            await task

    async def _run(self) -> None:
        while not self.room.closed:
            self._wake.clear()
            try:
                wait = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("room %s: driver step failed", self.room.code)
                wait = 1.0
            if wait == 0:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def _step(self) -> float | None:
        """Do what is due; the seconds until the next thing is due (``None``: nothing)."""
        room = self.room
        gone = room.host_gone_since
        host_wait: float | None = None
        if gone is not None and room.humans_connected():
            host_wait = gone + room.host_grace - time.monotonic()
            if host_wait <= 0:
                room.commit()  # settle passes the host role on
                return 0
        wait = await self._step_game()
        if host_wait is None:
            return wait
        return host_wait if wait is None else min(wait, host_wait)

    async def _step_game(self) -> float | None:
        room = self.room
        match = room.match
        if match is None or not room.humans_connected():
            return None
        if match.phase == DEAL_OVER:
            at = room.next_deal_at
            if at is None:
                return None
            left = at - time.time()
            if left > 0:
                return left
            flow.next_deal(room)
            room.commit()
            return 0
        turn = match.turn
        deal = match.deal
        if turn is None or deal is None:
            return None
        now = time.monotonic()
        level = room.controller(turn)
        if level is None:
            if turn in room.connected_seats():
                return None
            deadline = room.grace_deadline.setdefault(turn, now + room.grace_seconds)
            if now < deadline:
                return deadline - now
            room.seats[turn].away = True
            room.grace_deadline.pop(turn, None)
            room.commit()
            return 0
        key = (room.match_number, len(match.deals), deal.action_count)
        if self._plan is None or self._plan[0] != key:
            delay = self.bot_delay * self._rng.uniform(0.6, 1.4)
            self._plan = (key, now + delay)
        due = self._plan[1]
        if now < due:
            return due - now
        version = room.version
        action = await asyncio.to_thread(_think, level, match.copy(), turn,
                                         random.Random(self._rng.random()))
        if room.closed:
            return None
        if flow.play_bot(room, turn, level, version, action):
            room.commit()
        return 0
