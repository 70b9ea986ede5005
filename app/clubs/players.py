"""Players without accounts, over a store transaction (db.py): made with a name, known
by the hash of their key (keys.py), moved to another browser by a one-time device code,
exported and deleted.

Deleting a player removes them, their keys, codes, memberships and seat bindings; their
club matches stay in the clubs' history, the player's id in them replaced by a new
anonymous one, so the standings show "a former player" and nothing links it back.
"""

from __future__ import annotations

import json

from app.rooms.store.tx import Tx, fetchone

from . import club_ops
from .keys import (
    DEVICE_CODE_SECONDS,
    hash_secret,
    new_device_code,
    new_key,
    new_player_id,
    normal_device_code,
)
from .wire import ClubRef, PlayerExport, TableRef

SEEN_EVERY = 3600.0  # a player's last visit is written at most once an hour (retention)


async def create(tx: Tx, name: str, now: float) -> tuple[str, str]:
    """A new player named ``name``: ``(player, key)``."""
    player, key = new_player_id(), new_key()
    await tx.execute("INSERT INTO players(id, name, created_at, seen_at) VALUES (?, ?, ?, ?)",
                     player, name, now, now)
    await tx.execute("INSERT INTO player_keys(key_hash, player, created_at) VALUES (?, ?, ?)",
                     hash_secret(key), player, now)
    return player, key


async def of_key(tx: Tx, key: str, now: float) -> tuple[str, str] | None:
    """The player of ``key`` and their name, ``None`` if it is nobody's."""
    row = await fetchone(tx, "SELECT p.id, p.name, p.seen_at FROM player_keys k JOIN "
                             "players p ON p.id = k.player WHERE k.key_hash = ?",
                         hash_secret(key))
    if row is None:
        return None
    if now - float(row[2]) > SEEN_EVERY:
        await tx.execute("UPDATE players SET seen_at = ? WHERE id = ?", now, row[0])
    return str(row[0]), str(row[1])


async def rename(tx: Tx, player: str, name: str) -> None:
    await tx.execute("UPDATE players SET name = ? WHERE id = ?", name, player)


async def clubs_of(tx: Tx, player: str) -> list[ClubRef]:
    rows = await tx.fetch("SELECT c.id, c.name FROM club_members m JOIN clubs c ON "
                          "c.id = m.club WHERE m.player = ? ORDER BY m.joined_at, c.id",
                          player)
    return [{"club": str(r[0]), "name": str(r[1])} for r in rows]


async def tables_of(tx: Tx, player: str, limit: int = 20) -> list[TableRef]:
    """The rooms where the player's seats were bound lately, the latest first, while the
    rooms last (``room_players`` goes with a forgotten room), with their club if any."""
    rows = await tx.fetch(
        "SELECT p.code, max(p.bound_at) AS at, r.club FROM room_players p LEFT JOIN "
        "club_rooms r ON r.code = p.code WHERE p.player = ? GROUP BY p.code, r.club "
        "ORDER BY at DESC, p.code LIMIT ?", player, limit)
    return [{"room": str(r[0]), "club": None if r[2] is None else str(r[2])} for r in rows]


async def device_code(tx: Tx, player: str, now: float) -> str:
    """A new one-time code for ``player``'s other device."""
    await tx.execute("DELETE FROM device_codes WHERE expires_at < ?", now)
    code = new_device_code()
    await tx.execute("INSERT INTO device_codes(code_hash, player, expires_at) VALUES "
                     "(?, ?, ?)", hash_secret(code), player, now + DEVICE_CODE_SECONDS)
    return code


async def claim(tx: Tx, code: str, now: float) -> tuple[str, str, str] | None:
    """A new key for the player of device code ``code`` (used up now): ``(player, key,
    name)``; ``None`` if the code is unknown, used or out of time.  The first browser
    keeps its key: each browser holds a key of its own."""
    code_hash = hash_secret(normal_device_code(code))
    row = await fetchone(tx, "SELECT d.player, p.name FROM device_codes d JOIN players p "
                             "ON p.id = d.player WHERE d.code_hash = ? AND d.expires_at >= ?",
                         code_hash, now)
    if row is None or not await tx.execute("DELETE FROM device_codes WHERE code_hash = ?",
                                           code_hash):
        return None
    key = new_key()
    await tx.execute("INSERT INTO player_keys(key_hash, player, created_at) VALUES (?, ?, ?)",
                     hash_secret(key), row[0], now)
    return str(row[0]), key, str(row[1])


async def export(tx: Tx, player: str) -> PlayerExport:
    """Everything stored about ``player`` but their keys' hashes (counted), their club
    matches included (those of clubs they left too)."""
    me = await fetchone(tx, "SELECT name, created_at, seen_at FROM players WHERE id = ?",
                        player)
    assert me is not None
    browsers = await fetchone(tx, "SELECT count(*) FROM player_keys WHERE player = ?", player)
    hosted = await tx.fetch("SELECT id FROM clubs WHERE host = ? ORDER BY id", player)
    seats = await tx.fetch("SELECT DISTINCT code FROM room_players WHERE player = ? "
                           "ORDER BY code", player)
    name = str(me[0])
    played = await club_ops.matches(tx, None, player=player)
    return {"player": player, "name": name, "created_at": float(me[1]),
            "seen_at": float(me[2]), "browsers": int(browsers[0]) if browsers else 0,
            "clubs": await clubs_of(tx, player), "hosted_clubs": [str(r[0]) for r in hosted],
            "seats": [str(r[0]) for r in seats],
            "matches": [club_ops.club_match(m, {player: name})
                        for m in sorted(played, key=lambda m: m.key)]}


async def delete(tx: Tx, player: str) -> None:
    """Forget ``player`` (see the module's docstring); a club they hosted passes to its
    longest-standing member (or has no host, if none is left)."""
    hosted = [str(r[0]) for r in await tx.fetch("SELECT id FROM clubs WHERE host = ?",
                                                 player)]
    for table, column in (("player_keys", "player"), ("device_codes", "player"),
                          ("club_members", "player"), ("room_players", "player"),
                          ("players", "id")):
        await tx.execute(f"DELETE FROM {table} WHERE {column} = ?", player)
    for club in hosted:
        await club_ops.pass_host(tx, club)
    anonymous = new_player_id()
    rows = await tx.fetch("SELECT room_id, match_number, players FROM club_matches WHERE "
                          "players LIKE ?", f'%"{player}"%')
    for room_id, number, text in rows:
        seats = [anonymous if p == player else p for p in json.loads(text)]
        await tx.execute("UPDATE club_matches SET players = ? WHERE room_id = ? AND "
                         "match_number = ?", json.dumps(seats), room_id, number)


async def forget_idle(tx: Tx, older_than: float) -> int:
    """Delete the players not seen since ``older_than`` (retention); how many."""
    rows = await tx.fetch("SELECT id FROM players WHERE seen_at < ?", older_than)
    for (player,) in rows:
        await delete(tx, str(player))
    return len(rows)
