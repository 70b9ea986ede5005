"""Sessions: a connection says ``hello`` with a seat token (or to watch) and is bound to
its seat; when it goes, the seat shows disconnected.

Coming back with the same token returns the same seat and the full current view; a person
a bot was standing in for ("away") takes the seat back at once.
"""

from __future__ import annotations

import time

from .connections import Connection
from .errors import RoomError
from .messages import Hello
from .room import Room


def bind(room: Room, conn: Connection, hello: Hello) -> None:
    """Seat or seat-less (spectator) binding; ``RoomError`` when the hello cannot be."""
    if hello.token is not None and hello.spectate:
        raise RoomError("bad_message", "hello: either a token or spectate, not both")
    if hello.token is not None:
        seat = room.seat_for_token(hello.token)
        if seat is None:
            raise RoomError("bad_token", "this token holds no seat in this room")
        conn.seat = seat.index
        seat.away = False
        room.grace_deadline.pop(seat.index, None)
    elif hello.spectate:
        if room.practice:
            raise RoomError("private_room", "a practice table cannot be watched")
        conn.spectator = True
    else:
        raise RoomError("bad_message", "hello: give your token, or spectate: true")
    room.connections.append(conn)


def unbind(room: Room, conn: Connection) -> bool:
    """The connection is gone; ``True`` if it was part of the room."""
    if conn not in room.connections:
        return False
    room.connections.remove(conn)
    if not room.connections:
        room.idle_since = time.monotonic()
    return True
