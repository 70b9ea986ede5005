"""Retention of players and clubs (``AMERIKANER_CLUB_RETENTION_DAYS``): a player not
seen for that long is deleted as if they had deleted themselves (players.py), a club
untouched that long (no match, invite or season) goes with its history.  The registry's
sweep calls this once an hour, beside the rooms' retention."""

from __future__ import annotations

import logging
import time

from app.rooms.store import RoomStore

from . import club_ops, players

log = logging.getLogger("amerikaner.clubs")


async def forget_idle_clubs(store: RoomStore, days: float) -> tuple[int, int]:
    """Delete the players and clubs idle for ``days`` (0: keep them for ever)."""
    if days <= 0:
        return 0, 0
    cutoff = time.time() - days * 86400
    async with store.club_tx() as tx:
        gone_players = await players.forget_idle(tx, cutoff)
        gone_clubs = await club_ops.forget_idle(tx, cutoff)
    if gone_players or gone_clubs:
        log.info("forgot %d players and %d clubs unused for %s days", gone_players,
                 gone_clubs, days)
    return gone_players, gone_clubs
