"""A room: its seats, rules, settings, chat, match and connections, and the one way its
state changes: ``commit()``.

``commit()`` is called after every accepted change.  It settles what follows from the
change (flow.settle: the host, the next deal's time, takeovers, the record), bumps the
version, writes the room to the database (write-ahead: before anyone hears of it),
sends every connection its own view and wakes the room's driver (bots and timers).  All
of it runs on the event loop without awaiting, so a change and its broadcast can never
interleave with another change: that is the room's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from app.bots import BEST_BOT, choose_action
from app.rules import Match, RuleSet, SeatView
from app.rules.record import deal_to_record, match_to_record

from .connections import Connection
from .persistence import Store
from .seats import Seat
from .views import LOBBY, full_view, room_info

log = logging.getLogger("amerikaner.rooms")

CHAT_KEEP = 50


def finished_deals(match: Match) -> int:
    """How many deals from the start are over for good (only the last can be going on)."""
    deals = match.deals
    return len(deals) if not deals or deals[-1].over else len(deals) - 1


class Room:
    def __init__(self, code: str, rules: RuleSet, practice: bool, store: Store,
                 grace_seconds: int, next_deal_pause: int) -> None:
        self.code = code
        self.rules = rules
        self.practice = practice
        self.store = store
        self.seats = [Seat(i, bot=BEST_BOT) for i in range(rules.options.players)]
        self.host: int | None = 0
        self.version = 0
        self.grace_seconds = grace_seconds
        self.next_deal_pause = next_deal_pause
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self.match: Match | None = None
        self.match_number = 0
        self.recorded_match = 0          # the last match number whose record is stored
        self.next_deal_at: float | None = None
        # runtime only
        self.connections: list[Connection] = []
        self.grace_deadline: dict[int, float] = {}
        # A host who reloads the page keeps the role: it passes on only after host_grace
        # seconds without the host (monotonic time the host went, None while connected).
        self.host_grace = 15.0
        self.host_gone_since: float | None = None
        self.idle_since = time.monotonic()
        self.saved_deals = 0             # deals of this match stored for good (finished)
        self.wake: Callable[[], None] = lambda: None
        self.settle: Callable[[Room], None] = lambda room: None
        self.closed = False
        self._pub_chain: asyncio.Task[None] | None = None
        self._rng = secrets.SystemRandom()

    # -- questions -----------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return LOBBY if self.match is None else self.match.phase

    @property
    def record_available(self) -> bool:
        return self.recorded_match > 0

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat is not None}

    def spectator_count(self) -> int:
        return sum(1 for c in self.connections if c.spectator)

    def humans_connected(self) -> bool:
        return any(c.seat is not None for c in self.connections)

    def controller(self, seat: int) -> str | None:
        """The bot level playing ``seat`` now, ``None`` when its person does."""
        s = self.seats[seat]
        if s.bot is not None:
            return s.bot
        if s.away:
            return BEST_BOT
        return None

    def playing_seat(self, conn: Connection) -> int | None:
        """The seat whose cards this connection may see (not a pending takeover)."""
        seat = conn.seat
        if seat is None or self.seats[seat].takeover:
            return None
        return seat

    def joinable_seats(self) -> list[int]:
        if self.practice:
            return []
        if self.match is None:
            return [s.index for s in self.seats if not s.human]
        return [s.index for s in self.seats if s.bot is not None and not s.human]

    def seat_for_token(self, token: str) -> Seat | None:
        """The seat this token holds, if any."""
        return next((s for s in self.seats if s.holds(token)), None)

    def player_names(self) -> list[str]:
        return [s.player_name for s in self.seats]

    def new_match(self) -> None:
        """A new match under the room's rules (the first, or a rematch), its first deal
        dealt."""
        self.match = Match(self.rules)
        self.match_number += 1
        self.saved_deals = 0
        self.match.start_deal()

    def record(self) -> dict[str, Any]:
        assert self.match is not None
        return match_to_record(self.match, self.player_names())

    # -- the one way state changes -------------------------------------------------------

    def commit(self) -> None:
        """After an accepted change: settle, version, save, broadcast, wake the driver."""
        self.settle(self)
        self.version += 1
        self.save()
        self.publish()
        self.wake()

    def save(self) -> None:
        deals: list[tuple[int, dict[str, Any]]] = []
        if self.match is not None:
            all_deals = self.match.deals
            deals = [(i, deal_to_record(all_deals[i]))
                     for i in range(self.saved_deals, len(all_deals))]
            self.saved_deals = finished_deals(self.match)
        self.store.save(self.code, self.to_data(), self.match_number, deals)

    def publish(self) -> None:
        """Queue each connection's own view: ``{"type": "state", ...}``."""
        if not self.connections:
            return
        info = room_info(self)
        texts: dict[tuple[int | None, int | None], str] = {}
        hint_seat = self._hint_seat()
        pending: list[tuple[Connection, dict[str, Any]]] = []
        sends: list[tuple[Connection, str]] = []
        for conn in self.connections:
            key = (self.playing_seat(conn), conn.seat)
            if hint_seat is not None and key[0] == hint_seat:
                pending.append((conn, self._state(full_view(self, key[0], key[1], info))))
                continue
            text = texts.get(key)
            if text is None:
                text = texts[key] = json.dumps(
                    self._state(full_view(self, key[0], key[1], info)), separators=(",", ":"))
            sends.append((conn, text))
        chain = self._pub_chain
        if not pending and (chain is None or chain.done()):
            for conn, text in sends:
                conn.send_text(text)
            return
        assert self.match is not None
        snapshot = self.match.copy() if hint_seat is not None else None
        self._pub_chain = asyncio.get_running_loop().create_task(
            self._publish_later(chain, sends, pending, snapshot, hint_seat))

    def _state(self, view: dict[str, Any]) -> dict[str, Any]:
        return {"type": "state", "version": self.version, "view": view}

    def _hint_seat(self) -> int | None:
        """Practice rooms: the person's seat when it is their turn (they get a hint)."""
        m = self.match
        if not self.practice or m is None or m.turn is None:
            return None
        return m.turn if self.controller(m.turn) is None else None

    async def _publish_later(self, chain: asyncio.Task[None] | None,
                             sends: list[tuple[Connection, str]],
                             pending: list[tuple[Connection, dict[str, Any]]],
                             snapshot: Match | None, seat: int | None) -> None:
        """Send in order after the previous publish, with the hint computed off the loop."""
        if chain is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(chain)
        hint = None
        if snapshot is not None and seat is not None:
            try:
                action = await asyncio.to_thread(
                    choose_action, BEST_BOT, SeatView(snapshot, seat), random.Random())
                hint = action.to_json()
            except Exception:
                log.exception("hint for room %s failed", self.code)
        for conn, text in sends:
            conn.send_text(text)
        for conn, message in pending:
            message["view"]["hint"] = hint
            conn.send(message)

    def broadcast(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, separators=(",", ":"))
        for conn in self.connections:
            conn.send_text(text)

    # -- storage -------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "practice": self.practice,
            "rules": self.rules.to_json(),
            "seats": [s.to_data() for s in self.seats],
            "host": self.host,
            "version": self.version,
            "grace_seconds": self.grace_seconds,
            "next_deal_pause": self.next_deal_pause,
            "chat": list(self.chat),
            "match_number": self.match_number,
            "recorded_match": self.recorded_match,
            "next_deal_at": self.next_deal_at,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any], rules: RuleSet, match: Match | None,
                  store: Store) -> Room:
        room = cls(data["code"], rules, bool(data["practice"]), store,
                   int(data["grace_seconds"]), int(data["next_deal_pause"]))
        room.seats = [Seat.from_data(i, s) for i, s in enumerate(data["seats"])]
        room.host = data["host"]
        room.version = int(data["version"])
        room.chat.extend(data.get("chat", []))
        room.match_number = int(data["match_number"])
        room.recorded_match = int(data.get("recorded_match", 0))
        room.next_deal_at = data.get("next_deal_at")
        room.match = match
        if match is not None:
            room.saved_deals = finished_deals(match)
        return room
