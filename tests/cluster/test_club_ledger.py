"""A club room's finished match counts exactly once, on SQLite and on a real PostgreSQL:
its row is written in the transaction that logs the match's end, so a save that fails
(a process that dies mid-save) writes neither and the save made again after a reload
(another process, or a restart) writes both; the same end offered twice counts once; a
seat a bot played counts for nobody, a person a stand-in replaced still counts."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from app.clubs import club_ops, players
from app.clubs.ledger import keep_clubs
from app.rooms.core.codes import hash_token
from app.rooms.core.records import Checkpoint, HistoryAdded, Record, SeatData, SeatSet
from app.rooms.store import RoomStore, StoreError
from app.rooms.store.postgres import PostgresStore
from app.rooms.store.sqlite import SqliteStore
from app.rooms.store.tx import fetchone

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from store_records import chat, save_of

CODE = "clubroom"
TOKENS = ["ann-seat-token", "bo-seat-token"]


def checkpoint() -> Checkpoint:
    seats = [SeatData(name="Ann", token_hash=hash_token(TOKENS[0])),
             SeatData(name="Bo", token_hash=hash_token(TOKENS[1])),
             SeatData(bot="heuristic"), SeatData(bot="heuristic")]
    return Checkpoint(code=CODE, practice=False, rules={"preset": "standard"}, seats=seats,
                      host=0, grace_seconds=0, next_deal_pause=0, match_number=0,
                      recorded_match=0, game=0)


def ended(number: int) -> HistoryAdded:
    return HistoryAdded(match={"number": number, "players": ["Ann", "Bo", "Bot 3", "Bot 4"],
                               "score_sheet": [[5, -3, 2, 1]], "totals": [5, -3, 2, 1],
                               "winners": [0]})


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    async def make() -> RoomStore:
        store: RoomStore
        if request.param == "sqlite":
            store = SqliteStore(tmp_path)
        else:
            url = request.getfixturevalue("database_url")
            store = await PostgresStore.connect(url, lease_seconds=600.0)
        keep_clubs(store)  # as the app's assembly does (app/main.py)
        return store
    return make


async def rows(store: RoomStore) -> list[tuple[Any, ...]]:
    async with store.club_tx() as tx:
        return await tx.fetch("SELECT match_number, players, bots FROM club_matches "
                              "ORDER BY match_number")


def test_a_finished_club_match_counts_once_through_failures_repeats_and_restarts(
        open_store: Any) -> None:
    async def scenario() -> None:
        store = await open_store()
        async with store.club_tx() as tx:
            ann, _ = await players.create(tx, "Ann", 1.0)
            bo, _ = await players.create(tx, "Bo", 1.0)
            club, invite = await club_ops.create(tx, ann, "Thursdays", 1.0)
            assert await club_ops.join(tx, club, bo, invite, 1.0) == "Thursdays"
            await club_ops.bind_room(tx, CODE, club, "room-id-1", 1.0)
            await club_ops.bind_seat(tx, CODE, hash_token(TOKENS[0]), ann)
            await club_ops.bind_seat(tx, CODE, hash_token(TOKENS[1]), bo)
        assert await store.acquire(CODE)
        await store.append(CODE, save_of(0, [checkpoint(), chat("hi")], []))
        # Bo is away: a stand-in plays for him (``away``), he still holds the seat
        away = SeatSet(seat=1, data=SeatData(name="Bo", token_hash=hash_token(TOKENS[1]),
                                             away=True))
        await store.append(CODE, save_of(2, [away], []))
        # the save of the match's end fails (its first number is taken): nothing counts
        with pytest.raises(StoreError):
            await store.append(CODE, save_of(1, [ended(1)], [(1, {"r": 1})]))
        assert await rows(store) == []
        await store.close()

        # a restart (or another process): the room is loaded, its end saved again
        store = await open_store()
        assert await store.acquire(CODE)
        stored = await store.load(CODE)
        assert stored is not None
        entries: list[Record] = [ended(1)]
        await store.append(CODE, save_of(3, entries, [(1, {"r": 1})]))
        await store.append(CODE, save_of(4, [ended(1)], [(1, {"r": 1})]))  # a repeat
        found = await rows(store)
        assert len(found) == 1 and found[0][0] == 1
        assert found[0][1].replace(" ", "") == f'["{ann}","{bo}",null,null]'
        assert found[0][2].replace(" ", "") == '[null,null,"heuristic","heuristic"]'
        # a takeover pending at the end (a bot stands in for Bo's seat): not Bo's match
        pending = SeatSet(seat=1, data=SeatData(name="Bo", token_hash=hash_token(TOKENS[1]),
                                                bot="heuristic"))
        await store.append(CODE, save_of(5, [pending, ended(2)], [(2, {"r": 2})]))
        found = await rows(store)
        assert [r[0] for r in found] == [1, 2]
        assert found[1][1].replace(" ", "") == f'["{ann}",null,null,null]'
        async with store.club_tx() as tx:
            row = await fetchone(tx, "SELECT count(*) FROM club_matches WHERE club = ?", club)
        assert row == (2,)
        await store.close()

    asyncio.run(scenario())
