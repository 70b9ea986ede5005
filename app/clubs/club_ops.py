"""Clubs over a store transaction (db.py): made by a player (their host), joined by the
current invite, their seasons, the rooms that belong to them and the players bound to
those rooms' seats, and what a member reads of them.

The invite is kept as it is (members see it, to pass it on); a renewed one replaces it,
so the old one joins nobody.  A season is closed by the host and the next one opened at
once; a match counts in the season current when it ended (ledger.py).
"""

from __future__ import annotations

import hmac
import json

import orjson

from app.rooms.core.frames import JsonObject, MatchSummary
from app.rooms.store.tx import Row, Tx, fetchone

from .keys import new_club_id, new_invite
from .match_stats import SeatStats
from .standings import Change, MatchRow, best_vs_par
from .wire import ClubMatch, ClubMember, DealPar, SeasonInfo


async def create(tx: Tx, player: str, name: str, now: float) -> tuple[str, str]:
    """A new club with ``player`` as its host and member: ``(club, invite)``."""
    club, invite = new_club_id(), new_invite()
    await tx.execute("INSERT INTO clubs(id, name, host, invite, season, created_at, "
                     "updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)", club, name, player, invite,
                     now, now)
    await tx.execute("INSERT INTO club_seasons(club, season, started_at) VALUES (?, 1, ?)",
                     club, now)
    await tx.execute("INSERT INTO club_members(club, player, joined_at) VALUES (?, ?, ?)",
                     club, player, now)
    return club, invite


async def join(tx: Tx, club: str, player: str, invite: str, now: float) -> str | None:
    """Make ``player`` a member if ``invite`` is the club's current one: the club's name,
    ``None`` if it is not (or there is no such club)."""
    row = await fetchone(tx, "SELECT name, invite FROM clubs WHERE id = ?", club)
    if row is None or not _same(str(row[1]), invite):
        return None
    await tx.execute("INSERT INTO club_members(club, player, joined_at) VALUES (?, ?, ?) "
                     "ON CONFLICT (club, player) DO NOTHING", club, player, now)
    return str(row[0])


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


async def member_club(tx: Tx, club: str, player: str) -> tuple[str, str, str, int] | None:
    """``(name, host, invite, season)`` of ``club`` if ``player`` is a member, else
    ``None`` (whether or not the club exists)."""
    row = await fetchone(tx, "SELECT c.name, c.host, c.invite, c.season FROM clubs c JOIN "
                             "club_members m ON m.club = c.id WHERE c.id = ? AND "
                             "m.player = ?", club, player)
    if row is None:
        return None
    return str(row[0]), str(row[1] or ""), str(row[2]), int(row[3])


async def leave(tx: Tx, club: str, player: str, now: float) -> None:
    """``player`` is no longer a member; a host's club passes to its longest-standing
    member (the club's matches, theirs too, stay)."""
    await tx.execute("DELETE FROM club_members WHERE club = ? AND player = ?", club, player)
    row = await fetchone(tx, "SELECT host FROM clubs WHERE id = ?", club)
    if row is not None and row[0] == player:
        await pass_host(tx, club)


async def pass_host(tx: Tx, club: str) -> None:
    """The club's host is its longest-standing member (none when no member is left)."""
    heir = await fetchone(tx, "SELECT player FROM club_members WHERE club = ? "
                              "ORDER BY joined_at, player LIMIT 1", club)
    await tx.execute("UPDATE clubs SET host = ? WHERE id = ?",
                     None if heir is None else heir[0], club)


async def rules_of(tx: Tx, club: str) -> JsonObject | None:
    """The rules of the club's new tables (``None``: the server's default)."""
    row = await fetchone(tx, "SELECT rules FROM clubs WHERE id = ?", club)
    if row is None or row[0] is None:
        return None
    rules: JsonObject = json.loads(str(row[0]))
    return rules


async def change(tx: Tx, club: str, name: str | None, rules: JsonObject | None,
                 now: float) -> None:
    """The host renames the club, or sets the rules of its new tables."""
    if name is not None:
        await tx.execute("UPDATE clubs SET name = ?, updated_at = ? WHERE id = ?", name,
                         now, club)
    if rules is not None:
        await tx.execute("UPDATE clubs SET rules = ?, updated_at = ? WHERE id = ?",
                         json.dumps(rules), now, club)


