"""Room commands around the game: joining and leaving seats, the host's choices before
the start (rules, bot levels), settings, chat, and the start itself.

Each command checks who may do it and when, raises ``RoomError`` (nothing changed) or
changes the room; the caller then commits.  Tokens are made here and only their hashes
are kept.
"""

from __future__ import annotations

import time
from typing import Any

from app.bots import BEST_BOT, BOT_LEVELS
from app.rules import RuleSet, RulesetError

from .errors import RoomError
from .messages import clean_name
from .room import Room
from .seats import Seat


def checked_name(raw: str) -> str:
    try:
        return clean_name(raw)
    except ValueError as exc:
        raise RoomError("bad_name", str(exc), 400) from None


def checked_rules(raw: dict[str, Any] | None) -> RuleSet:
    try:
        return RuleSet.from_json(raw)
    except RulesetError as exc:
        raise RoomError("bad_rules", str(exc), 400) from None


def require_host(room: Room, seat: int | None) -> None:
    if seat is None or seat != room.host:
        raise RoomError("not_host", "only the host can do that", 403)


def require_lobby(room: Room) -> None:
    if room.match is not None:
        raise RoomError("wrong_phase", "the match has started", 409)


def join(room: Room, name: str, seat: int | None) -> tuple[int, str, bool]:
    """Seat a person: ``(seat, token, takeover)``.  In the lobby a free seat; after the
    start a bot seat, which the person plays from the next deal on."""
    name = checked_name(name)
    if room.practice:
        raise RoomError("private_room", "this is a private practice table", 403)
    free = room.joinable_seats()
    if seat is not None:
        if seat >= len(room.seats):
            raise RoomError("bad_seat", f"this room has seats 0 to {len(room.seats) - 1}", 409)
        if seat not in free:
            raise RoomError("seat_taken", f"seat {seat} is not free", 409)
    elif not free:
        raise RoomError("no_free_seat", "every seat is taken", 409)
    else:
        seat = free[0]
    s = room.seats[seat]
    token = s.claim(name)
    if room.match is None:
        s.bot = None
    return seat, token, s.takeover


def leave(room: Room, seat: int | None) -> None:
    if seat is None:
        raise RoomError("not_seated", "you have no seat to leave")
    require_lobby(room)
    if seat == room.host:
        raise RoomError("host_cannot_leave", "the host cannot give the seat back")
    room.seats[seat].clear(BEST_BOT)
    for conn in room.connections:
        if conn.seat == seat:  # the person keeps watching
            conn.seat = None
            conn.spectator = True


def set_rules(room: Room, seat: int | None, raw: dict[str, Any]) -> None:
    require_host(room, seat)
    require_lobby(room)
    rules = checked_rules(raw)
    n = rules.options.players
    cut = [s for s in room.seats[n:] if s.human]
    if cut:
        raise RoomError("seats_taken", f"seat {cut[0].index} is taken: {n} players do not fit")
    seats = room.seats[:n]
    seats.extend(Seat(i, bot=BEST_BOT) for i in range(len(seats), n))
    room.seats = seats
    room.rules = rules


def seat_bot(room: Room, seat: int | None, target: int, level: str) -> None:
    require_host(room, seat)
    require_lobby(room)
    if target >= len(room.seats) or room.seats[target].human:
        raise RoomError("bad_seat", f"seat {target} is not an empty seat")
    if level not in BOT_LEVELS:
        raise RoomError("bad_level", f"unknown bot {level!r}; one of {', '.join(BOT_LEVELS)}")
    room.seats[target].bot = level


def settings(room: Room, seat: int | None, grace: int | None, pause: int | None) -> None:
    require_host(room, seat)
    if grace is not None:
        room.grace_seconds = grace
        room.grace_deadline.clear()
    if pause is not None:
        room.next_deal_pause = pause
        if room.next_deal_at is not None:
            room.next_deal_at = time.time() + pause


def start(room: Room, seat: int | None) -> None:
    require_host(room, seat)
    require_lobby(room)
    for s in room.seats:
        if not s.human and s.bot is None:
            s.bot = BEST_BOT
    room.new_match()


def chat(room: Room, seat: int | None, text: str) -> dict[str, Any]:
    if seat is None:
        raise RoomError("not_seated", "only players can chat")
    text = " ".join(text.split())
    if not text:
        raise RoomError("bad_message", "chat: the text is empty")
    line = {"seat": seat, "name": room.seats[seat].name or f"Seat {seat + 1}", "text": text,
            "at": round(time.time(), 3)}
    room.chat.append(line)
    return line
