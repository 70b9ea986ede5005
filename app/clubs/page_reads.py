"""The store reads of a club's page: the season's matches with their par, the members,
the seasons and the players' names.

A season of 1,000 matches with a par for each deal is 1,000 rows of JSON and 12,000 par
rows: read on the event loop (SQLite's club transactions run there) and decoded there,
they held the loop about 115 ms a page (benchmarks/club_page_reads.py).  So the rows are
read with ``club_read`` (SQLite: in its reading thread) and decoded in a thread.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from app.rooms.store import RoomStore
from app.rooms.store.tx import Row, Tx

from . import club_ops, par_store
from .standings import MatchRow
from .wire import ClubMember, SeasonInfo


@dataclass(frozen=True)
class PageRows:
    """What a club's page reads of the store."""

    matches: list[MatchRow]
    members: list[ClubMember]
    seasons: list[SeasonInfo]
    names: dict[str, str]


@dataclass(frozen=True)
class _Stored:
    matches: list[Row]
    par: list[Row]
    members: list[ClubMember]
    seasons: list[SeasonInfo]


async def _stored(tx: Tx, club: str, season: int, host: str) -> _Stored:
    return _Stored(await club_ops.match_rows(tx, club, season),
                   await par_store.par_rows(tx, club, season),
                   await club_ops.members(tx, club, host), await club_ops.seasons(tx, club))


def _decoded(stored: _Stored) -> tuple[list[MatchRow], set[str]]:
    rows = par_store.joined([club_ops.match_row(r) for r in stored.matches], stored.par)
    return rows, {p for m in rows for p in m.players if p}


async def read_page(store: RoomStore, club: str, season: int, host: str) -> PageRows:
    """The club's page's rows of ``season`` (``host``: the club's host, marked among the
    members)."""
    stored = await store.club_read(lambda tx: _stored(tx, club, season, host))
    rows, players = await asyncio.to_thread(_decoded, stored)
    names = await store.club_read(lambda tx: club_ops.names(tx, players))
    return PageRows(rows, stored.members, stored.seasons, names)
