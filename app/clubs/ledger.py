"""A finished match of a club room, counted exactly once: the club's match row is
written by the store in the same transaction as the log entries that record the finished
match (``HistoryAdded``), keyed by (room id, match number), so that

- a process that dies before the commit wrote neither: the room, loaded again (here or
  by another process), finds its match finished and unrecorded and records it again,
  and the row with it;
- a process that dies after the commit wrote both: nothing is recorded twice;
- the same row offered twice (a repeat) changes nothing (``ON CONFLICT DO NOTHING``).

The players are those whose seat tokens held the seats as the match ended
(seat_mirror.py) and were bound to a player as they were taken (``room_players``): a
seat a bot played all match, or a person who never gave a key, counts for nobody.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from app.rooms.core.frames import JsonObject

from .db import Tx, fetchone
from .seat_mirror import Finished

INSERT_MATCH = """INSERT INTO club_matches(room_id, match_number, club, room, season,
    finished_at, players, bots, summary, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (room_id, match_number) DO NOTHING"""


async def count_finished(tx: Tx, code: str, finished: Sequence[Finished],
                         records: Sequence[tuple[int, JsonObject]], now: float) -> int:
    """Write the club's row of each match in ``finished`` (none if the room is no club's);
    how many rows are new."""
    if not finished:
        return 0
    room = await fetchone(tx, "SELECT r.club, r.room_id, c.season FROM club_rooms r "
                              "JOIN clubs c ON c.id = r.club WHERE r.code = ?", code)
    if room is None:
        return 0
    club, room_id, season = room
    rows = await tx.fetch("SELECT token_hash, player FROM room_players WHERE code = ?", code)
    bound = {str(r[0]): str(r[1]) for r in rows}
    by_number = dict(records)
    added = 0
    for match in finished:
        players = [bound.get(h) if h is not None else None for h in match.holders]
        record = by_number.get(match.number, {})
        added += await tx.execute(
            INSERT_MATCH, room_id, match.number, club, code, int(season), float(now),
            json.dumps(players), json.dumps(list(match.bots)),
            json.dumps(match.summary, separators=(",", ":")),
            json.dumps(record, separators=(",", ":")))
    if added:  # the club is in use: kept from retention (club_ops.forget_idle)
        await tx.execute("UPDATE clubs SET updated_at = ? WHERE id = ?", float(now), club)
    return added
