"""The clubs' par in the store (app/rooms/store/club_tables.py, ``PAR_TABLES``): which
matches still lack par, the lease a process takes on a match while it makes its par,
the deals that get one, and each deal's par, written once.

A match's deals (``par_deals``: ``[[deal, row, points], ...]``) are derived from its
record once (``deals_of_record``, off the event loop); ``par_missing`` counts its deals
still without a par (``NULL``: not derived yet), so the matches to do are found by an
index, not by counting every match's par.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from app.rooms.server.par_queue import ParJob, jobs_of_record
from app.rooms.store.tx import Row, Tx, fetchone
from app.rules.record import RecordError, replay_record

from .standings import MatchRow
from .wire import DealPar

INSERT_PAR = """INSERT INTO club_par(room_id, match_number, deal, club, par)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (room_id, match_number, deal) DO NOTHING"""

DealRow = tuple[int, int, list[int]]  # (deal index in the record, score sheet row, points)


def match_key(room_id: str, number: int) -> str:
    """The par queue's name of a club match (its ``ParJob.match``)."""
    return f"{room_id}/{number}"


def deals_of_record(club: str, room_id: str, number: int, record: Any
                    ) -> tuple[list[ParJob], list[DealRow]]:
    """The par jobs of a finished match's record (par_queue.jobs_of_record: its deals
    played to their end) and, for each, its score sheet row and real points.  A record
    that does not replay has none.  CPU: two replays of the record (a few ms a match):
    call it in a thread."""
    try:
        jobs = jobs_of_record(club, match_key(room_id, number), record)
    except (RecordError, KeyError, TypeError, ValueError):
        return [], []
    result = replay_record(record)
    scored: dict[int, tuple[int, list[int]]] = {}
    row = -1  # the score sheet's rows: the deals with points (void ones have none)
    for i, deal in enumerate(result["deals"] if result["ok"] else []):
        if deal["points"] is not None:
            row += 1
            scored[i] = (row, list(deal["points"]))
    kept = [j for j in jobs if j.deal in scored]
    return kept, [(j.deal, *scored[j.deal]) for j in kept]


async def pending(tx: Tx, now: float, limit: int) -> list[tuple[str, int, str]]:
    """``(room id, match, club)`` of matches whose par is not all made and that no live
    lease holds, the oldest first."""
    rows = await tx.fetch(
        "SELECT room_id, match_number, club FROM club_matches WHERE "
        "(par_missing IS NULL OR par_missing > 0) AND (par_claim IS NULL OR par_claim < ?) "
        "ORDER BY finished_at, room_id, match_number LIMIT ?", now, limit)
    return [(str(r[0]), int(r[1]), str(r[2])) for r in rows]


async def claim(tx: Tx, room_id: str, number: int, now: float, until: float) -> bool:
    """Take the match's par lease until ``until`` unless a live one holds it."""
    return bool(await tx.execute(
        "UPDATE club_matches SET par_claim = ? WHERE room_id = ? AND match_number = ? AND "
        "(par_claim IS NULL OR par_claim < ?)", until, room_id, number, now))


async def release(tx: Tx, room_id: str, number: int, until: float) -> None:
    """Give the lease back (if it is still ours): another scan may take the match."""
    await tx.execute("UPDATE club_matches SET par_claim = NULL WHERE room_id = ? AND "
                     "match_number = ? AND par_claim = ?", room_id, number, until)


async def release_all(tx: Tx) -> None:
    """Every lease void (a store no other process uses, at the server's start)."""
    await tx.execute("UPDATE club_matches SET par_claim = NULL WHERE par_claim IS NOT NULL")


async def record_and_done(tx: Tx, room_id: str, number: int
                          ) -> tuple[str, bool, set[int]] | None:
    """The match's record text, whether its deals are derived, the deals with a par."""
    row = await fetchone(tx, "SELECT record, par_deals FROM club_matches WHERE room_id = ? "
                             "AND match_number = ?", room_id, number)
    if row is None:
        return None
    done = await tx.fetch("SELECT deal FROM club_par WHERE room_id = ? AND match_number = ?",
                          room_id, number)
    return str(row[0]), row[1] is not None, {int(r[0]) for r in done}


async def keep_deals(tx: Tx, room_id: str, number: int, deals: list[DealRow]) -> None:
    await tx.execute("UPDATE club_matches SET par_deals = ? WHERE room_id = ? AND "
                     "match_number = ? AND par_deals IS NULL",
                     json.dumps(deals, separators=(",", ":")), room_id, number)
    await _count_missing(tx, room_id, number, len(deals))


async def keep_par(tx: Tx, club: str, room_id: str, number: int, deal: int,
                   par: dict[str, Any], wanted: int) -> None:
    """A deal's par, once (a repeat, from this process or another, changes nothing)."""
    await tx.execute(INSERT_PAR, room_id, number, deal, club,
                     json.dumps(par, separators=(",", ":")))
    await _count_missing(tx, room_id, number, wanted)


async def _count_missing(tx: Tx, room_id: str, number: int, wanted: int) -> None:
    await tx.execute("UPDATE club_matches SET par_missing = ? - (SELECT count(*) FROM "
                     "club_par WHERE room_id = ? AND match_number = ?) WHERE room_id = ? "
                     "AND match_number = ?", wanted, room_id, number, room_id, number)


async def par_rows(tx: Tx, club: str, season: int) -> list[Row]:
    """The par of the deals of the club's matches of ``season``, as stored (``joined``
    decodes them: off the loop, 12,000 of them take tens of milliseconds)."""
    return await tx.fetch(
        "SELECT p.room_id, p.match_number, p.deal, p.par FROM club_par p JOIN club_matches "
        "m ON m.room_id = p.room_id AND m.match_number = p.match_number WHERE m.club = ? "
        "AND m.season = ?", club, season)


def joined(rows: list[MatchRow], found: list[Row]) -> list[MatchRow]:
    """``rows`` with the par of ``found`` (``par_rows``) joined to their deals."""
    means: dict[tuple[str, int, int], list[float]] = {
        (str(r[0]), int(r[1]), int(r[2])): [float(x) for x in
                                            orjson.loads(str(r[3]))["seat_means"]]
        for r in found}
    if not means:
        return rows
    out = []
    for m in rows:
        deals = tuple(DealPar(deal=d["deal"], row=d["row"], points=d["points"],
                              par=means.get((m.room_id, m.number, d["deal"])))
                      for d in m.deals)
        out.append(MatchRow(m.room_id, m.number, m.room, m.season, m.finished_at,
                            m.players, m.summary, m.stats, m.bots, deals))
    return out
