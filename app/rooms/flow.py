"""The match flow of a room: game actions (people and bots) on the room version, ready
between deals, the next deal, the rematch, and ``settle``: what follows from any change.

Every game action goes through the engine (``Match.apply``), which checks the turn and
the rules; this module adds what the engine cannot know: the version the sender saw, who
plays a seat now (the person, their bot while they are away, a bot until a takeover).
"""

from __future__ import annotations

import time

from app.rules import Action, ActionError, parse_action
from app.rules.match import DEAL_OVER

from .errors import RoomError
from .lobby import require_host
from .room import Room


def _check_version(room: Room, version: int) -> None:
    if version != room.version:
        raise RoomError("stale_version", f"the room is at version {room.version}, not "
                        f"{version}: look at the new state and try again", 409)


def play(room: Room, seat: int | None, version: int, raw: object) -> None:
    """A person's game action."""
    if seat is None:
        raise RoomError("not_seated", "spectators cannot play")
    match = room.match
    if match is None:
        raise RoomError("wrong_phase", "the match has not started")
    _check_version(room, version)
    if room.seats[seat].takeover:
        raise RoomError("not_your_turn", "a bot plays this seat until the next deal")
    try:
        action = parse_action(raw)
        match.apply(seat, action)
    except ActionError as exc:
        raise RoomError(exc.code, str(exc)) from None


def play_bot(room: Room, seat: int, level: str, version: int, action: Action) -> bool:
    """A bot's action, decided on a copy at ``version``: applied only if nothing changed
    since and the bot still plays the seat.  ``False``: think again."""
    match = room.match
    if match is None or version != room.version or room.controller(seat) != level:
        return False
    if match.turn != seat:
        return False
    # The rules already accepted this action on a copy at this version (driver._think).
    match.apply(seat, action)
    return True


def ready(room: Room, seat: int | None) -> None:
    if seat is None:
        raise RoomError("not_seated", "spectators are always ready")
    if room.phase != DEAL_OVER:
        raise RoomError("wrong_phase", "ready is for between deals")
    room.seats[seat].ready = True
    connected = room.connected_seats()
    if all(s.ready for s in room.seats if s.human and s.index in connected):
        next_deal(room)


def next_deal(room: Room) -> None:
    assert room.match is not None
    room.match.start_deal()


def rematch(room: Room, seat: int | None) -> None:
    require_host(room, seat)
    match = room.match
    if match is None or not match.finished:
        raise RoomError("wrong_phase", "a rematch is for after the match")
    room.new_match()


def settle(room: Room) -> None:
    """What follows from any change, before it is saved and sent."""
    _pass_host(room)
    match = room.match
    if match is None:
        return
    phase = match.phase
    if phase == DEAL_OVER:
        if room.next_deal_at is None:
            room.next_deal_at = time.time() + room.next_deal_pause
    else:
        if room.next_deal_at is not None or any(s.ready for s in room.seats):
            # a deal started (or the match ended): ready flags and the timer are spent
            room.next_deal_at = None
            for s in room.seats:
                s.ready = False
        if phase != "match_over" and not match.deal.action_count:  # type: ignore[union-attr]
            for s in room.seats:
                if s.takeover:
                    s.take_over()
    if match.finished and room.recorded_match != room.match_number:
        room.store.save_record(room.code, room.match_number, room.record())
        room.recorded_match = room.match_number
    turn = match.turn
    for seat in list(room.grace_deadline):
        if seat != turn:
            del room.grace_deadline[seat]


def _pass_host(room: Room) -> None:
    """The host role goes to the next connected person when the host has been gone for
    ``host_grace`` seconds (at once if the host's seat is no longer a person's)."""
    connected = room.connected_seats()
    host = room.host
    if host is not None and host in connected:
        room.host_gone_since = None
        return
    if host is not None and room.seats[host].human:
        now = time.monotonic()
        if room.host_gone_since is None:
            room.host_gone_since = now
        if now - room.host_gone_since < room.host_grace:
            return  # the driver wakes when the grace is over
    room.host_gone_since = None
    n = len(room.seats)
    start = 0 if host is None else host
    for i in range(1, n + 1):
        seat = (start + i) % n
        if seat in connected and room.seats[seat].human:
            room.host = seat
            return