async def renew_invite(tx: Tx, club: str, now: float) -> str:
    invite = new_invite()
    await tx.execute("UPDATE clubs SET invite = ?, updated_at = ? WHERE id = ?", invite,
                     now, club)
    return invite


async def next_season(tx: Tx, club: str, now: float) -> int:
    """Close the current season and open the next: its number."""
    row = await fetchone(tx, "SELECT season FROM clubs WHERE id = ?", club)
    assert row is not None
    season = int(row[0]) + 1
    await tx.execute("UPDATE club_seasons SET ended_at = ? WHERE club = ? AND season = ?",
                     now, club, season - 1)
    await tx.execute("INSERT INTO club_seasons(club, season, started_at) VALUES (?, ?, ?)",
                     club, season, now)
    await tx.execute("UPDATE clubs SET season = ?, updated_at = ? WHERE id = ?", season,
                     now, club)
    return season


async def members(tx: Tx, club: str, host: str) -> list[ClubMember]:
    rows = await tx.fetch("SELECT p.id, p.name FROM club_members m JOIN players p ON "
                          "p.id = m.player WHERE m.club = ? ORDER BY m.joined_at, p.id", club)
    return [{"player": str(r[0]), "name": str(r[1]), "host": r[0] == host} for r in rows]


async def seasons(tx: Tx, club: str) -> list[SeasonInfo]:
    rows = await tx.fetch("SELECT season, started_at, ended_at FROM club_seasons WHERE "
                          "club = ? ORDER BY season", club)
    return [{"season": int(r[0]), "started_at": float(r[1]),
             "ended_at": None if r[2] is None else float(r[2])} for r in rows]


async def names(tx: Tx, players: set[str]) -> dict[str, str]:
    """The current names of these players (a deleted one has none)."""
    if not players:
        return {}
    wanted = sorted(players)
    marks = ", ".join("?" for _ in wanted)
    rows = await tx.fetch(f"SELECT id, name FROM players WHERE id IN ({marks})", *wanted)
    return {str(r[0]): str(r[1]) for r in rows}


async def matches(tx: Tx, club: str | None, season: int | None = None,
                  player: str | None = None) -> list[MatchRow]:
    """The club's finished matches of ``season`` (``None``: every season), those of
    ``player`` if given (``club`` ``None``: in every club)."""
    return [match_row(r) for r in await match_rows(tx, club, season, player)]


async def match_rows(tx: Tx, club: str | None, season: int | None = None,
                     player: str | None = None) -> list[Row]:
    """``matches``' rows as stored, to be decoded by ``match_row`` (off the loop: a
    season of 1,000 matches takes 10 ms)."""
    sql = ("SELECT room_id, match_number, room, season, finished_at, players, summary, "
           "stats, bots, par_deals FROM club_matches WHERE "
           "(CAST(? AS text) IS NULL OR club = ?)")
    args: list[object] = [club, club]
    if season is not None:
        sql += " AND season = ?"
        args.append(season)
    if player is not None:
        sql += " AND players LIKE ?"
        args.append(f'%"{player}"%')
    return await tx.fetch(sql, *args)


def club_match(m: MatchRow, names: dict[str, str],
               changes: dict[tuple[str, int], Change] | None = None) -> ClubMatch:
    """A match as the club page shows it: a seat's player only while they are a player
    (``names``: those still here), else ``None``, with the name at the table, and the
    ratings' changes if ``changes`` has them (standings.rating_changes)."""
    summary = m.summary
    out: ClubMatch = {
        "room": m.room, "match": m.number, "season": m.season, "finished_at": m.finished_at,
        "seats": [{"player": p if p in names else None, "name": n}
                  for p, n in zip(m.players, summary["players"], strict=False)],
        "totals": list(summary["totals"]),
        "score_sheet": [list(r) for r in summary["score_sheet"]]}
    if changes is not None and m.identity in changes:
        out["rating_changes"] = changes[m.identity]
        # (the club page's: the par of its deals, app/clubs/par_keeper.py)
        out["deals"] = list(m.deals)
        out["best_vs_par"] = best_vs_par(m)
    return out


