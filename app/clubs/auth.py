"""Who a request's player is: ``Authorization: Bearer K`` read from the header (never a
URL) and looked up by the key's hash; and the rooms' side of the clubs: a room made for
a club belongs to it, and a seat taken with a key is that player's."""

from __future__ import annotations

import secrets
import time

from fastapi import Request

from app.rooms.core.codes import hash_token
from app.rooms.core.frames import JsonObject
from app.rooms.store import RoomStore

from . import club_ops, players
from .errors import club_not_found, no_player
from .keys import bearer


def store_of(request: Request) -> RoomStore:
    store: RoomStore = request.app.state.registry.store
    return store


async def player_of(request: Request, required: bool = True) -> tuple[str, str] | None:
    """The player of the request's key, ``(player, name)``; ``no_player`` (401) if
    ``required`` and there is none."""
    key = bearer(request.headers.get("authorization", ""))
    found = None
    if key is not None:
        async with store_of(request).club_tx() as tx:
            found = await players.of_key(tx, key, time.time())
    if found is None and required:
        raise no_player()
    return found


async def me(request: Request) -> tuple[str, str]:
    """The player of the request's key, ``(player, name)``; ``no_player`` (401) if none."""
    found = await player_of(request)
    assert found is not None  # (required: player_of raised otherwise)
    return found


async def club_for_room(request: Request, club: str | None
                        ) -> tuple[str | None, JsonObject | None]:
    """The player who makes a room (``None``: no key), checked a member of ``club`` if
    the room is to be the club's (``club_not_found`` otherwise), and the rules of the
    club's new tables (``None``: none set, or no club)."""
    found = await player_of(request, required=club is not None)
    if found is None:
        return None, None
    player = found[0]
    rules = None
    if club is not None:
        async with store_of(request).club_tx() as tx:
            if await club_ops.member_club(tx, club, player) is None:
                raise club_not_found()
            rules = await club_ops.rules_of(tx, club)
    return player, rules


async def bind_room(store: RoomStore, code: str, token: str, player: str | None,
                    club: str | None) -> None:
    """Room ``code`` (new) belongs to ``club``, and the seat of ``token`` is ``player``'s."""
    if player is None:
        return
    async with store.club_tx() as tx:
        if club is not None:
            await club_ops.bind_room(tx, code, club, secrets.token_hex(8), time.time())
        await club_ops.bind_seat(tx, code, hash_token(token), player, time.time())


async def bind_seat(request: Request, code: str, token: str) -> None:
    """The seat of ``token`` in room ``code`` is the request's player's, if it has one."""
    found = await player_of(request, required=False)
    if found is not None:
        async with store_of(request).club_tx() as tx:
            await club_ops.bind_seat(tx, code, hash_token(token), found[0], time.time())
