"""Room commands around the game: joining and leaving seats, the host's choices before
the start (rules, bot levels), settings, chat, and the start itself.

Each command checks who may do it and when, and raises ``RoomError`` before changing
anything; then it changes the room through ``RoomState`` (which logs it).  Tokens are
made here and only their hashes are kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.bots import BEST_BOT, BOT_LEVELS, level_name
from app.rules import RuleSet, RulesetError
from app.text import TextError, clean_chat, clean_name, name_key

from .errors import RoomError
from .frames import JoinedRoom
from .seats import Seat

if TYPE_CHECKING:
    from .room import RoomCore


def checked_name(raw: str) -> str:
    """A name as players may choose it (app/text.py): not empty, no control or invisible
    characters, not a bot's."""
    try:
        return clean_name(raw)
    except TextError as exc:
        raise RoomError(exc.code, exc.message, 400) from None


def require_free_name(room: RoomCore, name: str) -> None:
    """Names are unique within a room (compared as people read them)."""
    key = name_key(name)
    for seat in room.state.seats:
        if seat.name is not None and name_key(seat.name) == key:
            raise RoomError("name_taken", f"{seat.name} is already at this table: choose "
                            "another name", 409)


def checked_rules(raw: dict[str, Any] | None) -> RuleSet:
    try:
        return RuleSet.shared(raw)
    except RulesetError as exc:
        raise RoomError("bad_rules", str(exc), 400, option=exc.option) from None


def checked_level(level: str) -> str:
    """A bot level as players may pick it (``heuristic``, the old name, is ``easy``)."""
    try:
        return level_name(level)
    except ValueError:
        raise RoomError("bad_level", f"unknown bot {level!r}; one of "
                        f"{', '.join(BOT_LEVELS)}") from None


def require_host(room: RoomCore, seat: int | None) -> None:
    if seat is None or seat != room.state.host:
        raise RoomError("not_host", "only the host can do that", 403)


def require_lobby(room: RoomCore) -> None:
    if room.state.match is not None:
        raise RoomError("wrong_phase", "the match has started", 409)


def joinable_seats(room: RoomCore) -> list[int]:
    state = room.state
    if state.practice:
        return []
    if state.match is None:
        return [s.index for s in state.seats if not s.human]
    return [s.index for s in state.seats if s.bot is not None and not s.human]


def join(room: RoomCore, name: str, seat: int | None) -> JoinedRoom:
    """Seat a person.  In the lobby a free seat; after the start a bot seat, which the
    person plays from the next deal on (``takeover``)."""
    name = checked_name(name)
    state = room.state
    if state.practice:
        raise RoomError("private_room", "this is a private practice table", 403)
    require_free_name(room, name)
    free = joinable_seats(room)
    if seat is not None:
        if seat >= len(state.seats):
            raise RoomError("bad_seat", f"this room has seats 0 to {len(state.seats) - 1}", 409)
        if seat not in free:
            raise RoomError("seat_taken", f"seat {seat} is not free", 409)
    elif not free:
        raise RoomError("no_free_seat", "every seat is taken", 409)
    else:
        seat = free[0]
    s = state.seats[seat].copy()
    token = s.claim(name)
    if state.match is None:
        s.bot = None
    state.set_seat(s)
    room.happened({"type": "seat_taken", "seat": seat, "name": name})
    room.say(None, name, "seat_taken", "system")
    return {"seat": seat, "token": token, "takeover": s.takeover}


def leave(room: RoomCore, seat: int | None) -> None:
    """Give the seat back: in the lobby, or after the match (the seat goes to a bot)."""
    if seat is None:
        raise RoomError("not_seated", "you have no seat to leave")
    match = room.state.match
    if match is not None and not match.finished:
        raise RoomError("wrong_phase", "you can leave in the lobby or after the match", 409)
    if seat == room.state.host:
        raise RoomError("host_cannot_leave", "the host cannot give the seat back")
    name = room.state.seats[seat].name or ""
    room.state.set_seat(Seat(seat, bot=BEST_BOT))
    for conn in room.conns.values():
        if conn.seat == seat:  # the person keeps watching
            conn.seat = None
    room.happened({"type": "seat_left", "seat": seat})
    room.say(None, name, "seat_left", "system")


def set_rules(room: RoomCore, seat: int | None, raw: dict[str, Any]) -> None:
    require_host(room, seat)
    require_lobby(room)
    rules = checked_rules(raw)
    n = rules.options.players
    cut = [s for s in room.state.seats[n:] if s.human]
    if cut:
        raise RoomError("seats_taken", f"seat {cut[0].index} is taken: {n} players do not fit")
    room.state.set_rules(rules)


def seat_bot(room: RoomCore, seat: int | None, target: int, level: str) -> None:
    require_host(room, seat)
    require_lobby(room)
    state = room.state
    if target >= len(state.seats) or state.seats[target].human:
        raise RoomError("bad_seat", f"seat {target} is not an empty seat")
    state.set_seat(state.seats[target].copy(bot=checked_level(level)))


def settings(room: RoomCore, seat: int | None, changes: dict[str, Any], now: float) -> None:
    """The host changes these settings (only the keys given)."""
    require_host(room, seat)
    if not changes:
        raise RoomError("bad_message", "settings: name at least one setting")
    state = room.state
    state.set_settings(changes)
    if "grace_seconds" in changes or "turn_seconds" in changes:
        room.grace.clear()
        room.turn_clock = None
    pause = changes.get("next_deal_pause")
    if pause is not None and state.next_deal_at is not None:
        state.set_next_deal_at(now + pause)


def speaker(room: RoomCore, seat: int | None) -> str:
    """Who a chat line is from: a seated person, or a spectator when the host allows."""
    if seat is None:
        if not room.state.spectator_chat:
            raise RoomError("not_seated", "the host has turned spectators' chat off")
        return "Spectator"
    return room.state.seats[seat].name or f"Seat {seat + 1}"


def chat(room: RoomCore, seat: int | None, text: str) -> None:
    name = speaker(room, seat)
    try:
        text = clean_chat(text)
    except TextError as exc:
        raise RoomError(exc.code, exc.message) from None
    room.say(seat, name, text, "text")


def react(room: RoomCore, seat: int | None, reaction: str) -> None:
    room.say(seat, speaker(room, seat), reaction, "reaction")
