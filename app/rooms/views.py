"""What each connection is sent: the engine's seat view plus the room around the game.

The game part is always ``SeatView(match, seat).to_wire()``, the engine's only view, so
nothing can leak around it.  In the lobby, before any match, the same keys come from a
view of a match not yet dealt, with ``phase: "lobby"``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from app.bots import BOT_LEVELS
from app.rules import Match, RuleSet, SeatView

if TYPE_CHECKING:
    from .room import Room

LOBBY = "lobby"


@lru_cache(maxsize=64)
def _lobby_wire(rules: RuleSet, seat: int | None) -> tuple[tuple[str, Any], ...]:
    view = SeatView(Match(rules, first_dealer=0), seat).to_wire()
    view.update(phase=LOBBY, turn=None, dealer=None, deal_number=0)
    return tuple(view.items())


def game_view(room: Room, seat: int | None) -> dict[str, Any]:
    """The game part of the view for ``seat`` (``None``: the public view)."""
    if room.match is None:
        return {k: (list(v) if isinstance(v, list) else v)
                for k, v in _lobby_wire(room.rules, seat)}
    return SeatView(room.match, seat).to_wire()


def room_info(room: Room) -> dict[str, Any]:
    """``view.room`` without the two per-connection keys (messages.RoomInfo)."""
    connected = room.connected_seats()
    started = room.match is not None
    return {
        "code": room.code,
        "practice": room.practice,
        "host": room.host,
        "seats": [s.info(s.index in connected, s.index == room.host, started)
                  for s in room.seats],
        "spectators": room.spectator_count(),
        "rules": room.rules.to_json(),
        "rules_resolved": room.rules.resolved(),
        "settings": {"grace_seconds": room.grace_seconds,
                     "next_deal_pause": room.next_deal_pause,
                     "bot_levels": list(BOT_LEVELS)},
        "next_deal_at": room.next_deal_at,
        "chat": list(room.chat),
        "match_number": room.match_number,
        "record_available": room.record_available,
    }


def full_view(room: Room, view_seat: int | None, your_seat: int | None,
              info: dict[str, Any]) -> dict[str, Any]:
    view = game_view(room, view_seat)
    view["room"] = {**info, "you_are_host": your_seat is not None and your_seat == room.host,
                    "your_seat": your_seat}
    view["hint"] = None
    return view


def public_room(room: Room) -> dict[str, Any]:
    """``GET /api/rooms/{code}`` (messages.PublicRoom)."""
    info = room_info(room)
    return {
        "room": room.code,
        "phase": room.phase,
        "practice": room.practice,
        "version": room.version,
        "host": room.host,
        "seats": info["seats"],
        "spectators": info["spectators"],
        "rules": info["rules"],
        "rules_resolved": info["rules_resolved"],
        "match_number": room.match_number,
        "joinable": room.joinable_seats(),
    }