def match_row(r: tuple[object, ...]) -> MatchRow:
    # orjson: a club's page decodes every row of the season (a third of json's time)
    summary: MatchSummary = orjson.loads(str(r[6]))
    stats: list[SeatStats] | None = None if r[7] is None else orjson.loads(str(r[7]))
    # par_deals: [[deal, row, points], ...] (par_keeper.py); their par joins later
    deals: list[DealPar] = [] if len(r) < 10 or r[9] is None else [
        {"deal": d, "row": row, "points": points, "par": None}
        for d, row, points in orjson.loads(str(r[9]))]
    return MatchRow(str(r[0]), int(str(r[1])), str(r[2]), int(str(r[3])), float(str(r[4])),
                    tuple(orjson.loads(str(r[5]))), summary,
                    None if stats is None else tuple(stats),
                    tuple(orjson.loads(str(r[8]))) if len(r) > 8 else (), tuple(deals))


async def record_text(tx: Tx, club: str, room: str, match: int) -> str | None:
    """The stored game record of the club's match ``match`` of room ``room`` (the latest,
    should the code have served two of the club's rooms)."""
    row = await fetchone(tx, "SELECT record FROM club_matches WHERE club = ? AND room = ? "
                             "AND match_number = ? ORDER BY finished_at DESC LIMIT 1",
                         club, room, match)
    return None if row is None else str(row[0])


async def records_without_stats(tx: Tx, club: str) -> list[tuple[str, int, str, str]]:
    """``(room id, match, record text, summary text)`` of the club's matches whose stats
    are not derived yet."""
    rows = await tx.fetch("SELECT room_id, match_number, record, summary FROM club_matches "
                          "WHERE club = ? AND stats IS NULL", club)
    return [(str(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]


async def keep_stats(tx: Tx, derived: list[tuple[str, int, list[SeatStats]]]) -> None:
    await tx.executemany("UPDATE club_matches SET stats = ? WHERE room_id = ? AND "
                         "match_number = ?",
                         [(json.dumps(s), room_id, n) for room_id, n, s in derived])


async def bind_room(tx: Tx, code: str, club: str, room_id: str, now: float) -> None:
    """Room ``code`` belongs to ``club`` (a new room: its code is not in use)."""
    await tx.execute("DELETE FROM club_rooms WHERE code = ?", code)
    await tx.execute("DELETE FROM room_players WHERE code = ?", code)
    await tx.execute("INSERT INTO club_rooms(code, club, room_id, created_at) VALUES "
                     "(?, ?, ?, ?)", code, club, room_id, now)


async def bind_seat(tx: Tx, code: str, token_hash: str, player: str,
                    now: float = 0.0) -> None:
    """The seat that ``token_hash``'s token holds in room ``code`` is ``player``'s; in a
    club's room, only if they are a member of the club: a guest at a club's table (a
    room link, no invite) plays, and their matches count for nobody."""
    await tx.execute(
        "INSERT INTO room_players(code, token_hash, player, bound_at) SELECT ?, ?, ?, ? "
        "WHERE NOT EXISTS "
        "(SELECT 1 FROM club_rooms WHERE code = ?) OR EXISTS (SELECT 1 FROM club_rooms r "
        "JOIN club_members m ON m.club = r.club WHERE r.code = ? AND m.player = ?) "
        "ON CONFLICT (code, token_hash) DO NOTHING",
        code, token_hash, player, now, code, code, player)


async def forget_idle(tx: Tx, older_than: float) -> int:
    """Delete the clubs untouched since ``older_than`` (no match, invite or season
    since), with their members, seasons, rooms and matches; how many."""
    rows = await tx.fetch("SELECT id FROM clubs WHERE updated_at < ?", older_than)
    for (club,) in rows:
        for table in ("club_members", "club_seasons", "club_rooms", "club_matches",
                      "club_par"):
            await tx.execute(f"DELETE FROM {table} WHERE club = ?", club)
        await tx.execute("DELETE FROM clubs WHERE id = ?", club)
    return len(rows)
