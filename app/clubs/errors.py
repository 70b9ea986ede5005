"""The clubs' refusals: ``RoomError`` (the API's one error type, answered as
``{"error": {"code", "message"}}``) with the clubs' stable codes (``ErrorCode``)."""

from __future__ import annotations

from app.rooms.core.errors import RoomError
from app.rooms.core.wire_enums import ErrorCode


def no_player() -> RoomError:
    return RoomError(ErrorCode.NO_PLAYER, "this needs your player key: send it as "
                     "Authorization: Bearer (make a player first)", 401)


def club_not_found() -> RoomError:
    # the same for a club that does not exist and one the asker is not a member of:
    # nothing of a club is told to anyone outside it, not even that it exists
    return RoomError(ErrorCode.CLUB_NOT_FOUND, "there is no such club, or you are not a member "
                     "of it", 404)


def bad_invite() -> RoomError:
    return RoomError(ErrorCode.BAD_INVITE, "this invite is wrong or has been replaced: ask the "
                     "club's host for the current one", 403)


def not_club_host() -> RoomError:
    return RoomError(ErrorCode.NOT_CLUB_HOST, "only the club's host can do this", 403)


def bad_device_code() -> RoomError:
    return RoomError(ErrorCode.BAD_DEVICE_CODE, "this code is wrong, used already or out of "
                     "time: make a new one on your other device", 403)


def no_season(season: int) -> RoomError:
    return RoomError(ErrorCode.NO_SEASON, f"this club has no season {season}", 404)
